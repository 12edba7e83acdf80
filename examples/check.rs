//! A validator people can run: checks files of ACP plan messages against the
//! protocol's rules and what the published SDKs read, and prints one line
//! per problem.
//!
//! ```text
//! cargo run --example check -- recorded.ndjson fixture.json ...
//! cargo run --example check -- --protocol 1 recorded.ndjson     # as a v1 client reads it
//! cargo run --example check -- -- cargo run -q --example agent    # run an agent as every kind of client
//! cargo run --example check -- --cancel --json -- ./my-agent --acp
//! ```
//!
//! Given an agent's command after `--`, it starts the agent once per kind of
//! client and judges what it sends (see `conformance.rs`): exit 0 clean, 1
//! findings, 2 the agent could not be driven.
//!
//! A file is one JSON message (a notification, an update or plan content),
//! a JSON array of messages, or NDJSON (one message per line). Each problem is printed as
//! `FILE:LINE: at PATH: WHAT [RULE]`; the exit status is 1 if there was any,
//! 2 if a file could not be read. Without `--protocol`, only the rules of
//! every version apply (and the RFD spelling, which no SDK reads); with it,
//! also what that version's SDK reader rejects or drops.

mod agent_process;
pub mod check_files;
use check_files::check_file;
pub mod conformance;

use std::io::{self, Write as _};
use std::process::ExitCode;
use std::time::Duration;

use plan_core::wire::ProtocolVersion;

/// The rule of the RFD spelling: the plan id written `id`.
pub const ACP_SPELLING: &str = "acp-spelling";

/// What `--help` prints (and a command-line mistake, after the mistake).
pub const USAGE: &str = "\
usage: cargo run --example check -- [--protocol 1|2] [--expect-plans] FILE...
       cargo run --example check -- [OPTIONS] -- COMMAND [ARGS...]
Checks files of ACP plan messages (one message, a JSON array, or NDJSON) and
prints one line per problem: FILE:LINE: at PATH: WHAT [RULE]. Exit status: 0
clean, 1 problems, 2 a file could not be read.

  --protocol 1|2   also what that version's readers reject or drop, for a
                   file that holds no recorded `initialize` (one that does
                   is judged for the client it records)
  --expect-plans   a file (or, with an agent, a kind of client) with no
                   plan message is a problem (without it, a note on stderr)

With an agent's command after `--`, starts it once per kind of client (v1
without `plan`, v1 with `plan`, the v2 draft), runs a turn and judges what
it sends, by the same rules and the turn's. Exit status: 0 clean, 1
findings, 2 the agent could not be driven (with the reason).

  --json           a machine-readable report
  --prompt TEXT    the prompt of each turn
  --cancel         also run a turn the client cancels
  --record DIR     write each kind's transcript to DIR/KIND.ndjson
                   (a fixture include_plan_stream! accepts)
  --timeout SECS   how long a turn may take (default 60)
  -h, --help       this text
";

/// What `parse_args` returns for `--help`, in place of an error.
pub const HELP: &str = "--help";

