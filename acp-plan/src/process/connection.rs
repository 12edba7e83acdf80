//! The client's side of a connection to an agent, once for `board` and
//! `check`: its lines written (a request with its id, a notification, an
//! answer to the agent's own requests), the agent's lines read once each,
//! within a deadline, into what they are ([`Event`]), and the client's kind
//! once the agent has answered `initialize`. Each driver keeps only its
//! control flow and what it makes of an event: the board draws, `check`
//! judges.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Instant;

use plan_core::wire::{
    ClientCapabilities, ClientKind, Line, Message, Parsed, ProtocolVersion, Spelling, Strictness,
};
use plan_core::{SessionNotification, SessionUpdate};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::answers::answer_request;
use super::child::lines;
use super::handshake::initialize_params;

/// A request of the client's the agent has not answered yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pending {
    /// Its method.
    pub(crate) method: &'static str,
    /// Its line in the conversation (1 is the first line either way).
    pub(crate) line: usize,
}

/// What waiting for the agent's next line gave.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // one at a time, moved once to its reader
pub(crate) enum Incoming {
    /// A line (not blank).
    Line(FromAgent),
    /// Nothing came before the deadline.
    Timeout,
    /// The agent closed its output.
    Closed,
}

/// One line of the agent's, read once.
#[derive(Debug)]
pub(crate) struct FromAgent {
    /// Its line in the conversation (1 is the first line either way).
    pub(crate) line: usize,
    /// The line as it came (lossy UTF-8, without its line end).
    pub(crate) text: String,
    /// What is wrong with its JSON-RPC envelope (for a `session/update`,
    /// also the update's error).
    pub(crate) problems: Vec<plan_core::Error>,
    /// What it is.
    pub(crate) event: Event,
}

/// What a line of the agent's is.
#[derive(Debug)]
pub(crate) enum Event {
    /// A `session/update`, read in the connection's strictness (or why it
    /// could not be), but the one below.
    Update(Result<Parsed<SessionNotification>, plan_core::Error>),
    /// Once a prompt is out: a `state_update` to `idle`, with its stop
    /// reason if it gives one.
    Idle(Option<String>),
    /// The answer to a request of the client's that awaited one.
    Answer {
        /// The request's id.
        id: u64,
        /// Its `result`, or its `error`.
        outcome: Result<Value, Value>,
    },
    /// A response to no request of the client's that awaits one.
    Unasked(Value),
    /// A request of the agent's, already answered (see
    /// [`answer_request`]): its method, and the answer sent.
    Asked {
        /// The method.
        method: String,
        /// The answer the client sent.
        answer: Value,
    },
    /// Another notification, or a message of a kind the reader may learn.
    Other,
}

/// The client's side of one connection to an agent: its link.
pub(crate) struct AgentLink<W> {
    inbox: mpsc::Receiver<Vec<u8>>,
    agent_in: W,
    /// How `session/update`s are read.
    strictness: Strictness,
    /// Whether the client approves the switch out of plan mode.
    plan_mode: bool,
    /// The client's requests not answered yet, by id.
    pending: BTreeMap<u64, Pending>,
    /// Whether a prompt is out (an `idle` state ends a turn only then).
    prompting: bool,
    /// The lines so far, both ways.
    lines: usize,
    /// Every line both ways, in order, when kept.
    transcript: Option<Vec<String>>,
    /// The `initialize` offered ([`offer`](Self::offer)): its version and
    /// the capabilities the agent reads.
    offer: Option<(u64, ClientCapabilities)>,
    /// The client's kind, once the agent answered `initialize`.
    kind: Option<ClientKind>,
}

