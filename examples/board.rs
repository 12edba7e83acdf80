//! A client: starts an ACP agent and draws the plans it shows, live; or
//! reads `session/update` notifications (NDJSON, one JSON-RPC message per
//! line) from a file or standard input. Either way it applies them to one
//! `PlanBoard` per session and draws the boards.
//!
//! ```text
//! cargo run --example board -- cargo run -q --example agent         # drive an agent over ACP
//! cargo run --example board -- ./my-agent --acp                    # any ACP agent (v1, the stable protocol)
//! cargo run --example board -- --protocol 2 -- ./my-agent --acp     # offer the v2 draft
//! cargo run --example board -- --json -- cargo run -q --example agent -- --fast
//! cargo run --example board -- messages.ndjson
//! cargo run --example board -- --json < messages.ndjson   # the final state as JSON
//! cargo run --example board -- --strict messages.ndjson   # refuse what the SDKs would let through
//! ```
//!
//! Driving an agent, it is its client: `initialize` (protocol v1, the
//! stable one, with `clientCapabilities.plan: {}`; `--protocol 2` offers the
//! v2 draft and still says `plan: {}` for an agent that answers v1),
//! `session/new` in the current
//! directory, one `session/prompt` (`--prompt TEXT`); it answers the
//! agent's permission requests by rejecting (and says so on standard
//! error), and when the turn ends prints the final drawing, or with
//! `--json` the final state. It exits 1 if the agent died, broke the
//! protocol or did not answer in time, saying why.
//!
//! It reads as the published SDKs do: a malformed entry is skipped and the
//! rest of its message applied, JSON-RPC requests and responses are ignored
//! (and counted); each skip is reported on standard error with its line
//! number. Invalid lines (not JSON, no usable plan) are reported and
//! skipped; the exit status is 1 if there were any.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

mod agent_process;
pub mod board_file;
pub mod board_live;
use board_file::run;
use board_live::client;

use plan_core::{
    client::{Applied, SessionBoards, TerminalStyle, render_board},
    wire::{ProtocolVersion, Spelling},
};

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // command-line switches, each on its own
pub struct Options {
    /// Print the final state as JSON instead of drawing it.
    pub json: bool,
    /// Read this file instead of standard input.
    pub path: Option<String>,
    /// Refuse what lenient reading would skip or let through.
    pub strict: bool,
    /// The agent to start and drive (a command and its arguments).
    pub command: Vec<String>,
    /// The protocol version to ask the agent for.
    pub protocol: ProtocolVersion,
    /// Whether to advertise plan support (`clientCapabilities.plan: {}`:
    /// protocol v1, and for a v1 agent when offering v2).
    pub plan_capability: bool,
    /// The prompt to send.
    pub prompt: String,
    /// How long to wait for each message of the agent before giving up.
    pub timeout: Duration,
    /// `--help`: print the usage and exit.
    pub help: bool,
    /// `--auth ID`: call `authenticate` with this method before `session/new`.
    pub auth: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            json: false,
            path: None,
            strict: false,
            command: Vec::new(),
            // The stable protocol: v2 is a draft, offered only when asked.
            protocol: ProtocolVersion::V1,
            plan_capability: true,
            prompt: "Refactor the auth module and show me your plan.".to_owned(),
            timeout: Duration::from_mins(1),
            help: false,
            auth: None,
        }
    }
}

/// What `--help` prints (and a command-line mistake, after the mistake).
pub const USAGE: &str = "\
usage: cargo run --example board -- [--json] [--strict] [FILE]      read NDJSON from FILE or standard input
       cargo run --example board -- [OPTIONS] [--] COMMAND [ARGS...] start COMMAND as an ACP agent and drive one turn

  --json                 print the final state as JSON instead of drawing it
  --strict               refuse what the SDKs would let through (reading a file)
  --protocol 1|2         the version to offer: 1, the stable protocol (default), or the v2 draft
  --no-plan-capability   a v1 client that does not send `clientCapabilities.plan`
  --prompt TEXT          the prompt to send
  --timeout SECONDS      how long to wait for each message of the agent (default 60)
  --auth ID              authenticate with the agent's method ID before `session/new`
  -h, --help             this text
