//! A validator people can run: checks files of ACP plan messages against the
//! protocol's rules and what the published SDKs read, and prints one line
//! per problem.
//!
//! ```text
//! cargo run --example check -- recorded.ndjson fixture.json ...
//! cargo run --example check -- --protocol 1 recorded.ndjson     # as a v1 client reads it
//! cargo run --example check -- -- cargo run -q --example agent    # run an agent as every kind of client
//! cargo run --example check -- --cancel --json -- ./my-agent --acp
//! ```
//!
//! Given an agent's command after `--`, it starts the agent once per kind of
//! client and judges what it sends (see `conformance.rs`): exit 0 clean, 1
//! findings, 2 the agent could not be driven.
//!
//! A file is one JSON message (a notification, an update or plan content),
//! a JSON array of messages, or NDJSON (one message per line). Each problem is printed as
//! `FILE:LINE: at PATH: WHAT [RULE]`; the exit status is 1 if there was any,
//! 2 if a file could not be read. Without `--protocol`, only the rules of
//! every version apply (and the RFD spelling, which no SDK reads); with it,
//! also what that version's SDK reader rejects or drops.

mod agent_process;
pub mod conformance;

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use plan_core::{PlanContent, ProtocolVersion, SessionNotification, SessionUpdate, Violation};
use serde_json::Value;

/// The rule of the RFD spelling: the plan id written `id`.
pub const ACP_SPELLING: &str = "acp-spelling";

/// What `--help` prints (and a command-line mistake, after the mistake).
pub const USAGE: &str = "\
usage: cargo run --example check -- [--protocol 1|2] FILE...
       cargo run --example check -- [OPTIONS] -- COMMAND [ARGS...]
Checks files of ACP plan messages (one message, a JSON array, or NDJSON) and
prints one line per problem: FILE:LINE: at PATH: WHAT [RULE]. Exit status: 0
clean, 1 problems, 2 a file could not be read.

  --protocol 1|2   also what that version's readers reject or drop

With an agent's command after `--`, starts it once per kind of client (v1
without `plan`, v1 with `plan`, the v2 draft), runs a turn and judges what
it sends, by the same rules and the turn's. Exit status: 0 clean, 1
findings, 2 the agent could not be driven (with the reason).

  --json           a machine-readable report
  --prompt TEXT    the prompt of each turn
  --cancel         also run a turn the client cancels
  --record DIR     write each kind's transcript to DIR/KIND.ndjson
                   (a fixture include_plan_stream! accepts)
  --timeout SECS   how long a turn may take (default 60)
  -h, --help       this text
";

/// What `parse_args` returns for `--help`, in place of an error.
pub const HELP: &str = "--help";

