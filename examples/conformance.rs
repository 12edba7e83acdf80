//! `check -- AGENT`: a plan conformance check for any ACP agent. The agent
//! is started once per kind of client (v1 without `plan`, v1 with `plan`,
//! the v2 draft), runs a turn (and with `--cancel` a cancelled one), and
//! every line it writes is judged: the JSON-RPC envelope, the version table
//! (what that client may be sent), the turn's end, and what a lenient
//! client would drop without a word. Findings name their rule, the line of
//! the kind's transcript, the JSON path and a fix, in the words of `check`.
//!
//! Exit status: 0 clean, 1 findings, 2 the agent could not be driven (it
//! could not be started, died, or never answered `initialize` or
//! `session/new`), with the reason.

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use plan_core::ClientKind;
use serde_json::{Value, json};

use super::agent_process::{self, AgentProcess};

mod judge;
pub mod report;
use report::{exit_code, finish, fix_for};

/// The rules of a conversation, beside `check`'s rules of a message.
pub mod rule {
    /// A line that is not JSON-RPC 2.0, or an envelope that is malformed.
    pub const JSON_RPC: &str = "json-rpc";
    /// A request of the client that the agent never answered.
    pub const UNANSWERED: &str = "unanswered-request";
    /// A turn that does not end as its version requires, or not in time.
    pub const TURN_END: &str = "turn-end";
    /// An answer to `initialize` with a version the client did not offer
    /// and cannot speak.
    pub const NEGOTIATION: &str = "version-negotiation";
    /// A `session/update` that no client can read (no usable plan).
    pub const UNREADABLE: &str = "unreadable-update";
    /// Part of a message a lenient client drops without a word (and a strict
    /// one refuses the message for).
    pub const LENIENT_DROPS: &str = "lenient-drops";
}

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// A machine-readable report on standard output.
    pub json: bool,
    /// The prompt of each turn.
    pub prompt: String,
    /// Also run a turn that the client cancels.
    pub cancel: bool,
    /// Write each kind's transcript to this folder.
    pub record: Option<PathBuf>,
    /// How long one turn (or one answer before it) may take.
    pub timeout: Duration,
    /// The agent's command and its arguments.
    pub command: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            json: false,
            prompt: "Refactor the auth module and show me your plan.".to_owned(),
            cancel: false,
            record: None,
            timeout: Duration::from_mins(1),
            command: Vec::new(),
        }
    }
}

/// One problem the run found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's name (`check`'s, or one of [`rule`]).
    pub rule: String,
    /// The line of the kind's transcript (1-based; 0: the run as a whole).
    pub line: usize,
    /// Where in the message, as a JSON path (empty: the whole line).
    pub path: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What a conforming agent sends instead, where there is a fallback.
    pub fix: Option<String>,
}

/// What one kind of client saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindRun {
    /// The client the agent was offered.
    pub kind: ClientKind,
    /// The client it was judged as: the same, or v1 with `plan` when the
    /// agent answered a v2 offer (which carries v1's keys too) with v1.
    pub judged_as: ClientKind,
    /// The protocol version the agent answered.
    pub answered: Option<u64>,
    /// How each turn ended (`stopReason`).
    pub stop_reasons: Vec<String>,
    /// What was found, in transcript order.
    pub findings: Vec<Finding>,
    /// Why the agent could not be driven, if it could not.
    pub failure: Option<String>,
    /// Every line, both ways, in order.
    pub transcript: Vec<String>,
}

/// The name of a kind in reports and recordings.
pub fn slug(kind: ClientKind) -> &'static str {
    match kind {
        ClientKind::V1 => "v1",
        ClientKind::V1Plan => "v1-plan",
        ClientKind::V2 => "v2",
    }
}

/// Runs the whole check: `options.command` started once per kind. Writes
/// the report to `out` and the transcripts to `options.record`.
///
/// # Errors
/// Only an error writing the report or a transcript.
pub fn run(options: &Options, out: &mut impl Write) -> io::Result<u8> {
    let mut runs = Vec::new();
    for kind in ClientKind::ALL {
        let run = match options.command.split_first() {
            None => failed(kind, "no agent command to start".to_owned()),
            Some((program, args)) => match AgentProcess::start(program, args) {
                Err(e) => failed(kind, format!("cannot start `{program}`: {e}")),
                Ok((agent, input, output)) => {
                    let run = run_kind(kind, options, io::BufReader::new(output), input);
                    agent.end(Duration::from_millis(500));
                    run
                }
            },
        };
        runs.push(run);
    }
    finish(options, &runs, out)?;
    Ok(exit_code(&runs))
}

fn failed(kind: ClientKind, reason: String) -> KindRun {
    KindRun {
        kind,
        judged_as: kind,
        answered: None,
        stop_reasons: Vec::new(),
        findings: Vec::new(),
        failure: Some(reason),
        transcript: Vec::new(),
    }
}

