//! The client's side: a board applies updates in order, as SPEC.md says a
//! client must, and never panics or changes on bad input.

mod common;

use plan_core::{
    PlanContent, PlanId, SessionNotification, SessionUpdate, Status,
    client::{Applied, PlanBoard, SessionBoards},
    plan,
    wire::Spelling,
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
        .unwrap()
        .value;
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
fn the_v1_plan_is_main_kept_apart_from_a_v2_plan_main() {
    let mut board = PlanBoard::new("s");
    board.apply_update(plan! { entries: [high pending "old"] }.into());
    board.apply_update(plan! { entries: [high completed "old", low pending "new"] }.into());
    assert_eq!(ids(&board), ["main"]);
    let main = board.v1_plan().unwrap();
    assert!(main.is_v1_plan());
    assert_eq!(main.progress().unwrap().to_string(), "1/2");
    assert!(
        board.get(&PlanId::V1_PLAN).is_none(),
        "no v2 plan `main` yet"
    );

    // A v2 plan whose id is "main" lives beside it; neither overwrites the other.
    board.apply_update(plan! { id: "main", items: [low pending "v2"] }.into());
    board.apply_update(plan! { entries: [high completed "old", low completed "new"] }.into());
    assert_eq!(ids(&board), ["main", "main"]);
    assert_eq!(
        board.v1_plan().unwrap().progress().unwrap().to_string(),
        "2/2"
    );
    assert_eq!(
        board
            .get(&PlanId::V1_PLAN)
            .unwrap()
            .progress()
            .unwrap()
            .to_string(),
        "0/1"
    );
    let json = board.to_json_value(Spelling::Acp);
    assert_eq!(json["plans"][0]["v1Plan"], true);
    assert!(json["plans"][1].get("v1Plan").is_none());

    // `plan_removed` of "main" removes the v2 plan, not the v1 one.
    board.apply_update(SessionUpdate::plan_removed(PlanId::V1_PLAN));
    assert_eq!(ids(&board), ["main"]);
    assert!(board.v1_plan().is_some());
}

#[test]
fn other_updates_are_ignored_and_custom_types_kept() {
    let mut board = PlanBoard::new("s");
    let chunk = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}"#;
    assert_eq!(
        board.apply_json(chunk).unwrap().value,
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
        .unwrap()
        .value;
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

    // The same plan again changes nothing: what the last real update
    // changed still stands, and the repeat is counted.
    let before = changes.clone();
    let applied = board.apply_update(
        plan! { id: "p", items: [high completed "a", low pending "c", low pending "d"] }.into(),
    );
    assert_eq!(applied, Applied::Unchanged { id: id("p") });
    let plan = board.get(&id("p")).unwrap();
    assert_eq!(plan.changes(), &before);
    assert_eq!((plan.version(), plan.repeats()), (3, 1));
}

#[test]
fn a_v1_cancelled_entry_reads_as_a_status_change_not_a_new_entry() {
    // What a v1 client is sent for a cancelled step: the same text marked
    // " (cancelled)", completed (v1 has no `cancelled`).
    let mut sender =
        plan_core::agent::PlanSender::new("s", &plan_core::wire::ClientCapabilities::default());
    let mut board = PlanBoard::new("s");
    board.apply(
        sender.update(plan! { id: "p", items: [high in_progress "Ship", low pending "Tell"] }),
    );
    board.apply(
        sender.update(plan! { id: "p", items: [high completed "Ship", low cancelled "Tell"] }),
    );
    let plan = board.plans().next().unwrap();
    let changes = plan.changes();
    assert!(changes.added.is_empty(), "{changes:?}");
    assert!(changes.removed.is_empty(), "{changes:?}");
    assert_eq!(
        changes.status_changed,
        [(0, Status::InProgress), (1, Status::Pending)]
    );
    let drawn = plan_core::client::render_board_plan(plan, plan_core::client::TerminalStyle::PLAIN);
    assert!(
        drawn.contains("✓ Tell (cancelled)  low  (was pending)"),
        "{drawn}"
    );
    assert!(
        !drawn.contains("(removed)") && !drawn.contains("(new)"),
        "{drawn}"
    );
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
    let bad_entry = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[{"content":"a","priority":"high"}]}}}}"#;
    let no_plan = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update"}}}"#;
    let request = r#"{"jsonrpc":"2.0","id":3,"method":"session/update","params":{}}"#;

    // Strict: the bad entry fails the whole message.
    let mut board = PlanBoard::new("s").strict();
    board.apply_update(plan! { id: "p", items: [high pending "a"] }.into());
    let before = board.clone();
    let err = board.apply_json(bad_entry).unwrap_err();
    assert_eq!(err.path(), "params.update.plan.entries[0]");
    for bad in ["{not json", no_plan, request] {
        assert!(board.apply_json(bad).is_err(), "{bad}");
    }
    assert_eq!(board, before);

    // Lenient (the default): the entry is skipped, said so, and the rest applied.
    let mut board = PlanBoard::new("s");
    board.apply_update(plan! { id: "p", items: [high pending "a"] }.into());
    let read = board.apply_json(bad_entry).unwrap();
    assert_eq!(
        read.skipped[0].to_string(),
        "skipped `params.update.plan.entries[0]`: missing required field `status`"
    );
    assert_eq!(
        board
            .get(&id("p"))
            .unwrap()
            .content()
            .entries()
            .unwrap()
            .len(),
        0
    );
    // What no lenient reading can use is still an error, and changes nothing.
    let before = board.clone();
    for bad in ["{not json", no_plan, request] {
        assert!(board.apply_json(bad).is_err(), "{bad}");
    }
    assert_eq!(board, before);
}

