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

use plan_core::{client::SessionBoards, wire::ClientKind};
use serde_json::{Value, json};

use super::Finding;
use crate::model::ModelChoice;
use crate::process::{self as agent_process, AgentProcess, Stderr};

mod driven;
mod judge;
mod mapping;
mod plan_mode;
pub(crate) mod report;
mod session;
pub(crate) mod turns;
use report::{exit_code, finish};

pub mod rule;

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // command-line switches, each on its own
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct CheckAgentOptions {
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
    /// A kind of client that saw no plan message is a finding, not a note.
    pub expect_plans: bool,
    /// The agent's command and its arguments.
    pub command: Vec<String>,
    /// Say on standard error which kind of client and which step the run
    /// is on (the command turns it on when standard error is a terminal).
    pub progress: bool,
    /// `--scripted-model`: the agent's model is a script served on loopback.
    pub scripted_model: Option<crate::model::ModelChoice>,
    /// `--auth ID`: call `authenticate` with this method before `session/new`.
    pub auth: Option<String>,
    /// `--plan-mode`: set the session's plan mode (as the agent advertises
    /// one) before the prompt, and approve its switch out of it.
    pub plan_mode: bool,
    /// How the agent is pointed at the scripted model beyond its profile
    /// (`--model-env`, `--model-file`, `--model-port`, `--allow-network`;
    /// its `plan_mode` is this struct's own `plan_mode`).
    pub model_setup: crate::model::ModelSetup,
}

impl Default for CheckAgentOptions {
    fn default() -> Self {
        Self {
            json: false,
            prompt: "Refactor the auth module and show me your plan.".to_owned(),
            cancel: false,
            record: None,
            timeout: Duration::from_mins(1),
            expect_plans: false,
            command: Vec::new(),
            progress: false,
            scripted_model: None,
            auth: None,
            plan_mode: false,
            model_setup: crate::model::ModelSetup::default(),
        }
    }
}

impl CheckAgentOptions {
    /// The model's setup, plan mode included.
    fn setup(&self) -> crate::model::ModelSetup {
        crate::model::ModelSetup {
            plan_mode: self.plan_mode,
            ..self.model_setup.clone()
        }
    }
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
    /// How many plan messages (`plan`, `plan_update`, `plan_removed`) were
    /// judged; none means nothing was judged.
    pub plans: usize,
    /// How many plan updates were equal to the plan as it already was (the
    /// protocol allows them; a client need not redraw).
    pub repeats: usize,
    /// What a person would want to know that breaks no rule: nothing judged,
    /// repeats, a SHOULD not followed.
    pub notes: Vec<String>,
    /// Why the agent could not be driven, if it could not.
    pub failure: Option<String>,
    /// The agent's last lines on standard error, kept where it could not be
    /// driven (its own words on why).
    pub stderr_tail: Vec<String>,
    /// Every line, both ways, in order.
    pub transcript: Vec<String>,
    /// How long this kind took, from its model's start to its agent's end.
    pub elapsed: Duration,
}

/// The name of a kind in reports and recordings.
pub fn slug(kind: ClientKind) -> &'static str {
    match kind {
        ClientKind::V1 => "v1",
        ClientKind::V1Plan => "v1-plan",
        ClientKind::V2 => "v2",
    }
}

/// Runs the whole check: `options.command` started once per kind, each
/// kind with its own agent process and (with `--scripted-model`) its own
/// model, the three at once (one after the other where `--model-port`
/// fixes the model's port). Writes the report to `out` and the
/// transcripts to `options.record`.
///
/// # Errors
/// Only an error writing the report or a transcript.
pub fn check_agent(options: &CheckAgentOptions, out: &mut impl Write) -> io::Result<u8> {
    // A script that cannot be used is the command line's mistake, said once.
    if let Some(Err(e)) = options.scripted_model.as_ref().map(ModelChoice::script) {
        eprintln!("check: scripted model: {e}");
        return Ok(2);
    }
    let runs: Vec<KindRun> = if options.model_setup.port.is_some() {
        ClientKind::ALL
            .iter()
            .map(|&kind| check_one_kind(kind, options))
            .collect()
    } else {
        std::thread::scope(|scope| {
            let started: Vec<_> = ClientKind::ALL
                .iter()
                .map(|&kind| (kind, scope.spawn(move || check_one_kind(kind, options))))
                .collect();
            started
                .into_iter()
                .map(|(kind, run)| {
                    run.join().unwrap_or_else(|_| {
                        failed(kind, "the check of this kind of client panicked".to_owned())
                    })
                })
                .collect()
        })
    };
    finish(options, &runs, out)?;
    Ok(exit_code(&runs))
}

