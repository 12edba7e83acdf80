//! What the proxy does with each line, both ways, apart from any process:
//! [`Relay::upstream`] (client to agent) and [`Relay::downstream`] (agent
//! to client). A line passes as it came, byte for byte, unless it is one
//! of the few this changes or adds to:
//! - upstream, a v1 `initialize` without `clientCapabilities.plan` gets it
//!   (unless turned off), so the agent sends its richest plan;
//! - downstream, a plan message the client cannot read (by the version it
//!   negotiated and the capabilities it sent itself) is sent as plan-core's
//!   sender sends it to that client (a markdown plan as its steps, v1
//!   entries, through `Fallback`), once per state; one it can read passes
//!   unchanged;
//! - downstream, a tool call whose `rawInput` is a todo list makes a plan,
//!   for a session where the agent sends no plan of its own: held until
//!   the agent's next line not about that call, dropped if that line is the
//!   agent's own plan, removed if the agent plans itself later
//!   (`derived.rs`), so a client holds one plan.
//!
//! A line is parsed only when its bytes could hold one of these (a request
//! of the client's, the agent's answer to one, a `session/update` that
//! names a plan or a tool call); every other passes untouched. A line that
//! is not JSON, or not what its bytes promised, passes as it came.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use memchr::memmem::Finder;

use plan_core::agent::{InitializeRequest, PlanSender};
use plan_core::wire::{ClientCapabilities, ClientKind, Line, Message, Parsed, Strictness};
use plan_core::{PlanContent, PlanId, SessionNotification, SessionUpdate};
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::derived::{Session, hold_todo_plan, release_all, tool_call_id};

/// The state both directions share.
#[derive(Debug)]
pub struct Relay {
    /// Add `clientCapabilities.plan` to a v1 `initialize` that lacks it.
    opt_in: bool,
    /// The client's `initialize`: its id (as JSON text) and the request
    /// as it sent it.
    initialize: Option<(String, InitializeRequest)>,
    /// The client, once the agent answered its `initialize` (a handshake
    /// that broke leaves it unknown), and the capabilities it sent itself.
    client: Option<(ClientKind, ClientCapabilities)>,
    /// The client's requests the agent has not answered, by id (JSON text).
    pending: HashSet<String>,
    /// Each session the agent spoke of: its sender, and whether the agent
    /// sends plans of its own there.
    sessions: HashMap<String, Session>,
    /// Each tool call's title (its tool), by id, for a stable plan id.
    titles: HashMap<String, String>,
    /// Why the agent is gone, once it is: each request the client sends
    /// from then on is answered with an error at once.
    gone: Option<String>,
    /// When the agent was found gone, or the client's last line after that.
    last_line: std::time::Instant,
    /// How many requests were answered with the error that the agent is gone.
    answered_gone: usize,
}

/// The error an unanswered request gets when the agent is gone.
pub(crate) const AGENT_GONE: i64 = -32603;

impl Relay {
    /// A relay; `opt_in` adds `clientCapabilities.plan` upstream.
    pub fn new(opt_in: bool) -> Self {
        Self {
            opt_in,
            initialize: None,
            client: None,
            pending: HashSet::new(),
            sessions: HashMap::new(),
            titles: HashMap::new(),
            gone: None,
            last_line: std::time::Instant::now(),
            answered_gone: 0,
        }
    }

    /// The agent is gone, for `why`: the requests the client is still
    /// waiting on, as the error lines each gets; every request from now on
    /// gets one too ([`upstream_or_answer`](Self::upstream_or_answer)).
    pub fn agent_gone(&mut self, why: &str) -> Vec<String> {
        self.gone = Some(why.to_owned());
        self.last_line = std::time::Instant::now();
        let lines = self.unanswered(why);
        self.answered_gone += lines.len();
        lines
    }