#[allow(dead_code)] // `main` is unused where a test includes this file.
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--") {
        return match parse_agent_args(args.into_iter()) {
            Ok(options) => match conformance::run(&options, &mut io::stdout().lock()) {
                Ok(code) => ExitCode::from(code),
                Err(e) => {
                    eprintln!("check: {e}");
                    ExitCode::from(2)
                }
            },
            Err(message) if message == HELP => {
                print!("{USAGE}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("check: {message}");
                eprint!("{USAGE}");
                ExitCode::from(2)
            }
        };
    }
    let (protocol, paths) = match parse_args(args.into_iter()) {
        Ok(parsed) => parsed,
        Err(message) if message == HELP => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("check: {message}");
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut out = io::stdout().lock();
    let mut problems = 0;
    for path in &paths {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("check: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        };
        match check_file(path, &bytes, protocol, &mut out) {
            Ok(found) => problems += found,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("check: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Reads the command line: the protocol version, if given, and the files.
///
/// # Errors
/// What is wrong with it, in one sentence; [`HELP`] for `--help`.
pub fn parse_args(
    mut args: impl Iterator<Item = String>,
) -> Result<(Option<ProtocolVersion>, Vec<String>), String> {
    let (mut protocol, mut paths) = (None, Vec::new());
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--help" | "-h" => return Err(HELP.to_owned()),
            "--protocol" => Some(args.next().ok_or("`--protocol` needs a value: 1 or 2")?),
            "--json" | "--cancel" | "--prompt" | "--record" | "--timeout" => {
                return Err(format!(
                    "`{arg}` is for checking an agent: give its command after `--` (check [OPTIONS] -- COMMAND)"
                ));
            }
            other => other.strip_prefix("--protocol=").map(str::to_owned),
        };
        match value.as_deref() {
            Some("1") => protocol = Some(ProtocolVersion::V1),
            Some("2") => protocol = Some(ProtocolVersion::V2),
            Some(other) => {
                return Err(format!(
                    "unknown protocol version `{other}`; expected 1 or 2"
                ));
            }
            None if arg.starts_with("--") => return Err(format!("unknown argument `{arg}`")),
            None => paths.push(arg),
        }
    }
    if paths.is_empty() {
        return Err("no file to check".to_owned());
    }
    Ok((protocol, paths))
}

/// Reads the command line of an agent check: options, `--`, the command.
///
/// # Errors
/// What is wrong with it, in one sentence; [`HELP`] for `--help`.
pub fn parse_agent_args(
    mut args: impl Iterator<Item = String>,
) -> Result<conformance::Options, String> {
    let mut options = conformance::Options::default();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("`{name}` needs a value"));
        match arg.as_str() {
            "--" => {
                options.command = args.collect();
                break;
            }
            "--help" | "-h" => return Err(HELP.to_owned()),
            "--json" => options.json = true,
            "--cancel" => options.cancel = true,
            "--prompt" => options.prompt = value("--prompt")?,
            "--record" => options.record = Some(value("--record")?.into()),
            "--timeout" => {
                let text = value("--timeout")?;
                let seconds: f64 = text
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or(format!(
                        "`--timeout` takes a positive number of seconds, not `{text}`"
                    ))?;
                options.timeout = Duration::from_secs_f64(seconds);
            }
            other => return Err(format!("unknown argument `{other}` (before `--`)")),
        }
    }
    if options.command.is_empty() {
        return Err("no agent command after `--`".to_owned());
    }
    Ok(options)
}

/// Checks one file's bytes; writes a line per problem and returns how many.
///
/// # Errors
/// Only an error writing the report.
pub fn check_file(
    name: &str,
    bytes: &[u8],
    protocol: Option<ProtocolVersion>,
    out: &mut impl Write,
) -> io::Result<usize> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        let err = SessionNotification::from_slice(bytes)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        writeln!(out, "{name}:1: {err}")?;
        return Ok(1);
    };
    // One message over several lines, an array of messages, or one message per line.
    let document = serde_json::from_str::<serde_json::Value>(text).ok();
    let elements: Vec<String> = match &document {
        Some(Value::Array(items)) => items.iter().map(Value::to_string).collect(),
        _ => Vec::new(),
    };
    let messages: Vec<(usize, &str)> = if !elements.is_empty() {
        elements.iter().map(|m| (1, m.as_str())).collect()
    } else if document.is_some() {
        vec![(1, text)]
    } else {
        text.lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line))
            .filter(|(_, line)| !line.trim().is_empty())
            .collect()
    };
    let mut problems = 0;
    for (line, message) in messages {
        for problem in check_message(message, protocol) {
            writeln!(out, "{name}:{line}: {problem}")?;
            problems += 1;
        }
    }
    Ok(problems)
}

/// The problems of one message: why it cannot be read, or what a sender must
/// not send. A notification, an update or plan content, told apart by their keys.
/// Other JSON-RPC messages of a recorded conversation (responses, requests,
/// other notifications) have their envelope checked, as `board` and
/// `include_plan_stream!` read them.
fn check_message(text: &str, protocol: Option<ProtocolVersion>) -> Vec<String> {
    let value = serde_json::from_str::<Value>(text).ok();
    if let Some(problems) = value.as_ref().and_then(other_json_rpc) {
        return problems;
    }
    let kind = value.as_ref().and_then(|value| {
        let object = value.as_object()?;
        ["jsonrpc", "sessionUpdate", "type"]
            .into_iter()
            .find(|key| object.contains_key(*key))
    });
    let check = |update: &SessionUpdate| match protocol {
        Some(protocol) => update.check_for(protocol),
        None => update.check(),
    };
    let read = match kind {
        Some("sessionUpdate") => SessionUpdate::from_json(text).map(|u| check(&u)),
        Some("type") => PlanContent::from_json(text).map(|p| check(&SessionUpdate::plan_update(p))),
        // A notification, or anything else (its error will say what is missing).
        _ => SessionNotification::from_json(text).map(|n| match protocol {
            Some(protocol) => n.check_for(protocol),
            None => n.check(),
        }),
    };
    match read {
        Ok(result) => {
            let mut found = value.as_ref().map(rfd_spelling).unwrap_or_default();
            found.extend(result.err().unwrap_or_default());
            found
                .iter()
                .map(|v| format!("{v} [{}]", v.rule()))
                .collect()
        }
        Err(err) => vec![err.to_string()],
    }
}