impl<W: Write> AgentLink<W> {
    /// A connection over the agent's output `agent_out` (read on a thread
    /// of its own, a line at a time) and its input `agent_in`; nothing sent
    /// yet. `plan_mode`: the client asked for plan mode, so it approves the
    /// agent's switch out of it.
    pub(crate) fn new<R: BufRead + Send + 'static>(
        agent_out: R,
        agent_in: W,
        strictness: Strictness,
        plan_mode: bool,
    ) -> Self {
        Self {
            inbox: lines(agent_out),
            agent_in,
            strictness,
            plan_mode,
            pending: BTreeMap::new(),
            prompting: false,
            lines: 0,
            transcript: None,
            offer: None,
            kind: None,
        }
    }

    /// The same, keeping every line both ways ([`take_transcript`](Self::take_transcript)).
    pub(crate) fn recording(mut self) -> Self {
        self.transcript = Some(Vec::new());
        self
    }

    /// Writes one message, a line.
    ///
    /// # Errors
    /// The agent's input is closed.
    fn send(&mut self, message: &Value) -> Result<(), String> {
        let line = message.to_string();
        self.lines += 1;
        let written = writeln!(self.agent_in, "{line}").and_then(|()| self.agent_in.flush());
        if let Some(transcript) = &mut self.transcript {
            transcript.push(line);
        }
        written.map_err(|e| format!("the agent closed its input (it exited?): {e}"))
    }

    /// The `initialize` params a client of `protocol` sends, with
    /// `clientCapabilities.plan` when `plan_capability`
    /// ([`initialize_params`]), remembered for the client's kind once the
    /// agent answers.
    pub(crate) fn offer(&mut self, protocol: ProtocolVersion, plan_capability: bool) -> Value {
        let capabilities = if plan_capability {
            ClientCapabilities::with_plan_support(Spelling::Acp)
        } else {
            ClientCapabilities::default()
        };
        self.offer = Some((u64::from(protocol.number()), capabilities));
        initialize_params(protocol, plan_capability)
    }

    /// Sends request `id`, which then awaits its answer.
    ///
    /// # Errors
    /// The agent's input is closed.
    pub(crate) fn request(
        &mut self,
        id: u64,
        method: &'static str,
        params: &Value,
    ) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        self.pending.insert(
            id,
            Pending {
                method,
                line: self.lines,
            },
        );
        Ok(())
    }

    /// Sends `session/prompt` (request `id`) with `text` in `session`: the
    /// turn is under way, and an `idle` state may end it.
    ///
    /// # Errors
    /// The agent's input is closed.
    pub(crate) fn prompt(&mut self, id: u64, session: &str, text: &str) -> Result<(), String> {
        let prompt = json!([{ "type": "text", "text": text }]);
        self.request(
            id,
            "session/prompt",
            &json!({ "sessionId": session, "prompt": prompt }),
        )?;
        self.prompting = true;
        Ok(())
    }

    /// Sends `session/cancel` for `session`.
    ///
    /// # Errors
    /// The agent's input is closed.
    pub(crate) fn cancel(&mut self, session: &str) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "method": "session/cancel", "params": { "sessionId": session } }))
    }

    /// The agent's next line that is not blank, read once, before
    /// `deadline`. A request of the agent's is answered here.
    pub(crate) fn next(&mut self, deadline: Instant) -> Incoming {
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.inbox.recv_timeout(wait) {
                Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => {}
                Ok(bytes) => return Incoming::Line(self.read(&bytes)),
                Err(RecvTimeoutError::Timeout) => return Incoming::Timeout,
                Err(RecvTimeoutError::Disconnected) => return Incoming::Closed,
            }
        }
    }

    /// The version the agent answered `initialize` with, as the client's
    /// kind ([`ClientKind::after_initialize`]); `None` before the answer,
    /// and for an answer that broke the handshake.
    pub(crate) fn kind(&self) -> Option<ClientKind> {
        self.kind
    }

    /// The lines so far, both ways: the number of the last one.
    pub(crate) fn lines(&self) -> usize {
        self.lines
    }

    /// Whether request `id` still awaits its answer.
    pub(crate) fn is_pending(&self, id: u64) -> bool {
        self.pending.contains_key(&id)
    }

    /// No longer waits for request `id`'s answer (one that comes is
    /// [`Event::Unasked`]).
    pub(crate) fn forget(&mut self, id: u64) {
        self.pending.remove(&id);
    }

    /// The requests still unanswered, by id; none await any more.
    pub(crate) fn take_pending(&mut self) -> BTreeMap<u64, Pending> {
        std::mem::take(&mut self.pending)
    }

    /// Every line both ways so far (none unless [`recording`](Self::recording)).
    pub(crate) fn take_transcript(&mut self) -> Vec<String> {
        self.transcript
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// One line of the agent's, read once with plan-core's reader of lines:
    /// the envelope splits it, a `session/update`'s params go to the
    /// notification's reader.
    fn read(&mut self, bytes: &[u8]) -> FromAgent {
        let text = String::from_utf8_lossy(bytes).trim_end().to_owned();
        self.lines += 1;
        if let Some(transcript) = &mut self.transcript {
            transcript.push(text.clone());
        }
        let read = Line::read_message(&text, self.strictness);
        let problems = read.envelope.problems;
        let event = match read.plan {
            // `read_message` reads every line as a message: never `None`.
            Some(plan) => match plan.map(Parsed::into_notification) {
                Ok(Some(update)) => self.update(update),
                Ok(None) => Event::Other,
                Err(e) => Event::Update(Err(e)),
            },
            None => self.message(read.envelope.message),
        };
        FromAgent {
            line: self.lines,
            text,
            problems,
            event,
        }
    }

    /// A `session/update`: an `idle` state once a prompt is out, else the
    /// update.
    fn update(&self, read: Parsed<SessionNotification>) -> Event {
        if let SessionUpdate::Other(other) = &read.value.update
            && self.prompting
            && other.kind() == "state_update"
        {
            let update = other.as_object();
            if update.get("state").and_then(Value::as_str) == Some("idle") {
                let stop = update.get("stopReason").and_then(Value::as_str);
                return Event::Idle(stop.map(str::to_owned));
            }
        }
        Event::Update(Ok(read))
    }

    /// Any other message: an answer matched with its request (the answer
    /// to `initialize` gives the client's kind), a request of the agent's
    /// answered.
    fn message(&mut self, message: Option<Message<'_>>) -> Event {
        let value =
            |raw: &RawValue| serde_json::from_str::<Value>(raw.get()).unwrap_or(Value::Null);
        match message {
            Some(Message::Request {
                id, method, params, ..
            }) => {
                let params = params.map_or(Value::Null, value);
                let answer = answer_request(&value(id), &method, &params, self.plan_mode);
                // An input closed shows as the output closed next.
                let _ = self.send(&answer);
                Event::Asked {
                    method: method.into_owned(),
                    answer,
                }
            }
            Some(Message::Response { id, outcome, .. }) => {
                let id = value(id);
                let Some((n, asked)) = id
                    .as_u64()
                    .and_then(|n| self.pending.remove(&n).map(|asked| (n, asked)))
                else {
                    return Event::Unasked(id);
                };
                let outcome = outcome.map(value).map_err(value);
                if asked.method == "initialize"
                    && let (Ok(result), Some((offered, capabilities))) = (&outcome, &self.offer)
                    && let Some(answered) = result["protocolVersion"].as_u64()
                {
                    self.kind = ClientKind::after_initialize(*offered, capabilities, answered);
                }
                Event::Answer { id: n, outcome }
            }
            _ => Event::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use std::time::Duration;

    fn connection(agent_says: &str) -> AgentLink<Vec<u8>> {
        AgentLink::new(
            Cursor::new(agent_says.to_owned().into_bytes()),
            Vec::new(),
            Strictness::Lenient,
            false,
        )
        .recording()
    }

    fn next(c: &mut AgentLink<Vec<u8>>) -> Incoming {
        c.next(Instant::now() + Duration::from_secs(10))
    }

    #[test]
    fn each_line_is_read_once_into_what_it_is_and_counted_both_ways() {
        let agent = [
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#,
            "",
            r#"{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"options":[{"optionId":"no","kind":"reject_once"}]}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"state_update","state":"idle"}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"state_update","state":"idle","stopReason":"end_turn"}}}"#,
            r#"{"jsonrpc":"2.0","id":7,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":0,"result":{},"error":{"code":1,"message":"x"}}"#,
        ]
        .join("\n");
        let mut c = connection(&agent);
        let offer = c.offer(ProtocolVersion::V1, true);
        c.request(0, "initialize", &offer).unwrap();
        assert_eq!(c.kind(), None);
        let Incoming::Line(answer) = next(&mut c) else {
            panic!()
        };
        assert!(matches!(
            answer.event,
            Event::Answer {
                id: 0,
                outcome: Ok(_)
            }
        ));
        assert_eq!((answer.line, c.kind()), (2, Some(ClientKind::V1Plan)));
        // The agent's request, answered; the blank line skipped.
        let Incoming::Line(asked) = next(&mut c) else {
            panic!()
        };
        let Event::Asked { method, answer } = asked.event else {
            panic!()
        };
        assert_eq!(method, "session/request_permission");
        assert_eq!(answer["result"]["outcome"]["optionId"], "no");
        // No prompt out: an idle state is an update.
        let Incoming::Line(early) = next(&mut c) else {
            panic!()
        };
        assert!(matches!(early.event, Event::Update(Ok(_))));
        c.prompt(2, "s", "plan").unwrap();
        assert!(c.is_pending(2));
        let Incoming::Line(ended) = next(&mut c) else {
            panic!()
        };
        assert!(matches!(ended.event, Event::Answer { id: 2, .. }));
        assert!(!c.is_pending(2));
        let Incoming::Line(idle) = next(&mut c) else {
            panic!()
        };
        assert!(matches!(idle.event, Event::Idle(Some(ref stop)) if stop == "end_turn"));
        let Incoming::Line(stray) = next(&mut c) else {
            panic!()
        };
        assert!(matches!(stray.event, Event::Unasked(ref id) if id == &json!(7)));
        let Incoming::Line(broken) = next(&mut c) else {
            panic!()
        };
        assert_eq!(broken.problems.len(), 1, "{broken:?}");
        assert!(matches!(next(&mut c), Incoming::Closed));
        // Every line both ways, in order: 3 sent, 7 read (the blank one not).
        let transcript = c.take_transcript();
        assert_eq!((transcript.len(), c.lines()), (10, 10));
        assert!(transcript[2].contains("session/request_permission"));
        assert!(transcript[3].contains(r#""optionId":"no""#));
        let sent = String::from_utf8(c.agent_in.clone()).unwrap();
        assert_eq!(sent.lines().count(), 3);
    }

    #[test]
    fn text_that_is_not_json_is_its_problems_and_a_request_is_answered_under_its_own_id() {
        let agent = [
            "this is not JSON",
            r#"{"jsonrpc":"2.0","id":"q-1","method":"fs/read_text_file","params":{"path":"/x"}}"#,
        ]
        .join("\n");
        let mut c = connection(&agent);
        let Incoming::Line(text) = next(&mut c) else {
            panic!()
        };
        assert!(matches!(text.event, Event::Other));
        assert!(!text.problems.is_empty());
        assert_eq!(text.text, "this is not JSON");
        let Incoming::Line(asked) = next(&mut c) else {
            panic!()
        };
        let Event::Asked { method, answer } = asked.event else {
            panic!()
        };
        assert_eq!(method, "fs/read_text_file");
        // Not served: an error, under the id as the agent wrote it.
        assert_eq!(answer["id"], "q-1");
        assert!(answer["error"]["code"].is_i64(), "{answer}");
        let sent = String::from_utf8(c.agent_in.clone()).unwrap();
        assert_eq!(serde_json::from_str::<Value>(sent.trim()).unwrap(), answer);
        // Nothing more: the deadline is not waited out on a closed output.
        assert!(matches!(next(&mut c), Incoming::Closed));
    }

    #[test]
    fn a_handshake_that_broke_gives_no_kind_and_a_v2_offer_answered_v1_is_v1_with_plan() {
        let answer = |version: u64| {
            format!(r#"{{"jsonrpc":"2.0","id":0,"result":{{"protocolVersion":{version}}}}}"#)
        };
        for (offered, answered, kind) in [
            (1, 2, None),
            (2, 1, Some(ClientKind::V1Plan)),
            (2, 2, Some(ClientKind::V2)),
        ] {
            let mut c = connection(&answer(answered));
            let protocol = if offered == 1 {
                ProtocolVersion::V1
            } else {
                ProtocolVersion::V2
            };
            let offer = c.offer(protocol, true);
            c.request(0, "initialize", &offer).unwrap();
            let _ = next(&mut c);
            assert_eq!(c.kind(), kind, "offered {offered}, answered {answered}");
        }
    }
}
