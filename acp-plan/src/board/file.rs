//! The board's file mode: `session/update` notifications read from NDJSON,
//! as the published SDKs read them, applied to one `PlanBoard` per session
//! and drawn. The live conversation with an agent is in `live.rs`.

use std::io::{self, BufRead, Write};

use plan_core::client::{Applied, SessionBoards, TerminalStyle};

use super::draw::{PlanTally, draw, state_json};
use super::options::BoardOptions;

/// How many unreadable lines in a row make the board stop reading: not an
/// NDJSON stream of ACP messages (a binary, say).
pub(crate) const UNREADABLE_RUN: usize = 20;

/// Applies every line of `input`; draws the boards after each line when
/// `live`, else once at the end (or prints them as JSON). Returns how many
/// lines were invalid.
///
/// # Errors
/// An error reading the input or writing the output.
pub(crate) fn read_stream(
    options: &BoardOptions,
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
    let (mut invalid, mut other_messages, mut in_a_row) = (0, 0, 0);
    let mut tally = PlanTally::default();
    // Lines are read as bytes, so a line that is not UTF-8 is reported and
    // skipped like any other bad line instead of ending the stream.
    for (index, bytes) in input.split(b'\n').enumerate() {
        let bytes = bytes?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match boards.apply_slice(&bytes) {
            Ok(read) => {
                in_a_row = 0;
                for skipped in &read.skipped {
                    writeln!(err, "board: line {}: {skipped}", index + 1)?;
                }
                if let Applied::OtherMessage { .. } = read.value {
                    other_messages += 1;
                } else if tally.count(&read.value) && live {
                    write!(out, "\x1b[H\x1b[2J")?;
                    draw(&boards, out, style)?;
                }
            }
            Err(e) => {
                invalid += 1;
                in_a_row += 1;
                writeln!(err, "board: line {}: {e}", index + 1)?;
                if in_a_row == UNREADABLE_RUN {
                    writeln!(
                        err,
                        "board: stopped reading at line {}: {UNREADABLE_RUN} lines in a row were not ACP messages \
                         (is this a program? to start an agent, write `board -- COMMAND`)",
                        index + 1
                    )?;
                    break;
                }
            }
        }
    }
    if other_messages > 0 {
        writeln!(
            err,
            "board: {other_messages} JSON-RPC message(s) other than `session/update` ignored"
        )?;
    }
    writeln!(err, "board: {}", tally.summary())?;
    if options.json {
        serde_json::to_writer_pretty(&mut *out, &state_json(&boards)).map_err(io::Error::from)?;
        writeln!(out)?;
    } else if !live {
        draw(&boards, out, style)?;
    }
    out.flush()?;
    Ok(invalid)
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
        let invalid = read_stream(
            &BoardOptions::default(),
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
            "board: line 1: in the message: neither a request (`method`), a notification nor a response (`result`/`error`)\n\
             board: line 4: invalid JSON at line 1, column 2: expected ident\n\
             board: 1 plan message(s)\n"
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
            let options = BoardOptions {
                json: true,
                strict,
                ..BoardOptions::default()
            };
            let invalid = read_stream(
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
             board: 2 JSON-RPC message(s) other than `session/update` ignored\n\
             board: 2 plan message(s)\n"
        );
        let (invalid, state, _) = run_with(true);
        assert_eq!(invalid, 2, "strict: the two plan lines are refused");
        assert_eq!(state["sessions"], serde_json::json!([]));
    }

    /// `input` read with the default options, drawn plainly: how many lines
    /// were invalid, and what was said on standard error.
    fn read_plain(input: &[u8]) -> (usize, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let invalid = read_stream(
            &BoardOptions::default(),
            input,
            &mut out,
            &mut err,
            TerminalStyle::PLAIN,
            false,
        )
        .unwrap();
        (invalid, String::from_utf8(err).unwrap())
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_skipped() {
        let mut input = b"\xff\xfe\n".to_vec();
        input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"plan_removed\",\"planId\":\"x\"}}}\n");
        let (invalid, err) = read_plain(&input);
        assert_eq!(invalid, 1);
        assert_eq!(
            err,
            "board: line 1: in the message: the message is not UTF-8 text: invalid byte at offset 0\n\
             board: 1 plan message(s)\n"
        );
    }

    #[test]
    fn a_repeated_plan_is_not_redrawn_and_the_end_says_what_came() {
        // claude-agent-acp with its task tools: 13 `plan` updates, 6 of them
        // the plan as it already was.
        let recorded =
            include_str!("../../../tests/data/real-agents/transcripts/claude-tasks-v1caps.ndjson");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let options = BoardOptions::default();
        read_stream(
            &options,
            recorded.as_bytes(),
            &mut out,
            &mut err,
            TerminalStyle::PLAIN,
            true,
        )
        .unwrap();
        let drawn = String::from_utf8(out).unwrap();
        assert_eq!(
            drawn.matches("\x1b[H\x1b[2J").count(),
            13 - 6,
            "one frame per change"
        );
        let err = String::from_utf8(err).unwrap();
        assert!(
            err.ends_with(
                "board: 13 plan message(s), 6 of them the plan as it already was (not redrawn)\n"
            ),
            "{err}"
        );
        // The same conversation with no plan in it: said, not silent.
        let silent = recorded
            .lines()
            .filter(|l| !l.contains(r#""sessionUpdate":"plan""#))
            .fold(String::new(), |text, l| text + l + "\n");
        let (invalid, err) = read_plain(silent.as_bytes());
        assert_eq!(invalid, 0);
        assert!(
            err.ends_with(
                "board: no plan came (no `plan`, `plan_update` or `plan_removed` message)\n"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_run_of_unreadable_lines_stops_the_reading() {
        // A binary read as NDJSON: many lines, none a message.
        let input = b"\x7fELF\x02\x01\n".repeat(1000);
        let (invalid, err) = read_plain(&input);
        assert_eq!(invalid, UNREADABLE_RUN);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), UNREADABLE_RUN + 2, "{err}");
        assert!(
            lines[UNREADABLE_RUN].contains("to start an agent, write `board -- COMMAND`"),
            "{err}"
        );
        assert_eq!(
            lines[UNREADABLE_RUN + 1],
            "board: no plan came (no `plan`, `plan_update` or `plan_removed` message)"
        );
    }
}