/// One kind of client: its model (with `--scripted-model`), its agent
/// process, the conversation, and what the model's log says of it.
fn check_one_kind(kind: ClientKind, options: &CheckAgentOptions) -> KindRun {
    let began = Instant::now();
    let model = options
        .scripted_model
        .as_ref()
        .map(|choice| choice.start(&options.command, &options.setup()))
        .transpose();
    let mut run = match (model, options.command.split_first()) {
        (Err(e), _) => failed(kind, e),
        (Ok(_), None) => failed(kind, "no agent command to start".to_owned()),
        (Ok(model), Some((program, args))) => {
            let env = model
                .as_ref()
                .map_or(&[][..], |(_, pointing)| &pointing.env[..]);
            match AgentProcess::start(program, args, env, Stderr::Keep) {
                Err(e) => failed(kind, format!("cannot start `{program}`: {e}")),
                Ok((agent, input, output)) => {
                    let hold = |on: bool| {
                        if let Some((model, _)) = &model {
                            model.hold(on);
                        }
                    };
                    let mut run = run_kind_holding(
                        kind,
                        options,
                        io::BufReader::new(output),
                        input,
                        Some(&hold),
                    );
                    if let Some((model, pointing)) = &model
                        && run.failure.is_none()
                    {
                        let log = model.take_log();
                        match driven::not_driven(&run, &log, &pointing.env) {
                            Some(reason) => {
                                // Not judged, so `--expect-plans` says nothing either.
                                run.findings.retain(|f| f.rule != rule::EXPECT_PLANS);
                                run.failure = Some(reason);
                            }
                            None => {
                                mapping::judge(&mut run, &log);
                                plan_mode::judge(&mut run, &log);
                            }
                        }
                    }
                    // Its own words on the way out, where it could not be driven.
                    if run.failure.is_some() {
                        std::thread::sleep(Duration::from_millis(100));
                        run.stderr_tail = agent.stderr_tail();
                    }
                    agent.end(Duration::from_millis(500));
                    run
                }
            }
        }
    };
    run.elapsed = began.elapsed();
    run
}

fn failed(kind: ClientKind, reason: String) -> KindRun {
    KindRun {
        kind,
        judged_as: kind,
        answered: None,
        stop_reasons: Vec::new(),
        findings: Vec::new(),
        plans: 0,
        repeats: 0,
        notes: Vec::new(),
        failure: Some(reason),
        stderr_tail: Vec::new(),
        transcript: Vec::new(),
        elapsed: Duration::ZERO,
    }
}

/// What the client offers in `initialize` as `kind`: v1 without or with
/// `clientCapabilities.plan`; v2 with v1's keys too (with `plan`), so an
/// agent that answers v1 still knows what the client reads.
pub(crate) fn offer(kind: ClientKind) -> Value {
    crate::process::handshake::initialize_params(kind.protocol(), kind != ClientKind::V1)
}

/// Drives one kind of client over `agent_out`/`agent_in` and judges what
/// the agent writes.
pub fn run_kind<R: BufRead + Send + 'static, W: Write>(
    kind: ClientKind,
    options: &CheckAgentOptions,
    agent_out: R,
    agent_in: W,
) -> KindRun {
    run_kind_holding(kind, options, agent_out, agent_in, None)
}