/// For a JSON-RPC message that is not a `session/update` notification, the
/// problems of its envelope (JSON-RPC 2.0: a request or notification has a
/// string `method`; a response an `id` and exactly one of `result` and
/// `error`, an error a whole-number `code` and a string `message`); `None`
/// for anything else, which is checked as a plan message.
fn other_json_rpc(message: &Value) -> Option<Vec<String>> {
    let object = message.as_object()?;
    let version = object.get("jsonrpc")?;
    let method = object.get("method");
    if method.and_then(Value::as_str) == Some("session/update") && !object.contains_key("id") {
        return None;
    }
    let mut problems = Vec::new();
    if version != "2.0" {
        problems.push(format!(
            "at `jsonrpc`: expected JSON-RPC version \"2.0\", found {version}"
        ));
    }
    match (method, object.get("result"), object.get("error")) {
        (Some(Value::String(name)), ..) if name == "session/update" => problems.push(
            "at `id`: a `session/update` is a notification and carries no `id`; this is a request"
                .to_owned(),
        ),
        (Some(Value::String(_)), ..) => {}
        (Some(other), ..) => {
            problems.push(format!("at `method`: expected a string, found {other}"));
        }
        (None, Some(_), Some(_)) => {
            problems.push("a response carries `result` or `error`, not both".to_owned());
        }
        (None, None, None) => problems.push(
            "neither a request (`method`), a notification nor a response (`result`/`error`)"
                .to_owned(),
        ),
        (None, result, error) => {
            if !object.contains_key("id") {
                problems.push("at `id`: a response carries the `id` of its request".to_owned());
            }
            if result.is_none()
                && let Some(error) = error
            {
                if !error.get("code").is_some_and(Value::is_i64) {
                    problems.push("at `error.code`: expected a whole number".to_owned());
                }
                if !error.get("message").is_some_and(Value::is_string) {
                    problems.push("at `error.message`: expected a string".to_owned());
                }
            }
        }
    }
    Some(problems)
}

