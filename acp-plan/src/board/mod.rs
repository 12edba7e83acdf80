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

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};

mod draw;
pub(crate) mod file;
pub(crate) mod live;
mod options;

use file::read_stream;
use live::client;
pub use options::BoardOptions;

use plan_core::client::TerminalStyle;

/// What the board says when it reads a terminal: where the stream comes
/// from, how to end it, and the other ways in.
const STDIN_AT_A_TERMINAL: &str = "board: reading a recorded stream (NDJSON) from standard input; Ctrl-D ends it. To read a file: acp-plan board FILE; to drive an agent: acp-plan board -- AGENT";

/// Runs the board as `options` asks, on this process's standard streams;
/// the exit status: 0 done, 1 the input had invalid lines, 2 the agent
/// could not be driven or the input not read (said on standard error).
pub fn board(options: &BoardOptions) -> u8 {
    let stdout = io::stdout();
    let style = TerminalStyle::detect(&stdout);
    let live = !options.json && stdout.is_terminal();
    if !options.command.is_empty() {
        return match client(options, &mut stdout.lock(), &mut io::stderr(), style, live) {
            Ok(()) => 0,
            Err(reason) => {
                eprintln!("board: {reason}");
                2
            }
        };
    }
    let input: Box<dyn BufRead> = match &options.path {
        Some(path) => match File::open(path) {
            Ok(file) => Box::new(BufReader::new(file)),
            Err(e) => {
                eprintln!("board: cannot open {path}: {e}");
                return 2;
            }
        },
        None => {
            // A person at a terminal who gave no FILE and no agent would
            // otherwise wait on a silent board.
            if io::stdin().is_terminal() {
                eprintln!("{STDIN_AT_A_TERMINAL}");
            }
            Box::new(io::stdin().lock())
        }
    };
    match read_stream(
        options,
        input,
        &mut stdout.lock(),
        &mut io::stderr(),
        style,
        live,
    ) {
        Ok(0) => 0,
        Ok(_) => 1,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("board: {e}");
            2
        }
    }
}
