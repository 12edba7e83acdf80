//! Everything we write in the ACP spelling validates against the public ACP
//! unstable schema of its version (`tests/data/acp/schema/*/schema.unstable.json`).
//!
//! A v1 `plan` update belongs to v1; `plan_update` and `plan_removed` to v2,
//! and to v1 unstable too when they use only v1's closed sets of values.

mod common;

use common::{Schema, Version};
use plan_core::{
    PlanContent, PlanEntry, SessionNotification, SessionUpdate, Status,
    wire::{ClientCapabilities, Spelling},
};
use serde_json::{Value, json};

/// Whether a v1 unstable peer can take this update: v1's closed sets only and
/// no custom plan types.
fn fits_v1(update: &SessionUpdate) -> bool {
    let v1_entries = |entries: &[PlanEntry]| {
        entries
            .iter()
            .all(|e| e.priority.is_v1() && e.status.is_v1())
    };
    match update {
        SessionUpdate::Plan(plan) => v1_entries(&plan.entries),
        SessionUpdate::PlanUpdate { plan, .. } => match plan {
            PlanContent::Items { entries, .. } => v1_entries(entries),
            PlanContent::File { .. } | PlanContent::Markdown { .. } => true,
            _ => false,
        },
        SessionUpdate::PlanRemoved { .. } => true,
        SessionUpdate::Other(_) => false,
    }
}

/// Every conforming message from the source examples and the vectors, as a
/// whole notification.
fn conforming_messages() -> Vec<(String, SessionNotification)> {
    let mut messages = Vec::new();
    for folder in ["spec/examples", "acp/vectors"] {
        for (name, text) in common::json_files(folder) {
            let message = SessionNotification::from_json(&text).ok().or_else(|| {
                SessionUpdate::from_json(&text)
                    .ok()
                    .map(|u| SessionNotification::new("sess_1", u))
            });
            if let Some(message) = message.filter(|m| m.check().is_ok()) {
                messages.push((name, message));
            }
        }
    }
    messages
}

#[test]
fn every_conforming_message_we_write_validates_in_the_acp_spelling() {
    let v1 = Schema::unstable(Version::V1).notification_validator();
    let v2 = Schema::unstable(Version::V2).notification_validator();
    let messages = conforming_messages();
    // `file` plans are pre-stable and no longer conforming (`check` reports
    // them), so the RFD's and the vectors' file examples are not here.
    assert!(
        messages.len() >= 22,
        "only {} messages found",
        messages.len()
    );
    let mut validated = (0, 0);
    for (name, message) in &messages {
        let written = message.to_value(Spelling::Acp);
        if !matches!(message.update, SessionUpdate::Plan(_)) {
            assert_eq!(
                v2.notification_errors(&written),
                Vec::<String>::new(),
                "{name}"
            );
            validated.1 += 1;
        }
        if fits_v1(&message.update) {
            assert_eq!(
                v1.notification_errors(&written),
                Vec::<String>::new(),
                "{name}"
            );
            validated.0 += 1;
        }
    }
    assert!(
        validated.0 >= 15 && validated.1 >= 15,
        "validated (v1, v2) = {validated:?}"
    );
}

#[test]
fn the_schemas_do_reject_what_they_should() {
    // Controls: without these the test above could pass with a validator that
    // accepts everything.
    let v1 = Schema::unstable(Version::V1).notification_validator();
    let v2 = Schema::unstable(Version::V2).notification_validator();
    let items = SessionUpdate::from_json(
        r#"{"sessionUpdate":"plan_update","plan":{"type":"items","id":"p","entries":[]}}"#,
    )
    .unwrap();
    let rfd = SessionNotification::new("s", items).to_value(Spelling::Rfd);
    assert!(
        !v2.notification_errors(&rfd).is_empty(),
        "the RFD spelling is not the published schema's"
    );

    let cancelled = SessionUpdate::plan([PlanEntry::new(
        "a",
        plan_core::Priority::High,
        Status::Cancelled,
    )]);
    let written = SessionNotification::new("s", cancelled.clone()).to_value(Spelling::Acp);
    assert!(cancelled.check().is_err());
    assert!(
        !v1.notification_errors(&written).is_empty(),
        "v1 has no `cancelled`"
    );

    let bad_uri = json!({"sessionId": "s", "update": {"sessionUpdate": "plan_update",
        "plan": {"type": "file", "planId": "p", "uri": "not a uri"}}});
    assert!(!v2.errors(&bad_uri).is_empty(), "formats are checked");
}

#[test]
fn client_capabilities_we_write_validate_in_the_acp_spelling() {
    let validator = Schema::unstable(Version::V1).validator("ClientCapabilities");
    let mut caps = ClientCapabilities::with_plan_support(Spelling::Acp);
    caps.other.insert(
        "fs".into(),
        json!({"readTextFile": true, "writeTextFile": false}),
    );
    let written = caps.to_value(Spelling::Acp);
    assert_eq!(written["plan"], json!({}));
    assert_eq!(validator.errors(&written), Vec::<String>::new());
    assert!(!validator.errors(&json!({"plan": 5})).is_empty());
    let read = ClientCapabilities::from_value(written.clone()).unwrap();
    assert_eq!(read.to_value(Spelling::Acp), written);
}

#[test]
fn plan_content_validates_on_its_own() {
    let validator = Schema::unstable(Version::V2).validator("PlanUpdateContent");
    let mut validated = 0;
    for (_, message) in conforming_messages() {
        if let SessionUpdate::PlanUpdate { plan, .. } = &message.update {
            let written: Value = plan.to_value(Spelling::Acp);
            assert_eq!(
                validator.errors(&written),
                Vec::<String>::new(),
                "{}",
                plan.type_name()
            );
            validated += 1;
        }
    }
    // The custom `_timeline` plan of vector 14 stands alone, not in an update.
    let timeline = common::json_files("acp/vectors")
        .into_iter()
        .find(|(n, _)| n.starts_with("14-"))
        .unwrap();
    let plan = PlanContent::from_json(&timeline.1).unwrap();
    assert_eq!(
        validator.errors(&plan.to_value(Spelling::Acp)),
        Vec::<String>::new()
    );
    assert!(validated >= 10, "only {validated} plans validated");
}
