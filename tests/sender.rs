//! The agent's side: plans reach each client in the form it can read.

mod common;

use std::io::{self, Write};

use plan_core::{
    ClientCapabilities, Fallback, PlanEntry, PlanId, Priority, SessionNotification, SessionUpdate,
    Spelling, Status, View, plan,
};

fn caps(json: &str) -> ClientCapabilities {
    ClientCapabilities::from_json(json).unwrap()
}

fn sender(json: &str) -> plan_core::PlanSender {
    plan_core::PlanSender::new("sess_1", &caps(json))
}

/// The v1 entries a legacy client was sent, as (content, priority, status).
fn v1_entries(sent: &SessionNotification) -> Vec<(String, String, String)> {
    let SessionUpdate::Plan(plan) = &sent.update else {
        panic!("not a v1 plan: {sent:?}")
    };
    assert_eq!(sent.check(), Ok(()), "every fallback message is valid v1");
    plan.entries
        .iter()
        .map(|e| {
            (
                e.content.to_string(),
                e.priority.to_string(),
                e.status.to_string(),
            )
        })
        .collect()
}

fn row(content: &str, priority: &str, status: &str) -> (String, String, String) {
    (content.to_owned(), priority.to_owned(), status.to_owned())
}

#[test]
fn clients_with_the_capability_get_plan_operations_in_their_spelling() {
    for (json, spelling) in [
        (r#"{"plan":{}}"#, Spelling::Acp),
        (r#"{"planCapabilities":{}}"#, Spelling::Rfd),
    ] {
        let mut sender = sender(json);
        assert!(sender.supports_plan_operations());
        assert_eq!(sender.spelling(), spelling);
        let sent = sender.update(plan! { id: "p", items: [high cancelled "x", _u _s "y"] });
        assert!(
            matches!(&sent.update, SessionUpdate::PlanUpdate { plan, .. } if plan.entries().unwrap().len() == 2)
        );
        let line = sent.to_json(sender.spelling());
        assert_eq!(
            line.contains(r#""planId":"p""#),
            spelling == Spelling::Acp,
            "{line}"
        );

        let removed = sender.remove(&PlanId::new("p").unwrap()).unwrap();
        assert!(matches!(removed.update, SessionUpdate::PlanRemoved { .. }));
        // Removing an unknown id is harmless for the client, so it is sent.
        assert!(sender.remove(&PlanId::new("never").unwrap()).is_some());
    }
}

#[test]
fn clients_without_it_get_v1_plans() {
    for json in [
        "{}",
        r#"{"plan":null}"#,
        r#"{"planCapabilities":null,"fs":{}}"#,
    ] {
        let mut sender = sender(json);
        assert!(!sender.supports_plan_operations(), "{json}");
        let sent = sender.update(plan! { id: "p", items: [high pending "a"] });
        assert_eq!(v1_entries(&sent), [row("a", "high", "pending")]);
    }
}

#[test]
fn the_fallback_maps_v2_values_onto_v1s_closed_sets() {
    let mut sender = sender("{}");
    let sent = sender.update(plan! { id: "p", items: [
        high pending "kept",
        medium in_progress "kept too",
        low completed "done",
        high cancelled "dropped work",
        _urgent _blocked "custom",
    ] });
    assert_eq!(
        v1_entries(&sent),
        [
            row("kept", "high", "pending"),
            row("kept too", "medium", "in_progress"),
            row("done", "low", "completed"),
            row("dropped work (cancelled)", "high", "completed"),
            row("custom", "medium", "pending"),
        ]
    );
}

#[test]
fn other_plan_types_become_entries() {
    let mut sender = sender("{}");
    let checklist =
        sender.update(plan! { id: "m", markdown: "## Steps\n- [x] Refactor\n- [ ] Add tests" });
    assert_eq!(
        v1_entries(&checklist),
        [
            row("Refactor", "medium", "completed"),
            row("Add tests", "medium", "pending")
        ]
    );
    let prose = sender.update(plan! { id: "m2", markdown: "\n# Rewrite the parser\nThen ship." });
    assert_eq!(
        v1_entries(&prose),
        [row("Rewrite the parser", "medium", "pending")]
    );
    let empty = sender.update(plan! { id: "m3", markdown: "" });
    assert_eq!(v1_entries(&empty), []);
    let file = sender.update(plan! { id: "f", file: "file:///tmp/plan.md" });
    assert_eq!(
        v1_entries(&file),
        [row("Plan: file:///tmp/plan.md", "medium", "pending")]
    );
    let custom = sender.update(plan! { id: "t", type: _timeline, fields: { "events": [] } });
    assert_eq!(
        v1_entries(&custom),
        [row("_timeline plan t", "medium", "pending")]
    );
}

#[test]
fn a_legacy_client_sees_the_most_recently_updated_plan() {
    let mut sender = sender("{}");
    let a = || plan! { id: "a", items: [high pending "A"] };
    let b = || plan! { id: "b", items: [low pending "B"] };
    assert_eq!(
        v1_entries(&sender.update(a())),
        [row("A", "high", "pending")]
    );
    assert_eq!(
        v1_entries(&sender.update(b())),
        [row("B", "low", "pending")]
    );
    assert_eq!(
        v1_entries(&sender.update(a())),
        [row("A", "high", "pending")]
    );
    // Removing the plan on show shows the next most recent; the last removal empties the plan.
    assert_eq!(
        v1_entries(&sender.remove(&PlanId::new("a").unwrap()).unwrap()),
        [row("B", "low", "pending")]
    );
    assert_eq!(
        v1_entries(&sender.remove(&PlanId::new("b").unwrap()).unwrap()),
        []
    );
    // A plan the client never saw: nothing to send.
    assert_eq!(sender.remove(&PlanId::new("b").unwrap()), None);
    assert!(sender.live_plans().is_empty());
}

#[test]
fn every_fallback_rule_can_be_replaced() {
    let fallback = Fallback {
        view: View::All,
        entry: |e| {
            (e.status != Status::Cancelled)
                .then(|| Fallback::default_entry(e))
                .flatten()
        },
        file: |uri| {
            vec![PlanEntry::new(
                format!("Read {uri}"),
                Priority::Low,
                Status::Pending,
            )]
        },
        ..Fallback::default()
    };
    let mut sender = sender("{}").with_fallback(fallback);
    sender.update(plan! { id: "a", items: [high cancelled "gone", high completed "done"] });
    let sent = sender.update(plan! { id: "f", file: "file:///p.md" });
    assert_eq!(
        v1_entries(&sent),
        [
            row("done", "high", "completed"),
            row("Read file:///p.md", "low", "pending")
        ]
    );
}

#[test]
fn every_fallback_message_validates_against_the_v1_schema() {
    let v1 = common::Schema::unstable(common::Version::V1).notification_validator();
    let mut sender = sender("{}");
    let updates = [
        plan! { id: "a", items: [high cancelled "x", _p _s "y", low in_progress "z"] },
        plan! { id: "m", markdown: "- [ ] one\n- [x] two" },
        plan! { id: "f", file: "file:///tmp/plan.md" },
        plan! { id: "t", type: _timeline },
    ];
    for plan in updates {
        let sent = sender.update(plan).to_value(Spelling::Acp);
        assert_eq!(v1.notification_errors(&sent), Vec::<String>::new());
    }
}

/// A writer whose reader has gone away.
struct ClosedPipe;

impl Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::ErrorKind::BrokenPipe.into())
    }
    fn flush(&mut self) -> io::Result<()> {
        Err(io::ErrorKind::BrokenPipe.into())
    }
}

#[test]
fn a_closed_pipe_is_an_error_not_a_panic() {
    let mut sender = sender(r#"{"plan":{}}"#);
    let err = sender
        .send_update(ClosedPipe, plan! { id: "p", markdown: "x" })
        .unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
    assert_eq!(
        sender.live_plans().len(),
        1,
        "the plan is live all the same"
    );
    let err = sender
        .send_remove(ClosedPipe, &PlanId::new("p").unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
}

#[test]
fn lines_written_are_ndjson_in_the_clients_spelling() {
    let mut sender = sender(r#"{"plan":{}}"#);
    let mut out = Vec::new();
    let sent = sender
        .send_update(&mut out, plan! { id: "p", markdown: "x" })
        .unwrap();
    sender
        .send_remove(&mut out, &PlanId::new("p").unwrap())
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(text.ends_with('\n'));
    assert_eq!(lines[0], sent.to_json(Spelling::Acp));
    assert!(lines[1].contains(r#""planId":"p""#));
}
