//! What a person sees: snapshots of the terminal and markdown rendering.
//! `UPDATE_SNAPSHOTS=1 cargo test -p plan-harness --test render` rewrites them; review the diff.

mod common;

use plan_core::{
    PlanContent, PlanId, SessionUpdate,
    client::{PlanBoard, TerminalStyle, plan_to_markdown, render_board, render_plan},
    plan,
    wire::FileUri,
};

/// A board with one plan of every type, the items plan on its second version.
fn board() -> PlanBoard {
    let mut board = PlanBoard::new("s");
    board.apply_update(
        plan! { id: "refactor", items: [
            high pending "Analyze the existing codebase structure",
            high pending "Identify components that need refactoring",
            medium pending "Create unit tests for critical functions",
            low pending "Update the changelog",
            low pending "Tweet about it",
        ] }
        .into(),
    );
    board.apply_update(plan! { id: "notes", markdown: "## Notes\n- [x] Read the RFD\n- [ ] Ask about the auth module" }.into());
    board.apply_update(
        plan! { id: "design-doc", markdown: "# Design\n- [ ] Draft", path: "/home/dev/project/PLAN.md" }
            .into(),
    );
    // A pre-stable `file` plan, as an older agent still sends it: kept and drawn.
    let old = PlanContent::file(
        PlanId::new("old-doc").unwrap(),
        FileUri::new("file:///tmp/plan.md").unwrap(),
    );
    board.apply_update(old.into());
    board.apply_update(
        plan! { id: "timeline", type: _timeline, fields: { "events": ["kickoff"] } }.into(),
    );
    board.apply_update(
        plan! { id: "refactor", items: [
            high completed "Analyze the existing codebase structure",
            high in_progress "Identify components that need refactoring",
            medium pending "Create unit tests for critical functions",
            low cancelled "Update the changelog",
            _stretch _blocked "Benchmark against the baseline",
        ] }
        .into(),
    );
    board
}

#[test]
fn the_board_in_plain_text() {
    common::assert_snapshot("board-plain", &render_board(&board(), TerminalStyle::PLAIN));
}

#[test]
fn the_board_in_colour() {
    let colour = render_board(&board(), TerminalStyle::COLOR);
    assert!(
        colour.contains("\x1b[2;9m✗ Update the changelog\x1b[0m"),
        "cancelled is dim and struck through"
    );
    assert!(colour.contains("\x1b[1;33m▸ Identify components that need refactoring\x1b[0m"));
    common::assert_snapshot("board-colour", &colour);
    // Without colour, the same words and nothing else.
    let plain = render_board(&board(), TerminalStyle::PLAIN);
    assert!(!plain.contains('\x1b'));
}

#[test]
fn an_empty_plan_and_a_removed_one() {
    let mut board = PlanBoard::new("s");
    board.apply_update(plan! { id: "p", items: [] }.into());
    assert_eq!(
        render_board(&board, TerminalStyle::PLAIN),
        "▣ p  [░░░░░░░░░░░░░░░░░░░░] 0/0\n  (no entries)\n"
    );
    board.apply_update(SessionUpdate::plan_removed(
        plan_core::PlanId::new("p").unwrap(),
    ));
    assert_eq!(render_board(&board, TerminalStyle::PLAIN), "");
}

#[test]
fn a_plan_without_its_history() {
    let plan = plan! { id: "p", items: [high completed "a", low pending "b"] };
    assert_eq!(
        render_plan(&plan, None, TerminalStyle::PLAIN),
        "▣ p  [██████████░░░░░░░░░░] 1/2\n  ✓ a  high\n  ○ b  low\n"
    );
}

#[test]
fn every_plan_as_markdown() {
    let board = board();
    let markdown: Vec<String> = board
        .plans()
        .map(|p| plan_to_markdown(p.content()))
        .collect();
    common::assert_snapshot("board-markdown", &markdown.join("\n"));
}

#[test]
fn a_markdown_path_is_a_hyperlink_where_the_terminal_draws_one() {
    let plan = plan! { id: "d", markdown: "# Design", path: "/home/dev/my plan.md" };
    let drawn = render_plan(&plan, None, TerminalStyle::PLAIN);
    assert_eq!(
        drawn,
        "▣ d  markdown  → /home/dev/my plan.md\n    # Design\n"
    );
    let linked = TerminalStyle {
        hyperlinks: true,
        ..TerminalStyle::PLAIN
    };
    assert_eq!(
        render_plan(&plan, None, linked),
        "▣ d  markdown  → \x1b]8;;file:///home/dev/my%20plan.md\x1b\\/home/dev/my plan.md\x1b]8;;\x1b\\\n    # Design\n"
    );
}
