//! The client's side: applying updates to boards of plans ([`PlanBoard`],
//! [`SessionBoards`], what changed between two versions of a plan:
//! [`Changes`]) and drawing plans for people ([`render_board`],
//! [`plan_to_markdown`]).

pub(crate) mod board;
pub(crate) mod changes;
pub(crate) mod render;

pub use crate::protocol::checklist::plan_to_markdown;
pub use crate::protocol::progress::Progress;
pub use crate::protocol::steps::{MarkdownSteps, StepSource, markdown_to_entries};
pub use board::{Applied, PlanBoard, SessionBoards, TrackedPlan};
pub use changes::Changes;
pub use render::{TerminalStyle, render_board, render_board_plan, render_plan};
