//! A command line read: [`parse`] by the grammar, with an unknown option
//! said as the user most likely meant it.

use std::ffi::OsString;

use super::grammar::command;
use super::invocation::{
    self, Invocation, board_options, check_request, fixtures_request, model_request, tool_request,
};

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
