//! `board` run on this process's standard streams: an agent driven, or a
//! recorded stream read from a file or standard input; its exit status.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};

use super::file::read_stream;
use super::live::client;
use super::options::BoardOptions;

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
