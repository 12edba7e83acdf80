//! The command line: one command, five subcommands, the same flag meaning
//! the same thing in each (`--json`, `--protocol`, `--timeout`, `--prompt`,
//! `--expect-plans`, `--no-plan-capability`).
//!
//! Exit statuses, for CI: 0 clean, 1 findings (or invalid input lines, or
//! a model's tool call that cannot be read), 2 the agent could not be
//! driven, a file could not be read, or the command line is wrong.
//!
//! Three rooms: `grammar.rs` the command's shape (its arguments, help and
//! examples), `requests.rs` what a parsed line asks for (the options of each
//! subcommand, and the mistakes clap cannot see), and this file the entry
//! points (`parse`, `run`, `main`).

use std::ffi::OsString;
use std::io::{self, IsTerminal as _, Read as _, Write as _};

use crate::check::{CheckFilesOptions, conformance};
use crate::{board, check, fixtures, model, tool};

mod grammar;
mod requests;

pub use grammar::command;
use requests::{board_options, check_request, fixtures_request, model_request, tool_request};

/// What one command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `board`: drive an agent or read a stream, and draw its plans.
    Board(board::BoardOptions),
    /// `check FILE...`: judge recorded transcripts.
    CheckFiles {
        /// The files and how to judge them.
        options: CheckFilesOptions,
        /// A JSON report instead of lines.
        json: bool,
    },
    /// `check -- COMMAND`: judge an agent as every kind of client.
    CheckAgent(conformance::CheckAgentOptions),
    /// `fixtures`: a scripted stream, or the boards it ends with.
    Fixtures(fixtures::FixturesOptions),
    /// `tool`: what a model's plan tool call (on standard input) becomes.
    Tool(tool::ToolOptions),
    /// `model`: serve a scripted model until stopped.
    Model(model::ModelOptions),
    /// `proxy -- COMMAND`: stand between a client and the agent.
    Proxy(crate::proxy::ProxyOptions),
}

/// Parses a command line (the program's name first).
///
/// # Errors
/// clap's error: a mistake in the command line, or `--help`/`--version`
/// (which clap reports as errors that print to standard output).
pub fn parse<I, T>(args: I) -> Result<Request, clap::Error>
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
            "a subcommand: board, check, fixtures, tool or model",
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
        "board" => board_options(m, sub).map(Request::Board),
        "check" => check_request(m, sub),
        "fixtures" => fixtures_request(m, sub),
        "tool" => tool_request(m, sub),
        "proxy" => Ok(requests::proxy_request(m)),
        _ => Ok(model_request(m)),
    }
}

/// An unknown option with no near name among ours, given to a subcommand
/// that starts an agent, is most likely the agent's: say to put it after
/// the agent's command (clap's own tip, "use '-- --fast'", would start the
/// agent with it and no command). Any other error stays clap's.
fn agents_option(e: clap::Error, cmd: &mut clap::Command, args: &[OsString]) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let starts_agent = args
        .iter()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'))
        .is_some_and(|sub| sub == "check" || sub == "board");
    let unknown = match e.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => arg.clone(),
        _ => return e,
    };
    if e.kind() != ErrorKind::UnknownArgument
        || !starts_agent
        || !unknown.starts_with('-')
        || e.get(ContextKind::SuggestedArg).is_some()
    {
        return e;
    }
    let sub = if args.iter().any(|a| a == "board") {
        "board"
    } else {
        "check"
    };
    let message = format!(
        "unexpected argument '{unknown}': `{sub}` has no such option; if it is your agent's, put it after the agent's command (acp-plan {sub} [OPTIONS] -- AGENT {unknown})"
    );
    // Its usage line is the subcommand's.
    let mut sub_cmd = cmd
        .find_subcommand_mut(sub)
        .cloned()
        .unwrap_or_else(|| cmd.clone());
    sub_cmd.error(ErrorKind::UnknownArgument, message)
}

/// Does what `request` asks on this process's standard streams; the exit status.
pub fn run(request: &Request) -> u8 {
    let broken_pipe = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    match request {
        Request::Board(options) => board::board(options),
        Request::CheckAgent(options) => {
            let progress = io::stderr().is_terminal();
            let options = conformance::CheckAgentOptions {
                progress,
                ..options.clone()
            };
            match conformance::check_agent(&options, &mut io::stdout().lock()) {
                Ok(code) => code,
                Err(e) if broken_pipe(&e) => 0,
                Err(e) => {
                    eprintln!("check: {e}");
                    2
                }
            }
        }
        Request::CheckFiles { options, json } => {
            let result =
                check::check_files(options, *json, &mut io::stdout().lock(), &mut io::stderr());
            match result {
                Ok(code) => code,
                Err(e) if broken_pipe(&e) => 0,
                Err(e) => {
                    eprintln!("check: {e}");
                    2
                }
            }
        }
        Request::Model(options) => model::serve(options),
        Request::Proxy(options) => crate::proxy::proxy(options),
        Request::Tool(options) => {
            let mut arguments = String::new();
            if let Err(e) = io::stdin().read_to_string(&mut arguments) {
                eprintln!("tool: cannot read the call's arguments on standard input: {e}");
                return 2;
            }
            // No input is no call: a wrong command line, not a model's mistake.
            if arguments.trim().is_empty() {
                eprintln!(
                    "tool: no call on standard input; give the arguments the model sent (JSON), e.g. `acp-plan tool todo-write < call.json`"
                );
                return 2;
            }
            match tool::tool(
                options,
                &arguments,
                &mut io::stdout().lock(),
                &mut io::stderr(),
            ) {
                Ok(code) => code,
                Err(e) if broken_pipe(&e) => 0,
                Err(e) => {
                    eprintln!("tool: {e}");
                    2
                }
            }
        }
        Request::Fixtures(options) => match fixtures::fixtures(options, io::stdout().lock()) {
            Ok(()) => 0,
            Err(e) if broken_pipe(&e) => 0,
            Err(e) => {
                eprintln!("fixtures: {e}");
                2
            }
        },
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
        Ok(request) => run(&request),
        Err(e) => {
            let _ = e.print();
            let _ = io::stdout().flush();
            if e.use_stderr() { 2 } else { 0 }
        }
    }
}

#[cfg(test)]
mod tests;
