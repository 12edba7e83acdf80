//! Plan streams for testing a client, for people not writing Rust: prints a
//! scripted stream of `session/update` plan notifications as NDJSON, or the
//! boards a correct client ends with after reading it.
//!
//! ```text
//! cargo run --example fixtures -- --seed 7 --plans 3 --steps 20 > stream.ndjson
//! cargo run --example fixtures -- --seed 7 --plans 3 --steps 20 --expected > expected.json
//! ```
//!
//! Feed `stream.ndjson` to your client line by line, then compare its state
//! with `expected.json`: one object per session (in order of the session's
//! first message) with its live plans in order of creation, each with `id`,
//! `type`, `version` (updates since creation), `content` (the plan as last
//! sent), `progress` for items plans and `"v1Plan": true` for the v1 plan.
//!
//! Options: `--seed N` (default 0), `--sessions N` (1), `--plans N` (most
//! plans live at once per session, 3), `--steps N` (notifications, 20),
//! `--protocol 1|2` (1: the stable protocol, a client that sent `plan`; 2: the
//! v2 draft), `--no-plan-capability` (v1: a client that reads only v1 `plan`),
//! `--rfd` (v1: a client that advertised `planCapabilities`, answered in the
//! RFD spelling), `--pre-stable-file` (a client known to run a pre-stable SDK:
//! design documents go out as `file` plans, which the stabilized protocol no
//! longer has), `--no-custom` (no `_x` values), `--expected`.

use std::io::{self, Write};
use std::process::ExitCode;

use plan_core::fixtures::{ClientProfile, Scenario};
use plan_core::wire::{ProtocolVersion, Spelling};

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The scenario, every knob set.
    pub scenario: Scenario,
    /// Print the expected boards instead of the stream.
    pub expected: bool,
    /// `--help`: print the usage and exit.
    pub help: bool,
}

/// What `--help` prints (and a command-line mistake, after the mistake).
pub const USAGE: &str = "\
usage: cargo run --example fixtures -- [OPTIONS]
Prints a scripted stream of plan notifications (NDJSON), or with --expected
the boards a correct client ends with.

  --seed N              the script's seed (0)
  --sessions N          sessions interleaved (1)
  --plans N             most plans live at once per session (3)
  --steps N             notifications (20)
  --protocol 1|2        1: the stable protocol, a client that sent `plan` (default); 2: the v2 draft
  --no-plan-capability  v1: a client that reads only the v1 `plan`
  --rfd                 v1: a client that advertised `planCapabilities` (answered in the RFD spelling)
  --pre-stable-file     a client known to run a pre-stable SDK: design documents as `file` plans
  --no-custom           no custom `_x` values or types
  --expected            print the expected boards instead of the stream
  -h, --help            this text
";

#[allow(dead_code)] // `main` is unused where a test includes this file.
fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) if options.help => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(options) => options,
        Err(message) => {
            eprintln!("fixtures: {message}");
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match write(&options, io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fixtures: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes what `options` asks for to `out`.
///
/// # Errors
/// The writer's error.
pub fn write(options: &Options, mut out: impl Write) -> io::Result<()> {
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

/// Reads the command line.
///
/// # Errors
/// What is wrong with it, in one sentence.
pub fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut scenario = Scenario::new(0);
    let (mut expected, mut help) = (false, false);
    let mut protocol = ProtocolVersion::V1;
    let (mut pre_stable_file, mut capability) = (false, Some(Spelling::Acp));
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) => (flag.to_owned(), Some(value.to_owned())),
            None => (arg, None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("`{flag}` needs a value: {what}"))
        };
        let number = |text: String, flag: &str| -> Result<u64, String> {
            text.parse()
                .map_err(|_| format!("`{flag}` takes a whole number, not `{text}`"))
        };
        let count = |text: String, flag: &str| -> Result<usize, String> {
            let n = number(text, flag)?;
            usize::try_from(n).map_err(|_| format!("`{flag}` {n} is too large"))
        };
        scenario = match flag.as_str() {
            "--seed" => scenario.seed(number(value("a number")?, &flag)?),
            "--sessions" => scenario.sessions(count(value("a number")?, &flag)?),
            "--plans" => scenario.plans(count(value("a number")?, &flag)?),
            "--steps" => scenario.steps(count(value("a number")?, &flag)?),
            "--protocol" => {
                protocol = match value("1 or 2")?.as_str() {
                    "1" => ProtocolVersion::V1,
                    "2" => ProtocolVersion::V2,
                    other => return Err(format!("`--protocol` is 1 or 2, not `{other}`")),
                };
                scenario
            }
            "--pre-stable-file" => {
                pre_stable_file = true;
                scenario
            }
            "--no-custom" => scenario.custom_values(false),
            "--no-plan-capability" => {
                capability = None;
                scenario
            }
            "--rfd" => {
                capability = Some(Spelling::Rfd);
                scenario
            }
            "--expected" => {
                expected = true;
                scenario
            }
            "--help" | "-h" => {
                help = true;
                scenario
            }
            other => return Err(format!("unknown option `{other}`")),
        };
    }
    let client = ClientProfile::of(protocol)
        .plan_capability(capability)
        .pre_stable_file(pre_stable_file);
    Ok(Options {
        scenario: scenario.for_client(client),
        expected,
        help,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Result<Options, String> {
        parse_args(line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn flags() {
        let options = args("--seed 7 --plans 3 --steps 20 --protocol=2 --expected").unwrap();
        assert!(options.expected);
        assert_eq!(
            options.scenario,
            Scenario::new(7)
                .plans(3)
                .steps(20)
                .for_client(ClientProfile::v2())
        );
        assert!(args("--help").unwrap().help);
        assert!(!args("--seed 1").unwrap().help);
        let v1 = args("--seed 7").unwrap();
        assert_eq!(
            v1.scenario,
            Scenario::new(7).for_client(ClientProfile::v1())
        );
        let rfd = args("--protocol 1 --rfd").unwrap();
        assert_eq!(rfd.scenario.spelling(), Spelling::Rfd);
        for (line, says) in [
            ("--protocol 3", "1 or 2"),
            ("--steps many", "whole number"),
            ("--seed", "needs a value"),
            ("--colour", "unknown option"),
        ] {
            let err = args(line).unwrap_err();
            assert!(err.contains(says), "{line}: {err}");
        }
    }

    #[test]
    fn the_stream_and_the_expected_boards_agree() {
        let options = args("--seed 7 --sessions 2 --steps 30").unwrap();
        let mut stream = Vec::new();
        write(&options, &mut stream).unwrap();
        let mut boards = plan_core::client::SessionBoards::new().strict();
        let text = String::from_utf8(stream).unwrap();
        assert_eq!(text.lines().count(), 30);
        for line in text.lines() {
            boards.apply_json(line).unwrap();
        }
        let mut expected = Vec::new();
        write(
            &Options {
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
