//! The board example driving the agent example over ACP, as in
//! `cargo run --example board -- --json -- cargo run -q -p plan-examples --example agent`:
//! the two programs' own code, joined by OS pipes, in every protocol mode.
//!
//! Why one file over 500 lines: an integration test file is a binary of its
//! own, linked against the harness's dependencies (the SDK, proptest and
//! the rest), so each split costs CI a link; the tests here share
//! one subject and one set of helpers, and read best together.

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/agent.rs"]
mod agent;
mod common;

use std::time::Duration;

use plan_core::wire::ProtocolVersion;
use serde_json::{Value, json};

#[path = "common/talk.rs"]
mod talk;

fn client(protocol: ProtocolVersion, plan_capability: bool) -> acp_plan::BoardOptions {
    {
        let mut opts = acp_plan::BoardOptions::default();
        opts.json = true;
        opts.protocol = protocol;
        opts.plan_capability = plan_capability;
        opts
    }
}

/// Each plan as (id, type, progress).
fn plan_summary(state: &Value) -> Vec<(String, String, Value)> {
    let sessions = state["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1);
    assert!(
        sessions[0]["sessionId"]
            .as_str()
            .unwrap()
            .starts_with("sess_")
    );
    sessions[0]["plans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_owned(),
                p["type"].as_str().unwrap().to_owned(),
                p["progress"].clone(),
            )
        })
        .collect()
}

