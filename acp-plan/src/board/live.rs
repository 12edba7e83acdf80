//! The board's side of an ACP conversation: start the agent, `initialize`, `session/new`, one
//! `session/prompt` turn (and `session/cancel` on request), every
//! `session/update` applied to the boards and drawn as it arrives, the
//! agent's requests answered, and the agent ended with its process group
//! however the turn ends. Running it is `mod.rs`'s; the file mode is
//! `file.rs`.

use std::io::{self, BufRead, BufReader, Write};
use std::time::{Duration, Instant};

use plan_core::wire::{ClientKind, Parsed, ProtocolVersion, Strictness};
use plan_core::{
    SessionNotification, SessionUpdate,
    client::{SessionBoards, TerminalStyle},
};
use serde_json::Value;

use super::draw::{PlanTally, draw, state_json};
use super::options::BoardOptions;
use crate::process::connection::{AgentLink, Event, FromAgent, Incoming};
use crate::process::handshake::{self, Handshake, HandshakeRequest, Next, id};
use crate::process::{self as agent_process, AgentProcess, Stderr};

/// The `initialize` params the board sends: the protocol and the plan
/// capability its options say (the handshake module writes them for
/// `board` and `check` alike).
pub fn initialize_params(options: &BoardOptions) -> Value {
    handshake::initialize_params(options.protocol, options.plan_capability)
}

/// Starts `options.command` as an ACP agent and drives one prompt turn
/// (see [`drive`]), then closes its input and waits for it to exit.
///
/// # Errors
/// Why the turn did not end well, in one sentence.
pub fn client(
    options: &BoardOptions,
    out: &mut impl Write,
    err: &mut impl Write,
    style: TerminalStyle,
    live: bool,
) -> Result<(), String> {
    let (program, args) = options
        .command
        .split_first()
        .ok_or("no agent command to start")?;
    // The scripted model, when asked for, serves until the agent is done.
    let model = options
        .scripted_model
        .as_ref()
        .map(|choice| {
            let setup = crate::model::ModelSetup {
                plan_mode: options.plan_mode,
                ..options.model_setup.clone()
            };
            choice.start(&options.command, &setup)
        })
        .transpose()?;
    let env = model
        .as_ref()
        .map_or(&[][..], |(_, agent_env)| &agent_env.env[..]);
    let (agent, agent_in, agent_out) = AgentProcess::start(program, args, env, Stderr::Inherit)
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let outcome = drive(
        options,
        BufReader::new(agent_out),
        agent_in,
        out,
        err,
        style,
        live,
    );
    // `drive` closed the agent's input. After a good turn the agent should
    // exit on its own; one that failed gets a moment. Then its process group
    // goes (see `process/mod.rs`).
    let grace = if outcome.is_ok() {
        Duration::from_secs(5)
    } else {
        Duration::from_millis(200)
    };
    agent.end(grace);
    outcome
}

