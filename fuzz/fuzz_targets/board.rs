//! Any sequence of lines applied to session boards: never a panic, a
//! rejected line changes nothing, and every board still draws and exports.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan_core::{client::{render_board, plan_to_markdown, SessionBoards, TerminalStyle}, wire::Spelling};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut boards = SessionBoards::new();
    for line in text.lines() {
        let before = boards.clone();
        if boards.apply_json(line).is_err() {
            assert_eq!(boards, before, "a rejected line changed the boards");
        }
    }
    for board in boards.boards() {
        let _ = render_board(board, TerminalStyle::COLOR);
        let _ = board.to_json_value(Spelling::Acp);
        for plan in board.plans() {
            let _ = plan_to_markdown(plan.content());
            let _ = plan.progress();
        }
    }
});
