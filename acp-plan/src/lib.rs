//! The library behind the `acp-plan` command: each of its subcommands, for
//! a Rust program (or test) that wants it without the command line.
//!
//! This file is the whole public surface. Each subcommand is one options
//! type, which carries every input, and one verb that runs it on this
//! process's standard streams and returns the exit status (`u8`: 0 clean,
//! 1 findings, 2 could not run, as the command's):
//!
//! | subcommand | options | verb |
//! |---|---|---|
//! | `board` | [`BoardOptions`] | [`board`] |
//! | `check FILE...` | [`CheckFilesOptions`] | [`check_files`] |
//! | `check -- AGENT` | [`CheckAgentOptions`] | [`check_agent`] |
//! | `fixtures` | [`FixturesOptions`] | [`fixtures`] |
//! | `tool` | [`ToolOptions`] (with [`Tool`]) | [`tool`] |
//! | `model` | [`ModelOptions`] (with [`ModelChoice`], [`Script`], [`ScriptError`]) | [`serve`] |
//! | `proxy` | [`ProxyOptions`] | [`proxy`] |
//!
//! `board` and `check -- AGENT` may start a scripted model: [`ModelSetup`]
//! says how the agent reaches it. The command line itself: [`parse`] a line
//! into an [`Invocation`], [`run`] it, or [`main`] for both; [`command`] is
//! its grammar. Everything else is private to the crate, except
//! [`harness`], what this repository's own tests reach (not an API).

mod board;
mod check;
mod cli;
mod fixtures;
mod model;
// The agent as a child process, its whole group ended on every way out.
mod process;
mod proxy;
mod tool;

// The command line.
pub use cli::{Invocation, command, main, parse, run};

// `board`.
pub use board::{BoardOptions, board};

// `check FILE...` and `check -- AGENT`.
pub use check::conformance::{CheckAgentOptions, check_agent};
pub use check::{CheckFilesOptions, check_files};

// `fixtures`.
pub use fixtures::{FixturesOptions, fixtures};

// `model`, and the model `board` and `check` may start.
pub use model::{ModelChoice, ModelOptions, ModelSetup, Script, ScriptError, serve};

// `proxy`.
pub use proxy::{ProxyOptions, proxy};

// `tool`.
pub use tool::{Tool, ToolOptions, tool};

/// What this repository's tests reach beyond the verbs: the parts a test
/// holds to outside facts (the schemas' words, each agent's environment).
/// Not an API: it changes with the tests.
#[doc(hidden)]
pub mod harness {
    // Item by item: each one a test uses, and the types they carry (a
    // reachable type is nameable: `unnameable_types`).
    pub use crate::board::live::initialize_params;
    pub use crate::board::live::{client as board_agent, drive as board_connected};
    pub use crate::check::Finding;
    pub use crate::check::conformance::report::{report_json, report_text};
    pub use crate::check::conformance::turns::{ALL as TURN_RULES, Level, TurnRule};
    pub use crate::check::conformance::{
        ClientRun, exit_code, kind_name, report_agent, run_kind as check_kind,
    };
    pub use crate::check::files::{FileReport, check_file};
    pub use crate::check::rule::{ACP_SPELLING, ALL as RULES};
    pub use crate::model::plan_tool::{ListToolShape, PlanTool, find as find_plan_tool};
    pub use crate::model::point::{AgentEnv, PROFILES, Profile, Wiring, point};
    pub use crate::proxy::Relay;
}
