//! `plan!` builds the same value as plan-core's builders, and `plan_json!`
//! writes byte for byte what plan-core's serializer writes for it, in both
//! spellings: one truth, two producers.

// `const` plans sit next to the assertions that use them.
#![allow(clippy::items_after_statements)]

mod common;

use plan_core::{
    AbsolutePath, Meta, Plan, PlanContent, PlanEntry, PlanId, Priority, SessionNotification,
    SessionUpdate, Status,
    agent::StaticUpdate,
    plan, plan_json,
    wire::{CustomName, FileUri, Spelling},
};
use serde_json::json;

/// Checks one all-literal plan: `plan!` equals `$expected`, and `plan_json!`
/// equals the serializer's output for it in both spellings.
macro_rules! same {
    ($expected:expr, { $($plan:tt)* }) => {{
        let built = plan! { $($plan)* };
        assert_eq!(built, $expected);
        const JSON: StaticUpdate = plan_json! { $($plan)* };
        let update: SessionUpdate = built.into();
        for spelling in [Spelling::Rfd, Spelling::Acp] {
            assert_eq!(JSON.json(spelling), update.to_json(spelling), "{spelling}");
        }
    }};
}

fn id(id: &'static str) -> PlanId {
    PlanId::new(id).unwrap()
}

fn custom<T: From<CustomName>>(name: &'static str) -> T {
    CustomName::new(name).unwrap().into()
}

fn meta(value: serde_json::Value) -> Meta {
    Meta::from_value(value).unwrap()
}

#[test]
fn items_plans() {
    same!(
        PlanContent::items(id("plan-1"), [
            PlanEntry::new("Analyze", Priority::High, Status::Pending),
            PlanEntry::new("Refactor", Priority::Medium, Status::InProgress),
            PlanEntry::new("Test", Priority::Low, Status::Completed),
            PlanEntry::new("Ship", Priority::Low, Status::Cancelled),
        ]),
        {
            id: "plan-1",
            items: [
                high pending "Analyze",
                medium in_progress "Refactor",
                low completed "Test",
                low cancelled "Ship",
            ],
        }
    );
    // Keys in any order, no trailing comma, names as strings, an empty list.
    same!(
        PlanContent::items(id("p"), [PlanEntry::new("a", Priority::High, Status::Pending)]),
        { items: ["high" "pending" "a"], id: "p" }
    );
    same!(PlanContent::items(id("empty"), []), { id: "empty", items: [] });
}

#[test]
fn custom_priorities_and_statuses() {
    same!(
        PlanContent::items(id("p"), [
            PlanEntry::new("a", custom("_urgent"), custom("_blocked")),
            PlanEntry::new("b", custom("_x-y"), custom("_on hold")),
        ]),
        { id: "p", items: [ _urgent _blocked "a", "_x-y" "_on hold" "b" ] }
    );
}