/// What the agent sends a client of plan operations under the stabilized
/// protocol: a markdown plan with its absolute path, a removal, a plan whose
/// type changes under one id, and never a `file` plan.
fn stabilized_stream(lines: &[String]) {
    let has = |needle: &str| lines.iter().any(|l| l.contains(needle));
    assert!(has(r#""type":"markdown","planId":"design-doc""#));
    assert!(has(r#""path":"/tmp/refactor-design.md""#));
    assert!(has(r#""type":"markdown","planId":"notes""#));
    assert!(has(r#""type":"items","planId":"notes""#));
    assert!(has(r#""sessionUpdate":"plan_removed","planId":"notes""#));
    assert!(!has(r#""type":"file""#));
}

fn progress(completed: u32, cancelled: u32, total: u32) -> Value {
    json!({"completed": completed, "cancelled": cancelled, "total": total})
}

#[test]
fn a_v1_client_with_plan_support_ends_with_the_agents_plans() {
    let talk = talk::converse(client(ProtocolVersion::V1, true));
    let state = talk.state();
    // `cancelled` is not in v1: the changelog arrives completed, marked;
    // the notes became a checklist, then were dismissed; the design document
    // is a markdown plan with its path.
    assert_eq!(
        plan_summary(&state),
        [
            ("refactor".to_owned(), "items".to_owned(), progress(5, 0, 5)),
            ("design-doc".to_owned(), "markdown".to_owned(), Value::Null),
            ("verify".to_owned(), "items".to_owned(), progress(2, 0, 2)),
        ]
    );
    stabilized_stream(&talk.agent_lines);
    let entries = &state["sessions"][0]["plans"][0]["content"]["entries"];
    assert_eq!(
        entries[2]["content"],
        "Fix the circular dependency in the auth module"
    );
    assert_eq!(entries[4]["content"], "Update the changelog (cancelled)");
    // The end of the turn says how many plan messages came.
    let plans = talk
        .agent_lines
        .iter()
        .filter(|l| l.contains(r#""sessionUpdate":"plan"#))
        .count();
    assert!(plans > 0);
    assert!(
        talk.err.contains(&format!(
            "the turn ended (end_turn); {plans} plan message(s);"
        )),
        "{}",
        talk.err
    );
}

#[test]
fn a_v1_client_without_plan_support_ends_with_one_v1_plan() {
    let talk = talk::converse(client(ProtocolVersion::V1, false));
    // The v1 plan view: the most recently updated plan, as a v1 `plan`.
    assert_eq!(
        plan_summary(&talk.state()),
        [("main".to_owned(), "items".to_owned(), progress(2, 0, 2))]
    );
    assert!(talk.agent_lines.iter().all(|l| !l.contains("plan_update")));
}

#[test]
fn a_v2_client_ends_with_the_agents_plans_in_v2s_stable_variants() {
    let talk = talk::converse(client(ProtocolVersion::V2, true));
    let state = talk.state();
    // v2 carries `cancelled`; markdown and `plan_removed` are baseline.
    assert_eq!(
        plan_summary(&state),
        [
            ("refactor".to_owned(), "items".to_owned(), progress(4, 1, 5)),
            ("design-doc".to_owned(), "markdown".to_owned(), Value::Null),
            ("verify".to_owned(), "items".to_owned(), progress(2, 0, 2)),
        ]
    );
    stabilized_stream(&talk.agent_lines);
    assert_eq!(
        state["sessions"][0]["plans"][0]["content"]["entries"][4]["status"],
        "cancelled"
    );
    // The turn ends as v2 says: the prompt is acknowledged, then the state goes idle.
    let idle = talk
        .agent_lines
        .iter()
        .rev()
        .find(|l| l.contains("state_update"))
        .unwrap();
    assert!(
        idle.contains(r#""state":"idle""#) && idle.contains(r#""stopReason":"end_turn""#),
        "{idle}"
    );
}

#[test]
fn the_validator_finds_a_problem_in_exactly_the_bad_vectors() {
    // The vectors README's verdicts, read with SPEC.md (tests/vectors.rs):
    // these are malformed or nonconforming, or (10-13) in the RFD spelling,
    // which no published SDK reads; every other vector is clean.
    // `file` plans (05, 12, 30, 35) are pre-stable, and 34's path is relative.
    let bad = [
        "05-", "10-", "11-", "12-", "13-", "15-", "16-", "17-", "18-", "19-", "20-", "21-", "24-",
        "28-", "30-", "31-", "34-", "35-",
    ];
    for (name, text) in common::json_files("acp/vectors") {
        if name.contains("client-capabilities") {
            continue;
        }
        let findings = acp_plan::harness::check_file(text.as_bytes(), None).findings;
        let expected_bad = bad.iter().any(|prefix| name.starts_with(prefix));
        assert_eq!(!findings.is_empty(), expected_bad, "{name}: {findings:#?}");
    }
    // And the agent's own stream, in every mode, under its version's rules.
    for (protocol, capability) in [
        (ProtocolVersion::V1, true),
        (ProtocolVersion::V1, false),
        (ProtocolVersion::V2, true),
    ] {
        let talk = talk::converse(client(protocol, capability));
        let updates: String = talk
            .agent_lines
            .iter()
            .filter(|l| l.contains("session/update") && !l.contains("state_update"))
            .fold(String::new(), |text, l| text + l + "\n");
        for rules in [None, Some(protocol)] {
            let findings = acp_plan::harness::check_file(updates.as_bytes(), rules).findings;
            assert_eq!(findings, [], "{rules:?}");
        }
    }
}

fn initialize(agent: &mut talk::Agent, protocol: u64) -> String {
    let params = if protocol == 1 {
        json!({"protocolVersion": 1, "clientCapabilities": {"plan": {}}})
    } else {
        json!({"protocolVersion": 2, "info": {"name": "test", "version": "1"}})
    };
    let answer = agent.call(0, "initialize", &params);
    assert_eq!(answer["result"]["protocolVersion"], protocol);
    let session = agent.call(1, "session/new", &json!({"cwd": "/tmp", "mcpServers": []}));
    session["result"]["sessionId"].as_str().unwrap().to_owned()
}

fn prompt(session: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
           "params": {"sessionId": session, "prompt": [{"type": "text", "text": "go"}]}})
}

/// Whether `m` ends the turn: the v1 prompt response, or v2's idle state.
fn ends_turn(m: &Value) -> bool {
    m["result"]["stopReason"].is_string() || m["params"]["update"]["state"] == "idle"
}

#[test]
fn a_cancel_stops_the_turn_and_cancels_what_is_unfinished() {
    for protocol in [1, 2] {
        let mut agent = talk::Agent::start(Duration::from_millis(50));
        let session = initialize(&mut agent, protocol);
        agent.send(&prompt(&session));
        // The first plan arrives; then the client cancels.
        agent.recv_until(|m| m["params"]["update"]["sessionUpdate"] == "plan_update");
        agent.send(&json!({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": session}}));
        let rest = agent.recv_until(ends_turn);
        let end = rest.last().unwrap();
        let stop = if protocol == 1 {
            &end["result"]["stopReason"]
        } else {
            &end["params"]["update"]["stopReason"]
        };
        assert_eq!(stop, "cancelled", "v{protocol}: {end}");
        let last_refactor = rest
            .iter()
            .rev()
            .find(|m| m["params"]["update"]["plan"]["planId"] == "refactor")
            .unwrap();
        let statuses: Vec<&str> = last_refactor["params"]["update"]["plan"]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["status"].as_str().unwrap())
            .collect();
        // v2 says `cancelled`; v1 has no such status, so the sender maps it.
        let expected = if protocol == 1 {
            "completed"
        } else {
            "cancelled"
        };
        assert!(
            statuses.iter().all(|s| *s == expected),
            "v{protocol}: {statuses:?}"
        );
        // The agent keeps serving: a new prompt runs a whole turn.
        agent.send(&prompt(&session));
        assert!(agent.recv_until(ends_turn).len() > 9);
        agent.close().unwrap();
    }
}

#[test]
fn one_agent_serves_several_sessions_and_prompts_one_after_another() {
    let mut agent = talk::Agent::start(Duration::ZERO);
    let first = initialize(&mut agent, 2);
    let second = agent.call(3, "session/new", &json!({"cwd": "/tmp"}))["result"]["sessionId"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(first, second, "a fresh session id each time");
    for session in [&first, &second, &first] {
        agent.send(&prompt(session));
        let turn = agent.recv_until(ends_turn);
        assert_eq!(
            turn.last().unwrap()["params"]["update"]["stopReason"],
            "end_turn"
        );
        assert!(
            turn.iter()
                .filter(|m| m["method"] == "session/update")
                .all(|m| m["params"]["sessionId"] == **session)
        );
    }
    agent.close().unwrap();
}

#[test]
fn a_client_that_closes_its_pipe_mid_turn_ends_the_agent_cleanly() {
    let mut agent = talk::Agent::start(Duration::from_millis(50));
    let session = initialize(&mut agent, 1);
    agent.send(&prompt(&session));
    agent.recv_until(|m| m["method"] == "session/update");
    // No cancel, no answer: the input closes under the turn.
    assert!(agent.close().is_ok());
}

#[test]
fn hostile_input_gets_json_rpc_errors_never_a_hang() {
    let mut agent = talk::Agent::start(Duration::ZERO);
    let before = agent.call(
        7,
        "session/prompt",
        &json!({"sessionId": "x", "prompt": []}),
    );
    assert_eq!(
        before["error"]["code"],
        agent::code::INVALID_REQUEST,
        "a request before `initialize`"
    );
    let session = initialize(&mut agent, 1);
    for (method, params, code) in [
        (
            "session/prompt",
            json!({"sessionId": "no-such-session", "prompt": []}),
            agent::code::INVALID_PARAMS,
        ),
        (
            "session/prompt",
            json!({"sessionId": session, "prompt": "text"}),
            agent::code::INVALID_PARAMS,
        ),
        ("session/new", json!([1, 2]), agent::code::INVALID_PARAMS),
        ("fs/format_disk", json!({}), agent::code::METHOD_NOT_FOUND),
    ] {
        let answer = agent.call(8, method, &params);
        assert_eq!(answer["error"]["code"], code, "{method}: {answer}");
    }
    for garbage in [
        "{",
        "\u{0}\u{1}\u{7f}",
        "null",
        "[]",
        r#"{"jsonrpc":"2.0","id":9}"#,
        r#"{"id":1,"method":"initialize"}"#,
    ] {
        agent.send_line(garbage);
        let answer = agent.recv();
        assert!(answer["error"]["code"].is_i64(), "{garbage}: {answer}");
    }
    agent.close().unwrap();
}

#[test]
fn the_client_says_why_when_an_agent_dies_breaks_the_protocol_or_goes_quiet() {
    let run = |script: &str| {
        let options = {
            let mut opts = acp_plan::BoardOptions::default();
            opts.json = true;
            opts.command = vec!["sh".into(), "-c".into(), script.into()];
            opts.timeout = Duration::from_secs(2);
            opts
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        acp_plan::harness::board_agent(
            &options,
            &mut out,
            &mut err,
            plan_core::client::TerminalStyle::PLAIN,
            false,
        )
        .unwrap_err()
    };
    // An agent that exits at once: the client finds its input or its output closed.
    let died = run("exit 0");
    assert!(died.contains("the agent closed its"), "{died}");
    let broke = run("read line; echo 'this is not JSON'");
    assert!(broke.contains("broke the protocol"), "{broke}");
    let refused =
        run(r#"read line; echo '{"jsonrpc":"2.0","id":0,"error":{"code":-1,"message":"no"}}'"#);
    assert!(refused.contains("refused request 0"), "{refused}");
    let quiet = run("read line; sleep 5");
    assert!(quiet.contains("sent nothing for 2 s"), "{quiet}");
    let missing = acp_plan::harness::board_agent(
        &{
            let mut opts = acp_plan::BoardOptions::default();
            opts.command = vec!["/no/such/agent".into()];
            opts
        },
        &mut Vec::new(),
        &mut Vec::new(),
        plan_core::client::TerminalStyle::PLAIN,
        false,
    )
    .unwrap_err();
    assert!(
        missing.starts_with("cannot start `/no/such/agent`"),
        "{missing}"
    );
}

// ---- an agent that requires authentication ---------------------------------

/// An agent written here that requires `authenticate` before `session/new`,
/// as `@zed-industries/claude-agent-acp` does: it offers two methods (one of
/// them `env_var`), refuses `session/new` with "Authentication required"
/// (-32000) until the client authenticated, then runs a one-plan turn.
fn agent_requiring_authentication(input: impl std::io::BufRead, mut out: impl std::io::Write) {
    let mut authenticated = false;
    let mut send = |message: Value| {
        writeln!(out, "{message}")
            .and_then(|()| out.flush())
            .is_ok()
    };
    for line in input.lines() {
        let Ok(line) = line else { return };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            return;
        };
        let id = message["id"].clone();
        let reply = match message["method"].as_str() {
            Some("initialize") => json!({"jsonrpc": "2.0", "id": id, "result": {
                "protocolVersion": 1, "agentCapabilities": {},
                "authMethods": [
                    {"id": "api-key", "name": "API key", "description": "a key from the dashboard",
                     "type": "env_var", "vars": [{"name": "EXAMPLE_API_KEY"}]},
                    {"id": "login", "name": "Log in"},
                ],
            }}),
            Some("authenticate") if message["params"]["methodId"] == "api-key" => {
                authenticated = true;
                json!({"jsonrpc": "2.0", "id": id, "result": {}})
            }
            Some("authenticate") => json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32602, "message": "unknown authentication method"}}),
            Some("session/new") if !authenticated => json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32000, "message": "Authentication required"}}),
            Some("session/new") => {
                json!({"jsonrpc": "2.0", "id": id, "result": {"sessionId": "sess_auth"}})
            }
            Some("session/prompt") => {
                let update = json!({"jsonrpc": "2.0", "method": "session/update", "params": {
                    "sessionId": "sess_auth", "update": {"sessionUpdate": "plan",
                    "entries": [{"content": "Signed in", "priority": "high", "status": "completed"}]}}});
                if !send(update) {
                    return;
                }
                json!({"jsonrpc": "2.0", "id": id, "result": {"stopReason": "end_turn"}})
            }
            _ => continue,
        };
        if !send(reply) {
            return;
        }
    }
}

/// The board driving that agent with `auth`; its outcome and what it drew.
fn drive_authenticating(auth: Option<&str>) -> (Result<(), String>, String) {
    let options = {
        let mut opts = acp_plan::BoardOptions::default();
        opts.auth = auth.map(str::to_owned);
        opts.timeout = Duration::from_secs(10);
        opts
    };
    let (done, outcome) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (agent_reads, board_writes) = std::io::pipe().unwrap();
        let (board_reads, agent_writes) = std::io::pipe().unwrap();
        std::thread::spawn(move || {
            agent_requiring_authentication(std::io::BufReader::new(agent_reads), agent_writes);
        });
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let result = acp_plan::harness::board_connected(
            &options,
            std::io::BufReader::new(board_reads),
            board_writes,
            &mut out,
            &mut err,
            plan_core::client::TerminalStyle::PLAIN,
            false,
        );
        let _ = done.send((result, String::from_utf8(out).unwrap()));
    });
    outcome
        .recv_timeout(Duration::from_secs(30))
        .expect("the board gave an answer in time")
}

#[test]
fn an_agent_that_requires_authentication_is_explained_and_authenticated_with_auth() {
    let (outcome, _) = drive_authenticating(None);
    let reason = outcome.unwrap_err();
    assert!(reason.contains("Authentication required"), "{reason}");
    assert!(reason.contains("choose one with `--auth ID`"), "{reason}");
    assert!(
        reason.contains("api-key: API key (a key from the dashboard); set EXAMPLE_API_KEY"),
        "{reason}"
    );
    assert!(reason.contains("\n  login: Log in"), "{reason}");

    let (outcome, drawn) = drive_authenticating(Some("api-key"));
    assert_eq!(outcome, Ok(()));
    assert!(drawn.contains("✓ Signed in"), "{drawn}");

    let (outcome, _) = drive_authenticating(Some("nope"));
    let reason = outcome.unwrap_err();
    assert!(
        reason.contains("unknown authentication method") && reason.contains("--auth ID"),
        "{reason}"
    );
}

/// Whether process `pid` is gone: no such process, or a zombie (dead; the
/// container's init may not reap it).
#[cfg(target_os = "linux")]
fn process_gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
    }
}

#[test]
#[cfg(target_os = "linux")]
fn the_board_ends_its_agents_children_when_the_agent_fails_or_goes_quiet() {
    // An agent that starts a child which would outlive it, then goes quiet
    // (the board's timeout) or exits at once (the agent died). Either way
    // the board ends the agent's whole process group before it returns.
    // (Signals to the board: tests/scripts/board-ends-its-agent.sh, in .ci/run.)
    for (how, tail) in [("quiet", "exec cat > /dev/null"), ("dies", "exit 0")] {
        let dir =
            std::env::temp_dir().join(format!("plan-board-child-{}-{how}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pid_file = dir.join("child.pid");
        let script = format!("sleep 1000 & echo $! > '{}'; {tail}", pid_file.display());
        let options = {
            let mut opts = acp_plan::BoardOptions::default();
            opts.command = vec!["sh".into(), "-c".into(), script];
            opts.timeout = Duration::from_secs(1);
            opts
        };
        let (done, outcome) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let result = acp_plan::harness::board_agent(
                &options,
                &mut out,
                &mut err,
                plan_core::client::TerminalStyle::PLAIN,
                false,
            );
            let _ = done.send(result);
        });
        let result = outcome
            .recv_timeout(Duration::from_secs(30))
            .expect("the board gave up in time");
        assert!(result.is_err(), "{how}: {result:?}");
        let child = std::fs::read_to_string(&pid_file).unwrap();
        let child = child.trim();
        assert!(
            process_gone(child),
            "{how}: the agent's child {child} outlived the board"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn piped_the_board_is_drawn_once_at_the_end() {
    // Not a terminal (`live` false): the plans change many times in the
    // turn, and the board is drawn once, where they ended; no redraws.
    let mut options = client(ProtocolVersion::V1, true);
    options.json = false;
    let talk = talk::converse(options);
    assert_eq!(talk.outcome, Ok(()), "{}", talk.err);
    assert!(!talk.out.contains("\x1b[2J"), "{}", talk.out);
    assert_eq!(talk.out.matches("▣ design-doc").count(), 1, "{}", talk.out);
    // The tally says how many plan messages led there.
    assert!(talk.err.contains("plan message(s)"), "{}", talk.err);
    // The README shows this board, as the command prints it.
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap();
    let sample = readme
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README's sample board");
    assert_eq!(
        talk.out.trim_end(),
        sample.trim_end(),
        "the README's sample board is what the board prints"
    );
}
