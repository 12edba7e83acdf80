//! One kind's conversation with the agent: the client's requests sent and
//! recorded, the agent's lines read once and judged as they come (the
//! JSON-RPC envelope, the version table's rules for the kind of client,
//! what a lenient reader would drop, the turn's end), the findings kept.
//! The handshake (`session.rs`) and the turns (`turns.rs`) are its steps,
//! functions that drive it.

use std::io::Write;
use std::time::Instant;

use plan_core::SessionUpdate;
use plan_core::client::{Applied, SessionBoards};
use plan_core::wire::Parsed;
use serde_json::Value;

use super::client_run::ClientRun;
use super::options::CheckAgentOptions;
use crate::check::finding::Finding;
use crate::check::message;
use crate::check::rule;
use crate::process as agent_process;
use crate::process::connection::{AgentLink, Event, FromAgent, Incoming};

/// One kind's conversation: the connection, and what is judged of it.
pub(super) struct Conversation<'o, W> {
    pub(super) options: &'o CheckAgentOptions,
    /// Holds the scripted model's answers through a cancelled turn.
    pub(super) hold: Option<&'o dyn Fn(bool)>,
    /// The client's side of the connection, keeping every line.
    pub(super) link: AgentLink<W>,
    pub(super) run: ClientRun,
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
                Incoming::Line(FromAgent {
                    event:
                        Event::Answer {
                            id: answered,
                            outcome,
                        },
                    ..
                }) if answered == id => {
                    return outcome.map_err(|error| format!("the agent refused {what}: {error}"));
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
                let line = self.link.lines();
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

    /// Sends request `id` (said with `--progress`).
    pub(super) fn request(
        &mut self,
        id: u64,
        method: &'static str,
        params: &Value,
    ) -> Result<(), String> {
        self.said(method);
        self.link.request(id, method, params)
    }

    /// Says with `--progress` what the client sends.
    pub(super) fn said(&self, method: &str) {
        if self.options.progress {
            eprintln!("check: {}: {method}", self.run.kind);
        }
    }

    /// The next line of the agent, judged, before `deadline`.
    pub(super) fn next(&mut self, deadline: Instant) -> Incoming {
        let received = self.link.next(deadline);
        if let Incoming::Line(line) = &received {
            self.judge_agent_line(line);
        }
        received
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

    /// Judges a line of the agent's, read once by the connection: its
    /// envelope, a `session/update` by the plan rules for this client, a
    /// response to no request of the client's.
    fn judge_agent_line(&mut self, from: &FromAgent) {
        let line = from.line;
        match &from.event {
            // An update's broken envelope is its error (`unreadable`).
            Event::Update(read) => {
                if let Ok(read) = read {
                    self.judge_update(line, read);
                }
                self.update(line, read);
            }
            Event::Idle(_) => {}
            event => {
                for problem in &from.problems {
                    self.run
                        .findings
                        .push(Finding::of_error(rule::JSON_RPC, line, problem));
                }
                match event {
                    Event::Asked { .. } => self.progress = true,
                    Event::Unasked(id) => self.find(rule::JSON_RPC, line, "id".to_owned(), format!("a response to {id}, which is no request of this client's that awaits an answer"), None),
                    _ => {}
                }
            }
        }
    }

    /// What a read `session/update` shows of its own: the RFD's spelling of
    /// the plan id, and the agent working (a message, a thought, a tool
    /// call, a plan).
    fn judge_update(&mut self, line: usize, read: &Parsed<plan_core::SessionNotification>) {
        if let Some(v) = message::rfd_spelling(read) {
            self.run.findings.push(Finding::of_violation(line, &v));
        }
        let working = match &read.value.update {
            SessionUpdate::Other(other) => matches!(
                other.kind(),
                "agent_message_chunk" | "agent_thought_chunk" | "tool_call" | "tool_call_update"
            ),
            _ => true,
        };
        self.progress |= working;
    }

    /// A `session/update` as read (or why it could not be): counted,
    /// applied to the boards, and judged for this client.
    fn update(
        &mut self,
        line: usize,
        read: &Result<Parsed<plan_core::SessionNotification>, plan_core::Error>,
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
}