/// The client's side of one prompt turn with an agent that reads
/// `agent_in` and writes `agent_out`; the boards are drawn to `out` (live,
/// or once at the end, or as JSON), what happens is said on `err`.
///
/// # Errors
/// Why the turn did not end well: the agent died, broke the protocol,
/// refused a request, or did not answer within `options.timeout`.
pub fn drive<R: BufRead + Send + 'static, W: Write>(
    options: &BoardOptions,
    agent_out: R,
    agent_in: W,
    out: &mut impl Write,
    err: &mut impl Write,
    style: TerminalStyle,
    live: bool,
) -> Result<(), String> {
    let mut client = Client::new(options, agent_out, agent_in);
    client.initialize()?;
    let mut drawn = 0_usize;
    let stop = loop {
        let from = client.next()?;
        if let Some(problem) = from.problems.first() {
            return Err(format!(
                "the agent broke the protocol: {problem}: {}",
                from.text
            ));
        }
        let ended = match from.event {
            Event::Answer { id, outcome } => client.on_answer(id, outcome)?,
            Event::Asked { method, answer } => {
                said_asked(&method, &answer, err);
                None
            }
            Event::Unasked(_) | Event::Other => {
                client.other_messages += 1;
                None
            }
            // v2: the turn ends with an idle state once the prompt is
            // accepted (v1 ends with the prompt's answer; an idle state
            // there ends it too).
            Event::Idle(stop)
                if client.accepted || client.protocol() == Some(ProtocolVersion::V1) =>
            {
                Some(stop.unwrap_or_else(|| "(none)".to_owned()))
            }
            Event::Idle(_) => None,
            Event::Update(read) => {
                let changed = client.on_update(read, err)?;
                // On a terminal the drawing is redrawn in place as plans
                // change; piped (a log, a file), the board is drawn once,
                // at the end, as the board of a recorded stream is: a reader
                // of the log wants where the plans ended, and standard
                // error's tally says how many messages led there.
                if changed && live && !options.json {
                    write!(out, "\x1b[H\x1b[2J").map_err(write_error)?;
                    draw(&client.boards, out, style).map_err(write_error)?;
                    out.flush().map_err(write_error)?;
                    drawn += 1;
                }
                None
            }
        };
        if let Some(stop) = ended {
            break stop;
        }
    };
    let _ = writeln!(
        err,
        "board: the turn ended ({stop}); {}; {} session update(s), {} other message(s)",
        client.tally.summary(),
        client.updates,
        client.other_messages
    );
    if options.json {
        serde_json::to_writer_pretty(&mut *out, &state_json(&client.boards))
            .map_err(|e| format!("cannot write: {e}"))?;
        writeln!(out).map_err(write_error)?;
    } else if drawn == 0 {
        draw(&client.boards, out, style).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}

#[allow(clippy::needless_pass_by_value)] // the shape `map_err` wants
fn write_error(e: io::Error) -> String {
    format!("cannot write: {e}")
}

/// Says on `err` what the agent asked for and how it was answered:
/// permissions are rejected (a reject option if there is one, else
/// `cancelled`), but the switch out of plan mode with `--plan-mode`;
/// anything else is not served.
fn said_asked(method: &str, answer: &Value, err: &mut impl Write) {
    if method == "session/request_permission" {
        let outcome = &answer["result"]["outcome"];
        let _ = writeln!(
            err,
            "board: the agent asked for permission; answered {outcome}"
        );
    } else {
        let _ = writeln!(
            err,
            "board: the agent asked for `{method}`, which this client does not serve"
        );
    }
}

/// The board's side of one conversation: the connection, the handshake
/// until the session is ready, and the boards.
struct Client<'o, W> {
    options: &'o BoardOptions,
    link: AgentLink<W>,
    boards: SessionBoards,
    /// v2: the agent accepted the prompt; an idle state ends the turn.
    accepted: bool,
    /// The `authMethods` the agent offered in `initialize`.
    auth_methods: Value,
    /// What the client waits for, to say so if it does not come.
    waiting: &'static str,
    /// The handshake, until the session is ready.
    handshake: Option<Handshake>,
    updates: usize,
    other_messages: usize,
    /// The plan messages among the updates, and their repeats.
    tally: PlanTally,
}

