//! `check -- AGENT`: a plan conformance check for any ACP agent. The agent
//! is started once per kind of client (v1 without `plan`, v1 with `plan`,
//! the v2 draft), runs a turn (and with `--cancel` a cancelled one), and
//! every line it writes is judged: the JSON-RPC envelope, the version table
//! (what that client may be sent), the turn's end, and what a lenient
//! client would drop without a word. Findings name their rule, the line of
//! the kind's transcript, the JSON path and a fix, in the words of `check`.
//!
//! Exit status: 0 clean, 1 findings, 2 the agent could not be driven (it
//! could not be started, died, or never answered `initialize` or
//! `session/new`), with the reason.

mod client_run;
mod conversation;
mod driven;
mod left_holding;
mod mapping;
mod options;
mod plan_mode;
pub(crate) mod report;
mod run;
mod session;
mod summary;
pub(crate) mod turns;
pub use client_run::ClientRun;
pub use client_run::exit_code;
pub use client_run::kind_name;
pub use options::CheckAgentOptions;
pub use run::{check_agent, report_agent, run_kind};