#[test]
fn other_json_rpc_messages_are_recognised_and_ignored() {
    for mut board in [PlanBoard::new("s"), PlanBoard::new("s").strict()] {
        let before = board.clone();
        for (line, method) in [
            (
                r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#,
                None,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}"#,
                None,
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{}}"#,
                Some("session/prompt"),
            ),
            (
                r#"{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}"#,
                Some("session/cancel"),
            ),
        ] {
            let read = board.apply_json(line).unwrap();
            assert_eq!(
                read.value,
                Applied::OtherMessage {
                    method: method.map(str::to_owned)
                },
                "{line}"
            );
        }
        assert_eq!(board, before);
    }
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
/// `plan` is the plan `main`, kept apart from a v2 plan of that id.
fn model(updates: &[SessionUpdate]) -> Vec<PlanContent> {
    // (is the v1 plan, content)
    let mut plans: Vec<(bool, PlanContent)> = Vec::new();
    for update in updates {
        let (v1_plan, content) = match update {
            SessionUpdate::Plan(plan) => (
                true,
                PlanContent::items(PlanId::V1_PLAN, plan.entries.clone()),
            ),
            SessionUpdate::PlanUpdate { plan, .. } => (false, plan.clone()),
            SessionUpdate::PlanRemoved { id, .. } => {
                plans.retain(|(v1_plan, p)| *v1_plan || p.id() != id);
                continue;
            }
            SessionUpdate::Other(_) => continue,
        };
        match plans
            .iter_mut()
            .find(|(l, p)| *l == v1_plan && p.id() == content.id())
        {
            Some(existing) => existing.1 = content,
            None => plans.push((v1_plan, content)),
        }
    }
    plans.into_iter().map(|(_, content)| content).collect()
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
        let on_board: Vec<&PlanContent> = board.plans().map(plan_core::client::TrackedPlan::content).collect();
        let expected = model(&updates);
        prop_assert_eq!(on_board, expected.iter().collect::<Vec<_>>());
        for plan in board.plans() {
            prop_assert_eq!(plan.progress(), plan.content().entries().map(plan_core::client::Progress::of));
        }
    }
}
