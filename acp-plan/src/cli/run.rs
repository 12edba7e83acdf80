//! What an invocation does: [`run`] on this process's standard streams, and
//! [`main`], the whole program.

use std::ffi::OsString;
use std::io::{self, IsTerminal as _, Write as _};

use super::invocation::Invocation;
use super::parse::parse;
use crate::check::conformance;
use crate::{board, check, fixtures, model, tool};

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