#[test]
fn text_is_escaped_as_serde_json_escapes_it() {
    same!(
        PlanContent::markdown(id("notes"), "## Steps\n- [ ] \"Refactor\" \\ module\t✓ é 🚀\u{1}"),
        { id: "notes", markdown: "## Steps\n- [ ] \"Refactor\" \\ module\t✓ é 🚀\u{1}" }
    );
    same!(
        PlanContent::items(id("raw"), [PlanEntry::new(r#"say "hi""#, Priority::Low, Status::Pending)]),
        { id: "raw", items: [low pending r#"say "hi""#] }
    );
}

#[test]
fn markdown_plans_with_a_path() {
    same!(
        PlanContent::markdown_at(
            id("design-doc"),
            "# Design",
            AbsolutePath::new("/home/dev/project/PLAN.md").unwrap()
        ),
        { id: "design-doc", markdown: "# Design", path: "/home/dev/project/PLAN.md" }
    );
    same!(
        PlanContent::markdown_at(id("w"), "x", AbsolutePath::new("C:\\dev\\PLAN \"1\".md").unwrap()),
        { id: "w", markdown: "x", path: "C:\\dev\\PLAN \"1\".md" }
    );
}

#[test]
fn custom_plan_types_with_fields() {
    let fields = json!({"events": [1, -2, true, null, "x", {"z": {}, "a": []}], "Zeta": "é"});
    same!(
        PlanContent::custom(custom("_timeline"), id("t"), fields.as_object().unwrap().clone()).unwrap(),
        { id: "t", type: _timeline, fields: { "events": [1, -2, true, null, "x", {"z": {}, "a": []}], "Zeta": "é" } }
    );
    same!(
        PlanContent::custom(custom("_board"), id("b"), serde_json::Map::new()).unwrap(),
        { id: "b", type: "_board" }
    );
}

#[test]
fn meta_on_plans_and_entries() {
    same!(
        PlanContent::items(id("m"), [
            PlanEntry::new("a", Priority::High, Status::Pending).with_meta(meta(json!({"estimate": 3}))),
        ])
        .with_meta(meta(json!({"turn": 1, "by": "agent"}))),
        { id: "m", items: [ high pending "a" meta: { "estimate": 3 } ], meta: { "turn": 1, "by": "agent" } }
    );
    same!(
        Plan { entries: vec![PlanEntry::new("a", Priority::Low, Status::Completed)], meta: Some(meta(json!({}))) },
        { entries: [low completed "a"], meta: {} }
    );
}

#[test]
fn v1_plans() {
    same!(
        Plan::new([
            PlanEntry::new("Old-style plan", Priority::Low, Status::Completed),
            PlanEntry::new("Next", Priority::High, Status::InProgress),
        ]),
        { entries: [ low completed "Old-style plan", high in_progress "Next" ] }
    );
}

#[test]
fn run_time_parts_go_through_the_checked_types() {
    let module = "auth";
    let plan_id = PlanId::new(format!("plan-{}", 7)).unwrap();
    let priority = Priority::custom("_stretch").unwrap();
    let trace = "abc";

    let built = plan! {
        id: { plan_id.clone() },
        items: [
            { priority.clone() } { Status::InProgress } { format!("Fix the {module} module") },
            high pending "Literal" meta: { "trace": trace },
        ],
        meta: { "count": 1 + 1 },
    };
    let expected = PlanContent::items(
        plan_id,
        [
            PlanEntry::new("Fix the auth module", priority, Status::InProgress),
            PlanEntry::new("Literal", Priority::High, Status::Pending)
                .with_meta(meta(json!({"trace": "abc"}))),
        ],
    )
    .with_meta(meta(json!({"count": 2})));
    assert_eq!(built, expected);

    let path = AbsolutePath::new(format!("/home/dev/{}.md", "design")).unwrap();
    let doc = plan! { id: "doc", markdown: "# Design", path: { path.clone() } };
    assert_eq!(doc, PlanContent::markdown_at(id("doc"), "# Design", path));
    let text = String::from("generated at run time");
    let notes = plan! { id: "n", markdown: { text } };
    assert_eq!(
        notes,
        PlanContent::markdown(id("n"), "generated at run time")
    );
}

/// The source documents' JSON without the white space between tokens: the
/// same bytes, in the documents' key order.
fn compact(text: &str) -> String {
    let mut out = String::new();
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if !c.is_whitespace() {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

fn example(name: &str) -> String {
    let files = common::json_files("spec/examples");
    let (_, text) = files.into_iter().find(|(n, _)| n == name).unwrap();
    compact(&text)
}

#[test]
fn the_source_documents_examples_byte_for_byte() {
    let items = plan! {
        id: "plan-1",
        items: [
            high pending "Analyze the existing codebase structure",
            high pending "Identify components that need refactoring",
            medium pending "Create unit tests for critical functions",
        ],
    };
    let message = SessionNotification::new("sess_abc123def456", items.into());
    assert_eq!(
        message.to_json(Spelling::Rfd),
        example("v2-items-create.notification.json")
    );

    const MARKDOWN: StaticUpdate =
        plan_json! { id: "plan-1", markdown: "## Steps\n- [ ] Refactor module\n- [ ] Add tests" };
    assert_eq!(
        MARKDOWN.json(Spelling::Rfd),
        example("rfd-plan-update-markdown.update.json")
    );
    // The RFD's file example has no `plan!` form (`file` plans are gone
    // from the stabilized protocol); the types still write it byte for byte.
    let file = SessionUpdate::plan_update(PlanContent::file(
        id("design-doc"),
        FileUri::new("file:///tmp/plan.md").unwrap(),
    ));
    assert_eq!(
        file.to_json(Spelling::Rfd),
        example("rfd-plan-update-file.update.json")
    );
    const ITEMS: StaticUpdate = plan_json! { id: "plan-1", items: [high pending "Step 1"] };
    assert_eq!(
        ITEMS.json(Spelling::Rfd),
        example("rfd-plan-update-items.update.json")
    );
    const V1: StaticUpdate = plan_json! { entries: [high pending "Step 1"] };
    assert_eq!(V1.json(Spelling::Rfd), example("rfd-plan-v1.update.json"));

    let mut line = Vec::new();
    const CREATE: StaticUpdate = plan_json! {
        entries: [
            high pending "Analyze the existing codebase structure",
            high pending "Identify components that need refactoring",
            medium pending "Create unit tests for critical functions",
        ],
    };
    CREATE
        .write_notification(&mut line, &"sess_abc123def456".into(), Spelling::Rfd)
        .unwrap();
    assert_eq!(
        String::from_utf8(line).unwrap(),
        example("v1-create.notification.json")
    );
}

#[test]
fn static_notifications_escape_the_session_id() {
    const P: StaticUpdate = plan_json! { id: "p", markdown: "x" };
    let session = plan_core::SessionId::new("sess \"quoted\"\n");
    let mut line = Vec::new();
    P.write_notification(&mut line, &session, Spelling::Acp)
        .unwrap();
    let built = SessionNotification::new(session, plan! { id: "p", markdown: "x" }.into());
    assert_eq!(
        String::from_utf8(line).unwrap(),
        built.to_json(Spelling::Acp)
    );
}
