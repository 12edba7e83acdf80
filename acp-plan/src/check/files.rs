//! The file mode of `check`: each message of a file judged by the
//! protocol's rules and by what the published SDKs read, one [`Finding`]
//! per problem. The agent mode (`conformance`) judges an agent's lines with
//! the same functions.

use std::io::{self, Write};

use plan_core::{
    SessionNotification,
    agent::InitializeRequest,
    wire::{
        ClientCapabilities, ClientKind, Line, Message, MessageRead, PlanMessage, ProtocolVersion,
        Strictness,
    },
};
use serde_json::Value;
use serde_json::value::RawValue;

use super::finding::Finding;
use super::message::{is_plan, rfd_spelling};
use super::rule;

/// What checking one file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileReport {
    /// The problems, in the order of the file. A message that cannot be
    /// read is `unreadable-update`; a JSON-RPC envelope that is malformed,
    /// `json-rpc`.
    pub findings: Vec<Finding>,
    /// How many plan messages (`plan`, `plan_update`, `plan_removed`, or a
    /// plan alone) were judged; none means nothing was judged.
    pub plans: usize,
    /// The kind of client the file's recorded `initialize` and the agent's
    /// answer make, which every plan was judged for; `None` if the file
    /// holds no such pair (then `--protocol`, if given, says the version).
    pub recorded_client: Option<ClientKind>,
}

/// How the plans of a file are judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JudgedFor {
    /// For the kind of client the file's `initialize` recorded.
    Client(ClientKind),
    /// For a version's readers (`--protocol`), or by the rules of every
    /// version alone.
    Version(Option<ProtocolVersion>),
}

/// Checks one file's bytes: each problem, and what was judged. Each
/// message is read once (plan-core's `Line`), and nothing is built of it
/// but what the readers give.
pub fn check_file(bytes: &[u8], protocol: Option<ProtocolVersion>) -> FileReport {
    let Ok(text) = std::str::from_utf8(bytes) else {
        let findings = SessionNotification::from_slice(bytes)
            .err()
            .map(|e| Finding::of_error(rule::UNREADABLE, 1, &e))
            .into_iter()
            .collect();
        return FileReport {
            findings,
            plans: 0,
            recorded_client: None,
        };
    };
    let lines: Vec<(usize, Line<'_>)> = messages(text)
        .into_iter()
        .map(|(line, message)| (line, Line::read(message, Strictness::Strict)))
        .collect();
    let recorded_client = recorded_client(&lines);
    let judged_for = recorded_client.map_or(JudgedFor::Version(protocol), JudgedFor::Client);
    let mut report = FileReport {
        findings: Vec::new(),
        plans: 0,
        recorded_client,
    };
    for (line, read) in &lines {
        report.plans += usize::from(judge_line(read, *line, judged_for, &mut report.findings));
    }
    report
}

/// The messages of a file, each with its line: one message over several
/// lines, a JSON array of messages (each borrowed from the text, on line 1),
/// or one message per line.
fn messages(text: &str) -> Vec<(usize, &str)> {
    if text.trim_start().starts_with('[') {
        match serde_json::from_str::<Vec<&RawValue>>(text) {
            Ok(items) if !items.is_empty() => {
                return items.into_iter().map(|item| (1, item.get())).collect();
            }
            _ => {}
        }
    }
    if serde_json::from_str::<&RawValue>(text).is_ok() {
        return vec![(1, text)];
    }
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line))
        .filter(|(_, line)| !line.trim().is_empty())
        .collect()
}

impl FileReport {
    /// Writes each finding as a line, `NAME:LINE: at PATH: WHAT [RULE]`
    /// (`NAME: WHAT [RULE]` for one about the whole file).
    ///
    /// # Errors
    /// Only an error writing to `out`.
    pub fn write_text(&self, name: &str, out: &mut impl Write) -> io::Result<()> {
        for finding in &self.findings {
            match finding.line {
                0 => writeln!(out, "{name}: {finding}")?,
                line => writeln!(out, "{name}:{line}: {finding}")?,
            }
        }
        Ok(())
    }
}