    /// A line from the client: what goes to the agent.
    ///
    /// # Errors
    /// Once the agent is gone: the error lines that answer the line (none
    /// for a line that is no request), to go to the client instead.
    pub fn upstream_or_answer<'l>(&mut self, line: &'l [u8]) -> Result<Cow<'l, [u8]>, Vec<String>> {
        let sent = self.upstream(line);
        match self.gone.clone() {
            None => Ok(sent),
            Some(why) => {
                // Only once the agent is gone does the time of a line count
                // (the proxy waits for the client's lines still on their way).
                self.last_line = std::time::Instant::now();
                let lines = self.unanswered(&why);
                self.answered_gone += lines.len();
                Err(lines)
            }
        }
    }

    /// How long ago the agent was found gone, or the client's last line
    /// after that came.
    pub fn since_last_line(&self) -> std::time::Duration {
        self.last_line.elapsed()
    }

    /// How many requests were answered with the error that the agent is gone.
    pub fn answered_gone(&self) -> usize {
        self.answered_gone
    }

    /// A line from the client, as it goes to the agent.
    pub fn upstream<'l>(&mut self, line: &'l [u8]) -> Cow<'l, [u8]> {
        if !has(&METHOD, line) || !has(&ID, line) {
            return Cow::Borrowed(line);
        }
        let text = line_text(line);
        let Some(Message::Request { id, method, params }) = Message::read(text).message else {
            return Cow::Borrowed(line);
        };
        let Some((raw, changed)) = params.zip(self.request(id.get(), &method, params)) else {
            return Cow::Borrowed(line);
        };
        // Only the params change: every other byte of the line stays.
        let start = raw.get().as_ptr().addr() - text.as_ptr().addr();
        let end = start + raw.get().len();
        let mut out = Vec::with_capacity(line.len() + changed.len() - raw.get().len());
        out.extend_from_slice(&line[..start]);
        out.extend_from_slice(changed.as_bytes());
        out.extend_from_slice(&line[end..]);
        Cow::Owned(out)
    }

    /// A request of the client's, by its parts (`id` as JSON text): it
    /// awaits its answer. `Some(params)` where the params change: a v1
    /// `initialize` without `clientCapabilities.plan` gets it (opted in).
    pub(crate) fn request(
        &mut self,
        id: &str,
        method: &str,
        params: Option<&RawValue>,
    ) -> Option<String> {
        self.pending.insert(id.to_owned());
        let raw = params.filter(|_| method == "initialize")?;
        // The params read once, by `initialize`'s own reader (v1's and v2's
        // capability keys, a malformed capability read as absent), which
        // also writes `plan` in where a v1 client lacks it (opted in): the
        // one line this changes upstream, once a connection.
        let (offer, changed) = if self.opt_in {
            InitializeRequest::opting_in_to_plans(raw.get()).ok()?
        } else {
            (InitializeRequest::from_json(raw.get()).ok()?, None)
        };
        self.initialize = Some((id.to_owned(), offer));
        changed
    }

    /// A line from the agent: what goes to the client, in order, into `out`
    /// (the line itself, changed or not, and any plan it makes).
    pub fn downstream<'l>(&mut self, line: &'l [u8], out: &mut Vec<Cow<'l, [u8]>>) {
        match self.changed(line) {
            None => out.push(Cow::Borrowed(line)),
            Some(lines) => out.extend(lines),
        }
    }

    /// A line from the agent: `None` when it goes to the client as it came
    /// (most lines, decided without a parse), else what goes instead, in
    /// order (the line itself among them where it stays).
    pub fn changed<'l>(&mut self, line: &'l [u8]) -> Option<Vec<Cow<'l, [u8]>>> {
        if plan_or_tool_call(line) {
            // Read once, and only once the client is known: the envelope
            // reader splits the line, the notification's reader reads its
            // params.
            return self.changed_update(line, || {
                Line::read_message(line_text(line), Strictness::Lenient)
                    .plan
                    .and_then(Result::ok)
                    .and_then(Parsed::into_notification)
            });
        }
        // An answer has an `id` and no `method` at its top (a `"method"`
        // inside its result does not make it a request).
        if !self.pending.is_empty()
            && has(&ID, line)
            && let Some(Message::Response { id, outcome }) = Message::read(line_text(line)).message
        {
            self.response(id.get(), outcome);
        }
        self.changed_other(line)
    }

    /// A `session/update` of the agent's that may be a plan or a tool call,
    /// as `line` and its reading (`read`, called once the client is known;
    /// `None`: not a notification a reader reads): what goes instead of it,
    /// as [`changed`](Self::changed) says.
    pub(crate) fn changed_update<'l>(
        &mut self,
        line: &'l [u8],
        read: impl FnOnce() -> Option<Parsed<SessionNotification>>,
    ) -> Option<Vec<Cow<'l, [u8]>>> {
        let mut out = Vec::new();
        self.update(line, read, &mut out);
        let same =
            matches!(out.as_slice(), [Cow::Borrowed(only)] if only.as_ptr() == line.as_ptr());
        (!same).then_some(out)
    }

    /// Any other line of the agent's: a held plan was not the agent's only
    /// plan-to-be, so it goes first.
    pub(crate) fn changed_other<'l>(&mut self, line: &'l [u8]) -> Option<Vec<Cow<'l, [u8]>>> {
        let mut out = Vec::new();
        release_all(&mut self.sessions, None, &mut out);
        if out.is_empty() {
            return None;
        }
        out.push(Cow::Borrowed(line));
        Some(out)
    }

    /// The client's requests still unanswered, as the error each gets when
    /// the agent is gone (one JSON-RPC line each).
    pub fn unanswered(&mut self, why: &str) -> Vec<String> {
        let mut ids: Vec<String> = self.pending.drain().collect();
        ids.sort();
        ids.into_iter()
            .map(|id| {
                let error = json!({ "jsonrpc": "2.0", "id": 0,
                    "error": { "code": AGENT_GONE, "message": why } })
                .to_string();
                // The id as the client wrote it, byte for byte.
                error.replacen("\"id\":0", &format!("\"id\":{id}"), 1)
            })
            .collect()
    }

    /// An answer of the agent's to request `id` (JSON text): it is no
    /// longer pending; the answer to `initialize` says which client this is.
    pub(crate) fn response(&mut self, id: &str, outcome: Result<&RawValue, &RawValue>) {
        if !self.pending.remove(id) {
            return;
        }
        let Some((initialize, offer)) = &self.initialize else {
            return;
        };
        if initialize != id {
            return;
        }
        // The result read once; the envelope reader only found it. No
        // version: the one offered.
        let answered = outcome
            .ok()
            .and_then(|result| serde_json::from_str::<Value>(result.get()).ok())
            .and_then(|result| result["protocolVersion"].as_u64())
            .unwrap_or(offer.protocol_version);
        self.client = offer
            .client_kind(answered)
            .map(|kind| (kind, offer.capabilities.clone()));
    }

    /// A `session/update` that may be a plan or a tool call, read by
    /// `read` once the client is known.
    fn update<'l>(
        &mut self,
        line: &'l [u8],
        read: impl FnOnce() -> Option<Parsed<SessionNotification>>,
        out: &mut Vec<Cow<'l, [u8]>>,
    ) {
        let Some((kind, capabilities)) = self.client.clone() else {
            out.push(Cow::Borrowed(line));
            return; // no handshake seen: nothing is known of the client
        };
        let notification = read();
        let Some(Parsed {
            value: notification,
            skipped,
            ..
        }) = notification
        else {
            release_all(&mut self.sessions, None, out);
            out.push(Cow::Borrowed(line));
            return;
        };
        let session_id = notification.session_id.as_str();
        let tool_call = match &notification.update {
            SessionUpdate::Other(other) if other.kind().starts_with("tool_call") => {
                Some(other.as_object())
            }
            _ => None,
        };
        let own_plan = !matches!(notification.update, SessionUpdate::Other(_));
        // Held plans go out before any line not about their tool call, but
        // this session's is dropped by the agent's own plan.
        let about_held = self
            .sessions
            .get(session_id)
            .is_some_and(|session| own_plan || session.holds_for(tool_call.and_then(tool_call_id)));
        release_all(&mut self.sessions, about_held.then_some(session_id), out);
        let session = self
            .sessions
            .entry(session_id.to_owned())
            .or_insert_with(|| {
                Session::new(PlanSender::with_protocol(
                    session_id.to_owned(),
                    kind.protocol(),
                    &capabilities,
                ))
            });
        if let Some(update) = tool_call {
            out.push(Cow::Borrowed(line));
            let is_call = notification.update.kind() == "tool_call";
            hold_todo_plan(&mut self.titles, session, update, is_call);
            return;
        }
        if !own_plan {
            out.push(Cow::Borrowed(line));
            return;
        }
        out.extend(session.agent_plans().map(Cow::Owned));
        // What the client reads passes unchanged, and what a strict reader
        // refuses (lenient reading said why); the rest is sent as the
        // sender sends it to this client, once per state (a markdown delta
        // that leaves the steps as they were sends a v1 client nothing).
        if !skipped.is_empty() || notification.check_for_client(kind).is_ok() {
            out.push(Cow::Borrowed(line));
            return;
        }
        let spelling = session.sender.spelling();
        let sent = match notification.update {
            SessionUpdate::Plan(plan) => session.sender.update_if_changed(PlanContent::items(
                PlanId::new("main").expect("a valid id"),
                plan.entries,
            )),
            SessionUpdate::PlanUpdate { plan, .. } => session.sender.update_if_changed(plan),
            SessionUpdate::PlanRemoved { id, .. } => session.sender.remove(&id),
            SessionUpdate::Other(_) => None,
        };
        out.extend(sent.map(|n| Cow::Owned(n.to_json(spelling).into_bytes())));
    }
}

