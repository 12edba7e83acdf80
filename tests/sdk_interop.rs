//! What we write, the published SDK reads; what it writes, we read.
//!
//! The judge is the official Rust SDK (`agent-client-protocol` 5.2.0, as
//! `cargo add` gives it today) through the schema types it re-exports
//! (`agent_client_protocol::v1::schema`, `::v2::schema`, schema 1.17.0): its v1 reader for messages sent under protocol v1, its
//! v2 reader for v2. Every message must parse with the reader of its version
//! **with no entry dropped and no value changed**: the SDK's own
//! serialization of what it read equals what we sent, and the entries are
//! counted before and after (the SDK readers skip entries they cannot read
//! without a word). Then the other way: a plan lifecycle built with the SDK's
//! types, serialized by the SDK, reads into a `PlanBoard` whose plans are
//! exactly the SDK's.

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/agent.rs"]
mod agent;
mod common;
#[path = "common/talk.rs"]
mod talk;

use agent_client_protocol::{v1::schema as acp1, v2::schema as acp2};
use plan_core::{
    PlanContent, PlanId, SessionNotification,
    agent::PlanSender,
    client::PlanBoard,
    plan,
    wire::{ClientCapabilities, FileUri, ProtocolVersion, Spelling},
};
use serde_json::Value;

use common::sdk::sdk_reads;

/// A scenario that uses every variant and value an agent may build.
fn scenario(sender: &mut PlanSender) -> Vec<SessionNotification> {
    let mut sent = vec![
        sender.update(plan! {
            id: "work",
            items: [
                high pending "Analyze" meta: { "step": 1, "tags": ["a", "b"] },
                medium in_progress "Refactor",
                low completed "Ship",
                high cancelled "Polish",
                _stretch _blocked "Celebrate",
            ],
        }),
        sender.update(plan! { id: "notes", markdown: "## Notes\n- [ ] Ask\n- [x] Read" }),
        sender.update(
            plan! { id: "design", markdown: "# Design\n- [ ] Draft", path: "/home/dev/PLAN.md" },
        ),
        // A pre-stable `file` plan, built with the types: mapped unless the
        // client is known to read it.
        sender.update(PlanContent::file(
            PlanId::new("doc").unwrap(),
            FileUri::new("file:///tmp/design%20doc.md").unwrap(),
        )),
        // The same id, another type: the plan is replaced.
        sender.update(plan! { id: "design", items: [high completed "Draft"] }),
        sender.update(plan! { id: "timeline", type: _timeline, fields: { "events": [1, 2] } }),
        sender.update(plan! { id: "empty", items: [] }),
    ];
    sent.extend(sender.remove(&PlanId::new("notes").unwrap()));
    sent.extend(sender.remove(&PlanId::new("never-sent").unwrap()));
    sent
}

