//! The command line: one command, five subcommands, the same flag meaning
//! the same thing in each (`--json`, `--protocol`, `--timeout`, `--prompt`,
//! `--expect-plans`, `--no-plan-capability`).
//!
//! Exit statuses, for CI: 0 clean, 1 findings (or invalid input lines, or
//! a model's tool call that cannot be read), 2 the agent could not be
//! driven, a file could not be read, or the command line is wrong.
//!
//! Three rooms: `grammar.rs` the command's shape (its arguments, help and
//! examples), `invocation.rs` what a parsed line asks for (the options of each
//! subcommand, and the mistakes clap cannot see), and this file the entry
//! points (`parse`, `run`, `main`).

mod grammar;
mod help;
mod invocation;
mod parse;
mod run;

pub use grammar::command;
pub use invocation::Invocation;
pub use parse::parse;
pub use run::{main, run};

#[cfg(test)]
mod tests;
