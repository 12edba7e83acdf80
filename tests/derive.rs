//! The derives: plans as types, own enums as statuses and priorities, custom
//! plan types as structs, and the fixtures a derived plan generates.

mod common;

use plan_core::{
    PlanContent, PlanId, PlanPriority, PlanStatus, Priority, SessionId, SessionUpdate, Status,
    Steps,
    agent::{PlanSender, StepError},
    client::{Applied, PlanBoard},
    wire::{ClientCapabilities, CustomContentError, Spelling},
};
use serde::{Deserialize, Serialize};

#[derive(Debug, Steps)]
#[plan(id = "refactor")]
enum Refactor {
    /// Analyze the existing codebase structure
    #[step(priority = high)]
    Analyze,
    #[step("Identify components that need refactoring", priority = high)]
    Identify,
    /// Create unit tests
    /// for critical functions
    Tests,
    #[step("Ship the release", priority = _stretch)]
    Ship,
}

/// A plan with the default id.
#[derive(Debug, Steps)]
enum ReleaseChecklist {
    /// Tag the release
    Tag,
}

#[test]
fn steps_are_compile_time_data() {
    assert_eq!(Refactor::ID.as_str(), "refactor");
    assert_eq!(ReleaseChecklist::ID.as_str(), "release-checklist");
    let steps: Vec<(&str, &Priority)> = Refactor::STEPS
        .iter()
        .map(|s| (s.content, &s.priority))
        .collect();
    assert_eq!(
        steps,
        [
            ("Analyze the existing codebase structure", &Priority::High),
            ("Identify components that need refactoring", &Priority::High),
            (
                "Create unit tests for critical functions",
                &Priority::Medium
            ),
            ("Ship the release", &Priority::custom("_stretch").unwrap()),
        ]
    );
    assert_eq!(
        Refactor::Tests.step().content,
        "Create unit tests for critical functions"
    );
    assert_eq!(Refactor::ALL.len(), 4);
}

#[test]
fn a_run_tracks_statuses_by_step_and_sends_the_whole_list() {
    let mut run = Refactor::start();
    assert!(run.steps().all(|(_, status)| *status == Status::Pending));
    run.begin(Refactor::Analyze).unwrap();
    assert!(matches!(run.in_progress(), Some(Refactor::Analyze)));
    run.finish(Refactor::Analyze).unwrap();
    run.begin(Refactor::Identify).unwrap();
    run.cancel(Refactor::Ship).unwrap();
    run.set(Refactor::Tests, Status::custom("_blocked").unwrap());

    let SessionUpdate::PlanUpdate { plan, .. } = run.update() else {
        panic!("not a plan_update")
    };
    assert_eq!(plan.id().as_str(), "refactor");
    let statuses: Vec<String> = plan
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.status.to_string())
        .collect();
    assert_eq!(
        statuses,
        ["completed", "in_progress", "_blocked", "cancelled"]
    );
    assert_eq!(run.progress().to_string(), "1/4, 1 cancelled");
    assert!(
        matches!(run.removed(), SessionUpdate::PlanRemoved { id, .. } if id.as_str() == "refactor")
    );
}

#[test]
fn rules_are_opt_in() {
    let mut free = Refactor::start();
    free.begin(Refactor::Analyze).unwrap();
    free.begin(Refactor::Identify).unwrap();
    free.finish(Refactor::Identify).unwrap();
    free.begin(Refactor::Identify).unwrap();

    let mut strict = Refactor::start().one_at_a_time().forward_only();
    strict.begin(Refactor::Analyze).unwrap();
    let err = strict.begin(Refactor::Identify).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot begin \"Identify components that need refactoring\": \"Analyze the existing codebase structure\" is in progress and this run allows one step at a time"
    );
    strict.finish(Refactor::Analyze).unwrap();
    assert!(matches!(
        strict.begin(Refactor::Analyze),
        Err(StepError::Settled { .. })
    ));
    assert!(matches!(
        strict.cancel(Refactor::Analyze),
        Err(StepError::Settled { .. })
    ));
    assert_eq!(
        strict.status(Refactor::Analyze),
        &Status::Completed,
        "a refused move changes nothing"
    );
}

#[test]
fn a_turn_never_ends_with_a_step_in_progress() {
    let mut run = Refactor::start();
    run.finish(Refactor::Analyze).unwrap();
    run.begin(Refactor::Identify).unwrap();
    run.finish_turn();
    assert_eq!(run.status(Refactor::Identify), &Status::Pending);
    assert!(run.in_progress().is_none());

    run.begin(Refactor::Tests).unwrap();
    run.abandon();
    let statuses: Vec<&Status> = run.steps().map(|(_, s)| s).collect();
    assert_eq!(
        statuses,
        [
            &Status::Completed,
            &Status::Cancelled,
            &Status::Cancelled,
            &Status::Cancelled
        ]
    );
}

#[test]
fn a_derived_plan_goes_through_the_sender_and_the_board() {
    let mut sender = PlanSender::new("s", &ClientCapabilities::with_plan_support(Spelling::Acp));
    let mut board = PlanBoard::new("s");
    let mut run = Refactor::start();
    run.begin(Refactor::Analyze).unwrap();
    let SessionUpdate::PlanUpdate { plan, .. } = run.update() else {
        unreachable!()
    };
    let sent = sender.update(plan);
    assert_eq!(
        board
            .apply_json(&sent.to_json(sender.spelling()))
            .unwrap()
            .value,
        Applied::Updated {
            id: PlanId::new("refactor").unwrap(),
            created: true
        }
    );
    assert_eq!(
        board
            .get(&Refactor::ID)
            .unwrap()
            .in_progress()
            .unwrap()
            .content,
        Refactor::Analyze.step().content
    );
}

