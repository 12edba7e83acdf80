//! The agent's side: plans reach each client in the form it can read.
//!
//! Why one file over 500 lines: an integration test file is a binary of its
//! own, linked against the harness's dependencies (the SDK, proptest and
//! the rest), so each split costs CI a link; the tests here share
//! one subject and one set of helpers, and read best together.

mod common;

use std::io::{self, Write};

use plan_core::{
    PlanContent, PlanEntry, PlanId, Priority, SessionNotification, SessionUpdate, Status,
    agent::{Fallback, View},
    plan,
    wire::{ClientCapabilities, FileUri, Spelling},
};

fn caps(json: &str) -> ClientCapabilities {
    ClientCapabilities::from_json(json).unwrap()
}

fn sender(json: &str) -> plan_core::agent::PlanSender {
    plan_core::agent::PlanSender::new("sess_1", &caps(json))
}

/// The v1 entries a client without plan operations was sent, as (content, priority, status).
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
fn a_v1_plan_is_the_plan_main_and_each_client_gets_what_it_reads_of_it() {
    // `plan! { entries: [...] }` is a `Plan`; the sender takes it as is.
    let v1 = plan! { entries: [ high in_progress "Ship", low pending "Tag" ] };
    let mut without = sender("{}");
    let sent = without.update(v1.clone());
    assert_eq!(
        v1_entries(&sent),
        [
            row("Ship", "high", "in_progress"),
            row("Tag", "low", "pending")
        ]
    );
    let mut with = sender(r#"{"plan":{}}"#);
    let SessionUpdate::PlanUpdate { plan, .. } = with.update(v1.clone()).update else {
        panic!("a client that reads plan operations gets a plan_update")
    };
    assert_eq!(plan.id().as_str(), "main");
    assert_eq!(plan.entries().map(<[_]>::len), Some(2));
    // The same plan again is no change.
    assert!(with.update_if_changed(v1).is_none());
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
    let file = sender.update(PlanContent::file(
        PlanId::new("f").unwrap(),
        FileUri::new("file:///tmp/plan.md").unwrap(),
    ));
    assert_eq!(
        v1_entries(&file),
        [row("The plan is in /tmp/plan.md.", "medium", "pending")]
    );
    let custom = sender.update(plan! { id: "t", type: _timeline, fields: { "events": [] } });
    assert_eq!(
        v1_entries(&custom),
        [row("_timeline plan t", "medium", "pending")]
    );
}

#[test]
fn a_v1_only_client_sees_the_most_recently_updated_plan() {
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
        file: |id, uri| {
            PlanContent::items(
                id.clone(),
                [PlanEntry::new(
                    format!("Read {uri}"),
                    Priority::Low,
                    Status::Pending,
                )],
            )
        },
        ..Fallback::default()
    };
    let file = || {
        PlanContent::file(
            PlanId::new("f").unwrap(),
            FileUri::new("file:///p.md").unwrap(),
        )
    };
    let mut v1_only = sender("{}").with_fallback(fallback);
    v1_only.update(plan! { id: "a", items: [high cancelled "gone", high completed "done"] });
    let sent = v1_only.update(file());
    assert_eq!(
        v1_entries(&sent),
        [
            row("done", "high", "completed"),
            row("Read file:///p.md", "low", "pending")
        ]
    );
    // The same rule for a client of plan operations; `Fallback::file_as_is`
    // keeps the pre-stable plan, for a client known to read it.
    let mut operations = sender(r#"{"plan":{}}"#).with_fallback(fallback);
    let sent = operations.update(file());
    assert!(
        sent.to_json(Spelling::Acp)
            .contains(r#"{"type":"items","planId":"f","entries":[{"content":"Read file:///p.md""#)
    );
    let as_is = Fallback {
        file: Fallback::file_as_is,
        ..Fallback::default()
    };
    let sent = sender(r#"{"plan":{}}"#).with_fallback(as_is).update(file());
    assert_eq!(sent.update, SessionUpdate::plan_update(file()));
}

#[test]
fn every_fallback_message_validates_against_the_v1_schema() {
    let v1 = common::Schema::unstable(common::Version::V1).notification_validator();
    let mut sender = sender("{}");
    let updates = [
        plan! { id: "a", items: [high cancelled "x", _p _s "y", low in_progress "z"] },
        plan! { id: "m", markdown: "- [ ] one\n- [x] two" },
        PlanContent::file(
            PlanId::new("f").unwrap(),
            FileUri::new("file:///tmp/plan.md").unwrap(),
        ),
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
    sender
        .send_update(&mut out, plan! { id: "p", markdown: "x" })
        .unwrap();
    // What `send_update` writes without a copy is what `update` returns.
    let sent = self::sender(r#"{"plan":{}}"#).update(plan! { id: "p", markdown: "x" });
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

/// `send_update` writes, without copying, exactly the line of what
/// `update` returns, for every kind of client, whether the fallback maps
/// the plan or leaves it; and the live plans after it are the same.
#[test]
fn send_update_writes_what_update_returns_for_every_kind_of_client() {
    let plans = || {
        vec![
            plan! { id: "a", items: [high pending "one", medium in_progress "two"] },
            plan! { id: "a", items: [high cancelled "one", _u _s "two"] },
            plan! { id: "b", markdown: "- [ ] x", path: "/tmp/PLAN.md" },
            plan! { id: "c", type: _timeline, fields: { "events": [] } },
            PlanContent::file(
                PlanId::new("d").unwrap(),
                FileUri::new("file:///tmp/PLAN.md").unwrap(),
            ),
        ]
    };
    for profile in plan_core::fixtures::ClientProfile::every_kind() {
        let (mut writing, mut returning) = (profile.sender("s"), profile.sender("s"));
        for plan in plans() {
            let mut line = Vec::new();
            writing.send_update(&mut line, plan.clone()).unwrap();
            let returned = returning.update(plan);
            let mut expected = returned.to_json(profile.spelling());
            expected.push('\n');
            assert_eq!(String::from_utf8(line).unwrap(), expected, "{profile:?}");
            assert_eq!(writing.live_plans(), returning.live_plans(), "{profile:?}");
        }
    }
}

// ---- the version table: protocol × capability × plan variant/value -------

/// What the sender was asked to do, one column of the README's table each.
const CASES: [&str; 12] = [
    "known values",
    "cancelled",
    "custom priority",
    "custom status",
    "reserved values",
    "markdown",
    "markdown with a path",
    "file",
    "custom type",
    "reserved type",
    "remove a live plan",
    "remove a plan never sent",
];

/// Runs one case on a fresh sender; the notification it gives, if any.
fn send_case(mut sender: plan_core::agent::PlanSender, case: &str) -> Option<SessionNotification> {
    let read = |json: &str| plan_core::PlanContent::from_json(json).unwrap();
    let plan = match case {
        "known values" => plan! { id: "p", items: [high pending "a"] },
        "cancelled" => plan! { id: "p", items: [high cancelled "a"] },
        "custom priority" => plan! { id: "p", items: [_p pending "a"] },
        "custom status" => plan! { id: "p", items: [high _s "a"] },
        // Reserved names are never built, only read from some peer.
        "reserved values" => read(
            r#"{"type":"items","planId":"p","entries":[{"content":"a","priority":"urgent","status":"blocked"}]}"#,
        ),
        "markdown" => plan! { id: "p", markdown: "- [ ] a" },
        "markdown with a path" => plan! { id: "p", markdown: "- [ ] a", path: "/home/dev/PLAN.md" },
        "file" => read(r#"{"type":"file","planId":"p","uri":"file:///x"}"#),
        "custom type" => plan! { id: "p", type: _t, fields: { "n": 1 } },
        "reserved type" => read(r#"{"type":"timeline","planId":"p"}"#),
        "remove a live plan" => {
            sender.update(plan! { id: "p", items: [high pending "a"] });
            return sender.remove(&PlanId::new("p").unwrap());
        }
        "remove a plan never sent" => return sender.remove(&PlanId::new("q").unwrap()),
        other => unreachable!("{other}"),
    };
    Some(sender.update(plan))
}

/// A sent update in a few words: `plan [a high pending]`, `items p [...]`,
/// `markdown p`, `file p`, `_t p`, `removed p`.
fn describe(sent: Option<&SessionNotification>) -> String {
    let entries = |entries: &[PlanEntry]| {
        let each: Vec<String> = entries
            .iter()
            .map(|e| format!("{} {} {}", e.content, e.priority, e.status))
            .collect();
        format!("[{}]", each.join(", "))
    };
    let Some(sent) = sent else {
        return "nothing".to_owned();
    };
    match &sent.update {
        SessionUpdate::Plan(plan) => format!("plan {}", entries(&plan.entries)),
        SessionUpdate::PlanUpdate { plan, .. } => match (plan.entries(), plan.path()) {
            (Some(list), _) => format!("items {} {}", plan.id(), entries(list)),
            (None, Some(path)) => format!("{} {} at {path}", plan.type_name(), plan.id()),
            (None, None) => format!("{} {}", plan.type_name(), plan.id()),
        },
        SessionUpdate::PlanRemoved { id, .. } => format!("removed {id}"),
        SessionUpdate::Other(other) => format!("other {}", other.kind()),
    }
}

/// The modes of the sender: (name, sender, schema the messages must
/// validate against). No schema of the stabilized protocol is published
/// here, so plan operations are held to the newest published schema that
/// has them (v1 and v2 unstable: `markdown` and `plan_removed`, extra keys
/// such as `path` allowed), and to the stabilized rules by `check_for_client`.
fn modes() -> Vec<(&'static str, plan_core::agent::PlanSender, common::Schema)> {
    use common::{Schema, Version};
    use plan_core::{agent::PlanSender, wire::ProtocolVersion};
    let none = ClientCapabilities::default();
    let v1 = |json| PlanSender::with_protocol("sess_1", ProtocolVersion::V1, &caps(json));
    vec![
        ("v1, no capability", v1("{}"), Schema::stable(Version::V1)),
        (
            "v1, `plan: {}`",
            v1(r#"{"plan":{}}"#),
            Schema::unstable(Version::V1),
        ),
        (
            "v2",
            PlanSender::with_protocol("sess_1", ProtocolVersion::V2, &none),
            Schema::unstable(Version::V2),
        ),
        (
            "v1, `plan: {}`, a pre-stable SDK",
            v1(r#"{"plan":{}}"#).with_pre_stable_file(true),
            Schema::unstable(Version::V1),
        ),
    ]
}

// Over 80 lines: the version table itself, a row a mode, a cell a case.
#[test]
fn every_cell_of_the_version_table() {
    // One row per mode, one column per case, in the order of `CASES`.
    let expected: [[&str; 12]; 4] = [
        [
            "plan [a high pending]",
            "plan [a (cancelled) high completed]",
            "plan [a medium pending]",
            "plan [a high pending]",
            "plan [a medium pending]",
            "plan [a medium pending]",
            "plan [a medium pending]",
            "plan [The plan is in /x. medium pending]",
            "plan [_t plan p medium pending]",
            "plan [timeline plan p medium pending]",
            "plan []",
            "nothing",
        ],
        [
            "items p [a high pending]",
            "items p [a (cancelled) high completed]",
            "items p [a medium pending]",
            "items p [a high pending]",
            "items p [a medium pending]",
            "markdown p",
            "markdown p at /home/dev/PLAN.md",
            "markdown p at /x",
            "items p [_t plan p medium pending]",
            "items p [timeline plan p medium pending]",
            "removed p",
            "removed q",
        ],
        [
            "items p [a high pending]",
            "items p [a high cancelled]",
            "items p [a _p pending]",
            "items p [a high _s]",
            "items p [a medium pending]",
            "markdown p",
            "markdown p at /home/dev/PLAN.md",
            "markdown p at /x",
            "_t p",
            "items p [timeline plan p medium pending]",
            "removed p",
            "removed q",
        ],
        [
            "items p [a high pending]",
            "items p [a (cancelled) high completed]",
            "items p [a medium pending]",
            "items p [a high pending]",
            "items p [a medium pending]",
            "markdown p",
            "markdown p at /home/dev/PLAN.md",
            "file p",
            "items p [_t plan p medium pending]",
            "items p [timeline plan p medium pending]",
            "removed p",
            "removed q",
        ],
    ];
    for ((mode, sender, schema), row) in modes().into_iter().zip(expected) {
        let validator = schema.notification_validator();
        for (case, want) in CASES.iter().zip(row) {
            let sent = send_case(sender.clone(), case);
            assert_eq!(describe(sent.as_ref()), want, "{mode}: {case}");
            if let Some(sent) = sent {
                let value: serde_json::Value =
                    serde_json::from_str(&sent.to_json(sender.spelling())).unwrap();
                let errors = validator.notification_errors(&value);
                assert!(errors.is_empty(), "{mode}: {case}: {errors:#?}");
                // The stabilized rules of the client's row: only the
                // pre-stable opt-in may send `file`.
                let rules = sent.check_for_client(sender.client_kind());
                if describe(Some(&sent)).starts_with("file ") {
                    assert!(mode.ends_with("pre-stable SDK"), "{mode}: {case}");
                    let rules: Vec<&str> = rules
                        .unwrap_err()
                        .iter()
                        .map(plan_core::agent::Violation::rule)
                        .collect();
                    assert_eq!(rules, ["pre-stable-file"], "{mode}: {case}");
                } else {
                    assert_eq!(rules, Ok(()), "{mode}: {case}");
                }
            }
        }
    }
}

// Over 80 lines: one table of `initialize` requests, each with what it makes.
#[test]
fn the_sender_is_built_from_the_initialize_request_of_either_version() {
    use plan_core::{
        agent::{InitializeRequest, PlanSender},
        wire::ProtocolVersion,
    };
    let cases = [
        (
            r#"{"protocolVersion":1}"#,
            ProtocolVersion::V1,
            false,
            Spelling::Acp,
        ),
        (
            r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#,
            ProtocolVersion::V1,
            true,
            Spelling::Acp,
        ),
        (
            r#"{"protocolVersion":1,"clientCapabilities":{"planCapabilities":{}}}"#,
            ProtocolVersion::V1,
            true,
            Spelling::Rfd,
        ),
        // A malformed capability is absent, as the SDKs read it.
        (
            r#"{"protocolVersion":1,"clientCapabilities":{"plan":true}}"#,
            ProtocolVersion::V1,
            false,
            Spelling::Acp,
        ),
        (
            r#"{"protocolVersion":1,"clientCapabilities":"all"}"#,
            ProtocolVersion::V1,
            false,
            Spelling::Acp,
        ),
        (
            r#"{"protocolVersion":2,"info":{"name":"c","version":"1"},"capabilities":{}}"#,
            ProtocolVersion::V2,
            true,
            Spelling::Acp,
        ),
        (
            r#"{"protocolVersion":9}"#,
            ProtocolVersion::V2,
            true,
            Spelling::Acp,
        ),
    ];
    for (json, protocol, operations, spelling) in cases {
        let init = InitializeRequest::from_json(json).unwrap();
        // The same request whole, as text and as a parsed value: read alike.
        let whole = format!(r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{json}}}"#);
        let value: serde_json::Value = serde_json::from_str(&whole).unwrap();
        let from_whole = InitializeRequest::from_value(value).unwrap();
        assert_eq!(
            from_whole,
            InitializeRequest::from_json(&whole).unwrap(),
            "{json}"
        );
        // Only the paths of what was skipped differ: under `params`.
        for skipped in &from_whole.skipped {
            assert!(skipped.path().starts_with("params."), "{skipped}");
        }
        assert_eq!(from_whole.capabilities, init.capabilities, "{json}");
        assert_eq!(from_whole.skipped.len(), init.skipped.len(), "{json}");
        let sender = PlanSender::for_client("s", &init, ProtocolVersion::V2);
        assert_eq!(sender.protocol(), protocol, "{json}");
        assert_eq!(sender.supports_plan_operations(), operations, "{json}");
        assert_eq!(sender.spelling(), spelling, "{json}");
        assert_eq!(
            init.skipped.is_empty(),
            !json.contains("true") && !json.contains("all"),
            "{json}: {:?}",
            init.skipped
        );
    }
    for bad in [
        "{}",
        r#"{"protocolVersion":"1"}"#,
        r#"{"protocolVersion":-1}"#,
        "[",
        // Text that breaks off after a member: no request.
        r#"{"protocolVersion":1,"#,
        r#"{"protocolVersion":1"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"session/new","params":{}}"#,
        r#"{"jsonrpc":"1.0","id":1,"method":"initialize","params":{"protocolVersion":1}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
    ] {
        let from_text = InitializeRequest::from_json(bad).unwrap_err();
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(bad) {
            let from_value = InitializeRequest::from_value(value).unwrap_err();
            assert_eq!(from_value.to_string(), from_text.to_string(), "{bad}");
        }
    }
}

#[test]
fn each_violation_names_the_fallback_that_fixes_it() {
    let update = SessionUpdate::from_json(
        r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"_p","status":"cancelled"}]}"#,
    )
    .unwrap();
    let violations = update.check().unwrap_err();
    assert_eq!(violations.len(), 2);
    assert!(violations[0].fix().unwrap().contains("custom priority"));
    assert!(violations[1].fix().unwrap().contains("(cancelled)"));
    // The fix is the sender's own fallback, in the version table's words.
    for violation in &violations {
        assert!(
            Fallback::RULES
                .iter()
                .any(|(_, wording)| Some(*wording) == violation.fix()),
            "{violation:?}"
        );
    }
    // A rule no sender maps has no fix to offer.
    let blank = SessionUpdate::from_json(
        r#"{"sessionUpdate":"plan","entries":[{"content":" ","priority":"high","status":"pending"}]}"#,
    )
    .unwrap();
    assert_eq!(blank.check().unwrap_err()[0].fix(), None);
}

/// A v1 client without `plan`, as a proxy opts it in: the params come back
/// with `clientCapabilities.plan` written in and nothing else changed (the
/// same value as writing it into a parsed copy, and every other byte where
/// it was); any other client's params go on as they came.
#[test]
fn opting_in_writes_plan_into_a_v1_clients_params_and_changes_nothing_else() {
    use plan_core::agent::InitializeRequest;
    let opted_in = [
        (
            r#"{"protocolVersion":1}"#,
            r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#,
        ),
        (
            "{ \"protocolVersion\": 1, \"clientInfo\": {\"name\": \"}\"} }\n",
            "{ \"protocolVersion\": 1, \"clientInfo\": {\"name\": \"}\"} ,\"clientCapabilities\":{\"plan\":{}}}\n",
        ),
        (
            r#"{"clientCapabilities":null,"protocolVersion":1}"#,
            r#"{"clientCapabilities":{"plan":{}},"protocolVersion":1}"#,
        ),
        (
            r#"{"protocolVersion":1,"clientCapabilities":{ }}"#,
            r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#,
        ),
        (
            r#"{"protocolVersion":1,"clientCapabilities":{ "fs" : {"readTextFile":true} },"x":"}"}"#,
            r#"{"protocolVersion":1,"clientCapabilities":{ "fs" : {"readTextFile":true} ,"plan":{}},"x":"}"}"#,
        ),
        // v2's key read for a v1 offer, but `plan` goes where v1 agents look.
        (
            r#"{"protocolVersion":1,"capabilities":{"fs":{}}}"#,
            r#"{"protocolVersion":1,"capabilities":{"fs":{}},"clientCapabilities":{"plan":{}}}"#,
        ),
        // A `plan` read as absent is replaced, never written twice.
        (
            r#"{"protocolVersion":1,"clientCapabilities":{"terminal":true,"plan":null}}"#,
            r#"{"protocolVersion":1,"clientCapabilities":{"terminal":true,"plan":{}}}"#,
        ),
    ];
    for (params, expected) in opted_in {
        let (offer, written) = InitializeRequest::opting_in_to_plans(params).unwrap();
        assert_eq!(
            offer,
            InitializeRequest::from_json(params).unwrap(),
            "{params}"
        );
        assert!(!offer.capabilities.supports_plan_operations(), "{params}");
        let written = written.unwrap_or_else(|| panic!("not opted in: {params}"));
        assert_eq!(written, expected, "{params}");
        // The same value as writing `plan` into a parsed copy.
        let mut value: serde_json::Value = serde_json::from_str(params).unwrap();
        if !value["clientCapabilities"].is_object() {
            value["clientCapabilities"] = serde_json::json!({});
        }
        value["clientCapabilities"]["plan"] = serde_json::json!({});
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&written).unwrap(),
            value
        );
        let read_again = InitializeRequest::from_json(&written).unwrap();
        assert!(
            read_again.capabilities.supports_plan_operations(),
            "{written}"
        );
        assert!(read_again.skipped.is_empty(), "{written}");
    }
    // Already opted in (either spelling), another version, or a malformed
    // capability: as it came.
    for params in [
        r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#,
        r#"{"protocolVersion":1,"clientCapabilities":{"planCapabilities":{}}}"#,
        r#"{"protocolVersion":2,"clientCapabilities":{}}"#,
        r#"{"protocolVersion":1,"clientCapabilities":{"plan":42}}"#,
        r#"{"protocolVersion":1,"clientCapabilities":7}"#,
    ] {
        let (offer, written) = InitializeRequest::opting_in_to_plans(params).unwrap();
        assert_eq!(written, None, "{params}");
        assert_eq!(
            offer,
            InitializeRequest::from_json(params).unwrap(),
            "{params}"
        );
    }
    // A whole request is not its params; broken text is what from_json says.
    let whole = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}"#;
    let err = InitializeRequest::opting_in_to_plans(whole).unwrap_err();
    assert!(
        err.to_string().contains("found a whole JSON-RPC message"),
        "{err}"
    );
    for bad in [
        "{}",
        "[",
        r#"{"protocolVersion":1,"#,
        r#"{"protocolVersion":"1"}"#,
    ] {
        let opting = InitializeRequest::opting_in_to_plans(bad).unwrap_err();
        let reading = InitializeRequest::from_json(bad).unwrap_err();
        assert_eq!(opting.to_string(), reading.to_string(), "{bad}");
    }
}