/// The kind of client of a recorded conversation: its `initialize` request
/// and the agent's answer to it (the first response with that id and a
/// `protocolVersion`), by [`ClientKind::after_initialize`]: v2 if the agent
/// answered 2 to an offer of 2; under v1, with `plan` if the request's
/// capabilities carry it. `None` without both, or for an answer that broke
/// the handshake.
fn recorded_client(lines: &[(usize, Line<'_>)]) -> Option<ClientKind> {
    let mut request: Option<(&RawValue, Option<&RawValue>)> = None;
    for (_, line) in lines {
        let Line {
            envelope:
                MessageRead {
                    message: Some(message),
                    ..
                },
            plan: None,
            ..
        } = line
        else {
            continue;
        };
        match (message, request) {
            (Message::Request { id, method, params }, None) if method == "initialize" => {
                request = Some((id, *params));
            }
            (
                Message::Response {
                    id,
                    outcome: Ok(result),
                },
                Some((asked, params)),
            ) if id.get() == asked.get() => {
                // The answer and the request's params, each read once.
                let answer = serde_json::from_str::<Value>(result.get()).unwrap_or_default();
                let Some(version) = answer[KEY_PROTOCOL_VERSION].as_u64() else {
                    continue;
                };
                // The request's params through `initialize`'s own reader
                // (a malformed capability read as absent); the kind by the
                // one rule of a handshake's outcome.
                let offer =
                    params.and_then(|params| InitializeRequest::from_json(params.get()).ok());
                return match offer {
                    Some(offer) => offer.client_kind(version),
                    None => ClientKind::after_initialize(
                        version,
                        &ClientCapabilities::default(),
                        version,
                    ),
                };
            }
            _ => {}
        }
    }
    None
}

/// The version's key in the answer to `initialize`.
const KEY_PROTOCOL_VERSION: &str = "protocolVersion";

/// Judges one message read (line `line` of its file), adding its problems
/// to `found`: why it cannot be read, or what a sender must not send. Says
/// whether it was a plan message. Other JSON-RPC messages of a recorded
/// conversation (responses, requests, other notifications) have their
/// envelope checked, as `board` and `include_plan_stream!` read them.
fn judge_line(
    read: &Line<'_>,
    line: usize,
    judged_for: JudgedFor,
    found: &mut Vec<Finding>,
) -> bool {
    let read = match &read.plan {
        None => {
            found.extend(
                read.envelope
                    .problems
                    .iter()
                    .map(|e| Finding::of_error(rule::JSON_RPC, line, e)),
            );
            return false;
        }
        // An unreadable message counts as judged: it was meant as a plan.
        Some(Err(err)) => {
            found.push(Finding::of_error(rule::UNREADABLE, line, err));
            return true;
        }
        Some(Ok(read)) => read,
    };
    let result = match &read.value {
        // The notification's own checks: the update's paths under `params.update`.
        PlanMessage::Notification(n) => match judged_for {
            JudgedFor::Client(kind) => n.check_for_client(kind),
            JudgedFor::Version(Some(protocol)) => n.check_for(protocol),
            JudgedFor::Version(None) => n.check(),
        },
        other => {
            let update = other.update();
            match judged_for {
                JudgedFor::Client(kind) => update.check_for_client(kind),
                JudgedFor::Version(Some(protocol)) => update.check_for(protocol),
                JudgedFor::Version(None) => update.check(),
            }
        }
    };
    let violations = rfd_spelling(read)
        .into_iter()
        .chain(result.err().into_iter().flatten());
    found.extend(violations.map(|v| Finding::of_violation(line, &v)));
    is_plan(&read.value.update())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(name: &str, text: &str) -> (usize, String) {
        let report = check_file(text.as_bytes(), None);
        let mut out = Vec::new();
        report.write_text(name, &mut out).unwrap();
        (report.findings.len(), String::from_utf8(out).unwrap())
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
            "rec.ndjson:1: at `entries[0].priority`: unknown priority `urgent`: custom names must begin with `_`; `urgent` is reserved for future ACP versions (write `_urgent`) [reserved-name]\n\
             rec.ndjson:1: at `entries[0].status`: `cancelled` does not exist in protocol v1, only `pending`, `in_progress` and `completed`; a v1 reader drops this entry without a word [v1-values]\n\
             rec.ndjson:2: at `entries[0]`: missing required field `status` [unreadable-update]\n\
             rec.ndjson:3: invalid JSON at line 1, column 2: expected ident [json-rpc]\n"
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
            check_file(text.as_bytes(), protocol)
                .write_text("r.ndjson", &mut out)
                .unwrap();
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
    fn a_recorded_conversation_passes_and_its_envelopes_are_checked() {
        // A real recorded run of our agent (v2): responses, requests and
        // notifications of every kind among the plan updates.
        let recorded = include_str!("../../../tests/fixtures/recorded-agent-v2.ndjson");
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
