//! Generated plan streams (`plan_core::fixtures`, feature `fixtures`): a few
//! thousand scenarios over every protocol version and client run through
//! `SessionBoards`, whose end state must equal the scenario's expected one;
//! every message passes our own `check` for its version, validates against
//! its version's public schema, and is read by the published SDK's reader of
//! that version with nothing dropped.

mod common;

use std::collections::BTreeSet;

use common::sdk::Judges;
use plan_core::fixtures::{ClientProfile, PlanStream, Scenario};
use plan_core::{SessionUpdate, client::SessionBoards, wire::Spelling};

/// A scenario for every kind of client, and one without custom values.
fn clients(seed: u64) -> Vec<(String, Scenario)> {
    let base = Scenario::new(seed);
    let mut all: Vec<(String, Scenario)> = ClientProfile::every_kind()
        .into_iter()
        .map(|client| (format!("{client:?}"), base.clone().for_client(client)))
        .collect();
    all.push(("v2, no custom values".into(), base.custom_values(false)));
    all
}

/// Runs `stream` through fresh boards, strict or lenient, and compares.
fn run(stream: &PlanStream, strict: bool, context: &str) -> SessionBoards {
    let mut boards = if strict {
        SessionBoards::new().strict()
    } else {
        SessionBoards::new()
    };
    for line in stream.lines() {
        let applied = boards
            .apply_json(&line)
            .unwrap_or_else(|e| panic!("{context}: the board refuses {line}: {e}"));
        assert!(
            applied.skipped.is_empty(),
            "{context}: the board skipped part of {line}: {:?}",
            applied.skipped
        );
    }
    if let Err(mismatch) = stream.expected().compare(&boards) {
        panic!("{context}:\n{mismatch}\n{}", stream.to_ndjson());
    }
    boards
}

#[test]
fn thousands_of_streams_end_in_the_expected_boards() {
    let mut streams = 0;
    for seed in 0..500 {
        for (client, scenario) in clients(seed) {
            let scenario = scenario.sessions(1 + (seed % 3) as usize).steps(30);
            let stream = scenario.generate();
            assert_eq!(stream.notifications().len(), 30, "{client} {seed}");
            let context = format!("{client}, seed {seed}");
            let boards = run(&stream, seed % 2 == 0, &context);
            // The JSON form a non-Rust client compares with is the board's own.
            assert_eq!(
                stream.expected().to_json_value(Spelling::Acp),
                boards.to_json_value(Spelling::Acp),
                "{context}"
            );
            streams += 1;
        }
    }
    assert_eq!(streams, 3000);
}

#[test]
fn every_message_is_one_the_client_may_be_sent() {
    let judges = Judges::new();
    for seed in 0..60 {
        for (name, scenario) in clients(seed) {
            let client = scenario.client();
            let stream = scenario.sessions(2).steps(40).generate();
            for (notification, line) in stream.notifications().iter().zip(stream.lines()) {
                judges.may_send(notification, client, &format!("{name}, seed {seed}"));
                if stream.spelling() == Spelling::Rfd {
                    assert!(line.contains(r#""id":"#), "{line}");
                }
            }
        }
    }
}

#[test]
fn one_seed_gives_one_stream_and_seeds_differ() {
    let a = Scenario::new(7).sessions(2).generate();
    let b = Scenario::new(7).sessions(2).generate();
    let c = Scenario::new(8).sessions(2).generate();
    assert_eq!(a.to_ndjson(), b.to_ndjson());
    assert_ne!(a.to_ndjson(), c.to_ndjson());
    assert_eq!(a, b);
}

/// What one generated stream shows of the behaviours the scenarios promise.
fn behaviours(stream: &PlanStream, seen: &mut BTreeSet<&'static str>) {
    let sessions: BTreeSet<_> = stream
        .notifications()
        .iter()
        .map(|n| n.session_id.clone())
        .collect();
    if sessions.len() > 1 {
        seen.insert("several sessions");
    }
    for line in stream.lines() {
        for (needle, what) in [
            (r#""type":"items""#, "items plans"),
            (r#""type":"markdown""#, "markdown plans"),
            (r#""type":"file""#, "file plans"),
            (r#""path":"/work/"#, "markdown paths"),
            (r#""type":"_timeline""#, "custom plans"),
            (r#""status":"in_progress""#, "steps started"),
            (r#""status":"completed""#, "steps finished"),
            (r#""status":"cancelled""#, "steps cancelled"),
            (r#""status":"_blocked""#, "custom statuses"),
            (r#""priority":"_stretch""#, "custom priorities"),
            ("plan_removed", "plans removed"),
            ("_meta", "_meta"),
            ("caf\u{e9}", "non-ASCII text"),
            (r#"\""#, "escaped quotes"),
        ] {
            if line.contains(needle) {
                seen.insert(what);
            }
        }
    }
    // Several plans live at once in one session.
    let expected = stream.expected();
    if expected.sessions().iter().any(|b| b.plans.len() > 1) {
        seen.insert("several plans at once");
    }
    // An items plan whose entry list grew or shrank between updates.
    let mut sizes = std::collections::HashMap::new();
    for n in stream.notifications() {
        if let SessionUpdate::PlanUpdate { plan, .. } = &n.update
            && let Some(entries) = plan.entries()
            && let Some(before) =
                sizes.insert((n.session_id.clone(), plan.id().clone()), entries.len())
        {
            if entries.len() > before {
                seen.insert("entries added mid-run");
            }
            if entries.len() < before {
                seen.insert("entries removed mid-run");
            }
        }
    }
}

#[test]
fn the_scripts_do_what_real_agents_do() {
    // Over a few seeds, every behaviour the scenarios promise shows up.
    let mut seen = BTreeSet::new();
    for seed in 0..40 {
        let stream = Scenario::new(seed)
            .sessions(3)
            .plans(4)
            .steps(60)
            .for_client(if seed % 2 == 0 {
                ClientProfile::v2()
            } else {
                ClientProfile::v1().pre_stable_file(true)
            })
            .generate();
        behaviours(&stream, &mut seen);
    }
    let all = [
        "several sessions",
        "several plans at once",
        "items plans",
        "markdown plans",
        "file plans",
        "custom plans",
        "steps started",
        "steps finished",
        "steps cancelled",
        "custom statuses",
        "custom priorities",
        "plans removed",
        "entries added mid-run",
        "entries removed mid-run",
        "_meta",
        "non-ASCII text",
        "escaped quotes",
    ];
    let missing: Vec<_> = all.iter().filter(|w| !seen.contains(*w)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}

#[test]
fn a_client_that_loses_a_message_is_caught() {
    // The comparison can fail: a client that never read the last message
    // (whatever it is: a new plan, a new version of one, a removal) differs.
    let stream = Scenario::new(3).steps(25).generate();
    let lines: Vec<String> = stream.lines().collect();
    let mut boards = SessionBoards::new();
    for line in &lines[..lines.len() - 1] {
        boards.apply_json(line).unwrap();
    }
    let mismatch = stream.expected().compare(&boards).unwrap_err();
    assert!(
        mismatch.to_string().starts_with("session `sess_1`"),
        "{mismatch}"
    );
}
