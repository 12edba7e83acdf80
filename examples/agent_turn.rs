//! A turn of the example agent (a module of the `agent` example): the work
//! one `session/prompt` does, a refactor shown as plans declared with
//! `plan!` and `#[derive(Steps)]`, sent step by step through the session's
//! `PlanSender` with pauses that notice `session/cancel`. The command line
//! and the JSON-RPC serving are in `agent.rs`.

use std::io::{self, Write};
use std::sync::mpsc::{self, RecvTimeoutError};

use plan_core::{PlanContent, PlanEntry, PlanId, Priority, ProtocolVersion, Status, Steps, plan};
use serde_json::{Value, json};

use super::{Agent, Incoming, TurnEnd, code};

impl<W: Write, L: Write> Agent<W, L> {
    pub(super) fn prompt(
        &mut self,
        id: &Value,
        params: &Value,
        protocol: ProtocolVersion,
    ) -> io::Result<TurnEnd> {
        let Some(session) = params["sessionId"].as_str() else {
            self.error(id, code::INVALID_PARAMS, "`sessionId` must be a string")?;
            return Ok(TurnEnd::Done);
        };
        let Some(index) = self.sessions.iter().position(|s| s.id == session) else {
            self.error(
                id,
                code::INVALID_PARAMS,
                &format!("unknown session `{session}`"),
            )?;
            return Ok(TurnEnd::Done);
        };
        if !params["prompt"].is_array() {
            self.error(
                id,
                code::INVALID_PARAMS,
                "`prompt` must be an array of content blocks",
            )?;
            return Ok(TurnEnd::Done);
        }
        if protocol == ProtocolVersion::V2 {
            // v2: the response accepts the prompt and names the user message
            // it became, which the agent echoes; the turn's end is a state update.
            self.next_message += 1;
            let message = format!("msg_{}", self.next_message);
            self.respond(id, &json!({ "messageId": message }))?;
            let echo = json!({ "messageId": message, "content": params["prompt"] });
            self.update(index, "user_message", echo)?;
            self.update(index, "state_update", json!({ "state": "running" }))?;
        }
        let end = self.turn(index)?;
        let stop = match end {
            TurnEnd::Done => "end_turn",
            TurnEnd::Cancelled => "cancelled",
            TurnEnd::Closed => return Ok(TurnEnd::Closed),
        };
        match protocol {
            ProtocolVersion::V1 => self.respond(id, &json!({ "stopReason": stop }))?,
            ProtocolVersion::V2 => {
                self.update(
                    index,
                    "state_update",
                    json!({ "state": "idle", "stopReason": stop }),
                )?;
            }
        }
        Ok(end)
    }

    /// The work of one prompt: a refactor, its notes (markdown, then a
    /// checklist of the same id, removed when done), a design document in a
    /// file (a markdown plan with its `path`), and a verification plan
    /// declared as a type.
    fn turn(&mut self, index: usize) -> io::Result<TurnEnd> {
        let refactor_id = PlanId::new("refactor").unwrap_or_else(|_| unreachable!("a valid id"));
        let mut refactor = vec![
            PlanEntry::new(
                "Analyze the existing codebase structure",
                Priority::High,
                Status::Pending,
            ),
            PlanEntry::new(
                "Identify components that need refactoring",
                Priority::High,
                Status::Pending,
            ),
            PlanEntry::new(
                "Create unit tests for critical functions",
                Priority::Medium,
                Status::Pending,
            ),
            PlanEntry::new("Update the changelog", Priority::Low, Status::Pending),
        ];
        let notes = notes(false);
        let mut verify = Verify::start().one_at_a_time();

        let items = |entries: &[PlanEntry]| {
            Step::Update(PlanContent::items(refactor_id.clone(), entries.to_vec()))
        };
        let session_id = self.sessions[index].id.clone();
        for stage in 0.. {
            let (r, v) = (&mut refactor, &mut verify);
            let actions = match stage {
                0 => vec![items(r)],
                1 => vec![Step::Update(notes.clone()), Step::Update(design(false))],
                2 => {
                    r[0].status = Status::InProgress;
                    vec![items(r)]
                }
                3 => {
                    r[0].status = Status::Completed;
                    r[1].status = Status::InProgress;
                    vec![items(r), Step::Update(self::notes(true))]
                }
                4 => {
                    // A discovery: a new task joins the plan, after the current one.
                    let found = "Fix the circular dependency in the auth module";
                    r.insert(2, PlanEntry::new(found, Priority::High, Status::Pending));
                    vec![items(r)]
                }
                5 => {
                    r[1].status = Status::Completed;
                    r[2].status = Status::InProgress;
                    vec![items(r), Step::Remove(notes.id().clone())]
                }
                6 => {
                    r[2].status = Status::Completed;
                    r[3].status = Status::InProgress;
                    let _ = v.begin(Verify::Lint);
                    // The design is agreed: its file is rewritten, and so is the plan.
                    vec![
                        items(r),
                        Step::Update(v.content()),
                        Step::Update(design(true)),
                    ]
                }
                7 => {
                    r[3].status = Status::Completed;
                    let _ = v.finish(Verify::Lint);
                    let _ = v.begin(Verify::Test);
                    vec![items(r), Step::Update(v.content())]
                }
                8 => {
                    // The changelog is not needed after all.
                    r[4].status = Status::Cancelled;
                    let _ = v.finish(Verify::Test);
                    vec![items(r), Step::Update(v.content())]
                }
                _ => return Ok(TurnEnd::Done),
            };
            for action in actions {
                self.send(index, action)?;
            }
            match self.pause(&session_id) {
                Pause::Go => {}
                Pause::Closed => return Ok(TurnEnd::Closed),
                Pause::Cancelled => {
                    // Stop: what is not done will not be done in this turn.
                    for entry in &mut refactor {
                        if entry.status != Status::Completed {
                            entry.status = Status::Cancelled;
                        }
                    }
                    self.send(index, items(&refactor))?;
                    if verify.steps().any(|(_, s)| *s != Status::Pending) {
                        let _ = verify.abandon();
                        self.send(index, Step::Update(verify.content()))?;
                    }
                    return Ok(TurnEnd::Cancelled);
                }
            }
        }
        Ok(TurnEnd::Done)
    }

