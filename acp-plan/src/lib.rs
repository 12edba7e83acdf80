//! The library behind the `acp-plan` command: each of its subcommands, for
//! a Rust program (or test) that wants it without the command line.
//!
//! This file is the whole public surface. Each subcommand is one options
//! type and one verb that runs it; the verb's result is what the command
//! prints or its exit status:
//!
//! | subcommand | options | verb |
//! |---|---|---|
//! | `board` | [`BoardOptions`] | [`board`] (on this process's streams); [`board_agent`] and [`board_connected`] on given ones |
//! | `check FILE...` | [`CheckFilesOptions`] | [`check_files`]; [`check_file`] for one file's bytes |
//! | `check -- AGENT` | [`CheckAgentOptions`] | [`check_agent`]; [`check_kind`] for one kind of client |
//! | `fixtures` | [`FixturesOptions`] | [`fixtures`] |
//! | `tool` | [`ToolOptions`] | [`tool`] |
//! | `model` | [`ModelOptions`] | [`serve`] |
//! | `proxy` | [`ProxyOptions`] | [`proxy`] (on this process's streams) |
//!
//! The command line itself: [`parse`] a line into a [`Request`], [`run`] it,
//! or [`main`] for both. Everything else is private to the crate, except
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
pub use cli::{Request, command, main, parse, run};

// `board`.
pub use board::live::{client as board_agent, drive as board_connected};
pub use board::{BoardOptions, board};

// `check`.
pub use check::conformance::report::{exit_code, report_json, report_text};
/// The names of the rules `check -- AGENT` reports beside the protocol's.
pub use check::conformance::rule;
pub use check::conformance::{CheckAgentOptions, KindRun, check_agent, run_kind as check_kind};
pub use check::files::{FileReport, check_file};
pub use check::{ACP_SPELLING, CheckFilesOptions, Finding, check_files};

// `fixtures`, `tool`, `model`.
pub use fixtures::{FixturesOptions, fixtures};
pub use model::{ModelChoice, ModelOptions, ModelSetup, Script, ScriptError, serve};

// `proxy`.
pub use proxy::{ProxyOptions, proxy};
pub use tool::{Tool, ToolOptions, tool};

/// What this repository's tests reach beyond the verbs: the parts a test
/// holds to outside facts (the schemas' words, each agent's environment).
/// Not an API: it changes with the tests.
#[doc(hidden)]
pub mod harness {
    pub use crate::board::live::initialize_params;
    pub use crate::check::conformance::slug;
    pub use crate::check::conformance::turns::ALL as TURN_RULES;
    pub use crate::model::plan_tool;
    pub use crate::model::point::{PROFILES, point};
    pub use crate::proxy::Relay;
}
