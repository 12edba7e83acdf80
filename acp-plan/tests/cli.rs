//! The `acp-plan` command run as a process, as a user or a CI job runs it:
//! exit statuses, `--json` shapes, `--help`, and mistakes on the command
//! line. Every run is bounded by a timeout. (The logic behind each
//! subcommand is tested in-process in the workspace's `tests/`.)
//!
//! Why one file over 500 lines: each integration test file is a binary of
//! its own, linked again for every change; these tests share one subject
//! (the command as a process) and one runner, `acp_plan`.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long one run may take before the test fails.
const TIMEOUT: Duration = Duration::from_mins(1);

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `acp-plan ARGS` with `stdin` as its input; kills it after [`TIMEOUT`].
fn acp_plan(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_acp-plan"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        out.read_to_string(&mut text).map(|_| text)
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        err.read_to_string(&mut text).map(|_| text)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("acp-plan {args:?} ran over {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    writer.join().unwrap();
    Run {
        code: status.code().expect("exited, not killed"),
        stdout: reader.join().unwrap().unwrap(),
        stderr: err_reader.join().unwrap().unwrap(),
    }
}

/// A recorded transcript of a real agent (the workspace's test data).
fn transcript(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/real-agents/transcripts")
        .join(name);
    path.to_string_lossy().into_owned()
}

#[test]
fn every_subcommand_has_help_with_examples_and_exit_statuses() {
    for sub in ["board", "check", "fixtures", "tool", "model"] {
        let run = acp_plan(&[sub, "--help"], "");
        assert_eq!(run.code, 0, "{sub} --help: {}", run.stderr);
        assert!(run.stdout.contains("Examples:"), "{sub}: {}", run.stdout);
        // Every positional argument says what it is.
        let arguments = run.stdout.split("Arguments:").nth(1).unwrap_or_default();
        let arguments = arguments.split("Options:").next().unwrap_or_default();
        for line in arguments
            .lines()
            .filter(|l| l.trim_start().starts_with('[') || l.trim_start().starts_with('<'))
        {
            assert!(
                line.trim().contains("  "),
                "{sub}: an argument without a description: {line}"
            );
        }
        if !matches!(sub, "model" | "fixtures") {
            assert!(run.stdout.contains("--json"), "{sub}: {}", run.stdout);
        }
        if sub != "fixtures" {
            assert!(run.stdout.contains("Exit status"), "{sub}: {}", run.stdout);
        }
    }
    let top = acp_plan(&["--help"], "");
    assert_eq!(top.code, 0);
    for sub in ["board", "check", "fixtures", "tool", "model"] {
        assert!(top.stdout.contains(sub), "{}", top.stdout);
    }
    assert_eq!(acp_plan(&["--version"], "").code, 0);
}

#[test]
fn a_mistake_on_the_command_line_is_status_2_and_names_it() {
    for (args, says) in [
        (&["board", "--colour"][..], "--colour"),
        (&["check", "--protocol", "3", "x.ndjson"], "3"),
        (&["check"], "FILE"),
        (&["fixtures", "--steps", "many"], "many"),
        (&["check", "--cancel", "x.ndjson"], "after `--`"),
        (
            &["check", "--protocol", "1", "--", "agent"],
            "every kind of client",
        ),
        (&["board", "--timeout", "0", "--", "agent"], "positive"),
        (&["tool", "write-todos"], "write-todos"),
        (&["tool", "todo-write", "--scope", "team"], "subagent:ID"),
        (&[], "Usage"),
        // A mistyped option is clap's error with its suggestion, never the agent.
        (&["check", "--tiemout", "5", "--", "codex-acp"], "--timeout"),
        (&["board", "--bogus", "x"], "--bogus"),
        (&["board", "./agent", "--fast"], "--fast"),
        (&["board", "--scripted-model"], "after `--`"),
        (&["model", "--port", "http"], "http"),
        (&["fixtures", "--json"], "--json"),
        (
            &["tool", "todo-write", "--scope", "team"],
            "Usage: acp-plan tool",
        ),
    ] {
        let run = acp_plan(args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
        assert!(
            !run.stderr.contains("cannot start"),
            "{args:?}: {}",
            run.stderr
        );
    }
}

/// A child ended whatever happens (a command that serves until stopped).
struct Kill(std::process::Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_model_command_serves_the_script_on_loopback_until_stopped() {
    use std::io::BufRead as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_acp-plan"))
        .args(["model"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let _child = Kill(child);
    let (sender, first) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = Vec::new();
        for _ in 0..2 {
            let mut line = String::new();
            let _ = out.read_line(&mut line);
            lines.push(line);
        }
        let _ = sender.send(lines);
    });
    let lines = first
        .recv_timeout(TIMEOUT)
        .expect("the model says where it serves");
    let url = lines[0]
        .split_whitespace()
        .find(|word| word.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no loopback URL in {lines:?}"))
        .trim_end_matches(';');
    assert!(lines[1].starts_with("export "), "{lines:?}");
    let address = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    // codex's `update_plan`, as it offers it (a tool is known by its shape,
    // never by its name alone).
    let body = r#"{"model":"gpt","stream":true,"input":[],"tools":[{"type":"function","name":"update_plan","parameters":{"type":"object","properties":{"plan":{"type":"array","items":{"type":"object","properties":{"step":{"type":"string"},"status":{"type":"string","enum":["pending","in_progress","completed"]}},"required":["step","status"]}}},"required":["plan"]}}]}"#;
    write!(
        stream,
        "POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    assert!(reply.contains("event: response.completed"), "{reply}");
    assert!(reply.contains(r#""name":"update_plan""#), "{reply}");
}

#[test]
fn check_judges_transcripts_in_text_and_json() {
    let clean = transcript("claude-v1caps.ndjson");
    let run = acp_plan(&["check", "--expect-plans", &clean], "");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // A clean run says so, in one line.
    assert_eq!(
        run.stdout,
        "check: 1 file(s), 3 plan message(s) judged: clean\n"
    );

    let run = acp_plan(&["check", "--json", &clean], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["clean"], true);
    assert_eq!(report["files"][0]["path"], clean.as_str());
    assert_eq!(report["files"][0]["judgedAs"], "v1-plan");
    assert!(report["files"][0]["plans"].as_u64() > Some(0), "{report}");
    assert_eq!(report["files"][0]["findings"], Value::Array(Vec::new()));

    // A file with no plan message: a note, or with --expect-plans a finding.
    let dir = std::env::temp_dir().join(format!("acp-plan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("no-plans.ndjson");
    std::fs::write(&empty, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n").unwrap();
    let empty = empty.to_string_lossy().into_owned();
    let run = acp_plan(&["check", &empty], "");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("no plan message"), "{}", run.stdout);
    let run = acp_plan(&["check", "--json", "--expect-plans", &empty], "");
    assert_eq!(run.code, 1);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["clean"], false);
    let finding = &report["files"][0]["findings"][0];
    assert_eq!(finding["rule"], "expect-plans", "{finding}");
    assert_eq!(finding["line"], 0, "{finding}");
    assert!(finding["fix"].is_string(), "{finding}");

    // A finding in text and in JSON: the same rule, line and path.
    let bad = dir.join("bad.ndjson");
    let second = r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"urgent","status":"pending"}]}"#;
    std::fs::write(&bad, format!("{second}\n{second}\n")).unwrap();
    let bad = bad.to_string_lossy().into_owned();
    let run = acp_plan(&["check", &bad], "");
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout.lines().nth(1),
        Some(format!("{bad}:2: at `entries[0].priority`: unknown priority `urgent`: custom names must begin with `_`; `urgent` is reserved for future ACP versions (write `_urgent`) [reserved-name]").as_str()),
    );
    let run = acp_plan(&["check", "--json", &bad], "");
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["findings"], 2);
    let finding = &report["files"][0]["findings"][1];
    assert_eq!(finding["rule"], "reserved-name", "{finding}");
    assert_eq!(finding["line"], 2, "{finding}");
    assert_eq!(finding["path"], "entries[0].priority", "{finding}");
    assert!(
        finding["message"]
            .as_str()
            .unwrap()
            .starts_with("unknown priority `urgent`: custom names"),
        "{finding}"
    );
    // The fix names the value read.
    assert_eq!(
        finding["fix"], "write `_urgent`: a priority of your own begins with `_`",
        "{finding}"
    );
    let run = acp_plan(&["check", "no/such/file.ndjson"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_agent_that_cannot_start_is_status_2() {
    let run = acp_plan(
        &["check", "--json", "--timeout", "5", "--", "/no/such/agent"],
        "",
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["exit"], 2, "{report}");
    let failure = report["kinds"][0]["failure"].as_str().unwrap_or_default();
    assert!(failure.contains("/no/such/agent"), "{report}");
    let run = acp_plan(&["board", "--timeout", "5", "--", "/no/such/agent"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("/no/such/agent"), "{}", run.stderr);
}

#[test]
fn the_board_ends_where_the_fixtures_say_it_ends() {
    let script = [
        "fixtures",
        "--seed",
        "7",
        "--sessions",
        "2",
        "--steps",
        "30",
    ];
    let stream = acp_plan(&script, "");
    assert_eq!(stream.code, 0, "{}", stream.stderr);
    assert_eq!(stream.stdout.lines().count(), 30);
    let expected = acp_plan(&[&script[..], &["--expected"]].concat(), "");
    let expected: Value = serde_json::from_str(&expected.stdout).unwrap();
    // The board reads the stream from standard input and says where it ended.
    let board = acp_plan(&["board", "--json", "--strict"], &stream.stdout);
    assert_eq!(board.code, 0, "{}", board.stderr);
    let state: Value = serde_json::from_str(&board.stdout).unwrap();
    let sessions = state["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    assert_eq!(Value::Array(sessions.clone()), expected);
    // A line that is not JSON is reported and makes the status 1.
    let bad = acp_plan(
        &["board", "--json"],
        &format!("{}not json\n", stream.stdout),
    );
    assert_eq!(bad.code, 1, "{}", bad.stderr);
}

#[test]
fn tool_prints_what_the_client_receives_or_the_models_error() {
    let call = r#"{"todos":[{"content":"Fix the parser","status":"in-progress","activeForm":"Fixing the parser"}]}"#;
    let run = acp_plan(&["tool", "todo-write", "--session", "s9"], call);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line: Value = serde_json::from_str(run.stdout.trim_end()).unwrap();
    assert_eq!(run.stdout.lines().count(), 1);
    assert_eq!(line["params"]["sessionId"], "s9");
    let plan = &line["params"]["update"]["plan"];
    assert_eq!(plan["planId"], "plan");
    assert_eq!(plan["entries"][0]["content"], "Fixing the parser");
    assert!(
        run.stderr.contains("corrected: todos[0].status"),
        "{}",
        run.stderr
    );

    // No call at all is a wrong command line (2), as the help says.
    let run = acp_plan(&["tool", "todo-write"], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("no call on standard input"),
        "{}",
        run.stderr
    );

    // A v1 client without `plan`: a v1 `plan`; a subagent's plan id.
    let update = r#"{"plan":[{"step":"A","status":"completed"}]}"#;
    let run = acp_plan(&["tool", "update-plan", "--no-plan-capability"], update);
    assert!(
        run.stdout.contains(r#""sessionUpdate":"plan","entries""#),
        "{}",
        run.stdout
    );
    let run = acp_plan(
        &[
            "tool",
            "update-plan",
            "--protocol",
            "2",
            "--scope",
            "subagent:t1",
            "--json",
        ],
        update,
    );
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        report["sent"][0]["params"]["update"]["plan"]["planId"],
        "subagent-t1"
    );
    assert_eq!(report["corrections"], Value::Array(Vec::new()));

    // The model's mistake: status 1, the error on stderr, nothing on stdout.
    let run = acp_plan(
        &["tool", "todo-write"],
        r#"{"todos":[{"content":"A","status":"blocked"}]}"#,
    );
    assert_eq!((run.code, run.stdout.as_str()), (1, ""));
    assert!(
        run.stderr.starts_with("TodoWrite was not applied"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("todos[0].status: \"blocked\" is not a status"),
        "{}",
        run.stderr
    );
}

#[test]
fn check_counts_plan_messages_only_and_says_when_nothing_was_judged() {
    let dir = std::env::temp_dir().join(format!("acp-plan-cli-none-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hello = dir.join("hello.ndjson");
    // A transcript whose second line is not JSON (a file that opens with
    // anything but JSON is no transcript at all: exit 2, tested below).
    std::fs::write(
        &hello,
        "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}}}\nhello\n",
    )
    .unwrap();
    let chat = dir.join("chat.ndjson");
    std::fs::write(
        &chat,
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}"#,
    )
    .unwrap();
    let (hello, chat) = (hello.to_str().unwrap(), chat.to_str().unwrap());
    // A line that is not JSON is no plan message: a JSON-RPC finding, none judged.
    let run = acp_plan(&["check", hello], "");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("[json-rpc]"), "{}", run.stdout);
    assert!(
        run.stdout.contains("0 plan message(s) judged"),
        "{}",
        run.stdout
    );
    // No plan at all: said on standard output, never "clean".
    let run = acp_plan(&["check", chat], "");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains(&format!("{chat}: no plan message seen: nothing judged")),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("clean"), "{}", run.stdout);
    let run = acp_plan(&["check", "--json", chat], "");
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["nothingJudged"], true, "{report}");
    // `--expect-plans` makes it a finding, as for agents.
    let run = acp_plan(&["check", "--expect-plans", chat], "");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("[expect-plans]"), "{}", run.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn proxy_passes_every_line_both_ways_and_exits_with_its_agent() {
    // The agent echoes what it reads: every line comes back as it went,
    // the odd ones included, and the proxy ends when its input does.
    let input = "{\"jsonrpc\":\"2.0\",\"method\":\"_ext/hello\",\"params\":{\"n\":1e400}}\nnot json\n\n{\"half\": \r\nlast, no newline";
    let run = acp_plan(&["proxy", "--", "cat"], input);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, input);
    // Its exit status is the agent's.
    let run = acp_plan(&["proxy", "--", "sh", "-c", "cat >/dev/null; exit 3"], "");
    assert_eq!(run.code, 3, "{}", run.stderr);
}

#[test]
fn proxy_answers_what_a_dead_agent_left_unanswered_and_leaves_no_process() {
    let dir = std::env::temp_dir().join(format!("acp-plan-proxy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pid_file = dir.join("child.pid");
    // The agent starts a child that would outlive it, reads one request
    // and dies without answering it.
    let script = format!(
        "sleep 300 & echo $! > {}; read line; exit 7",
        pid_file.display()
    );
    let request = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/prompt\",\"params\":{}}\n";
    let run = acp_plan(&["proxy", "--", "sh", "-c", &script], request);
    assert_ne!(run.code, 0, "{}", run.stderr);
    let answer: Value =
        serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.stdout));
    assert_eq!(answer["id"], 5);
    assert_eq!(answer["error"]["code"], -32603);
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("status 7"),
        "{answer}"
    );
    // The agent's child went with it (its process group was ended).
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let gone = Instant::now() + Duration::from_secs(5);
    while std::path::Path::new(&format!("/proc/{}", pid.trim())).exists() && Instant::now() < gone {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !std::path::Path::new(&format!("/proc/{}", pid.trim())).exists(),
        "the agent's child outlived it"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The proxy answers every request the client sent before the agent died,
/// whatever the timing: the agent gone before reading anything, during the
/// handshake (it read `initialize` and died), or mid-turn (it answered
/// `initialize` and died on the prompt). 200 races, each request answered
/// once (the agent's answer or the proxy's -32603), the proxy's own word on
/// standard error, exit 1.
#[test]
fn the_proxy_answers_every_request_whenever_the_agent_dies() {
    let agents = [
        "exit 3",
        "read line; exit 3",
        r#"read line; echo '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{}}}'; read line; exit 3"#,
    ];
    let requests = [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}"#,
        r#"{"jsonrpc":"2.0","id":"p-2","method":"session/prompt","params":{"sessionId":"s","prompt":[]}}"#,
    ];
    let stdin = requests.join("\n") + "\n";
    for race in 0..200 {
        let agent = agents[race % agents.len()];
        let run = acp_plan(&["proxy", "--", "sh", "-c", agent], &stdin);
        let answers: Vec<Value> = run
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let mut ids: Vec<String> = answers.iter().map(|a| a["id"].to_string()).collect();
        ids.sort();
        assert_eq!(
            ids,
            ["\"p-2\"", "0", "1"],
            "race {race}, `{agent}`: {answers:#?}"
        );
        for answer in &answers {
            if answer["id"] != 0 || race % agents.len() != 2 {
                assert_eq!(answer["error"]["code"], -32603, "race {race}: {answer}");
            }
        }
        assert_eq!(run.code, 1, "race {race}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("acp-plan proxy: the agent `sh` exited with status 3"),
            "race {race}: {}",
            run.stderr
        );
    }
}

/// `check PROGRAM` without `--` (a program, or text that is no transcript)
/// is not judged as a transcript: exit 2, with the command it meant.
#[test]
fn check_of_a_program_without_dashes_says_did_you_mean_and_exits_2() {
    let program = env!("CARGO_BIN_EXE_acp-plan");
    let run = acp_plan(&["check", program], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("did you mean `acp-plan check -- {program}`?")),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let text = std::env::temp_dir().join(format!("not-json-{}.txt", std::process::id()));
    std::fs::write(&text, "a note, not a transcript\n").unwrap();
    let run = acp_plan(&["check", text.to_str().unwrap()], "");
    std::fs::remove_file(&text).unwrap();
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("is text that is not JSON"),
        "{}",
        run.stderr
    );
}

/// The README names every subcommand, and docs/examples.md every
/// subcommand and every option, as the command's own `--help` lists them.
#[test]
fn the_readme_and_the_examples_page_name_every_subcommand_and_option() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let examples = std::fs::read_to_string(format!("{root}/docs/examples.md")).unwrap();
    let help = acp_plan(&["--help"], "").stdout;
    let subcommands: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect();
    assert!(subcommands.len() >= 6, "{help}");
    let mut missing = Vec::new();
    for sub in &subcommands {
        let named = format!("`{sub}`");
        if !readme.contains(&named) {
            missing.push(format!("README.md: {named}"));
        }
        if !examples.contains(&named) {
            missing.push(format!("docs/examples.md: {named}"));
        }
        let sub_help = acp_plan(&[sub, "--help"], "").stdout;
        for option in sub_help
            .lines()
            .filter_map(|l| l.trim_start().split(", ").last())
            .filter(|l| l.starts_with("--"))
            .filter_map(|l| l.split([' ', '=', '<']).next())
            .filter(|o| !matches!(*o, "--help" | "--version"))
        {
            if !examples.contains(option) {
                missing.push(format!("docs/examples.md: `{sub} {option}`"));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}