fn modes() -> Vec<(&'static str, PlanSender)> {
    let v1 = |json: &str| {
        let caps = ClientCapabilities::from_json(json).unwrap();
        PlanSender::with_protocol("sess_1", ProtocolVersion::V1, &caps)
    };
    let none = ClientCapabilities::default();
    vec![
        ("v1 without the plan capability", v1("{}")),
        ("v1 with `plan: {}`", v1(r#"{"plan":{}}"#)),
        (
            "v2",
            PlanSender::with_protocol("sess_1", ProtocolVersion::V2, &none),
        ),
        (
            "v1 with `plan: {}`, a pre-stable SDK",
            v1(r#"{"plan":{}}"#).with_pre_stable_file(true),
        ),
    ]
}

#[test]
fn every_mode_of_the_sender_is_read_by_the_sdk_of_its_version() {
    for (mode, mut sender) in modes() {
        let mut kinds = Vec::new();
        for notification in scenario(&mut sender) {
            let line = notification.to_json(sender.spelling());
            kinds.push(sdk_reads(&line, sender.protocol(), mode));
        }
        // Each mode sends what its version knows, nothing else.
        let expected: &[&str] = match mode {
            "v1 without the plan capability" => &["plan"],
            _ => &["plan_removed", "plan_update"],
        };
        let lines: Vec<String> = scenario(&mut sender.clone())
            .iter()
            .map(|n| n.to_json(sender.spelling()))
            .collect();
        let files = lines
            .iter()
            .filter(|l| l.contains(r#""type":"file""#))
            .count();
        if mode.ends_with("a pre-stable SDK") {
            assert_eq!(files, 1, "{mode}: the opt-in sends `file` as it is");
        } else {
            assert_eq!(files, 0, "{mode}: no `file` plan by default: {lines:#?}");
        }
        kinds.sort();
        kinds.dedup();
        assert_eq!(kinds, expected, "{mode}");
    }
}

#[test]
fn the_agent_example_is_read_by_the_sdk_in_every_mode() {
    for (protocol, plan_capability) in [
        (ProtocolVersion::V1, true),
        (ProtocolVersion::V1, false),
        (ProtocolVersion::V2, true),
    ] {
        let mode = format!("{protocol}, plan capability: {plan_capability}");
        let talk = talk::converse({
            let mut opts = acp_plan::BoardOptions::default();
            opts.json = true;
            opts.protocol = protocol;
            opts.plan_capability = plan_capability;
            opts
        });
        let updates: Vec<&String> = talk
            .agent_lines
            .iter()
            .filter(|line| line.contains(r#""method":"session/update""#))
            .collect();
        assert!(updates.len() >= 9, "{mode}: {}", updates.len());
        let mut kinds: Vec<String> = updates
            .iter()
            .map(|line| sdk_reads(line, protocol, &mode))
            .collect();
        kinds.sort();
        kinds.dedup();
        let expected: &[&str] = match (protocol, plan_capability) {
            (ProtocolVersion::V1, false) => &["plan"],
            (ProtocolVersion::V1, true) => &["plan_removed", "plan_update"],
            (ProtocolVersion::V2, _) => &[
                "plan_removed",
                "plan_update",
                "state_update",
                "user_message",
            ],
        };
        assert_eq!(kinds, expected, "{mode}");
    }
}

#[test]
fn the_acp_fixtures_are_read_by_the_sdk_and_the_rfd_fixture_is_not() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    // A derived plan's lifecycle, custom priority `_stretch` included: v2
    // content (the v1 reader drops that entry), and `plan_removed` (v2 unstable).
    let acp = std::fs::read_to_string(dir.join("refactor-lifecycle.acp.ndjson")).unwrap();
    for line in acp.lines() {
        sdk_reads(line, ProtocolVersion::V2, "refactor-lifecycle.acp.ndjson");
    }
    // The RFD spelling is read by us, never by the SDK: why it is not the default.
    let rfd = std::fs::read_to_string(dir.join("refactor-lifecycle.rfd.ndjson")).unwrap();
    let first = rfd.lines().next().unwrap();
    assert!(SessionNotification::from_json(first).is_ok());
    let params = serde_json::from_str::<Value>(first).unwrap()["params"].clone();
    let err = serde_json::from_value::<acp1::SessionNotification>(params).unwrap_err();
    assert!(err.to_string().contains("planId"), "{err}");
}

// ---- the other way: the SDK writes, the board reads ------------------------

/// Applies each SDK-written `params` to a board, as a JSON-RPC line.
fn board_reads(board: &mut PlanBoard, params: &Value) {
    let line = serde_json::json!({"jsonrpc": "2.0", "method": "session/update", "params": params});
    board
        .apply_json(&line.to_string())
        .unwrap_or_else(|e| panic!("the board refuses the SDK's {line}: {e}"));
}

/// The board's plans as (id, the plan's ACP JSON), in order.
fn board_plans(board: &PlanBoard) -> Vec<(String, Value)> {
    board
        .plans()
        .map(|p| (p.id().to_string(), p.content().to_value(Spelling::Acp)))
        .collect()
}

#[test]
fn a_lifecycle_written_with_the_sdks_v2_types_reads_into_the_same_board() {
    use acp2::{
        PlanEntry, PlanEntryPriority as P, PlanEntryStatus as S, PlanFile, PlanItems, PlanMarkdown,
        PlanRemoved, PlanUpdate, PlanUpdateContent, SessionUpdate, UpdateSessionNotification,
    };
    let entries = |statuses: [S; 3]| {
        let [a, b, c] = statuses;
        vec![
            PlanEntry::new("Analyze", P::High, a),
            PlanEntry::new("Refactor", P::Medium, b),
            PlanEntry::new("Polish", P::Other("_stretch".into()), c),
        ]
    };
    let items = |statuses| PlanUpdateContent::Items(PlanItems::new("work", entries(statuses)));
    let updates = [
        SessionUpdate::PlanUpdate(PlanUpdate::new(items([S::Pending, S::Pending, S::Pending]))),
        SessionUpdate::PlanUpdate(PlanUpdate::new(PlanUpdateContent::Markdown(
            PlanMarkdown::new("notes", "- [ ] Ask"),
        ))),
        SessionUpdate::PlanUpdate(PlanUpdate::new(PlanUpdateContent::File(PlanFile::new(
            "doc",
            "file:///tmp/plan.md",
        )))),
        SessionUpdate::PlanUpdate(PlanUpdate::new(items([
            S::Completed,
            S::InProgress,
            S::Pending,
        ]))),
        SessionUpdate::PlanRemoved(PlanRemoved::new("notes")),
        SessionUpdate::PlanUpdate(PlanUpdate::new(items([
            S::Completed,
            S::Completed,
            S::Cancelled,
        ]))),
    ];
    let mut board = PlanBoard::new("sess_1");
    // What the SDK's client would hold: the last content of each live plan.
    let mut model: Vec<(String, Value)> = Vec::new();
    for update in updates {
        match &update {
            SessionUpdate::PlanUpdate(u) => {
                let value = serde_json::to_value(&u.plan).unwrap();
                let id = value["planId"].as_str().unwrap().to_owned();
                match model.iter_mut().find(|(known, _)| *known == id) {
                    Some(slot) => slot.1 = value,
                    None => model.push((id, value)),
                }
            }
            SessionUpdate::PlanRemoved(r) => model.retain(|(id, _)| **id != *r.plan_id.0),
            _ => unreachable!(),
        }
        let params =
            serde_json::to_value(UpdateSessionNotification::new("sess_1", update)).unwrap();
        board_reads(&mut board, &params);
    }
    assert_eq!(board_plans(&board), model);
    assert_eq!(board.plans().count(), 2);
}

#[test]
fn a_lifecycle_written_with_the_sdks_v1_types_reads_into_the_same_board() {
    use acp1::{
        Plan, PlanEntry, PlanEntryPriority as P, PlanEntryStatus as S, PlanItems, PlanUpdate,
        PlanUpdateContent, SessionNotification as Sdk, SessionUpdate,
    };
    let entries = |a, b| {
        vec![
            PlanEntry::new("Analyze", P::High, a),
            PlanEntry::new("Refactor", P::Low, b),
        ]
    };
    let mut board = PlanBoard::new("sess_1");
    for (a, b) in [(S::Pending, S::Pending), (S::Completed, S::InProgress)] {
        let params = serde_json::to_value(Sdk::new(
            "sess_1",
            SessionUpdate::Plan(Plan::new(entries(a, b))),
        ))
        .unwrap();
        board_reads(&mut board, &params);
    }
    let items =
        PlanUpdateContent::Items(PlanItems::new("work", entries(S::Completed, S::Completed)));
    let params = serde_json::to_value(Sdk::new(
        "sess_1",
        SessionUpdate::PlanUpdate(PlanUpdate::new(items.clone())),
    ))
    .unwrap();
    board_reads(&mut board, &params);

    let plans = board_plans(&board);
    assert_eq!(
        plans.len(),
        2,
        "the v1 plan and the plan `work` live side by side"
    );
    assert_eq!(
        plans[1],
        ("work".to_owned(), serde_json::to_value(&items).unwrap())
    );
    let v1_plan = board.plans().next().unwrap();
    assert!(v1_plan.is_v1_plan());
    let expected = serde_json::to_value(entries(S::Completed, S::InProgress)).unwrap();
    let PlanContent::Items { entries, .. } = v1_plan.content() else {
        panic!("the v1 plan is entries")
    };
    assert_eq!(serde_json::to_value(entries).unwrap(), expected);
}

// ---- the board's `initialize`, as each reader takes it ----------------------

#[test]
fn the_boards_initialize_says_plan_to_v1_readers_in_both_offers() {
    use common::{Schema, Version};
    let initialize = |protocol, plan_capability| {
        acp_plan::harness::initialize_params(&{
            let mut opts = acp_plan::BoardOptions::default();
            opts.protocol = protocol;
            opts.plan_capability = plan_capability;
            opts
        })
    };
    let v1 = initialize(ProtocolVersion::V1, true);
    let v2 = initialize(ProtocolVersion::V2, true);
    // Each validates against its version's schemas (v2's allows extra keys).
    for (params, version) in [(&v1, Version::V1), (&v2, Version::V2)] {
        for schema in [Schema::stable(version), Schema::unstable(version)] {
            let errors = schema.validator("InitializeRequest").errors(params);
            assert!(errors.is_empty(), "{params}: {errors:#?}");
        }
    }
    // A v1 reader of the raw request (the SDK's v1 type, as the Python SDK
    // 0.12.1 reads it) hears `plan` in both, and a v2 reader reads the offer.
    for params in [&v1, &v2] {
        let read: acp1::InitializeRequest = serde_json::from_value(params.clone()).unwrap();
        assert!(read.client_capabilities.plan.is_some(), "{params}");
    }
    let read: acp2::InitializeRequest = serde_json::from_value(v2.clone()).unwrap();
    assert_eq!(read.protocol_version.as_u16(), 2);
    // Without the capability, neither says it.
    let v1_only: acp1::InitializeRequest =
        serde_json::from_value(initialize(ProtocolVersion::V1, false)).unwrap();
    assert!(v1_only.client_capabilities.plan.is_none());
}

/// A new user's first step on the SDK: our notification into the SDK's own
/// type and back, byte for byte; a markdown plan's `path`, which the SDK's
/// schema cannot hold, refused by the conversion but kept when our
/// notification goes through the SDK's connection as it is.
#[test]
fn a_notification_crosses_into_the_sdks_types_byte_for_byte_and_a_path_is_never_dropped() {
    use agent_client_protocol::JsonRpcMessage;

    let ours = SessionNotification::new(
        "sess_1",
        plan! { id: "work", items: [high in_progress "Analyze" meta: { "step": 1 }, low pending "Ship"] }
            .into(),
    );
    let theirs = acp1::SessionNotification::try_from(&ours).unwrap();
    assert_eq!(
        serde_json::to_string(&theirs).unwrap(),
        serde_json::to_string(&ours.to_value(Spelling::Acp)["params"]).unwrap(),
        "the SDK writes what we write"
    );
    assert_eq!(SessionNotification::try_from(&theirs).unwrap(), ours);

    let with_path = SessionNotification::new(
        "sess_1",
        plan! { id: "notes", markdown: "# Notes", path: "/home/dev/PLAN.md" }.into(),
    );
    let err = acp1::SessionNotification::try_from(&with_path).unwrap_err();
    assert_eq!(err.path(), "params.update.plan.path");
    // `?` in an SDK handler: the error is the SDK's invalid params.
    let sdk_error: agent_client_protocol::Error = err.into();
    assert_eq!(
        sdk_error.code,
        agent_client_protocol::Error::invalid_params().code
    );
    // Sent as it is, our notification keeps the path, and reads back whole.
    let message = with_path.to_untyped_message().unwrap();
    assert_eq!(
        message.params["update"]["plan"]["path"],
        "/home/dev/PLAN.md"
    );
    let read = SessionNotification::parse_message(&message.method, &message.params).unwrap();
    assert_eq!(read, with_path);
}
