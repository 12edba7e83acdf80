//! Plans from models (feature `tools`): the plan tools that Claude and
//! OpenAI models call, typed; their arguments read leniently, with an error
//! written for the model where the meaning is not plain; and each call
//! turned into the plan every kind of client reads.
//!
//! - [`TodoWrite`]: Claude Code's todo list (`todos`: `content`, `status`,
//!   `activeForm`), as claude-agent-acp offers it to its model.
//! - [`UpdatePlan`]: codex's `update_plan` (`explanation`, `plan`: `step`,
//!   `status`), as codex-acp offers it.
//! - [`StepsTool`]: the tool of a [`Steps`](crate::Steps) type, whose `step`
//!   is one of the declared steps and nothing else.
//! - [`ModelPlans`]: the model loop's side. Each tool call becomes a plan
//!   with a stable id for its [`Scope`], goes through the session's
//!   [`PlanSender`](crate::agent::PlanSender) (with its fallbacks, to every
//!   kind of client), and an unchanged plan is not sent again. A plan file
//!   the model wrote becomes a markdown plan with its absolute `path`.
//!
//! Each tool's [`ToolDefinition`] is what to hand the model: the name, our
//! description and the JSON Schema the agents offer, in the shapes of the
//! Anthropic Messages API and of OpenAI's Responses and Chat Completions.
//!
//! The guide, with the whole loop: [`guide::models`](crate::guide::models).

mod definition;
mod exact;
mod list_tool;
mod options;
mod plans;
mod read;
mod steps;
mod todo_write;
mod update_plan;

pub use definition::ToolDefinition;
pub use options::{ActiveForm, PlanOptions};
pub use plans::{ModelPlans, PlanFileError, Scope, ToolOutcome};
pub use read::{Correction, ToolCall, ToolError, ToolProblem, status_of_word};
pub use steps::StepsTool;
pub use todo_write::{Todo, TodoWrite};
pub use update_plan::{PlanStep, UpdatePlan};
