//! `board`: starts an ACP agent and draws the plans it shows, live; or
//! reads `session/update` notifications (NDJSON, one JSON-RPC message per
//! line) from a file or standard input. Either way it applies them to one
//! `PlanBoard` per session and draws the boards.
//!
//! Driving an agent, it is its client: `initialize` (protocol v1, the
//! stable one, with `clientCapabilities.plan: {}`; `--protocol 2` offers the
//! v2 draft and still says `plan: {}` for an agent that answers v1),
//! `session/new` in the current directory, one `session/prompt`; it
//! answers the agent's permission requests by rejecting (and says so on
//! standard error), and when the turn ends prints the final drawing, or
//! with `--json` the final state. It fails (exit 2) if the agent died,
//! broke the protocol or did not answer in time, saying why.
//!
//! It reads as the published SDKs do: a malformed entry is skipped and the
//! rest of its message applied, JSON-RPC requests and responses are ignored
//! (and counted); each skip is reported on standard error with its line
//! number. Invalid lines (not JSON, no usable plan) are reported and
//! skipped; the exit status is 1 if there were any.

mod draw;
pub(crate) mod file;
pub(crate) mod live;
mod options;
mod run;

pub use options::BoardOptions;
pub use run::board;