impl<'o, W: Write> Client<'o, W> {
    /// A client that reads the agent's lines from `agent_out` and writes
    /// its own to `agent_in`; nothing sent yet.
    fn new<R: BufRead + Send + 'static>(
        options: &'o BoardOptions,
        agent_out: R,
        agent_in: W,
    ) -> Self {
        let strictness = if options.strict {
            Strictness::Strict
        } else {
            Strictness::Lenient
        };
        Client {
            options,
            link: AgentLink::new(agent_out, agent_in, strictness, options.plan_mode),
            boards: if options.strict {
                SessionBoards::new().strict()
            } else {
                SessionBoards::new()
            },
            accepted: false,
            auth_methods: Value::Null,
            waiting: "the answer to `initialize`",
            handshake: None,
            updates: 0,
            other_messages: 0,
            tally: PlanTally::default(),
        }
    }

    /// The protocol the agent answered, once it has.
    fn protocol(&self) -> Option<ProtocolVersion> {
        self.link.kind().map(ClientKind::protocol)
    }

    /// The agent's next line, within the timeout.
    fn next(&mut self) -> Result<FromAgent, String> {
        let waiting = self.waiting;
        match self.link.next(Instant::now() + self.options.timeout) {
            Incoming::Line(line) => Ok(line),
            Incoming::Timeout => Err(format!(
                "the agent sent nothing for {} s while the client waited for {waiting}",
                self.options.timeout.as_secs()
            )),
            Incoming::Closed => Err(format!(
                "the agent closed its output (it exited?) while the client waited for {waiting}"
            )),
        }
    }

    fn initialize(&mut self) -> Result<(), String> {
        let offer = self
            .link
            .offer(self.options.protocol, self.options.plan_capability);
        let (handshake, first) =
            Handshake::start(offer, self.options.auth.clone(), self.options.plan_mode);
        self.handshake = Some(handshake);
        self.send_request(&first)
    }

    /// A request of the handshake, sent.
    fn send_request(&mut self, request: &HandshakeRequest) -> Result<(), String> {
        self.link
            .request(request.id, request.method, &request.params)?;
        self.waiting = request.waiting;
        Ok(())
    }

    /// The answer to a request of the handshake: the next one, or the
    /// prompt once the session is ready.
    fn handshake_answered(&mut self, id: u64, result: &Value) -> Result<(), String> {
        let Some(handshake) = self.handshake.as_mut() else {
            return Err(format!("an answer to request {id}, which was never sent"));
        };
        match handshake.answered(id, result)? {
            Next::Send(request) => self.send_request(&request),
            Next::Ready(session) => {
                self.handshake = None;
                self.link
                    .prompt(id::PROMPT, &session, &self.options.prompt)?;
                self.waiting = "the end of the turn";
                Ok(())
            }
        }
    }

    /// The answer to request `id`; `Some(stop reason)` when it ends the turn.
    fn on_answer(
        &mut self,
        id: u64,
        outcome: Result<Value, Value>,
    ) -> Result<Option<String>, String> {
        let result = match outcome {
            Ok(result) => result,
            Err(error) => return Err(self.refused(id, &error)),
        };
        match id {
            id::INITIALIZE => {
                if self.link.kind().is_none() {
                    return Err(format!(
                        "the agent answered protocol version {} to the client's offer of {}; an agent answers the client's version or an older one it speaks (every agent speaks v1)",
                        result["protocolVersion"], self.options.protocol
                    ));
                }
                self.auth_methods = result["authMethods"].clone();
                self.handshake_answered(id, &result)?;
            }
            id::AUTHENTICATE | id::SESSION_NEW | id::PLAN_MODE => {
                self.handshake_answered(id, &result)?;
            }
            id::PROMPT if self.protocol() == Some(ProtocolVersion::V1) => {
                return Ok(Some(
                    result["stopReason"].as_str().unwrap_or("(none)").to_owned(),
                ));
            }
            // v2: the prompt is accepted; the turn ends with an idle state.
            id::PROMPT => self.accepted = true,
            _ => self.other_messages += 1,
        }
        Ok(None)
    }

    /// Why the agent refused request `id`, with what the user can do: for a
    /// refused `session/new` or `authenticate`, the authentication methods
    /// the agent offered (`--auth ID`), with their environment variables.
    fn refused(&self, id: u64, error: &Value) -> String {
        let mut reason = format!("the agent refused request {id}: {error}");
        if !matches!(id, id::SESSION_NEW | id::AUTHENTICATE) {
            return reason;
        }
        reason.push_str(&agent_process::auth_help(&self.auth_methods));
        reason
    }

    /// A `session/update` of the agent, as read: plan updates go on the
    /// board. Whether the boards changed (a repeated plan changes nothing).
    fn on_update(
        &mut self,
        read: Result<Parsed<SessionNotification>, plan_core::Error>,
        err: &mut impl Write,
    ) -> Result<bool, String> {
        let read = match read {
            Ok(read) => read,
            Err(e) if self.options.strict => {
                return Err(format!("the agent broke the protocol: {e}"));
            }
            Err(e) => {
                let _ = writeln!(err, "board: an update was not read: {e}");
                return Ok(false);
            }
        };
        // A state the turn's end is not told by (before the prompt, or
        // not idle) is no update of the board's.
        if let SessionUpdate::Other(other) = &read.value.update
            && other.kind() == "state_update"
        {
            return Ok(false);
        }
        self.updates += 1;
        for skipped in &read.skipped {
            let _ = writeln!(err, "board: {skipped}");
        }
        let applied = self.boards.apply(read.value);
        Ok(self.tally.count(&applied))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// The board over an agent that says `lines` in order, whatever it is
    /// sent: its outcome, what it drew, and what it sent.
    fn board_over(lines: &[&str]) -> (Result<(), String>, String, String) {
        let options = BoardOptions {
            timeout: Duration::from_secs(10),
            ..BoardOptions::default()
        };
        let said = Cursor::new(lines.join("\n").into_bytes());
        let (mut sent, mut out, mut err) = (Vec::new(), Vec::new(), Vec::new());
        let outcome = drive(
            &options,
            said,
            &mut sent,
            &mut out,
            &mut err,
            TerminalStyle::PLAIN,
            false,
        );
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (outcome, text(out), text(sent))
    }

    #[test]
    fn a_turn_read_through_the_link_is_drawn_and_a_version_not_offered_refused() {
        let (outcome, drawn, sent) = board_over(&[
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}"#,
            r#"{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"options":[]}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"Read the parser","priority":"high","status":"in_progress"}]}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}"#,
        ]);
        assert_eq!(outcome, Ok(()));
        assert!(drawn.contains("Read the parser"), "{drawn}");
        let methods: Vec<Value> = sent
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .collect();
        assert_eq!(methods[0]["method"], "initialize");
        assert_eq!(methods[1]["method"], "session/new");
        assert_eq!(methods[2]["method"], "session/prompt");
        assert_eq!(methods[3]["result"]["outcome"]["outcome"], "cancelled");
        // A v1 offer answered with v2 is a broken handshake.
        let (outcome, _, _) =
            board_over(&[r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":2}}"#]);
        let why = outcome.unwrap_err();
        assert!(
            why.contains("answered protocol version 2 to the client's offer of v1"),
            "{why}"
        );
    }
}
