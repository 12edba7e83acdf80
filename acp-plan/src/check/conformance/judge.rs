//! How `check -- AGENT` judges each line an agent writes: the JSON-RPC
//! envelope, the version table's rules for the kind of client, what a
//! lenient reader would drop, and the turn's end.

use std::io::Write;

use plan_core::wire::{Line, Message, Parsed, Strictness};
use plan_core::{SessionNotification, SessionUpdate, client::Applied};
use serde_json::Value;

use super::conversation::{Conversation, Event};
use crate::check::finding::Finding;
use crate::check::message;
use crate::check::rule;
use crate::process as agent_process;

impl<W: Write> Conversation<'_, W> {
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
