//! The agent a client starts, how the client reads it and answers its
//! requests, and how the client ends it: a client ends what it started,
//! children included, on every way out.
//!
//! On Unix the agent runs in a process group of its own (it and everything
//! it starts, unless they leave the group). When the client is done it
//! closes the agent's input, waits briefly for it to exit, then sends
//! `SIGTERM` to the whole group, and `SIGKILL` to what is left a second
//! later. Done on drop, so the turn's end, an error, a timeout and a panic
//! all take this path; `Ctrl-C` (`SIGINT`), `SIGTERM` and `SIGHUP` to the
//! client terminate the group from a signal handler, then end the client as
//! the signal would have. (An agent left running would also hold the
//! client's standard error open, so `out=$(board -- agent 2>&1)` would never
//! return.) Elsewhere the agent alone is killed.

mod answers;
mod child;
pub(crate) mod connection;
mod exit;
pub(crate) mod handshake;

pub(crate) use answers::{Hint, auth_help, hint_for};
pub(crate) use child::{AgentProcess, Stderr, until_stopped};
pub(crate) use exit::exit_status;
