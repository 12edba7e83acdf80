//! The client's side: a board applies updates in order, as SPEC.md says a
//! client must, and never panics or changes on bad input.

mod common;

use plan_core::{
    Applied, PlanBoard, PlanContent, PlanId, SessionBoards, SessionNotification, SessionUpdate,
    Spelling, Status, plan,
};
use proptest::prelude::*;

fn line(session: &str, update: SessionUpdate) -> String {
    SessionNotification::new(session.to_owned(), update).to_json(Spelling::Acp)
}

fn id(id: &'static str) -> PlanId {
    PlanId::new(id).unwrap()
}

fn ids(board: &PlanBoard) -> Vec<&str> {
    board.plans().map(|p| p.id().as_str()).collect()
}

#[test]
fn plans_keep_the_order_of_first_appearance_and_are_replaced_whole() {
    let mut board = PlanBoard::new("s");
    board
        .apply_json(&line(
            "s",
            plan! { id: "b", items: [high pending "1", high pending "2"] }.into(),
        ))
        .unwrap();
    board
        .apply_json(&line("s", plan! { id: "a", markdown: "notes" }.into()))
        .unwrap();
    let applied = board
        .apply_json(&line(
            "s",
            plan! { id: "b", items: [low completed "3"] }.into(),
        ))
        .unwrap();
    assert_eq!(
        applied,
        Applied::Updated {
            id: id("b"),
            created: false
        }
    );
    assert_eq!(ids(&board), ["b", "a"]);
    let b = board.get(&id("b")).unwrap();
    assert_eq!(
        b.content().entries().unwrap().len(),
        1,
        "replaced whole, not merged"
    );
    assert_eq!(b.version(), 2);
}

#[test]
fn removal_dismisses_and_unknown_removal_is_reported_harmlessly() {
    let mut board = PlanBoard::new("s");
    board.apply_update(plan! { id: "a", markdown: "x" }.into());
    board.apply_update(plan! { id: "b", markdown: "y" }.into());
    assert_eq!(
        board.apply_update(SessionUpdate::plan_removed(id("a"))),
        Applied::Removed { id: id("a") }
    );
    assert_eq!(
        board.apply_update(SessionUpdate::plan_removed(id("a"))),
        Applied::RemovedUnknown { id: id("a") }
    );
    assert_eq!(ids(&board), ["b"]);
}

#[test]
fn a_v1_plan_is_the_legacy_plan_main() {
    let mut board = PlanBoard::new("s");
    board.apply_update(plan! { entries: [high pending "old"] }.into());
    board.apply_update(plan! { entries: [high completed "old", low pending "new"] }.into());
    assert_eq!(ids(&board), ["main"]);
    let main = board.get(&PlanId::LEGACY).unwrap();
    assert!(main.is_legacy());
    assert_eq!(main.progress().unwrap().to_string(), "1/2");
}

#[test]
fn other_updates_are_ignored_and_custom_types_kept() {
    let mut board = PlanBoard::new("s");
    let chunk = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}"#;
    assert_eq!(
        board.apply_json(chunk).unwrap(),
        Applied::Ignored {
            kind: "agent_message_chunk".into()
        }
    );
    let reserved = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"gantt","planId":"g","bars":[1]}}}}"#;
    board.apply_json(reserved).unwrap();
    board.apply_update(plan! { id: "t", type: _timeline, fields: { "events": [] } }.into());
    let kinds: Vec<&str> = board.plans().map(|p| p.content().type_name()).collect();
    assert_eq!(kinds, ["gantt", "_timeline"]);
    assert!(matches!(
        board.get(&id("g")).unwrap().content(),
        PlanContent::Reserved { .. }
    ));
}

#[test]
fn sessions_are_kept_apart() {
    let mut board = PlanBoard::new("mine");
    let before = board.clone();
    let applied = board
        .apply_json(&line("theirs", plan! { id: "p", markdown: "x" }.into()))
        .unwrap();
    assert!(matches!(applied, Applied::OtherSession { .. }));
    assert_eq!(board, before);

    let mut boards = SessionBoards::new();
    boards
        .apply_json(&line("one", plan! { id: "p", markdown: "1" }.into()))
        .unwrap();
    boards
        .apply_json(&line("two", plan! { id: "p", markdown: "2" }.into()))
        .unwrap();
    boards
        .apply_json(&line("two", SessionUpdate::plan_removed(id("p"))))
        .unwrap();
    let one = boards.get(&"one".into()).unwrap();
    let two = boards.get(&"two".into()).unwrap();
    assert_eq!((ids(one), ids(two)), (vec!["p"], vec![]));
}

#[test]
fn changes_say_what_was_added_removed_and_moved() {
    let mut board = PlanBoard::new("s");
    board.apply_update(
        plan! { id: "p", items: [high pending "a", high pending "b", low pending "c"] }.into(),
    );
    let first = board.get(&id("p")).unwrap().changes().clone();
    assert_eq!(first.added, [0, 1, 2], "everything is new at first");

    board.apply_update(
        plan! { id: "p", items: [high completed "a", low pending "c", low pending "d"] }.into(),
    );
    let plan = board.get(&id("p")).unwrap();
    let changes = plan.changes();
    assert_eq!(changes.added, [2]);
    assert_eq!(
        changes
            .removed
            .iter()
            .map(|e| &*e.content)
            .collect::<Vec<_>>(),
        ["b"]
    );
    assert_eq!(changes.status_changed, [(0, Status::Pending)]);

    board.apply_update(
        plan! { id: "p", items: [high completed "a", low pending "c", low pending "d"] }.into(),
    );
    assert!(board.get(&id("p")).unwrap().changes().is_empty());
}

