//! A turn of the example agent (a module of the `agent` example): the work
//! one `session/prompt` does, a refactor shown as plans declared with
//! `plan!` and `#[derive(Steps)]`, sent step by step through the session's
//! `PlanSender` with pauses that notice `session/cancel`. The command line
//! and the JSON-RPC serving are in `agent.rs`.

use std::io::{self, Write};
use std::sync::mpsc::{self, RecvTimeoutError};

use plan_core::{
    PlanContent, PlanEntry, PlanId, Priority, Status, Steps, agent::PlanRun, plan,
    wire::ProtocolVersion,
};
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
        if let (TurnEnd::Cancelled, ProtocolVersion::V2) = (&end, protocol) {
            self.cancel_held_prompts(session)?;
        }
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
        let mut refactor = refactor_entries();
        let notes = notes(false);
        let mut verify = Verify::start().one_at_a_time();
        let session_id = self.sessions[index].id.clone();
        for stage in 0.. {
            let Some(actions) =
                stage_of_turn(stage, &refactor_id, &mut refactor, &mut verify, &notes)
            else {
                break;
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
                    self.send(
                        index,
                        Step::Update(PlanContent::items(refactor_id, refactor)),
                    )?;
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

    /// v2: the prompts of `session` that arrived during a turn the client
    /// cancelled (or closed) were held, never inserted: each is answered
    /// -32800 (Request Cancelled), as `session/cancel` and `session/close`
    /// require of held prompts.
    fn cancel_held_prompts(&mut self, session: &str) -> io::Result<()> {
        let (held, rest): (Vec<Incoming>, Vec<Incoming>) =
            self.queued.drain(..).partition(|message| {
                matches!(message, Incoming::Request { method, params, .. }
                    if method == "session/prompt" && params["sessionId"] == session)
            });
        self.queued = rest.into();
        for message in held {
            if let Incoming::Request { id, .. } = message {
                self.error(
                    &id,
                    code::REQUEST_CANCELLED,
                    "Request cancelled: the prompt was held while the session's work was cancelled",
                )?;
            }
        }
        Ok(())
    }

    /// Waits the pause between steps, reading what the client sends
    /// meanwhile: a `session/cancel` for this session stops the turn, and so
    /// does a v2 `session/close` of it (answered once the turn has ended, as
    /// if cancelled); requests wait for the turn to end.
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
                Ok(Some(message)) => {
                    let stop = self.stops(&message, session);
                    match (stop, message) {
                        (Stop::No, message) => self.queued.push_back(message),
                        (Stop::Cancel, _) => return Pause::Cancelled,
                        // Served first once the turn has ended cancelled.
                        (Stop::Close, message) => {
                            self.queued.push_front(message);
                            return Pause::Cancelled;
                        }
                        // A batch that cancels: the rest of it after the turn.
                        (Stop::InBatch, message) => {
                            self.queued.push_back(message);
                            return Pause::Cancelled;
                        }
                    }
                }
                Ok(None) => {}
                Err(_) => return Pause::Closed,
            }
        }
    }

    /// Whether a message that arrives during the turn of `session` stops it.
    fn stops(&self, message: &Incoming, session: &str) -> Stop {
        match message {
            Incoming::Notification { method, params }
                if method == "session/cancel" && params["sessionId"] == session =>
            {
                Stop::Cancel
            }
            Incoming::Request { method, params, .. }
                if method == "session/close"
                    && params["sessionId"] == session
                    && self.protocol == Some(ProtocolVersion::V2) =>
            {
                Stop::Close
            }
            Incoming::Batch(entries)
                if entries
                    .iter()
                    .flatten()
                    .any(|entry| !matches!(self.stops(entry, session), Stop::No)) =>
            {
                Stop::InBatch
            }
            _ => Stop::No,
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

/// The refactor plan as a turn starts.
fn refactor_entries() -> Vec<PlanEntry> {
    [
        ("Analyze the existing codebase structure", Priority::High),
        ("Identify components that need refactoring", Priority::High),
        ("Create unit tests for critical functions", Priority::Medium),
        ("Update the changelog", Priority::Low),
    ]
    .into_iter()
    .map(|(text, priority)| PlanEntry::new(text, priority, Status::Pending))
    .collect()
}

/// What stage `stage` of a turn sends, the refactor (`r`, plan `id`) and
/// the verification (`v`) moved on; `None` once the turn is done.
fn stage_of_turn(
    stage: usize,
    id: &PlanId,
    r: &mut Vec<PlanEntry>,
    v: &mut PlanRun<Verify>,
    notes: &PlanContent,
) -> Option<Vec<Step>> {
    let items =
        |entries: &[PlanEntry]| Step::Update(PlanContent::items(id.clone(), entries.to_vec()));
    Some(match stage {
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
        _ => return None,
    })
}

/// One thing a turn sends.
enum Step {
    Update(PlanContent),
    Remove(PlanId),
}

/// Whether a message stops the turn under way, and how.
enum Stop {
    No,
    /// `session/cancel` for its session.
    Cancel,
    /// v2 `session/close` of its session: cancel, then answer the close.
    Close,
    /// A batch holding either.
    InBatch,
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

#[cfg(test)]
mod tests {
    use std::io::{self, BufRead, Write};
    use std::sync::mpsc;
    use std::time::Duration;

    use serde_json::{Value, json};

    use super::super::{Options, code, serve};

    /// Reads the agent's lines until one satisfies `until`; all of them.
    fn read_until(
        lines: &mpsc::Receiver<Value>,
        mut until: impl FnMut(&Value) -> bool,
    ) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let line = lines
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|e| panic!("no line from the agent ({e}); saw {seen:#?}"));
            let done = until(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    #[test]
    fn closing_a_session_during_its_turn_cancels_the_turn_first() {
        let (agent_reads, mut to_agent) = io::pipe().unwrap();
        let (from_agent, agent_writes) = io::pipe().unwrap();
        let options = Options {
            pause: Duration::from_millis(30),
            ..Options::default()
        };
        std::thread::spawn(move || {
            serve(
                io::BufReader::new(agent_reads),
                agent_writes,
                io::sink(),
                options,
            )
        });
        let (lines_tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in io::BufReader::new(from_agent).lines() {
                let Ok(line) = line else { break };
                if lines_tx
                    .send(serde_json::from_str::<Value>(&line).unwrap())
                    .is_err()
                {
                    break;
                }
            }
        });
        let mut send = |text: String| {
            writeln!(to_agent, "{text}").unwrap();
            to_agent.flush().unwrap();
        };
        send(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2}}"#
                .to_owned(),
        );
        send(r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}"#.to_owned());
        let session =
            read_until(&lines, |m| m["id"] == 2).pop().unwrap()["result"]["sessionId"].clone();
        let prompt = |id: u64| {
            json!({ "jsonrpc": "2.0", "id": id, "method": "session/prompt",
                    "params": { "sessionId": session, "prompt": [] } })
            .to_string()
        };
        send(prompt(3));
        read_until(&lines, |m| {
            m["params"]["update"]["sessionUpdate"] == "plan_update"
        });
        // A second prompt, held while the first turn runs, then the close.
        send(prompt(4));
        send(
            json!({ "jsonrpc": "2.0", "id": 5, "method": "session/close",
                     "params": { "sessionId": session } })
            .to_string(),
        );
        let after = read_until(&lines, |m| m["id"] == 5);
        let idle = after
            .iter()
            .position(|m| m["params"]["update"]["state"] == "idle")
            .expect("an idle update before the close's answer");
        assert_eq!(after[idle]["params"]["update"]["stopReason"], "cancelled");
        assert_eq!(after.last().unwrap()["result"], json!({}));
        // The held prompt was never inserted: -32800, before the close's answer.
        let held = after
            .iter()
            .find(|m| m["id"] == 4)
            .expect("the held prompt answered");
        assert_eq!(held["error"]["code"], code::REQUEST_CANCELLED);
        // The turn's last plans say what was left undone: cancelled.
        let last_refactor = after
            .iter()
            .rev()
            .find(|m| m["params"]["update"]["plan"]["planId"] == "refactor")
            .expect("the refactor, cancelled");
        let statuses = last_refactor["params"]["update"]["plan"]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["status"].as_str().unwrap())
            .collect::<Vec<_>>();
        assert!(statuses.contains(&"cancelled"), "{statuses:?}");
        // After the close's answer, nothing more for that session.
        // The close answered: the client hangs up.
        drop(to_agent);
        while let Ok(line) = lines.recv_timeout(Duration::from_millis(300)) {
            assert_ne!(
                line["params"]["sessionId"], session,
                "after the close: {line}"
            );
        }
    }
}
