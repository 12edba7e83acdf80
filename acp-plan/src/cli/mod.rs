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

use std::ffi::OsString;
use std::io::{self, IsTerminal as _, Write as _};

use crate::check::conformance;
use crate::{board, check, fixtures, model, tool};

mod grammar;
mod help;
mod invocation;

pub use grammar::command;
pub use invocation::Invocation;
use invocation::{board_options, check_request, fixtures_request, model_request, tool_request};

/// Parses a command line (the program's name first).
///
/// # Errors
/// clap's error: a mistake in the command line, or `--help`/`--version`
/// (which clap reports as errors that print to standard output).
pub fn parse<I, T>(args: I) -> Result<Invocation, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut cmd = command();
    let matches = cmd
        .try_get_matches_from_mut(&args)
        .map_err(|e| agents_option(e, &mut cmd, &args))?;
    let Some((name, m)) = matches.subcommand() else {
        return Err(cmd.error(
            clap::error::ErrorKind::MissingSubcommand,
            "a subcommand: board, check, fixtures, tool, model or proxy",
        ));
    };
    // A mistake found below shows its own subcommand's usage.
    let Some(sub) = cmd.find_subcommand_mut(name) else {
        return Err(cmd.error(
            clap::error::ErrorKind::InvalidSubcommand,
            format!("no subcommand `{name}`"),
        ));
    };
    match name {
        "board" => board_options(m, sub).map(Invocation::Board),
        "check" => check_request(m, sub),
        "fixtures" => fixtures_request(m, sub),
        "tool" => tool_request(m, sub),
        "proxy" => Ok(invocation::proxy_request(m)),
        _ => Ok(model_request(m)),
    }
}

/// An unknown option, said without clap's tip "to pass '--x' as a value,
/// use '-- --x'", which for a subcommand that starts an agent would start
/// a program named `--x`: a near name among ours is suggested alone; one
/// with none, given to a subcommand that starts an agent, is most likely
/// the agent's, so it goes after the agent's command; any other is named
/// with where the options are listed. Any other error stays clap's.
fn agents_option(e: clap::Error, cmd: &mut clap::Command, args: &[OsString]) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    const SUBCOMMANDS: [&str; 6] = ["board", "check", "fixtures", "tool", "model", "proxy"];
    if e.kind() != ErrorKind::UnknownArgument {
        return e;
    }
    let unknown = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => arg.clone(),
        _ => return e,
    };
    let Some(sub) = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy())
        .find(|a| !a.starts_with('-'))
        .and_then(|a| SUBCOMMANDS.into_iter().find(|s| *s == a))
    else {
        return e;
    };
    let starts_agent = matches!(sub, "board" | "check" | "proxy");
    let message = match e.get(ContextKind::SuggestedArg) {
        Some(ContextValue::String(near)) => {
            format!("unexpected argument '{unknown}'; did you mean '{near}'?")
        }
        _ if starts_agent && unknown.starts_with('-') => format!(
            "unexpected argument '{unknown}': `{sub}` has no such option; if it is your agent's, put it after the agent's command (acp-plan {sub} [OPTIONS] -- AGENT {unknown})"
        ),
        _ => format!(
            "unexpected argument '{unknown}': `{sub}` has no such option (`acp-plan {sub} --help` lists them)"
        ),
    };
    // Its usage line is the subcommand's.
    let mut sub_cmd = cmd
        .find_subcommand_mut(sub)
        .cloned()
        .unwrap_or_else(|| cmd.clone());
    sub_cmd.error(ErrorKind::UnknownArgument, message)
}

/// Does what `invocation` asks on this process's standard streams; the exit
/// status.
pub fn run(invocation: &Invocation) -> u8 {
    match invocation {
        Invocation::Board(options) => board::board(options),
        Invocation::CheckAgent(options) => {
            check::conformance::check_agent(&conformance::CheckAgentOptions {
                progress: io::stderr().is_terminal(),
                ..options.clone()
            })
        }
        Invocation::CheckFiles(options) => check::check_files(options),
        Invocation::Model(options) => model::serve(options),
        Invocation::Proxy(options) => crate::proxy::proxy(options),
        Invocation::Tool(options) => tool::tool(options),
        Invocation::Fixtures(options) => fixtures::fixtures(options),
    }
}

/// The whole program: parses `args` (the program's name first), runs, and
/// returns the exit status. `--help` and `--version` print and return 0; a
/// mistake prints clap's message and returns 2.
pub fn main<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    match parse(args) {
        Ok(invocation) => run(&invocation),
        Err(e) => {
            let _ = e.print();
            let _ = io::stdout().flush();
            if e.use_stderr() { 2 } else { 0 }
        }
    }
}

#[cfg(test)]
mod tests;