";

#[allow(dead_code)] // `main` is unused where the end-to-end test includes this file.
fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) if options.help => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(options) => options,
        Err(message) => {
            eprintln!("board: {message}");
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let style = TerminalStyle::detect(&stdout);
    let live = !options.json && stdout.is_terminal();
    if !options.command.is_empty() {
        return match client(&options, &mut stdout.lock(), &mut io::stderr(), style, live) {
            Ok(()) => ExitCode::SUCCESS,
            Err(reason) => {
                eprintln!("board: {reason}");
                ExitCode::FAILURE
            }
        };
    }
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

/// Whether `path` is a file this user may run (on Unix: a file with an
/// execute bit), which the board starts as an agent rather than reads.
fn is_program(path: &str) -> bool {
    let Ok(metadata) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        metadata.is_file()
            && std::path::Path::new(path)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("exe"))
    }
}

/// Reads the command line.
///
/// # Errors
/// What is wrong with it, in one sentence.
pub fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("`{name}` needs a value"));
        match arg.as_str() {
            "--help" | "-h" => options.help = true,
            "--json" => options.json = true,
            "--strict" => options.strict = true,
            "--no-plan-capability" => options.plan_capability = false,
            "--protocol" => {
                options.protocol = match value("--protocol")?.as_str() {
                    "1" => ProtocolVersion::V1,
                    "2" => ProtocolVersion::V2,
                    other => {
                        return Err(format!(
                            "unknown protocol version `{other}`; expected 1 or 2"
                        ));
                    }
                }
            }
            "--prompt" => options.prompt = value("--prompt")?,
            "--auth" => options.auth = Some(value("--auth")?),
            "--timeout" => {
                let text = value("--timeout")?;
                let seconds: u64 = text
                    .parse()
                    .map_err(|_| format!("`--timeout` takes whole seconds, not `{text}`"))?;
                options.timeout = Duration::from_secs(seconds);
            }
            "--" => {
                options.command = args.by_ref().collect();
                if options.command.is_empty() {
                    return Err("`--` must be followed by the agent's command".to_owned());
                }
            }
            flag if flag.starts_with("--") => return Err(format!("unknown argument `{flag}`")),
            // `board cargo run ...`: the first word that is not a file to read starts a command.
            word if options.path.is_none()
                && options.command.is_empty()
                && args.peek().is_some() =>
            {
                options.command = std::iter::once(word.to_owned())
                    .chain(args.by_ref())
                    .collect();
            }
            // A program given without `--` (`board ./target/debug/my-agent`) is an agent to start.
            word if options.path.is_none() && options.command.is_empty() && is_program(word) => {
                options.command = vec![word.to_owned()];
            }
            path if options.path.is_none() => options.path = Some(path.to_owned()),
            extra => return Err(format!("one input file only; `{extra}` is a second")),
        }
    }
    if options.path.is_some() && !options.command.is_empty() {
        return Err("either a file to read or an agent to start, not both".to_owned());
    }
    Ok(options)
}

/// The plan messages a run saw: how many, and how many of them repeated a
/// plan as it already was (the board does not redraw those).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlanTally {
    /// Plan messages applied (`plan`, `plan_update`, `plan_removed`).
    pub plans: usize,
    /// Of those, updates equal to the plan as it was.
    pub repeats: usize,
}

impl PlanTally {
    /// Counts what applying one message did; whether the boards changed
    /// (so a live drawing is redrawn).
    pub fn count(&mut self, applied: &Applied) -> bool {
        match applied {
            Applied::Updated { .. } | Applied::Removed { .. } => {
                self.plans += 1;
                true
            }
            Applied::Unchanged { .. } => {
                self.plans += 1;
                self.repeats += 1;
                false
            }
            Applied::RemovedUnknown { .. } => {
                self.plans += 1;
                false
            }
            _ => false,
        }
    }

