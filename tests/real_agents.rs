//! What real agents send (claude-agent-acp 0.101.0, codex-acp 2.6.0; see
//! `data/real-agents/README.md`), read by a client: the board ends each
//! recorded conversation in the right state, reads a relabel as one entry's
//! change and a repeat as no change; `include_plan_stream!` accepts each
//! transcript. `check_real_agents.rs` holds `check` to the same transcripts.

mod common;

use common::real_agents::{TRANSCRIPTS, recorded_kind, transcript};
use plan_core::{
    PlanContent, PlanEntry, Priority, Status,
    agent::StaticStream,
    client::{Applied, PlanBoard, SessionBoards, TrackedPlan},
    include_plan_stream,
};

// Recorded agent output is a fixture `include_plan_stream!` accepts as it is.
const CLAUDE: StaticStream =
    include_plan_stream!("data/real-agents/transcripts/claude-v1caps.ndjson");
const CLAUDE_TASKS: StaticStream =
    include_plan_stream!("data/real-agents/transcripts/claude-tasks-v1caps.ndjson");
const CLAUDE_PLAN_MODE: StaticStream =
    include_plan_stream!("data/real-agents/transcripts/claude-planmode-v1caps.ndjson");
const CODEX_V2: StaticStream = include_plan_stream!("data/real-agents/transcripts/codex-v2.ndjson");
const CODEX_PLAN_MODE: StaticStream =
    include_plan_stream!("data/real-agents/transcripts/codex-planmode-v1caps.ndjson");
const CODEX_CANCEL: StaticStream =
    include_plan_stream!("data/real-agents/transcripts/codex-check-cancel-v2-32800.ndjson");

fn stream(name: &str) -> StaticStream {
    match name {
        "claude-v1caps" => CLAUDE,
        "claude-tasks-v1caps" => CLAUDE_TASKS,
        "claude-planmode-v1caps" => CLAUDE_PLAN_MODE,
        "codex-v2" => CODEX_V2,
        "codex-planmode-v1caps" => CODEX_PLAN_MODE,
        "codex-check-cancel-v2-32800" => CODEX_CANCEL,
        other => panic!("no stream for {other}"),
    }
}

/// Every line of a transcript applied to a strict board (nothing skipped),
/// with what each application did.
fn replay(name: &str) -> (SessionBoards, Vec<Applied>) {
    let mut boards = SessionBoards::new().strict();
    let mut applied = Vec::new();
    for (n, line) in transcript(name).lines().enumerate() {
        let read = boards
            .apply_json(line)
            .unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1));
        assert!(
            read.skipped.is_empty(),
            "{name}:{}: {:?}",
            n + 1,
            read.skipped
        );
        applied.push(read.value);
    }
    (boards, applied)
}

fn only_board(boards: &SessionBoards) -> &PlanBoard {
    assert_eq!(boards.boards().len(), 1, "one session");
    boards.boards().next().unwrap()
}

fn entries(plan: &TrackedPlan) -> Vec<(String, Status)> {
    plan.content()
        .entries()
        .expect("an items plan")
        .iter()
        .map(|e| {
            assert_eq!(e.priority, Priority::Medium, "every priority is medium");
            (e.content.to_string(), e.status.clone())
        })
        .collect()
}

fn all_done() -> Vec<(String, Status)> {
    [
        "Read the failing test",
        "Fix the parser",
        "Run the test suite",
    ]
    .into_iter()
    .map(|t| (t.to_owned(), Status::Completed))
    .collect()
}

#[test]
fn include_plan_stream_keeps_every_transcript_byte_for_byte() {
    for (name, _) in TRANSCRIPTS {
        let lines: Vec<String> = transcript(name).lines().map(str::to_owned).collect();
        assert_eq!(stream(name).lines(), lines.as_slice(), "{name}");
    }
}