/// The line as text (a line that is not UTF-8 reads as no message).
fn line_text(line: &[u8]) -> &str {
    std::str::from_utf8(line).unwrap_or_default()
}

// The byte strings that say a line could matter, each searcher built once
// (building one is most of a short search's cost).
static SESSION_UPDATE: LazyLock<Finder<'static>> =
    LazyLock::new(|| Finder::new(b"\"sessionUpdate\""));
static METHOD: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"method\""));
static ID: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"id\""));

/// Whether `line` could be a plan message or a tool call: a
/// `"sessionUpdate"` key whose value begins `plan` or `tool_call` (one
/// search, and a look at the few bytes after each hit; a key inside a
/// text is escaped, `\"sessionUpdate\"`, and no `:` follows it).
pub(crate) fn plan_or_tool_call(line: &[u8]) -> bool {
    SESSION_UPDATE.find_iter(line).any(|at| {
        let rest = &line[at + SESSION_UPDATE.needle().len()..];
        let rest = rest.trim_ascii_start();
        let Some(rest) = rest.strip_prefix(b":") else {
            return false;
        };
        let Some(value) = rest.trim_ascii_start().strip_prefix(b"\"") else {
            return false;
        };
        value.starts_with(b"plan") || value.starts_with(b"tool_call")
    })
}

/// Whether `line` holds what `finder` looks for.
fn has(finder: &Finder<'_>, line: &[u8]) -> bool {
    finder.find(line).is_some()
}
