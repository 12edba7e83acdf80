//! How a board run ends: the plan messages it counted, the boards drawn for
//! a person, or their final state as JSON. Both inputs (`file.rs`,
//! `live.rs`) end here.

use std::io::{self, Write};

use plan_core::client::{Applied, SessionBoards, TerminalStyle, render_board};
use plan_core::wire::Spelling;

/// The plan messages a run saw: how many, and how many of them repeated a
/// plan as it already was (the board does not redraw those).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PlanTally {
    /// Plan messages applied (`plan`, `plan_update`, `plan_removed`).
    pub plans: usize,
    /// Of those, updates equal to the plan as it was.
    pub repeats: usize,
}

impl PlanTally {
    /// Counts what applying one message did; whether the boards changed
    /// (so a live drawing is redrawn).
    pub(crate) fn count(&mut self, applied: &Applied) -> bool {
        match applied {
            Applied::Updated { .. } | Applied::Removed { .. } => {
                self.plans += 1;
                true
            }
            Applied::Unchanged { .. } => {
                self.plans += 1;
                self.repeats += 1;
                false
            }
            Applied::RemovedUnknown { .. } => {
                self.plans += 1;
                false
            }
            _ => false,
        }
    }

    /// What a person is told at the end: how many plan messages came and
    /// how many were repeats, or that none came.
    pub(crate) fn summary(self) -> String {
        match (self.plans, self.repeats) {
            (0, _) => {
                "no plan came (no `plan`, `plan_update` or `plan_removed` message)".to_owned()
            }
            (plans, 0) => format!("{plans} plan message(s)"),
            (plans, repeats) => format!(
                "{plans} plan message(s), {repeats} of them the plan as it already was (not redrawn)"
            ),
        }
    }
}

/// The final state as JSON: every session's board, each plan with how many
/// of its updates were repeats where there were any.
pub(crate) fn state_json(boards: &SessionBoards) -> serde_json::Value {
    let sessions: Vec<serde_json::Value> = boards
        .boards()
        .map(|board| {
            let mut value = board.to_json_value(Spelling::Acp);
            for (plan, json) in board.plans().zip(
                value["plans"]
                    .as_array_mut()
                    .map(Vec::as_mut_slice)
                    .unwrap_or_default(),
            ) {
                if plan.repeats() > 0 {
                    json["repeats"] = plan.repeats().into();
                }
            }
            value
        })
        .collect();
    serde_json::json!({ "sessions": sessions })
}

pub(crate) fn draw(
    boards: &SessionBoards,
    out: &mut impl Write,
    style: TerminalStyle,
) -> io::Result<()> {
    for board in boards.boards() {
        if boards.boards().len() > 1 {
            writeln!(out, "session {}", board.session())?;
        }
        write!(out, "{}", render_board(board, style))?;
    }
    Ok(())
}