#[test]
fn the_board_ends_each_transcript_in_the_state_the_agent_left() {
    // TodoWrite and the task tools: the v1 plan, every step done.
    for name in ["claude-v1caps", "claude-tasks-v1caps"] {
        let (boards, _) = replay(name);
        let board = only_board(&boards);
        assert_eq!(board.plans().len(), 1, "{name}");
        let plan = board.v1_plan().expect("the v1 plan");
        assert_eq!(entries(plan), all_done(), "{name}");
    }
    // update_plan under v2, with and without a cancelled second turn.
    for name in ["codex-v2", "codex-check-cancel-v2-32800"] {
        let (boards, _) = replay(name);
        let board = only_board(&boards);
        assert_eq!(board.plans().len(), 1, "{name}");
        let plan = board.plans().next().unwrap();
        assert_eq!(plan.id().as_str(), "codex-structured-plan");
        assert!(!plan.is_v1_plan());
        assert_eq!(entries(plan), all_done(), "{name}");
    }
    // Plan mode: one markdown plan each, as the last update sent it.
    for (name, id, content, versions) in [
        (
            "claude-planmode-v1caps",
            "plan-mode",
            "# Plan: fix the parser\n\n1. Read the failing test in `tests/parse.rs`.\n2. Fix the off-by-one in `Parser::next_token`.\n3. Run `cargo test` and confirm it passes.",
            1,
        ),
        (
            "codex-planmode-v1caps",
            "01a20b0e-9824-7862-934f-e3d76ab14251-plan",
            "# Plan: fix the parser\n\n- Read the failing test\n- Fix the off-by-one in the tokenizer\n- Run the test suite\n",
            5,
        ),
    ] {
        let (boards, _) = replay(name);
        let board = only_board(&boards);
        assert_eq!(board.plans().len(), 1, "{name}");
        let plan = board.plans().next().unwrap();
        assert_eq!(plan.id().as_str(), id);
        assert_eq!(plan.version(), versions, "{name}");
        match plan.content() {
            PlanContent::Markdown {
                content: got, path, ..
            } => {
                assert_eq!(got, content, "{name}");
                assert_eq!(*path, None, "{name}: neither agent sends a path");
            }
            other => panic!("{name}: a markdown plan, not {other:?}"),
        }
    }
}

#[test]
fn claudes_relabel_is_one_entry_changing_its_label_and_status() {
    // TodoWrite: pending "Fix the parser" → in progress as "Fixing the
    // parser" (its activeForm) → completed as "Fix the parser".
    let mut board = PlanBoard::new("3e40878f-fa4b-4a07-97d1-54c15ef72279").strict();
    let mut seen = Vec::new();
    for line in transcript("claude-v1caps").lines() {
        if let Applied::Updated { created: false, .. } = board.apply_json(line).unwrap().value {
            let plan = board.v1_plan().unwrap();
            let changes = plan.changes();
            assert!(changes.added.is_empty(), "{changes:?}");
            assert!(changes.removed.is_empty(), "{changes:?}");
            seen.push((changes.relabelled.clone(), changes.status_changed.clone()));
        }
    }
    assert_eq!(
        seen,
        [
            (
                vec![(1, "Fix the parser".into())],
                vec![(0, Status::Pending), (1, Status::Pending)]
            ),
            (
                vec![(1, "Fixing the parser".into())],
                vec![(1, Status::InProgress), (2, Status::Pending)]
            ),
        ]
    );
    // Drawn as the one entry it is.
    let drawn = plan_core::client::render_board(&board, plan_core::client::TerminalStyle::PLAIN);
    assert!(
        drawn.contains("✓ Fix the parser         medium  (was \"Fixing the parser\", in_progress)"),
        "{drawn}"
    );
    assert!(
        !drawn.contains("(new)") && !drawn.contains("(removed)"),
        "{drawn}"
    );
}

#[test]
fn the_task_tools_relabel_is_read_the_same_way() {
    let (boards, _) = replay("claude-tasks-v1caps");
    let plan = only_board(&boards).v1_plan().unwrap();
    // The last real change: "Run the test suite" completed; nothing new or gone
    // at any point after the list was built.
    assert_eq!(plan.changes().status_changed, [(2, Status::Pending)]);
    let mut board = PlanBoard::new("98788173-4550-4394-ad27-4ec3144f4bd4").strict();
    let mut relabels = Vec::new();
    for line in transcript("claude-tasks-v1caps").lines() {
        if let Applied::Updated { created: false, .. } = board.apply_json(line).unwrap().value {
            let changes = board.v1_plan().unwrap().changes();
            assert!(changes.removed.is_empty(), "{changes:?}");
            relabels.extend(changes.relabelled.iter().map(|(_, was)| was.to_string()));
        }
    }
    assert_eq!(relabels, ["Fix the parser", "Fixing the parser"]);
}

