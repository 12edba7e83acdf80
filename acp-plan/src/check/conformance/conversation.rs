//! One kind's conversation with the agent: the client's requests sent and
//! recorded, the agent's lines read (and judged, in `judge.rs`) as they
//! come, the findings kept. The handshake (`session.rs`) and the turns
//! (`turns.rs`) are its steps.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Instant;

use plan_core::client::SessionBoards;
use serde_json::{Value, json};

use super::client_run::ClientRun;
use super::options::CheckAgentOptions;
use crate::check::finding::Finding;
use crate::check::rule;

/// What reading the next line gave.
pub(super) enum Next {
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
    pub(super) fn next(&mut self, deadline: Instant) -> Next {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.inbox.recv_timeout(wait) {
            Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => self.next(deadline),
            Ok(bytes) => Next::Line(self.judge_agent_line(&bytes)),
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        }
    }
}
