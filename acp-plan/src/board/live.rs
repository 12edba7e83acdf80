//! The board's side of an ACP conversation: start the agent, `initialize`, `session/new`, one
//! `session/prompt` turn (and `session/cancel` on request), every
//! `session/update` applied to the boards and drawn as it arrives, the
//! agent's requests answered, and the agent ended with its process group
//! however the turn ends. Running it is `mod.rs`'s; the file mode is
//! `file.rs`.

use std::io::{self, BufRead, BufReader, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use plan_core::wire::{Line, Message, Parsed, Strictness};
use plan_core::{
    SessionNotification, SessionUpdate,
    client::{SessionBoards, TerminalStyle},
    wire::ProtocolVersion,
};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::draw::{PlanTally, draw, state_json};
use super::options::BoardOptions;
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

/// What one line from the agent is.
enum FromAgent {
    /// A `session/update`, read (or why it could not be).
    Update(Result<Parsed<SessionNotification>, plan_core::Error>),
    /// Another notification.
    Notification,
    Request(Value, String, Value),
    Response(Value, Result<Value, Value>),
}

/// Reads one line from the agent once, with plan-core's reader of lines: a
/// `session/update`'s params by the notification's reader (strictly, or as
/// the SDKs read them).
fn from_agent(line: &[u8], strict: bool) -> Result<FromAgent, String> {
    let strictness = if strict {
        Strictness::Strict
    } else {
        Strictness::Lenient
    };
    let text = String::from_utf8_lossy(line);
    let read = Line::read_message(&text, strictness);
    let broke = |e: &dyn std::fmt::Display| format!("the agent broke the protocol: {e}: {text}");
    if let Some(problem) = read.envelope.problems.first() {
        return Err(broke(problem));
    }
    if let Some(plan) = read.plan {
        return match plan.map(Parsed::into_notification) {
            Ok(Some(read)) => Ok(FromAgent::Update(Ok(read))),
            Err(e) => Ok(FromAgent::Update(Err(e))),
            Ok(None) => Err(broke(&"not a message")),
        };
    }
    let value = |raw: &RawValue| serde_json::from_str::<Value>(raw.get()).unwrap_or(Value::Null);
    Ok(match read.envelope.message {
        Some(Message::Notification { .. }) => FromAgent::Notification,
        Some(Message::Request {
            id, method, params, ..
        }) => FromAgent::Request(
            value(id),
            method.into_owned(),
            params.map_or(Value::Null, value),
        ),
        Some(Message::Response { id, outcome, .. }) => {
            FromAgent::Response(value(id), outcome.map(value).map_err(value))
        }
        // `Message` may grow; what this client does not know it cannot serve.
        other => {
            return Err(format!(
                "the agent sent a message this client does not know: {other:?}"
            ));
        }
    })
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
        let bytes = client.next()?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let ended = match from_agent(&bytes, options.strict)? {
            FromAgent::Response(id, result) => client.on_response(&id, result)?,
            FromAgent::Request(id, method, params) => {
                client.on_request(&id, &method, &params, err)?;
                None
            }
            FromAgent::Notification => {
                client.other_messages += 1;
                None
            }
            FromAgent::Update(read) => {
                let (ended, changed) = client.on_update(read, err)?;
                // On a terminal the drawing is redrawn in place as plans
                // change; piped (a log, a file), the board is drawn once,
                // at the end, as the board of a recorded stream is: a reader
                // of the log wants where the plans ended, and standard
                // error's tally says how many messages led there.
                if ended.is_none() && changed && live && !options.json {
                    write!(out, "\x1b[H\x1b[2J").map_err(write_error)?;
                    draw(&client.boards, out, style).map_err(write_error)?;
                    out.flush().map_err(write_error)?;
                    drawn += 1;
                }
                ended
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

/// The client's side of one conversation.
struct Client<'o, W> {
    options: &'o BoardOptions,
    inbox: mpsc::Receiver<Vec<u8>>,
    agent_in: W,
    boards: SessionBoards,
    /// The version the agent answered `initialize` with.
    protocol: Option<ProtocolVersion>,
    /// v2: the agent accepted the prompt; an idle state ends the turn.
    accepted: bool,
    /// The `authMethods` the agent offered in `initialize`.
    auth_methods: Value,
    /// The session, once `session/new` is answered.
    session: String,
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
        Client {
            options,
            inbox: agent_process::lines(agent_out),
            agent_in,
            boards: if options.strict {
                SessionBoards::new().strict()
            } else {
                SessionBoards::new()
            },
            protocol: None,
            accepted: false,
            auth_methods: Value::Null,
            session: String::new(),
            waiting: "the answer to `initialize`",
            handshake: None,
            updates: 0,
            other_messages: 0,
            tally: PlanTally::default(),
        }
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let mut line = message.to_string();
        line.push('\n');
        self.agent_in
            .write_all(line.as_bytes())
            .and_then(|()| self.agent_in.flush())
            .map_err(|e| format!("the agent closed its input (it exited?): {e}"))
    }

    fn request(&mut self, id: u64, method: &str, params: &Value) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
    }

    /// The next line from the agent, within the timeout.
    fn next(&self) -> Result<Vec<u8>, String> {
        let waiting = self.waiting;
        match self.inbox.recv_timeout(self.options.timeout) {
            Ok(bytes) => Ok(bytes),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "the agent sent nothing for {} s while the client waited for {waiting}",
                self.options.timeout.as_secs()
            )),
            Err(RecvTimeoutError::Disconnected) => Err(format!(
                "the agent closed its output (it exited?) while the client waited for {waiting}"
            )),
        }
    }

    fn initialize(&mut self) -> Result<(), String> {
        let (handshake, first) = Handshake::start(
            initialize_params(self.options),
            self.options.auth.clone(),
            self.options.plan_mode,
        );
        self.handshake = Some(handshake);
        self.send_request(&first)
    }

    /// A request of the handshake, sent.
    fn send_request(&mut self, request: &HandshakeRequest) -> Result<(), String> {
        self.request(request.id, request.method, &request.params)?;
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
                self.session = session;
                self.prompt()
            }
        }
    }

    /// A response of the agent; `Some(stop reason)` when it ends the turn.
    fn on_response(
        &mut self,
        id: &Value,
        result: Result<Value, Value>,
    ) -> Result<Option<String>, String> {
        let result = match result {
            Ok(result) => result,
            Err(error) => return Err(self.refused(id, &error)),
        };
        match id.as_u64() {
            Some(id::INITIALIZE) => {
                let agreed = match result["protocolVersion"].as_u64() {
                    Some(1) => ProtocolVersion::V1,
                    Some(2) => ProtocolVersion::V2,
                    _ => {
                        return Err(format!(
                            "the agent answered protocol version {}, which this client does not speak",
                            result["protocolVersion"]
                        ));
                    }
                };
                self.protocol = Some(agreed);
                self.auth_methods = result["authMethods"].clone();
                self.handshake_answered(id::INITIALIZE, &result)?;
            }
            Some(step @ (id::AUTHENTICATE | id::SESSION_NEW | id::PLAN_MODE)) => {
                self.handshake_answered(step, &result)?;
            }
            Some(id::PROMPT) if self.protocol == Some(ProtocolVersion::V1) => {
                return Ok(Some(
                    result["stopReason"].as_str().unwrap_or("(none)").to_owned(),
                ));
            }
            // v2: the prompt is accepted; the turn ends with an idle state.
            Some(id::PROMPT) => self.accepted = true,
            _ => self.other_messages += 1,
        }
        Ok(None)
    }

    fn prompt(&mut self) -> Result<(), String> {
        let prompt = json!([{ "type": "text", "text": self.options.prompt }]);
        let params = json!({ "sessionId": self.session, "prompt": prompt });
        self.request(id::PROMPT, "session/prompt", &params)?;
        self.waiting = "the end of the turn";
        Ok(())
    }

    /// Why the agent refused request `id`, with what the user can do: for a
    /// refused `session/new` or `authenticate`, the authentication methods
    /// the agent offered (`--auth ID`), with their environment variables.
    fn refused(&self, id: &Value, error: &Value) -> String {
        let mut reason = format!("the agent refused request {id}: {error}");
        if !matches!(id.as_u64(), Some(id::SESSION_NEW | id::AUTHENTICATE)) {
            return reason;
        }
        reason.push_str(&agent_process::auth_help(&self.auth_methods));
        reason
    }

    /// A request of the agent: permissions are rejected (a reject option
    /// if there is one, else `cancelled`), but the switch out of plan mode
    /// with `--plan-mode`; anything else is not served.
    fn on_request(
        &mut self,
        id: &Value,
        method: &str,
        params: &Value,
        err: &mut impl Write,
    ) -> Result<(), String> {
        let answer = agent_process::answer_request(id, method, params, self.options.plan_mode);
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
        self.send(&answer)
    }

    /// A `session/update` of the agent, as read: plan updates go on the
    /// board; v2's idle state after the prompt ends the turn (`Some(stop
    /// reason)`). Also whether the boards changed (a repeated plan changes
    /// nothing).
    fn on_update(
        &mut self,
        read: Result<Parsed<SessionNotification>, plan_core::Error>,
        err: &mut impl Write,
    ) -> Result<(Option<String>, bool), String> {
        let read = match read {
            Ok(read) => read,
            Err(e) if self.options.strict => {
                return Err(format!("the agent broke the protocol: {e}"));
            }
            Err(e) => {
                let _ = writeln!(err, "board: an update was not read: {e}");
                return Ok((None, false));
            }
        };
        if let SessionUpdate::Other(other) = &read.value.update
            && other.kind() == "state_update"
        {
            let update = other.as_object();
            let after_prompt = self.accepted || self.protocol == Some(ProtocolVersion::V1);
            if update.get("state").and_then(Value::as_str) == Some("idle") && after_prompt {
                let stop = update.get("stopReason").and_then(Value::as_str);
                return Ok((Some(stop.unwrap_or("(none)").to_owned()), false));
            }
            return Ok((None, false));
        }
        self.updates += 1;
        for skipped in &read.skipped {
            let _ = writeln!(err, "board: {skipped}");
        }
        let applied = self.boards.apply(read.value);
        let changed = self.tally.count(&applied);
        Ok((None, changed))
    }
}