/// What the client offers in `initialize` as `kind`: v1 without or with
/// `clientCapabilities.plan`; v2 with v1's keys too (with `plan`), so an
/// agent that answers v1 still knows what the client reads.
pub fn offer(kind: ClientKind) -> Value {
    let info = json!({ "name": "plan-core-example-check", "version": env!("CARGO_PKG_VERSION") });
    let mut v1 =
        json!({ "fs": { "readTextFile": false, "writeTextFile": false }, "terminal": false });
    if kind != ClientKind::V1 {
        v1["plan"] = json!({});
    }
    match kind {
        ClientKind::V1 | ClientKind::V1Plan => {
            json!({ "protocolVersion": 1, "clientCapabilities": v1, "clientInfo": info })
        }
        ClientKind::V2 => json!({ "protocolVersion": 2, "info": info, "capabilities": {},
                                  "clientCapabilities": v1, "clientInfo": info }),
    }
}

/// Drives one kind of client over `agent_out`/`agent_in` and judges what
/// the agent writes.
pub fn run_kind<R: BufRead + Send + 'static, W: Write>(
    kind: ClientKind,
    options: &Options,
    agent_out: R,
    agent_in: W,
) -> KindRun {
    let mut talk = Conversation {
        options,
        inbox: agent_process::lines(agent_out),
        agent_in,
        run: failed(kind, String::new()),
        pending: BTreeMap::new(),
        prompt: None,
    };
    talk.run.failure = None;
    if let Err(reason) = talk.drive() {
        talk.run.failure = Some(reason);
    }
    for (id, (method, line)) in std::mem::take(&mut talk.pending) {
        let message = format!(
            "the client's `{method}` request (id {id}) was never answered; every JSON-RPC request gets a response"
        );
        talk.find(rule::UNANSWERED, line, String::new(), message, None);
    }
    talk.run
}

/// What reading the next line gave.
enum Next {
    Line(Event),
    Timeout,
    Closed,
}

/// What a line of the agent's was, for the driver.
enum Event {
    Response(u64, Result<Value, Value>),
    /// v2: a `state_update` to `idle`, with its stop reason.
    Idle(String),
    /// Another `session/update`.
    Update,
    Other,
}

struct Conversation<'o, W> {
    options: &'o Options,
    inbox: mpsc::Receiver<Vec<u8>>,
    agent_in: W,
    run: KindRun,
    /// The client's requests not answered yet: id, method, transcript line.
    pending: BTreeMap<u64, (&'static str, usize)>,
    /// The prompt of the turn under way.
    prompt: Option<u64>,
}