#[test]
fn the_lifecycle_fixture_stays_in_sync_with_the_code() {
    let session = SessionId::new("sess_fixture");
    let lifecycle = Refactor::lifecycle(&session);
    assert_eq!(
        lifecycle.len(),
        1 + 2 * 4 + 1,
        "created, each step started and finished, removed"
    );
    assert!(matches!(
        lifecycle.last().unwrap().update,
        SessionUpdate::PlanRemoved { .. }
    ));
    for spelling in [Spelling::Rfd, Spelling::Acp] {
        let text = Refactor::lifecycle_ndjson(&session, spelling);
        let name = format!("../fixtures/refactor-lifecycle.{spelling}.ndjson");
        common::assert_snapshot_file(&name, &text);
        // The fixture replays on a board to a finished plan, then to nothing.
        let mut board = PlanBoard::new("sess_fixture");
        for line in text.lines() {
            board.apply_json(line).unwrap();
        }
        assert_eq!(board.plans().len(), 0);
    }
}

#[derive(Debug, PartialEq, PlanStatus)]
enum TodoState {
    #[status(pending)]
    Open,
    #[status(in_progress)]
    Doing,
    #[status(completed)]
    Done,
    #[status(_blocked)]
    Blocked,
    #[status("_on hold")]
    OnHold,
}

#[derive(Debug, PartialEq, PlanPriority)]
#[plan_priority(rename_all = "_snake_case")]
enum Effort {
    QuickWin,
    DeepWork,
    #[priority(high)]
    Urgent,
}

#[test]
fn own_enums_map_both_ways() {
    assert_eq!(Status::from(TodoState::Open), Status::Pending);
    assert_eq!(
        Status::from(&TodoState::OnHold),
        Status::custom("_on hold").unwrap()
    );
    for variant in [
        TodoState::Open,
        TodoState::Doing,
        TodoState::Done,
        TodoState::Blocked,
        TodoState::OnHold,
    ] {
        let status = Status::from(&variant);
        assert_eq!(TodoState::try_from(&status).unwrap(), variant);
        assert_eq!(TodoState::try_from(status).unwrap(), variant);
    }
    let err = TodoState::try_from(&Status::Cancelled).unwrap_err();
    assert_eq!(
        err.to_string(),
        "status `cancelled` has no variant in `TodoState`"
    );

    assert_eq!(Priority::from(Effort::QuickWin).as_str(), "_quick_win");
    assert_eq!(Priority::from(Effort::Urgent), Priority::High);
    assert_eq!(
        Effort::try_from(&Priority::custom("_deep_work").unwrap()).unwrap(),
        Effort::DeepWork
    );
    assert_eq!(Effort::try_from(Priority::Low).unwrap_err().value(), "low");
}

#[test]
fn own_enums_stand_in_plan_expressions() {
    let plan =
        plan_core::plan! { id: "p", items: [ { Effort::Urgent } { TodoState::Blocked } "Review" ] };
    let entry = &plan.entries().unwrap()[0];
    assert_eq!(
        (entry.priority.as_str(), entry.status.as_str()),
        ("high", "_blocked")
    );
}

#[derive(Debug, PartialEq, Serialize, Deserialize, plan_core::PlanContent)]
#[plan_content(type = "_timeline")]
struct Timeline {
    id: PlanId,
    events: Vec<Event>,
    #[serde(skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Event {
    at: String,
    what: String,
}

#[test]
fn a_custom_plan_type_as_a_struct() {
    let timeline = Timeline {
        id: PlanId::new("t").unwrap(),
        events: vec![Event {
            at: "09:00".into(),
            what: "kickoff".into(),
        }],
        owner: None,
    };
    let content = PlanContent::try_from(&timeline).unwrap();
    assert_eq!(
        content.to_json(Spelling::Acp),
        r#"{"type":"_timeline","planId":"t","events":[{"at":"09:00","what":"kickoff"}]}"#
    );
    assert_eq!(SessionUpdate::plan_update(content.clone()).check(), Ok(()));
    // Through the wire and back.
    let read = PlanContent::from_json(&content.to_json(Spelling::Rfd)).unwrap();
    assert_eq!(Timeline::try_from(&read).unwrap(), timeline);
    assert_eq!(<Timeline as plan_core::CustomPlan>::PLAN_TYPE, "_timeline");
}

#[test]
fn the_wrong_content_is_a_clear_error() {
    let markdown = plan_core::plan! { id: "m", markdown: "x" };
    let err = Timeline::try_from(&markdown).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected a `_timeline` plan, found a `markdown` plan"
    );
    let other = plan_core::plan! { id: "b", type: _board };
    assert!(matches!(
        Timeline::try_from(&other),
        Err(CustomContentError::WrongType { .. })
    ));
    let missing = plan_core::plan! { id: "t", type: _timeline, fields: { "owner": "me" } };
    assert!(matches!(
        Timeline::try_from(&missing),
        Err(CustomContentError::Fields(_))
    ));
}
