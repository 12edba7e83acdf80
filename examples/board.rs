//! A client: reads `session/update` notifications (NDJSON, one JSON-RPC
//! message per line) from a file or standard input, applies them to one
//! `PlanBoard` per session, and draws the boards.
//!
//! ```text
//! cargo run --example agent -- --json | cargo run --example board
//! cargo run --example board -- messages.ndjson
//! cargo run --example board -- --json < messages.ndjson   # the final state as JSON
//! cargo run --example board -- --strict messages.ndjson   # refuse what the SDKs would let through
//! ```
//!
//! It reads as the published SDKs do: a malformed entry is skipped and the
//! rest of its message applied, JSON-RPC requests and responses are ignored
//! (and counted); each skip is reported on standard error with its line
//! number. Invalid lines (not JSON, no usable plan) are reported and
//! skipped; the exit status is 1 if there were any.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::process::ExitCode;

use plan_core::{Applied, SessionBoards, Spelling, TerminalStyle, render_board};
use serde_json::json;

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Options {
    /// Print the final state as JSON instead of drawing it.
    pub json: bool,
    /// Read this file instead of standard input.
    pub path: Option<String>,
    /// Refuse what lenient reading would skip or let through.
    pub strict: bool,
}

#[allow(dead_code)] // `main` is unused where the end-to-end test includes this file.
fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("board: {message}");
            eprintln!("usage: cargo run --example board [-- [--json] [--strict] [FILE]]");
            return ExitCode::from(2);
        }
    };
    let input: Box<dyn BufRead> = match &options.path {
        Some(path) => match File::open(path) {
            Ok(file) => Box::new(BufReader::new(file)),
            Err(e) => {
                eprintln!("board: cannot open {path}: {e}");
                return ExitCode::from(2);
            }
        },
        None => Box::new(io::stdin().lock()),
    };
    let stdout = io::stdout();
    let style = TerminalStyle::detect(&stdout);
    let live = !options.json && stdout.is_terminal();
    match run(
        &options,
        input,
        &mut stdout.lock(),
        &mut io::stderr(),
        style,
        live,
    ) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("board: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the command line.
///
/// # Errors
/// What is wrong with it, in one sentence.
pub fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    for arg in args {
        match arg.as_str() {
            "--json" => options.json = true,
            "--strict" => options.strict = true,
            flag if flag.starts_with("--") => return Err(format!("unknown argument `{flag}`")),
            path if options.path.is_none() => options.path = Some(path.to_owned()),
            extra => return Err(format!("one input file only; `{extra}` is a second")),
        }
    }
    Ok(options)
}

/// Applies every line of `input`; draws the boards after each line when
/// `live`, else once at the end (or prints them as JSON). Returns how many
/// lines were invalid.
///
/// # Errors
/// An error reading the input or writing the output.
pub fn run(
    options: &Options,
    input: impl BufRead,
    out: &mut impl Write,
    err: &mut impl Write,
    style: TerminalStyle,
    live: bool,
) -> io::Result<usize> {
    let mut boards = if options.strict {
        SessionBoards::new().strict()
    } else {
        SessionBoards::new()
    };
    let (mut invalid, mut other_messages) = (0, 0);
    // Lines are read as bytes, so a line that is not UTF-8 is reported and
    // skipped like any other bad line instead of ending the stream.
    for (index, bytes) in input.split(b'\n').enumerate() {
        let bytes = bytes?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match boards.apply_slice(&bytes) {
            Ok(read) => {
                for skipped in &read.skipped {
                    writeln!(err, "board: line {}: {skipped}", index + 1)?;
                }
                if let Applied::OtherMessage { .. } = read.value {
                    other_messages += 1;
                } else if live {
                    write!(out, "\x1b[H\x1b[2J")?;
                    draw(&boards, out, style)?;
                }
            }
            Err(e) => {
                invalid += 1;
                writeln!(err, "board: line {}: {e}", index + 1)?;
            }
        }
    }
    if other_messages > 0 {
        writeln!(
            err,
            "board: {other_messages} JSON-RPC message(s) other than `session/update` ignored"
        )?;
    }
    if options.json {
        let sessions: Vec<_> = boards
            .boards()
            .map(|b| b.to_json_value(Spelling::Acp))
            .collect();
        let state = json!({ "sessions": sessions });
        serde_json::to_writer_pretty(&mut *out, &state).map_err(io::Error::from)?;
        writeln!(out)?;
    } else if !live {
        draw(&boards, out, style)?;
    }
    out.flush()?;
    Ok(invalid)
}