    /// Waits the pause between steps, reading what the client sends
    /// meanwhile: a `session/cancel` for this session stops the turn;
    /// requests wait for the turn to end.
    fn pause(&mut self, session: &str) -> Pause {
        let deadline = std::time::Instant::now() + self.options.pause;
        loop {
            let wait = deadline.saturating_duration_since(std::time::Instant::now());
            let line = if wait.is_zero() {
                match self.inbox.try_recv() {
                    Ok(line) => line,
                    Err(mpsc::TryRecvError::Empty) => return Pause::Go,
                    Err(mpsc::TryRecvError::Disconnected) => return Pause::Closed,
                }
            } else {
                match self.inbox.recv_timeout(wait) {
                    Ok(line) => line,
                    Err(RecvTimeoutError::Timeout) => return Pause::Go,
                    Err(RecvTimeoutError::Disconnected) => return Pause::Closed,
                }
            };
            match self.read(&line) {
                Ok(Some(Incoming::Notification { method, params }))
                    if method == "session/cancel" && params["sessionId"] == session =>
                {
                    return Pause::Cancelled;
                }
                Ok(Some(message)) => self.queued.push_back(message),
                Ok(None) => {}
                Err(_) => return Pause::Closed,
            }
        }
    }

    fn send(&mut self, index: usize, step: Step) -> io::Result<()> {
        let session = &mut self.sessions[index];
        match step {
            Step::Update(plan) => session.sender.send_update(&mut self.out, plan).map(drop),
            Step::Remove(id) => session.sender.send_remove(&mut self.out, &id).map(drop),
        }
    }

    /// A session update other than a plan (v2's `state_update`, `user_message`).
    fn update(&mut self, index: usize, kind: &str, fields: Value) -> io::Result<()> {
        let mut update = fields;
        update["sessionUpdate"] = json!(kind);
        let params = json!({ "sessionId": self.sessions[index].id, "update": update });
        self.write(&json!({ "jsonrpc": "2.0", "method": "session/update", "params": params }))
    }
}

/// One thing a turn sends.
enum Step {
    Update(PlanContent),
    Remove(PlanId),
}

/// What happened during a pause.
enum Pause {
    Go,
    Cancelled,
    Closed,
}

/// The verification that follows a refactor, declared as a type: the
/// compiler knows every step, and a run can only name these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Steps)]
#[plan(id = "verify")]
pub(crate) enum Verify {
    /// Run the linters
    #[step(priority = high)]
    Lint,
    /// Run the test suite
    #[step(priority = high)]
    Test,
}

/// The turn's notes: markdown at first; later the same plan as a checklist
/// (`as_tasks`): a `plan_update` replaces the whole plan, even its type.
fn notes(as_tasks: bool) -> PlanContent {
    if as_tasks {
        plan! { id: "notes", items: [
            high pending "Ask about the auth module",
            low completed "Check the CI budget",
        ] }
    } else {
        plan! { id: "notes", markdown: "## Notes\n- [ ] Ask about the auth module\n- [x] Check the CI budget" }
    }
}

/// The design document. It lives in a file: the markdown is what every
/// client shows, the absolute path what one can open.
fn design(agreed: bool) -> PlanContent {
    if agreed {
        plan! {
            id: "design-doc",
            markdown: "# Refactor design\n- [x] Split the auth module\n- [x] Agree on the new interfaces",
            path: "/tmp/refactor-design.md",
        }
    } else {
        plan! {
            id: "design-doc",
            markdown: "# Refactor design\n- [x] Split the auth module\n- [ ] Agree on the new interfaces",
            path: "/tmp/refactor-design.md",
        }
    }
}
