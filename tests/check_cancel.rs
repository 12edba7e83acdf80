//! A cancel judged on evidence (`check --cancel`): a turn that ends without
//! `cancelled` is a finding only once the agent had provably read the
//! cancel (it answered the request sent right after it); one that crossed
//! the cancel is a note, the same on every run. Each agent runs on a thread
//! behind OS pipes; every run is bounded by the check's timeout and the
//! test's.

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/agent.rs"]
mod agent;
mod common;

use std::io::{self, BufRead, Write};
use std::time::Duration;

use acp_plan::CheckAgentOptions as Options;
use acp_plan::harness::{self as conformance, ClientRun};
use common::checking::{check_agent, rules};
use plan_core::wire::ClientKind;
use serde_json::{Value, json};

#[test]
fn a_cancel_crossed_by_a_turn_that_never_pauses_gets_the_same_verdict_every_time() {
    // `examples/agent --fast`: the whole turn is written before the cancel
    // is read. Nothing shows it read the cancel: a note, never a finding.
    let mut options = Options::default();
    options.cancel = true;
    options.timeout = Duration::from_secs(20);
    let mut verdicts = std::collections::BTreeSet::new();
    for _ in 0..20 {
        let runs = check_agent(
            |input, out| {
                let options = agent::Options {
                    pause: Duration::ZERO,
                    ..agent::Options::default()
                };
                let _ = agent::serve(input, out, io::sink(), options);
            },
            &options,
        );
        verdicts.insert((conformance::exit_code(&runs), rules(&runs)));
    }
    assert_eq!(verdicts.len(), 1, "{verdicts:?}");
    let (status, found) = verdicts.into_iter().next().unwrap();
    assert_eq!((status, found), (0, Vec::new()));
}

/// A v1 agent that sends one update, then reads what the client sends
/// after it, answering the request it finds with "Method not found", and
/// only then ends the turn `end_turn` (when `reads_first`; else at once).
fn ignores_cancel(reads_first: bool, input: impl BufRead, mut out: impl Write) {
    let mut lines = input.lines().map_while(Result::ok);
    let mut write = |message: Value| {
        let _ = writeln!(out, "{message}");
        let _ = out.flush();
    };
    while let Some(line) = lines.next() {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = message["id"].clone();
        let result = match message["method"].as_str().unwrap_or_default() {
            "initialize" => json!({"protocolVersion": 1, "agentCapabilities": {}}),
            "session/new" => json!({"sessionId": "s"}),
            "session/prompt" => {
                write(
                    json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s",
                    "update": {"sessionUpdate": "plan", "entries": [
                        {"content": "Ship", "priority": "low", "status": "in_progress"}]}}}),
                );
                // On the second turn (the one the client cancels), read the
                // cancel and the request after it before ending.
                if reads_first && message["id"] == 3 {
                    for line in lines.by_ref() {
                        let after: Value = serde_json::from_str(&line).unwrap_or_default();
                        if after["id"].is_number() {
                            write(json!({"jsonrpc": "2.0", "id": after["id"],
                                "error": {"code": -32601, "message": "Method not found"}}));
                            break;
                        }
                    }
                }
                json!({"stopReason": "end_turn"})
            }
            _ if id.is_number() => {
                write(json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32601, "message": "Method not found"}}));
                continue;
            }
            _ => continue,
        };
        write(json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }
}

#[test]
fn a_turn_that_ends_end_turn_after_the_agent_read_the_cancel_is_a_finding_and_a_crossing_a_note() {
    let mut options = Options::default();
    options.cancel = true;
    options.timeout = Duration::from_secs(5);
    let read = check_agent(|input, out| ignores_cancel(true, input, out), &options);
    let v1: Vec<&ClientRun> = read.iter().filter(|r| r.kind == ClientKind::V1).collect();
    let finding = &v1[0].findings[0];
    assert_eq!(finding.rule, "turn-end");
    assert!(
        finding
            .message
            .contains("though the agent had read the cancel"),
        "{}",
        finding.message
    );
    let crossed = check_agent(|input, out| ignores_cancel(false, input, out), &options);
    for run in &crossed {
        assert_eq!(
            rules(std::slice::from_ref(run)),
            Vec::<String>::new(),
            "{:?}",
            run.findings
        );
        assert!(
            run.notes
                .iter()
                .any(|n| n.contains("the turn's end and the cancel crossed")),
            "{:?}",
            run.notes
        );
    }
}