/// [`run_kind`], with `hold` called `true` as the turn the client cancels
/// starts and `false` once the cancel is sent (the scripted model holds
/// its answers in between, so the cancel lands mid-turn).
fn run_kind_holding<R: BufRead + Send + 'static, W: Write>(
    kind: ClientKind,
    options: &CheckAgentOptions,
    agent_out: R,
    agent_in: W,
    hold: Option<&dyn Fn(bool)>,
) -> KindRun {
    let mut talk = Conversation {
        hold,
        options,
        inbox: agent_process::lines(agent_out),
        agent_in,
        run: failed(kind, String::new()),
        pending: BTreeMap::new(),
        prompt: None,
        boards: SessionBoards::new(),
        auth_methods: Value::Null,
        progress: false,
    };
    talk.run.failure = None;
    if let Err(reason) = talk.drive() {
        talk.run.failure = Some(reason);
    }
    talk.plans_seen();
    for (id, (method, line)) in std::mem::take(&mut talk.pending) {
        if method == turns::CANCEL_PROBE {
            // Ours, not the protocol's: never answered is a note.
            talk.run.notes.push(format!(
                "the request sent right after `session/cancel` (`{method}`, id {id}) was never answered (JSON-RPC answers every request; ACP answers an unknown `_` method with \"Method not found\")"
            ));
            continue;
        }
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
    options: &'o CheckAgentOptions,
    /// Holds the scripted model's answers through a cancelled turn.
    hold: Option<&'o dyn Fn(bool)>,
    inbox: mpsc::Receiver<Vec<u8>>,
    agent_in: W,
    run: KindRun,
    /// The client's requests not answered yet: id, method, transcript line.
    pending: BTreeMap<u64, (&'static str, usize)>,
    /// The prompt of the turn under way.
    prompt: Option<u64>,
    /// The plans as a client would keep them, to tell repeats.
    boards: SessionBoards,
    /// The `authMethods` the agent offered in `initialize`.
    auth_methods: Value,
    /// Whether the turn under way showed the agent working: a message, a
    /// tool call or a plan from its model, or a request of the agent's.
    progress: bool,
}

impl<W: Write> Conversation<'_, W> {
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

    /// After the run: how many plans were judged, and a note (or with
    /// `--expect-plans` a finding) when none was.
    fn plans_seen(&mut self) {
        if self.run.failure.is_some() {
            return;
        }
        if self.run.plans == 0 {
            let message = "no plan message seen: nothing judged".to_owned();
            if self.options.expect_plans {
                let line = self.run.transcript.len();
                self.find(rule::EXPECT_PLANS, line, String::new(), message, None);
            } else {
                self.run.notes.push(message);
            }
        }
        if self.run.repeats > 0 {
            self.run.notes.push(format!(
                "{} of {} plan message(s) repeated the plan as it already was (allowed; a client need not redraw)",
                self.run.repeats, self.run.plans
            ));
        }
    }

    pub(super) fn find(
        &mut self,
        rule: &str,
        line: usize,
        path: String,
        message: String,
        fix: Option<String>,
    ) {
        self.run
            .findings
            .push(Finding::new(rule, line, path, message, fix));
    }

    pub(super) fn request(
        &mut self,
        id: u64,
        method: &'static str,
        params: &Value,
    ) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        self.pending.insert(id, (method, self.run.transcript.len()));
        Ok(())
    }

    pub(super) fn send(&mut self, message: &Value) -> Result<(), String> {
        if self.options.progress
            && let Some(method) = message.get("method").and_then(Value::as_str)
        {
            eprintln!("check: {}: {method}", self.run.kind);
        }
        let line = message.to_string();
        self.run.transcript.push(line.clone());
        writeln!(self.agent_in, "{line}")
            .and_then(|()| self.agent_in.flush())
            .map_err(|e| format!("the agent closed its input (it exited?): {e}"))
    }

    /// The next line of the agent, judged, before `deadline`.
    pub(super) fn next(&mut self, deadline: Instant) -> Next {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.inbox.recv_timeout(wait) {
            Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => self.next(deadline),
            Ok(bytes) => Next::Line(self.judge(&bytes)),
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        }
    }
}