/// Plan ids written `id` (the RFD spelling), which no published SDK reads.
fn rfd_spelling(message: &Value) -> Vec<Violation> {
    // Where a plan id can be, by what the message is.
    let (update, prefix) = match message.get("params") {
        Some(params) => (&params["update"], "params.update."),
        None => (message, ""),
    };
    let places = if update.get("sessionUpdate").is_some() {
        [(&update["plan"], "plan."), (update, "")]
    } else {
        [(update, ""), (&Value::Null, "")]
    };
    places
        .into_iter()
        .filter(|(object, _)| object.get("id").is_some() && object.get("planId").is_none())
        .map(|(_, at)| {
            Violation::new(
                format!("{prefix}{at}id"),
                ACP_SPELLING,
                "`id` is the RFD spelling of the plan id, which no published SDK reads (they require `planId`); write `planId`",
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(name: &str, text: &str) -> (usize, String) {
        let mut out = Vec::new();
        let problems = check_file(name, text.as_bytes(), None, &mut out).unwrap();
        (problems, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_clean_stream_has_no_problem() {
        let line = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_removed","planId":"p"}}}"#;
        assert_eq!(
            report("ok.ndjson", &format!("{line}\n\n{line}\n")),
            (0, String::new())
        );
    }

    #[test]
    fn each_problem_is_a_line_with_file_line_path_and_rule() {
        let text = [
            r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"urgent","status":"cancelled"}]}"#,
            r#"{"type":"items","planId":"p","entries":[{"content":"a","priority":"high"}]}"#,
            "not json",
        ]
        .join("\n");
        let (problems, out) = report("rec.ndjson", &text);
        assert_eq!(problems, 4);
        assert_eq!(
            out,
            "rec.ndjson:1: at `entries[0].priority`: custom names must begin with `_`; `urgent` is reserved for future ACP versions (write `_urgent`) [reserved-name]\n\
             rec.ndjson:1: at `entries[0].status`: `cancelled` does not exist in protocol v1, only `pending`, `in_progress` and `completed`; a v1 reader drops this entry without a word [v1-values]\n\
             rec.ndjson:2: at `entries[0]`: missing required field `status`\n\
             rec.ndjson:3: invalid JSON at line 1, column 2: expected ident\n"
        );
    }

    #[test]
    fn what_the_sdks_would_not_read_is_reported_with_its_rule() {
        let rfd = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"items","id":"p","entries":[{"content":"a","priority":"_p","status":"cancelled"}]}}}}"#;
        let removed = r#"{"sessionUpdate":"plan_removed","id":"p"}"#;
        let v1_plan = r#"{"sessionUpdate":"plan","entries":[]}"#;
        let text = [rfd, removed, v1_plan].join("\n");
        let rules = |protocol| {
            let mut out = Vec::new();
            check_file("r.ndjson", text.as_bytes(), protocol, &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            out.lines()
                .map(|line| {
                    let (place, rest) = line.split_once(": at `").unwrap();
                    let rule = rest.rsplit_once('[').unwrap().1.trim_end_matches(']');
                    format!("{place} {} {rule}", rest.split_once('`').unwrap().0)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            rules(None),
            [
                "r.ndjson:1 params.update.plan.id acp-spelling",
                "r.ndjson:2 id acp-spelling"
            ]
        );
        assert_eq!(
            rules(Some(ProtocolVersion::V1)),
            [
                "r.ndjson:1 params.update.plan.id acp-spelling",
                "r.ndjson:1 params.update.plan.entries[0].priority v1-values",
                "r.ndjson:1 params.update.plan.entries[0].status v1-values",
                "r.ndjson:2 id acp-spelling",
            ]
        );
        assert_eq!(
            rules(Some(ProtocolVersion::V2)),
            [
                "r.ndjson:1 params.update.plan.id acp-spelling",
                "r.ndjson:2 id acp-spelling",
                "r.ndjson:3 sessionUpdate v2-no-v1-plan",
            ]
        );
    }

    #[test]
    fn flags() {
        let parse = |args: &[&str]| parse_args(args.iter().map(|s| (*s).to_owned()));
        assert_eq!(parse(&["a"]), Ok((None, vec!["a".to_owned()])));
        assert_eq!(
            parse(&["--protocol", "2", "a"]).unwrap().0,
            Some(ProtocolVersion::V2)
        );
        assert_eq!(
            parse(&["--protocol=1", "a"]).unwrap().0,
            Some(ProtocolVersion::V1)
        );
        assert!(parse(&["--protocol", "3", "a"]).is_err());
        assert!(parse(&["--fix", "a"]).is_err());
        assert_eq!(parse(&["--help"]), Err(HELP.to_owned()));
        assert_eq!(parse(&["a", "-h"]), Err(HELP.to_owned()));
        assert!(parse(&[]).is_err());
    }

    #[test]
    fn agent_flags() {
        let parse = |args: &[&str]| parse_agent_args(args.iter().map(|s| (*s).to_owned()));
        let options = parse(&[
            "--json",
            "--cancel",
            "--timeout",
            "2.5",
            "--record",
            "out",
            "--",
            "a",
            "--fast",
        ])
        .unwrap();
        assert!(options.json && options.cancel);
        assert_eq!(options.timeout, Duration::from_millis(2500));
        assert_eq!(options.record, Some("out".into()));
        assert_eq!(options.command, ["a", "--fast"]);
        assert_eq!(parse(&["--prompt", "hi", "--", "a"]).unwrap().prompt, "hi");
        assert!(parse(&["--"]).unwrap_err().contains("no agent command"));
        assert!(
            parse(&["--timeout", "0", "--", "a"])
                .unwrap_err()
                .contains("positive")
        );
        assert!(
            parse(&["--strict", "--", "a"])
                .unwrap_err()
                .contains("unknown argument")
        );
        assert_eq!(parse(&["-h", "--", "a"]), Err(HELP.to_owned()));
        // An agent's flag without an agent says where it belongs.
        let files = |args: &[&str]| parse_args(args.iter().map(|s| (*s).to_owned()));
        assert!(
            files(&["--json", "a.ndjson"])
                .unwrap_err()
                .contains("after `--`")
        );
    }

    #[test]
    fn a_recorded_conversation_passes_and_its_envelopes_are_checked() {
        // A real recorded run of our agent (v2): responses, requests and
        // notifications of every kind among the plan updates.
        let recorded = include_str!("../tests/fixtures/recorded-agent-v2.ndjson");
        assert_eq!(report("run.ndjson", recorded), (0, String::new()));
        let broken = [
            r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":"bad","message":7}}"#,
            r#"{"jsonrpc":"1.0","id":3,"result":null}"#,
            r#"{"jsonrpc":"2.0","result":{}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"session/update","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":5}"#,
        ]
        .join("\n");
        let (problems, out) = report("bad.ndjson", &broken);
        assert_eq!(problems, 7, "{out}");
        for (line, says) in [
            (1, "not both"),
            (2, "error.code"),
            (2, "error.message"),
            (3, "\"2.0\""),
            (4, "carries the `id`"),
            (5, "carries no `id`"),
            (6, "neither a request"),
        ] {
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&format!("bad.ndjson:{line}:")) && l.contains(says)),
                "line {line} should say {says}: {out}"
            );
        }
    }

    #[test]
    fn a_pretty_printed_message_is_one_document() {
        let text = "{\n  \"type\": \"file\",\n  \"id\": \"d\",\n  \"uri\": \"plan.md\"\n}\n";
        let (problems, out) = report("doc.json", text);
        assert_eq!(problems, 1);
        assert!(
            out.starts_with("doc.json:1: at `uri`: a file plan's URI must be absolute"),
            "{out}"
        );
    }
}
