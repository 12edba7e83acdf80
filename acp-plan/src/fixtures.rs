//! Plan streams for testing a client, for people not writing Rust: prints a
//! scripted stream of `session/update` plan notifications as NDJSON, or the
//! boards a correct client ends with after reading it.
//!
//! ```text
//! acp-plan fixtures --seed 7 --plans 3 --steps 20 > stream.ndjson
//! acp-plan fixtures --seed 7 --plans 3 --steps 20 --expected > expected.json
//! ```
//!
//! Feed `stream.ndjson` to your client line by line, then compare its state
//! with `expected.json`: one object per session (in order of the session's
//! first message) with its live plans in order of creation, each with `id`,
//! `type`, `version` (updates since creation), `content` (the plan as last
//! sent), `progress` for items plans and `"v1Plan": true` for the v1 plan.
//!

use std::io::{self, Write};

use plan_core::fixtures::Scenario;

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct FixturesOptions {
    /// The scenario, every knob set.
    pub scenario: Scenario,
    /// Print the expected boards instead of the stream.
    pub expected: bool,
}

/// Writes what `options` asks for to standard output; the exit status: 0,
/// or 2 when writing failed (said on standard error).
pub fn fixtures(options: &FixturesOptions) -> u8 {
    let result = write_fixtures(options, io::stdout().lock()).map(|()| 0);
    crate::process::exit_status("fixtures", result)
}

/// Writes what `options` asks for to `out`.
pub(crate) fn write_fixtures(options: &FixturesOptions, mut out: impl Write) -> io::Result<()> {
    let stream = options.scenario.generate();
    if options.expected {
        let expected = stream.expected().to_json_value(stream.spelling());
        serde_json::to_writer_pretty(&mut out, &expected)?;
        writeln!(out)?;
        out.flush()
    } else {
        stream.write_ndjson(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::wire::Spelling;

    #[test]
    fn the_stream_and_the_expected_boards_agree() {
        let options = FixturesOptions {
            scenario: Scenario::new(7).sessions(2).steps(30),
            expected: false,
        };
        let mut stream = Vec::new();
        write_fixtures(&options, &mut stream).unwrap();
        let mut boards = plan_core::client::SessionBoards::new().strict();
        let text = String::from_utf8(stream).unwrap();
        assert_eq!(text.lines().count(), 30);
        for line in text.lines() {
            boards.apply_json(line).unwrap();
        }
        let mut expected = Vec::new();
        write_fixtures(
            &FixturesOptions {
                expected: true,
                ..options
            },
            &mut expected,
        )
        .unwrap();
        let expected: serde_json::Value = serde_json::from_slice(&expected).unwrap();
        assert_eq!(expected, boards.to_json_value(Spelling::Acp));
    }
}