impl<W: Write> Conversation<'_, W> {
    fn drive(&mut self) -> Result<(), String> {
        let kind = self.run.kind;
        let init = self.call(0, "initialize", &offer(kind), "`initialize`")?;
        let answered = init["protocolVersion"].as_u64();
        self.run.answered = answered;
        self.run.judged_as = match (kind, answered) {
            // A v2 offer carries v1's keys with `plan`: a v1 answer reads them.
            (ClientKind::V2, Some(1)) => ClientKind::V1Plan,
            (ClientKind::V2, Some(2)) | (ClientKind::V1 | ClientKind::V1Plan, Some(1)) => kind,
            _ => {
                let offered = kind.protocol().number();
                let message = format!(
                    "the client offered v{offered} and the agent answered {}; an agent answers the client's version when it speaks it (every agent speaks v1)",
                    init["protocolVersion"]
                );
                let line = self.run.transcript.len();
                self.find(
                    rule::NEGOTIATION,
                    line,
                    "result.protocolVersion".to_owned(),
                    message,
                    None,
                );
                return Ok(());
            }
        };
        let cwd = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
        let new = self.call(
            1,
            "session/new",
            &json!({ "cwd": cwd, "mcpServers": [] }),
            "`session/new`",
        )?;
        let Some(session) = new["sessionId"].as_str().map(str::to_owned) else {
            return Err("the agent answered `session/new` without a `sessionId`".to_owned());
        };
        if self.turn(2, &session, false)? && self.options.cancel {
            self.turn(3, &session, true)?;
        }
        Ok(())
    }

    /// Sends request `id` and waits for its answer; the agent could not be
    /// driven if none comes.
    fn call(
        &mut self,
        id: u64,
        method: &'static str,
        params: &Value,
        what: &str,
    ) -> Result<Value, String> {
        self.request(id, method, params)?;
        let deadline = Instant::now() + self.options.timeout;
        loop {
            match self.next(deadline) {
                Next::Line(Event::Response(answered, result)) if answered == id => {
                    return result.map_err(|error| format!("the agent refused {what}: {error}"));
                }
                Next::Line(_) => {}
                Next::Timeout => {
                    return Err(format!(
                        "the agent never answered {what} within {} s",
                        self.options.timeout.as_secs_f32()
                    ));
                }
                Next::Closed => {
                    return Err(format!(
                        "the agent exited (closed its output) before answering {what}"
                    ));
                }
            }
        }
    }

    /// One turn; whether it ended (so another may follow).
    fn turn(&mut self, id: u64, session: &str, cancel: bool) -> Result<bool, String> {
        let prompt = json!([{ "type": "text", "text": self.options.prompt }]);
        self.request(
            id,
            "session/prompt",
            &json!({ "sessionId": session, "prompt": prompt }),
        )?;
        self.prompt = Some(id);
        let v1 = self.run.judged_as != ClientKind::V2;
        let deadline = Instant::now() + self.options.timeout;
        let mut cancel_sent = false;
        let mut idle = None;
        loop {
            let next = self.next(deadline);
            // Cancelled once the agent is under way: after its first update.
            if cancel && !cancel_sent && matches!(next, Next::Line(Event::Update)) {
                self.send(&json!({ "jsonrpc": "2.0", "method": "session/cancel", "params": { "sessionId": session } }))?;
                cancel_sent = true;
            }
            match next {
                Next::Line(Event::Response(answered, result)) if answered == id => match result {
                    Err(error) => {
                        self.turn_problem(format!("the agent refused the prompt: {error}"));
                        return Ok(false);
                    }
                    Ok(result) if v1 => {
                        self.ended(
                            result["stopReason"].as_str(),
                            cancel_sent,
                            "the prompt's response",
                        );
                        return Ok(true);
                    }
                    // v2: the prompt is accepted; the turn ends with `idle`.
                    Ok(_) if idle.is_some() => return Ok(true),
                    Ok(_) => {}
                },
                Next::Line(Event::Idle(stop)) if !v1 && idle.is_none() => {
                    self.ended(
                        Some(&stop).filter(|s| !s.is_empty()).map(String::as_str),
                        cancel_sent,
                        "the `idle` state update",
                    );
                    idle = Some(stop);
                    if !self.pending.contains_key(&id) {
                        return Ok(true);
                    }
                }
                Next::Line(_) => {}
                Next::Timeout if idle.is_some() => return Ok(true), // the prompt stays unanswered
                Next::Timeout => {
                    // The prompt's missing answer is this finding, not a second one.
                    self.pending.remove(&id);
                    let how = if v1 {
                        "the prompt's response with a `stopReason`"
                    } else {
                        "a `state_update` to `idle`"
                    };
                    self.turn_problem(format!(
                        "the turn did not end within {} s; under v{} it ends with {how}",
                        self.options.timeout.as_secs_f32(),
                        self.run.judged_as.protocol().number()
                    ));
                    return Ok(false);
                }
                Next::Closed => {
                    return Err("the agent exited (closed its output) during the turn".to_owned());
                }
            }
        }
    }

    /// The turn ended with `stop` (from `source`): a stop reason is there,
    /// and a cancelled turn says `cancelled`.
    fn ended(&mut self, stop: Option<&str>, cancelled: bool, source: &str) {
        match stop {
            None => self.turn_problem(format!("{source} has no `stopReason`")),
            Some(stop) => {
                if cancelled && stop != "cancelled" {
                    self.turn_problem(format!(
                        "a turn the client cancelled ends with `stopReason: \"cancelled\"`; {source} says `{stop}`"
                    ));
                }
                self.run.stop_reasons.push(stop.to_owned());
            }
        }
    }

    fn turn_problem(&mut self, message: String) {
        let line = self.run.transcript.len();
        self.find(rule::TURN_END, line, String::new(), message, None);
    }

    fn find(
        &mut self,
        rule: &str,
        line: usize,
        path: String,
        message: String,
        fix: Option<String>,
    ) {
        let fix = fix.or_else(|| fix_for(rule).map(str::to_owned));
        self.run.findings.push(Finding {
            rule: rule.to_owned(),
            line,
            path,
            message,
            fix,
        });
    }

    fn request(&mut self, id: u64, method: &'static str, params: &Value) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        self.pending.insert(id, (method, self.run.transcript.len()));
        Ok(())
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let line = message.to_string();
        self.run.transcript.push(line.clone());
        writeln!(self.agent_in, "{line}")
            .and_then(|()| self.agent_in.flush())
            .map_err(|e| format!("the agent closed its input (it exited?): {e}"))
    }

    /// The next line of the agent, judged, before `deadline`.
    fn next(&mut self, deadline: Instant) -> Next {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.inbox.recv_timeout(wait) {
            Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => self.next(deadline),
            Ok(bytes) => Next::Line(self.judge(&bytes)),
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        }
    }
}
