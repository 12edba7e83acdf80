//! `check`: judges an agent's plans, or recorded transcripts, against the
//! protocol's rules and what the published SDKs read.
//!
//! Given an agent's command, it starts the agent once per kind of client
//! and judges what it sends ([`conformance`]): 0 clean, 1 findings, 2 the
//! agent could not be driven.
//!
//! A file is one JSON message (a notification, an update or plan content),
//! a JSON array of messages, or NDJSON (one message per line). Each problem
//! is one line, `FILE:LINE: at PATH: WHAT [RULE]`; 1 if there was any, 2 if
//! a file could not be read. Without `--protocol`, only the rules of every
//! version apply (and the RFD spelling, which no SDK reads); with it, also
//! what that version's SDK reader rejects or drops. A file that records the
//! client's `initialize` is judged for that client.

pub(crate) mod conformance;
pub(crate) mod files;
mod finding;
mod message;
mod recordings;
pub(crate) mod rule;

pub use finding::Finding;
pub use recordings::{CheckFilesOptions, check_files};