    /// What a person is told at the end: how many plan messages came and
    /// how many were repeats, or that none came.
    pub fn summary(self) -> String {
        match (self.plans, self.repeats) {
            (0, _) => {
                "no plan came (no `plan`, `plan_update` or `plan_removed` message)".to_owned()
            }
            (plans, 0) => format!("{plans} plan message(s)"),
            (plans, repeats) => format!(
                "{plans} plan message(s), {repeats} of them the plan as it already was (not redrawn)"
            ),
        }
    }
}

/// The final state as JSON: every session's board, each plan with how many
/// of its updates were repeats where there were any.
pub fn state_json(boards: &SessionBoards) -> serde_json::Value {
    let sessions: Vec<serde_json::Value> = boards
        .boards()
        .map(|board| {
            let mut value = board.to_json_value(Spelling::Acp);
            for (plan, json) in board.plans().zip(
                value["plans"]
                    .as_array_mut()
                    .map(Vec::as_mut_slice)
                    .unwrap_or_default(),
            ) {
                if plan.repeats() > 0 {
                    json["repeats"] = plan.repeats().into();
                }
            }
            value
        })
        .collect();
    serde_json::json!({ "sessions": sessions })
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
    fn flags() {
        let parse = |args: &[&str]| parse_args(args.iter().map(|s| (*s).to_owned()));
        assert_eq!(
            parse(&["--json", "f.ndjson"]).unwrap(),
            Options {
                json: true,
                path: Some("f.ndjson".into()),
                ..Options::default()
            }
        );
        assert!(parse(&["--strict"]).unwrap().strict);
        assert!(parse(&["--live"]).is_err());
        // `--help` is the board's, before the agent's command; after it, the agent's.
        assert!(parse(&["--help"]).unwrap().help);
        assert!(parse(&["-h"]).unwrap().help);
        let auth = parse(&["--auth", "api-key", "--", "agent"]).unwrap();
        assert_eq!(auth.auth.as_deref(), Some("api-key"));
        assert!(parse(&["--auth"]).unwrap_err().contains("needs a value"));
        // A program without `--` is started, not read; a data file is read.
        let exe = std::env::current_exe()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert_eq!(parse(&[exe.as_str()]).unwrap().command, [exe.as_str()]);
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        assert_eq!(parse(&[data]).unwrap().path.as_deref(), Some(data));
        let agent_help = parse(&["--", "my-agent", "--help"]).unwrap();
        assert!(!agent_help.help);
        assert_eq!(agent_help.command, ["my-agent", "--help"]);
        // An agent to start: after `--`, or from the first word that is not a file.
        let drive = parse(&[
            "--protocol",
            "1",
            "--",
            "cargo",
            "run",
            "--example",
            "agent",
        ])
        .unwrap();
        assert_eq!(drive.command, ["cargo", "run", "--example", "agent"]);
        assert_eq!(drive.protocol, ProtocolVersion::V1);
        assert_eq!(
            parse(&["./agent", "--fast"]).unwrap().command,
            ["./agent", "--fast"]
        );
        assert_eq!(parse(&["a", "b"]).unwrap().command, ["a", "b"]);
        let custom = parse(&[
            "--prompt",
            "hi",
            "--timeout",
            "5",
            "--no-plan-capability",
            "--",
            "x",
        ])
        .unwrap();
        assert_eq!(
            (
                custom.prompt.as_str(),
                custom.timeout.as_secs(),
                custom.plan_capability
            ),
            ("hi", 5, false)
        );
        for bad in [
            &["--protocol", "3", "--", "x"][..],
            &["--timeout", "soon"],
            &["--"],
            &["--prompt"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