#[test]
fn progress_and_the_task_in_progress() {
    let mut board = PlanBoard::new("s");
    board.apply_update(
        plan! { id: "p", items: [
            high completed "a", high in_progress "b", low cancelled "c", low pending "d",
        ] }
        .into(),
    );
    let plan = board.get(&id("p")).unwrap();
    let progress = plan.progress().unwrap();
    assert_eq!(
        (progress.completed, progress.cancelled, progress.total),
        (1, 1, 4)
    );
    assert!(!progress.is_done());
    assert_eq!(plan.in_progress().unwrap().content, "b");
    board.apply_update(plan! { id: "m", markdown: "x" }.into());
    assert_eq!(board.get(&id("m")).unwrap().progress(), None);
}

#[test]
fn a_malformed_message_is_an_error_with_its_place_and_changes_nothing() {
    let mut board = PlanBoard::new("s");
    board.apply_update(plan! { id: "p", items: [high pending "a"] }.into());
    let before = board.clone();
    let bad = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[{"content":"a","priority":"high"}]}}}}"#;
    let err = board.apply_json(bad).unwrap_err();
    assert_eq!(err.path(), "params.update.plan.entries[0]");
    assert!(board.apply_json("{not json").is_err());
    assert_eq!(board, before);
}

#[test]
fn the_board_as_json() {
    let mut board = PlanBoard::new("s");
    board.apply_update(plan! { id: "p", items: [high completed "a", low pending "b"] }.into());
    board.apply_update(plan! { id: "m", markdown: "x" }.into());
    let json = board.to_json_value(Spelling::Acp);
    assert_eq!(json["sessionId"], "s");
    assert_eq!(
        json["plans"][0]["progress"],
        serde_json::json!({"completed": 1, "cancelled": 0, "total": 2})
    );
    assert_eq!(json["plans"][1]["type"], "markdown");
    assert_eq!(json["plans"][1]["content"]["planId"], "m");
    assert!(json["plans"][1].get("progress").is_none());
}

proptest! {
    #[test]
    fn no_line_panics_a_board_or_changes_it_when_rejected(text in ".{0,80}", cut in 0usize..400) {
        let mut boards = SessionBoards::new();
        let good = line("s", plan! { id: "p", items: [high pending "a", low _x "b"] }.into());
        boards.apply_json(&good).unwrap();
        let before = boards.clone();
        // Arbitrary text, and every truncation of a valid line with junk after it.
        let cut = cut.min(good.len());
        let truncated = format!("{}{}", good.get(..cut).unwrap_or(""), text);
        for input in [text.as_str(), truncated.as_str()] {
            if boards.apply_json(input).is_err() {
                prop_assert_eq!(&boards, &before);
            }
        }
    }
}

/// The reference model of SPEC.md's client semantics: plans by id in order
/// of first appearance; `plan_update` replaces, `plan_removed` removes, a v1
/// `plan` is the plan `main`.
fn model(updates: &[SessionUpdate]) -> Vec<PlanContent> {
    let mut plans: Vec<PlanContent> = Vec::new();
    for update in updates {
        let content = match update {
            SessionUpdate::Plan(plan) => PlanContent::items(PlanId::LEGACY, plan.entries.clone()),
            SessionUpdate::PlanUpdate { plan, .. } => plan.clone(),
            SessionUpdate::PlanRemoved { id, .. } => {
                plans.retain(|p| p.id() != id);
                continue;
            }
            SessionUpdate::Other(_) => continue,
        };
        match plans.iter_mut().find(|p| p.id() == content.id()) {
            Some(existing) => *existing = content,
            None => plans.push(content),
        }
    }
    plans
}

fn small_update() -> impl Strategy<Value = SessionUpdate> {
    let id = prop_oneof![Just("a"), Just("b"), Just("c"), Just("main")]
        .prop_map(|i| PlanId::new(i).unwrap());
    let entry = (prop_oneof![Just("x"), Just("y"), Just("z")], 0..4usize).prop_map(|(text, s)| {
        let status = [
            Status::Pending,
            Status::InProgress,
            Status::Completed,
            Status::Cancelled,
        ][s]
            .clone();
        plan_core::PlanEntry::new(text, plan_core::Priority::Medium, status)
    });
    let entries = proptest::collection::vec(entry, 0..4);
    prop_oneof![
        (id.clone(), entries.clone())
            .prop_map(|(id, e)| SessionUpdate::plan_update(PlanContent::items(id, e))),
        (id.clone(), ".{0,8}")
            .prop_map(|(id, md)| SessionUpdate::plan_update(PlanContent::markdown(id, md))),
        id.prop_map(SessionUpdate::plan_removed),
        entries.prop_map(SessionUpdate::plan),
    ]
}

proptest! {
    #[test]
    fn the_board_matches_the_reference_model(updates in proptest::collection::vec(small_update(), 0..40)) {
        let mut board = PlanBoard::new("s");
        for update in &updates {
            board.apply_json(&line("s", update.clone())).unwrap();
        }
        let on_board: Vec<&PlanContent> = board.plans().map(plan_core::BoardPlan::content).collect();
        let expected = model(&updates);
        prop_assert_eq!(on_board, expected.iter().collect::<Vec<_>>());
        for plan in board.plans() {
            prop_assert_eq!(plan.progress(), plan.content().entries().map(plan_core::Progress::of));
        }
    }
}
