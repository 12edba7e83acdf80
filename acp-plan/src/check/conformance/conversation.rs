//! One kind's conversation with the agent: the client's requests sent and
//! recorded, the agent's lines read once and judged as they come (the
//! JSON-RPC envelope, the version table's rules for the kind of client,
//! what a lenient reader would drop, the turn's end), the findings kept.
//! The handshake (`session.rs`) and the turns (`turns.rs`) are its steps,
//! functions that drive it.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Instant;

use plan_core::client::{Applied, SessionBoards};
use plan_core::wire::{Line, Message, Parsed, Strictness};
use plan_core::{SessionNotification, SessionUpdate};
use serde_json::{Value, json};

use super::client_run::ClientRun;
use super::options::CheckAgentOptions;
use crate::check::finding::Finding;
use crate::check::message;
use crate::check::rule;
use crate::process as agent_process;

/// What reading the next line gave.
pub(super) enum Incoming {
    Line(Event),
    Timeout,
    Closed,
}

/// What a line of the agent's was, for the driver.
pub(super) enum Event {
    Response(u64, Result<Value, Value>),
    /// v2: a `state_update` to `idle`, with its stop reason.
    Idle(String),
    /// Another `session/update`.
    Update,
    Other,
}

pub(super) struct Conversation<'o, W> {
    pub(super) options: &'o CheckAgentOptions,
    /// Holds the scripted model's answers through a cancelled turn.
    pub(super) hold: Option<&'o dyn Fn(bool)>,
    pub(super) inbox: mpsc::Receiver<Vec<u8>>,
    pub(super) agent_in: W,
    pub(super) run: ClientRun,
    /// The client's requests not answered yet: id, method, transcript line.
    pub(super) pending: BTreeMap<u64, (&'static str, usize)>,
    /// The prompt of the turn under way.
    pub(super) prompt: Option<u64>,
    /// The plans as a client would keep them, to tell repeats.
    pub(super) boards: SessionBoards,
    /// The `authMethods` the agent offered in `initialize`.
    pub(super) auth_methods: Value,
    /// Whether the turn under way showed the agent working: a message, a
    /// tool call or a plan from its model, or a request of the agent's.
    pub(super) progress: bool,
}

/// Why an agent could not be driven when it was gone before answering
/// `what`: one wording whether its input or its output was found closed
/// first (which of the two a run sees first is a race), with what an ACP
/// agent must do when it was gone at the very first request.
pub(super) fn exited_before(what: &str) -> String {
    let mut why = format!("the agent exited before answering {what}");
    if what == "`initialize`" {
        why.push_str(
            "; a program that exits without reading its standard input is not an ACP agent: an agent reads JSON-RPC requests on standard input, one a line, and answers each on standard output, starting with `initialize` (does it need an argument to speak ACP, such as `--acp` or `acp`?)",
        );
    }
    why
}