#[test]
fn repeated_updates_change_nothing_and_are_counted() {
    let (boards, applied) = replay("claude-tasks-v1caps");
    let plan = only_board(&boards).v1_plan().unwrap();
    let unchanged = applied
        .iter()
        .filter(|a| matches!(a, Applied::Unchanged { .. }))
        .count();
    // 13 `plan` updates; 6 of them equal to the one before.
    assert_eq!((plan.version(), plan.repeats(), unchanged), (13, 6, 6));
    // A repeat leaves what the last real update changed in place.
    let mut board = PlanBoard::new("s");
    let line = |status: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"plan","entries":[{{"content":"a","priority":"medium","status":"{status}"}}]}}}}}}"#
        )
    };
    board.apply_json(&line("pending")).unwrap();
    board.apply_json(&line("completed")).unwrap();
    let changed = board.v1_plan().unwrap().changes().clone();
    assert_eq!(changed.status_changed, [(0, Status::Pending)]);
    assert!(matches!(
        board.apply_json(&line("completed")).unwrap().value,
        Applied::Unchanged { .. }
    ));
    assert_eq!(board.v1_plan().unwrap().changes(), &changed);
    // Codex sends no repeat.
    for name in ["codex-v2", "codex-planmode-v1caps"] {
        let (boards, _) = replay(name);
        assert_eq!(only_board(&boards).plans().next().unwrap().repeats(), 0);
    }
}

#[test]
fn matching_by_place_pairs_only_one_entry_in_progress_within_its_gap() {
    use Status::{InProgress, Pending};
    let entry = |text: &'static str, status| PlanEntry::new(text, Priority::Low, status);
    let texts = |changes: &plan_core::client::Changes| {
        let removed: Vec<String> = changes
            .removed
            .iter()
            .map(|e| e.content.to_string())
            .collect();
        (changes.added.clone(), removed, changes.relabelled.clone())
    };
    let between = |before: &[PlanEntry], after: &[PlanEntry]| {
        texts(&plan_core::client::Changes::between(before, after))
    };
    // B dropped between A and C, D appended in progress: not a relabel of B.
    assert_eq!(
        between(
            &[
                entry("A", Pending),
                entry("B", Pending),
                entry("C", Pending)
            ],
            &[
                entry("A", Pending),
                entry("C", Pending),
                entry("D", InProgress)
            ],
        ),
        (vec![2], vec!["B".to_owned()], vec![])
    );
    // X inserted first and B taken up under another label: X is new, B' is B.
    assert_eq!(
        between(
            &[
                entry("A", Pending),
                entry("B", Pending),
                entry("C", Pending)
            ],
            &[
                entry("X", Pending),
                entry("A", Pending),
                entry("B'", InProgress),
                entry("C", Pending)
            ],
        ),
        (vec![0], vec![], vec![(2, "B".into())])
    );
    // A relabel and an entry appended after it, in one gap: the relabel is
    // found past the new entry that precedes it.
    assert_eq!(
        between(
            &[entry("A", Pending), entry("B", Pending)],
            &[
                entry("A", Pending),
                entry("C", Pending),
                entry("B'", InProgress)
            ],
        ),
        (vec![1], vec![], vec![(2, "B".into())])
    );
    // One task swapped for another in the same place, neither in progress:
    // a removal and an addition, never one entry.
    assert_eq!(
        between(
            &[entry("A", Pending), entry("B", Pending)],
            &[entry("A", Pending), entry("C", Pending)]
        ),
        (vec![1], vec!["B".to_owned()], vec![])
    );
    // Nor when the priority changed too.
    let high = PlanEntry::new("B'", Priority::High, InProgress);
    assert_eq!(
        between(
            &[entry("A", Pending), entry("B", Pending)],
            &[entry("A", Pending), high]
        ),
        (vec![1], vec!["B".to_owned()], vec![])
    );
}

#[test]
fn the_table_of_transcripts_names_the_client_each_one_recorded() {
    for (name, kind) in TRANSCRIPTS {
        assert_eq!(recorded_kind(name), kind, "{name}");
    }
}