#[allow(dead_code)] // `main` is unused where a test includes this file.
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--") {
        return match parse_agent_args(args.into_iter()) {
            Ok(options) => match conformance::run(&options, &mut io::stdout().lock()) {
                Ok(code) => ExitCode::from(code),
                Err(e) => {
                    eprintln!("check: {e}");
                    ExitCode::from(2)
                }
            },
            Err(message) if message == HELP => {
                print!("{USAGE}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("check: {message}");
                eprint!("{USAGE}");
                ExitCode::from(2)
            }
        };
    }
    let files = match parse_args(args.into_iter()) {
        Ok(parsed) => parsed,
        Err(message) if message == HELP => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("check: {message}");
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut out = io::stdout().lock();
    let mut problems = 0;
    for path in &files.paths {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("check: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        };
        match check_file(path, &bytes, files.protocol, &mut out) {
            Ok(report) => {
                problems += report.problems;
                if let (Some(kind), Some(protocol)) = (report.recorded_client, files.protocol) {
                    eprintln!(
                        "check: {path} holds the client's `initialize` and the agent's answer: judged as {kind}, not by `--protocol {}`",
                        protocol.number()
                    );
                }
                if report.plans == 0 {
                    let line = format!("{path}: no plan message seen: nothing judged");
                    if files.expect_plans {
                        let _ = writeln!(out, "{line} [{}]", conformance::rule::EXPECT_PLANS);
                        problems += 1;
                    } else {
                        eprintln!("check: {line}");
                    }
                }
            }
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("check: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// What the command line of the file mode asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileOptions {
    /// The version whose readers judge files without a recorded `initialize`.
    pub protocol: Option<ProtocolVersion>,
    /// A file with no plan message is a problem, not a note.
    pub expect_plans: bool,
    /// The files.
    pub paths: Vec<String>,
}

/// Reads the command line of the file mode.
///
/// # Errors
/// What is wrong with it, in one sentence; [`HELP`] for `--help`.
pub fn parse_args(mut args: impl Iterator<Item = String>) -> Result<FileOptions, String> {
    let mut files = FileOptions {
        protocol: None,
        expect_plans: false,
        paths: Vec::new(),
    };
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--help" | "-h" => return Err(HELP.to_owned()),
            "--expect-plans" => {
                files.expect_plans = true;
                continue;
            }
            "--protocol" => Some(args.next().ok_or("`--protocol` needs a value: 1 or 2")?),
            "--json" | "--cancel" | "--prompt" | "--record" | "--timeout" => {
                return Err(format!(
                    "`{arg}` is for checking an agent: give its command after `--` (check [OPTIONS] -- COMMAND)"
                ));
            }
            other => other.strip_prefix("--protocol=").map(str::to_owned),
        };
        match value.as_deref() {
            Some("1") => files.protocol = Some(ProtocolVersion::V1),
            Some("2") => files.protocol = Some(ProtocolVersion::V2),
            Some(other) => {
                return Err(format!(
                    "unknown protocol version `{other}`; expected 1 or 2"
                ));
            }
            None if arg.starts_with("--") => return Err(format!("unknown argument `{arg}`")),
            None => files.paths.push(arg),
        }
    }
    if files.paths.is_empty() {
        return Err("no file to check".to_owned());
    }
    Ok(files)
}

/// Reads the command line of an agent check: options, `--`, the command.
///
/// # Errors
/// What is wrong with it, in one sentence; [`HELP`] for `--help`.
pub fn parse_agent_args(
    mut args: impl Iterator<Item = String>,
) -> Result<conformance::Options, String> {
    let mut options = conformance::Options::default();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("`{name}` needs a value"));
        match arg.as_str() {
            "--" => {
                options.command = args.collect();
                break;
            }
            "--help" | "-h" => return Err(HELP.to_owned()),
            "--json" => options.json = true,
            "--cancel" => options.cancel = true,
            "--expect-plans" => options.expect_plans = true,
            "--prompt" => options.prompt = value("--prompt")?,
            "--record" => options.record = Some(value("--record")?.into()),
            "--timeout" => {
                let text = value("--timeout")?;
                let seconds: f64 = text
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or(format!(
                        "`--timeout` takes a positive number of seconds, not `{text}`"
                    ))?;
                options.timeout = Duration::from_secs_f64(seconds);
            }
            other => return Err(format!("unknown argument `{other}` (before `--`)")),
        }
    }
    if options.command.is_empty() {
        return Err("no agent command after `--`".to_owned());
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags() {
        let parse = |args: &[&str]| parse_args(args.iter().map(|s| (*s).to_owned()));
        assert_eq!(
            parse(&["a"]),
            Ok(FileOptions {
                protocol: None,
                expect_plans: false,
                paths: vec!["a".to_owned()]
            })
        );
        assert_eq!(
            parse(&["--protocol", "2", "a"]).unwrap().protocol,
            Some(ProtocolVersion::V2)
        );
        assert_eq!(
            parse(&["--protocol=1", "a"]).unwrap().protocol,
            Some(ProtocolVersion::V1)
        );
        assert!(parse(&["--expect-plans", "a"]).unwrap().expect_plans);
        assert!(parse(&["--protocol", "3", "a"]).is_err());
        assert!(parse(&["--fix", "a"]).is_err());
        assert_eq!(parse(&["--help"]), Err(HELP.to_owned()));
        assert_eq!(parse(&["a", "-h"]), Err(HELP.to_owned()));
        assert!(parse(&[]).is_err());
    }

    #[test]
    fn agent_flags() {
        let parse = |args: &[&str]| parse_agent_args(args.iter().map(|s| (*s).to_owned()));
        let options = parse(&[
            "--json",
            "--cancel",
            "--timeout",
            "2.5",
            "--record",
            "out",
            "--",
            "a",
            "--fast",
        ])
        .unwrap();
        assert!(options.json && options.cancel);
        assert_eq!(options.timeout, Duration::from_millis(2500));
        assert_eq!(options.record, Some("out".into()));
        assert_eq!(options.command, ["a", "--fast"]);
        assert_eq!(parse(&["--prompt", "hi", "--", "a"]).unwrap().prompt, "hi");
        assert!(parse(&["--"]).unwrap_err().contains("no agent command"));
        assert!(
            parse(&["--timeout", "0", "--", "a"])
                .unwrap_err()
                .contains("positive")
        );
        assert!(
            parse(&["--strict", "--", "a"])
                .unwrap_err()
                .contains("unknown argument")
        );
        assert_eq!(parse(&["-h", "--", "a"]), Err(HELP.to_owned()));
        // An agent's flag without an agent says where it belongs.
        let files = |args: &[&str]| parse_args(args.iter().map(|s| (*s).to_owned()));
        assert!(
            files(&["--json", "a.ndjson"])
                .unwrap_err()
                .contains("after `--`")
        );
    }
}
