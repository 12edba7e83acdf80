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
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::time::Duration;

pub(crate) mod file;
pub(crate) mod live;
use file::read_stream;
use live::client;

use plan_core::{
    client::{Applied, SessionBoards, TerminalStyle, render_board},
    wire::{ProtocolVersion, Spelling},
};

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // command-line switches, each on its own
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct BoardOptions {
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
    /// `--auth ID`: call `authenticate` with this method before `session/new`.
    pub auth: Option<String>,
    /// `--scripted-model`: the agent's model is a script served on loopback.
    pub scripted_model: Option<crate::model::ModelChoice>,
    /// `--plan-mode`: set the session's plan mode before the prompt, and
    /// approve the agent's switch out of it (its plan).
    pub plan_mode: bool,
    /// How the agent is pointed at the scripted model beyond its profile
    /// (`--model-env`, `--model-file`, `--model-port`, `--allow-network`;
    /// its `plan_mode` is this struct's own `plan_mode`).
    pub model_setup: crate::model::ModelSetup,
}

impl Default for BoardOptions {
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
            auth: None,
            scripted_model: None,
            plan_mode: false,
            model_setup: crate::model::ModelSetup::default(),
        }
    }
}

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

/// The plan messages a run saw: how many, and how many of them repeated a
/// plan as it already was (the board does not redraw those).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PlanTally {
    /// Plan messages applied (`plan`, `plan_update`, `plan_removed`).
    pub plans: usize,
    /// Of those, updates equal to the plan as it was.
    pub repeats: usize,
}

impl PlanTally {
    /// Counts what applying one message did; whether the boards changed
    /// (so a live drawing is redrawn).
    pub(crate) fn count(&mut self, applied: &Applied) -> bool {
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
    pub(crate) fn summary(self) -> String {
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
pub(crate) fn state_json(boards: &SessionBoards) -> serde_json::Value {
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