fn draw(boards: &SessionBoards, out: &mut impl Write, style: TerminalStyle) -> io::Result<()> {
    for board in boards.boards() {
        if boards.boards().len() > 1 {
            writeln!(out, "session {}", board.session())?;
        }
        write!(out, "{}", render_board(board, style))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_reported_with_their_number_and_skipped() {
        let input = "{\"jsonrpc\":\"2.0\"}\n\n\
            {\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"plan_removed\",\"planId\":\"x\"}}}\n\
            not json\n";
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let invalid = run(
            &Options::default(),
            input.as_bytes(),
            &mut out,
            &mut err,
            TerminalStyle::PLAIN,
            false,
        )
        .unwrap();
        assert_eq!(invalid, 2);
        let err = String::from_utf8(err).unwrap();
        assert_eq!(
            err,
            "board: line 1: in the message: missing required field `method`\n\
             board: line 4: invalid JSON at line 1, column 2: expected ident\n"
        );
    }

    #[test]
    fn raw_agent_output_reads_as_the_sdks_read_it() {
        let input = concat!(
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[42,{"content":"a","priority":"high","status":"pending"}]}}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"","uri":"file:///tmp/my plan.md"}}}}"#,
            "\n",
        );
        let run_with = |strict| {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let options = Options {
                json: true,
                strict,
                ..Options::default()
            };
            let invalid = run(
                &options,
                input.as_bytes(),
                &mut out,
                &mut err,
                TerminalStyle::PLAIN,
                false,
            )
            .unwrap();
            let state: serde_json::Value = serde_json::from_slice(&out).unwrap();
            (invalid, state, String::from_utf8(err).unwrap())
        };
        let (invalid, state, err) = run_with(false);
        assert_eq!(invalid, 0, "{err}");
        let plans = &state["sessions"][0]["plans"];
        assert_eq!(plans[0]["progress"]["total"], 1, "the good entry is kept");
        assert_eq!(plans[1]["content"]["uri"], "file:///tmp/my plan.md");
        assert_eq!(
            err,
            "board: line 3: skipped `params.update.plan.entries[0]`: expected an object, found a number\n\
             board: line 4: let through `params.update.plan.planId`: a plan id cannot be empty\n\
             board: line 4: let through `params.update.plan.uri`: ' ' cannot appear in a URI as it is; percent-encode it as UTF-8 bytes (a space is `%20`)\n\
             board: 2 JSON-RPC message(s) other than `session/update` ignored\n"
        );
        let (invalid, state, _) = run_with(true);
        assert_eq!(invalid, 2, "strict: the two plan lines are refused");
        assert_eq!(state["sessions"], serde_json::json!([]));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_skipped() {
        let mut input = b"\xff\xfe\n".to_vec();
        input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"plan_removed\",\"planId\":\"x\"}}}\n");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let invalid = run(
            &Options::default(),
            input.as_slice(),
            &mut out,
            &mut err,
            TerminalStyle::PLAIN,
            false,
        )
        .unwrap();
        assert_eq!(invalid, 1);
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "board: line 1: in the message: the message is not UTF-8 text: invalid byte at offset 0\n"
        );
    }

    #[test]
    fn flags() {
        let parse = |args: &[&str]| parse_args(args.iter().map(|s| (*s).to_owned()));
        assert_eq!(
            parse(&["--json", "f.ndjson"]).unwrap(),
            Options {
                json: true,
                path: Some("f.ndjson".into()),
                strict: false,
            }
        );
        assert!(parse(&["--strict"]).unwrap().strict);
        assert!(parse(&["a", "b"]).is_err());
        assert!(parse(&["--live"]).is_err());
    }
}
