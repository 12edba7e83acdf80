//! Every JSON example of the source documents reads and writes back to the
//! same JSON in the RFD spelling (the documents' own).

mod common;

use plan_core::{SessionNotification, SessionUpdate, wire::Spelling};
use serde_json::Value;

#[test]
fn every_source_example_round_trips_in_the_rfd_spelling() {
    let examples = common::json_files("spec/examples");
    assert!(
        examples.len() >= 9,
        "expected the nine source examples, found {}",
        examples.len()
    );
    for (name, text) in &examples {
        let original: Value = serde_json::from_str(text).unwrap();
        let written = if name.ends_with(".notification.json") {
            let message =
                SessionNotification::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(message.check(), Ok(()), "{name}");
            message.to_value(Spelling::Rfd)
        } else {
            assert!(
                name.ends_with(".update.json"),
                "{name}: unknown kind of example"
            );
            let update = SessionUpdate::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let rules: Vec<&str> = update
                .check()
                .err()
                .unwrap_or_default()
                .iter()
                .map(plan_core::agent::Violation::rule)
                .collect();
            // The drafts' `file` plan is read as it is and reported: the
            // protocol stabilized on 2026-11-20 has no `file` type.
            let expected: &[&str] = if name.contains("-file") {
                &["pre-stable-file"]
            } else {
                &[]
            };
            assert_eq!(rules, expected, "{name}");
            update.to_value(Spelling::Rfd)
        };
        assert_eq!(written, original, "{name}: written back differently");
    }
}

#[test]
fn the_acp_spelling_is_what_plain_serde_writes() {
    for (name, text) in common::json_files("spec/examples") {
        if name.ends_with(".update.json") {
            let update = SessionUpdate::from_json(&text).unwrap();
            assert_eq!(
                serde_json::to_string(&update).unwrap(),
                update.to_json(Spelling::Acp)
            );
            let again: SessionUpdate = serde_json::from_str(&text).unwrap();
            assert_eq!(
                again, update,
                "{name}: serde's Deserialize reads the same value"
            );
        }
    }
}
