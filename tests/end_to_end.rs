//! The agent example piped into the board example, as in
//! `cargo run --example agent -- --json | cargo run --example board -- --json`:
//! the two programs' own code, joined by an in-memory pipe.

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/agent.rs"]
mod agent;
#[allow(dead_code, unreachable_pub)]
#[path = "../examples/board.rs"]
mod board;
#[allow(dead_code, unreachable_pub)]
#[path = "../examples/check.rs"]
mod check;
mod common;

use plan_core::{ProtocolVersion, Spelling, TerminalStyle};
use serde_json::Value;

/// The board's final state after reading the agent's JSON-RPC stream.
fn pipe(options: agent::Options) -> Value {
    let mut wire = Vec::new();
    let agent_options = agent::Options {
        json: true,
        fast: true,
        ..options
    };
    agent::run(agent_options, &mut wire, TerminalStyle::PLAIN, false, || {}).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let board_options = board::Options {
        json: true,
        ..board::Options::default()
    };
    let invalid = board::run(
        &board_options,
        wire.as_slice(),
        &mut out,
        &mut err,
        TerminalStyle::PLAIN,
        false,
    )
    .unwrap();
    assert_eq!(invalid, 0, "{}", String::from_utf8_lossy(&err));
    serde_json::from_slice(&out).unwrap()
}

fn plan_summary(state: &Value) -> Vec<(String, String, Value)> {
    let sessions = state["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0]["sessionId"], "sess_abc123def456");
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

#[test]
fn a_client_with_plan_support_ends_with_the_agents_plans() {
    // v1 with the plan capability, in either spelling: `cancelled` is not in
    // v1, so the last step arrives completed, marked; v2 carries it as it is.
    let modes = [
        (Spelling::Rfd, ProtocolVersion::V1),
        (Spelling::Acp, ProtocolVersion::V1),
        (Spelling::Acp, ProtocolVersion::V2),
    ];
    for (spelling, protocol) in modes {
        let state = pipe(agent::Options {
            spelling,
            protocol,
            ..agent::Options::default()
        });
        let v2 = protocol == ProtocolVersion::V2;
        let progress = serde_json::json!({"completed": if v2 { 4 } else { 5 }, "cancelled": u8::from(v2), "total": 5});
        assert_eq!(
            plan_summary(&state),
            [
                ("refactor".to_owned(), "items".to_owned(), progress),
                ("design-doc".to_owned(), "file".to_owned(), Value::Null),
            ],
            "the notes were dismissed; the refactor is done"
        );
        let entries = &state["sessions"][0]["plans"][0]["content"]["entries"];
        assert_eq!(
            entries[2]["content"],
            "Fix the circular dependency in the auth module"
        );
        if v2 {
            assert_eq!(entries[4]["status"], "cancelled");
        } else {
            assert_eq!(entries[4]["status"], "completed");
            assert_eq!(entries[4]["content"], "Update the changelog (cancelled)");
        }
    }
}

#[test]
fn a_legacy_client_ends_with_one_v1_plan() {
    let state = pipe(agent::Options {
        legacy_client: true,
        ..agent::Options::default()
    });
    let progress = serde_json::json!({"completed": 5, "cancelled": 0, "total": 5});
    assert_eq!(
        plan_summary(&state),
        [("main".to_owned(), "items".to_owned(), progress)]
    );
    let entries = &state["sessions"][0]["plans"][0]["content"]["entries"];
    assert_eq!(entries[4]["content"], "Update the changelog (cancelled)");
}

#[test]
fn the_drawn_story_shows_every_step() {
    let mut out = Vec::new();
    let options = agent::Options {
        fast: true,
        ..agent::Options::default()
    };
    agent::run(options, &mut out, TerminalStyle::PLAIN, false, || {}).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("── ").count(), 10);
    assert!(text.contains("finds a circular dependency and adds a task  [plan_update]"));
    assert!(text.contains("○ Fix the circular dependency in the auth module  high  (new)"));
    assert!(!text.contains('\x1b'), "plain text when not a terminal");
}

#[test]
fn the_validator_finds_a_problem_in_exactly_the_bad_vectors() {
    // The vectors README's verdicts, read with SPEC.md (tests/vectors.rs):
    // these are malformed or nonconforming, or (10-13) in the RFD spelling,
    // which no published SDK reads; every other vector is clean.
    let bad = [
        "10-", "11-", "12-", "13-", "15-", "16-", "17-", "18-", "19-", "20-", "21-", "24-", "28-",
        "31-",
    ];
    for (name, text) in common::json_files("acp/vectors") {
        if name.contains("client-capabilities") {
            continue;
        }
        let mut out = Vec::new();
        let problems = check::check_file(&name, text.as_bytes(), None, &mut out).unwrap();
        let expected_bad = bad.iter().any(|prefix| name.starts_with(prefix));
        assert_eq!(
            problems > 0,
            expected_bad,
            "{name}: {}",
            String::from_utf8_lossy(&out)
        );
    }
    // And the agent's own stream, in both spellings and for a legacy client.
    for options in [
        agent::Options::default(),
        agent::Options {
            legacy_client: true,
            ..agent::Options::default()
        },
    ] {
        let mut wire = Vec::new();
        agent::run(
            agent::Options {
                json: true,
                ..options
            },
            &mut wire,
            TerminalStyle::PLAIN,
            false,
            || {},
        )
        .unwrap();
        // Under the rules of its protocol version too (v1 here).
        for protocol in [None, Some(ProtocolVersion::V1)] {
            assert_eq!(
                check::check_file("agent.ndjson", &wire, protocol, &mut Vec::new()).unwrap(),
                0
            );
        }
    }
}
