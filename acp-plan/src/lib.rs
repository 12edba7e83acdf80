//! The library behind the `acp-plan` command: what each of its subcommands
//! does, for a Rust program (or test) that wants it without the command
//! line.
//!
//! - [`board`]: drive an ACP agent, or read a recorded stream, and draw its plans;
//! - [`check`]: judge an agent as every kind of client, or judge recorded transcripts;
//! - [`fixtures`]: scripted plan streams and the boards a correct client ends with;
//! - [`tool`]: what a model's plan tool call becomes for one kind of client;
//! - [`model`]: a scripted model, so real agents run a turn offline;
//! - [`cli`]: the command line (clap), parsed into one of the above.

pub mod board;
pub mod check;
pub mod cli;
pub mod fixtures;
pub mod model;
// The agent as a child process, its whole group ended on every way out.
mod process;
pub mod tool;