impl<W: Write> Conversation<'_, W> {
    /// Sends request `id` and waits for its answer; the agent could not be
    /// driven if none comes.
    pub(super) fn call(
        &mut self,
        id: u64,
        method: &'static str,
        params: &Value,
        what: &str,
    ) -> Result<Value, String> {
        self.request(id, method, params)
            .map_err(|_| exited_before(what))?;
        let deadline = Instant::now() + self.options.timeout;
        loop {
            match self.next(deadline) {
                Incoming::Line(Event::Response(answered, result)) if answered == id => {
                    return result.map_err(|error| format!("the agent refused {what}: {error}"));
                }
                Incoming::Line(_) => {}
                Incoming::Timeout => {
                    return Err(format!(
                        "the agent never answered {what} within {} s",
                        self.options.timeout.as_secs_f32()
                    ));
                }
                Incoming::Closed => return Err(exited_before(what)),
            }
        }
    }

    /// After the run: how many plans were judged, and a note (or with
    /// `--expect-plans` a finding) when none was.
    pub(super) fn plans_seen(&mut self) {
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
    pub(super) fn next(&mut self, deadline: Instant) -> Incoming {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.inbox.recv_timeout(wait) {
            Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => self.next(deadline),
            Ok(bytes) => Incoming::Line(self.judge_agent_line(&bytes)),
            Err(RecvTimeoutError::Timeout) => Incoming::Timeout,
            Err(RecvTimeoutError::Disconnected) => Incoming::Closed,
        }
    }

    /// A reason the agent could not be driven, with what the user can do,
    /// as its words say: the ways it offered to authenticate, a key, or the
    /// scripted model where it wants a login or could not reach its model;
    /// the matching hint otherwise.
    pub(super) fn what_to_do(&self, mut reason: String) -> String {
        let scripted = self.options.scripted_model.is_some();
        let model = if scripted {
            "\nthe scripted model was given to it (`docs/ci.md` lists what each known agent is given); if it reads its model's address or key from elsewhere, point it there: `--model-env NAME={url}/v1` (a variable of its own), `--model-file PATH=FILE` (a configuration file in its home), `--model-port PORT` (a configuration written ahead of time); docs/ci.md, \"An agent we have no profile for\""
        } else {
            "\nin CI: run it on a scripted model with `--scripted-model` (no key, no network), or give it a key in its environment"
        };
        match agent_process::hint_for(&reason) {
            // A model it cannot reach may be one it is not logged in to; on
            // the scripted model, its own logins are beside the point.
            Some(agent_process::Hint::Auth | agent_process::Hint::Model) => {
                if !scripted {
                    reason += &agent_process::auth_help(&self.auth_methods);
                }
                reason.push_str(model);
            }
            Some(agent_process::Hint::Say(hint)) => {
                reason.push('\n');
                reason.push_str(hint);
            }
            None => reason += &agent_process::auth_help(&self.auth_methods),
        }
        reason
    }

    /// Records a line of the agent's and judges it.
    pub(super) fn judge_agent_line(&mut self, bytes: &[u8]) -> Event {
        let text = String::from_utf8_lossy(bytes).trim_end().to_owned();
        self.run.transcript.push(text.clone());
        let line = self.run.transcript.len();
        // Read once: the envelope reader splits the line, and a
        // `session/update`'s params go to the notification's reader.
        let read = Line::read_message(&text, Strictness::Lenient);
        let Some(plan) = read.plan else {
            for problem in &read.envelope.problems {
                self.run
                    .findings
                    .push(Finding::of_error(rule::JSON_RPC, line, problem));
            }
            return self.envelope(read.envelope.message);
        };
        let read = match plan.map(Parsed::into_notification) {
            Ok(Some(read)) => Ok(read),
            Err(e) => Err(e),
            // `read_message` reads every line as a message: no other form.
            Ok(None) => return Event::Other,
        };
        // A `session/update` notification: the plan rules, for this client.
        if let Ok(read) = &read {
            if let Some(v) = message::rfd_spelling(read) {
                self.run.findings.push(Finding::of_violation(line, &v));
            }
            let kind = match &read.value.update {
                SessionUpdate::Other(other) => other.kind(),
                _ => "plan",
            };
            if matches!(
                kind,
                "agent_message_chunk"
                    | "agent_thought_chunk"
                    | "tool_call"
                    | "tool_call_update"
                    | "plan"
            ) {
                self.progress = true;
            }
            if let (SessionUpdate::Other(other), Some(_)) = (&read.value.update, &self.prompt) {
                let update = other.as_object();
                if kind == "state_update"
                    && update.get("state").and_then(Value::as_str) == Some("idle")
                {
                    let stop = update.get("stopReason").and_then(Value::as_str);
                    return Event::Idle(stop.unwrap_or_default().to_owned());
                }
            }
        }
        self.update(line, read);
        Event::Update
    }

    /// A `session/update` as read (or why it could not be): counted,
    /// applied to the boards, and judged for this client.
    fn update(
        &mut self,
        line: usize,
        read: Result<plan_core::wire::Parsed<SessionNotification>, plan_core::Error>,
    ) {
        match read {
            Err(e) => self.find(
                rule::UNREADABLE,
                line,
                String::new(),
                format!("no client can read this update: {e}"),
                None,
            ),
            Ok(read) => {
                self.run.updates.push((line, read.value.update.clone()));
                if message::is_plan(&read.value.update) {
                    self.run.plans += 1;
                    if let Applied::Unchanged { .. } = self.boards.apply(read.value.clone()) {
                        self.run.repeats += 1;
                    }
                }
                for skipped in read.skipped.iter().filter(|s| !s.let_through()) {
                    self.find(rule::LENIENT_DROPS, line, skipped.path().to_owned(), format!(
                    "a lenient client (every published SDK) drops this without a word, and a strict one refuses the message: {}",
                    skipped.reason()
                ), None);
                }
                for v in read
                    .value
                    .check_for_client(self.run.judged_as)
                    .err()
                    .unwrap_or_default()
                {
                    self.run.findings.push(Finding::of_violation(line, &v));
                }
            }
        }
    }

    /// A message other than a `session/update`: responses are matched with
    /// the client's requests, requests of the agent are answered.
    fn envelope(&mut self, message: Option<Message<'_>>) -> Event {
        let line = self.run.transcript.len();
        let raw = |raw: &serde_json::value::RawValue| {
            serde_json::from_str::<Value>(raw.get()).unwrap_or(Value::Null)
        };
        match message {
            Some(Message::Request {
                id, method, params, ..
            }) => {
                let params = params.map_or(Value::Null, raw);
                self.progress = true;
                let answer = agent_process::answer_request(
                    &raw(id),
                    &method,
                    &params,
                    self.options.plan_mode,
                );
                let _ = self.send(&answer);
                Event::Other
            }
            Some(Message::Response { id, outcome, .. }) => {
                let id = raw(id);
                let known = id.as_u64().and_then(|n| self.pending.remove(&n).map(|_| n));
                let Some(n) = known else {
                    self.find(rule::JSON_RPC, line, "id".to_owned(), format!("a response to {id}, which is no request of this client's that awaits an answer"), None);
                    return Event::Other;
                };
                Event::Response(n, outcome.map(raw).map_err(raw))
            }
            _ => Event::Other,
        }
    }
}
