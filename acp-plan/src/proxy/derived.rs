//! The plan the proxy derives from a todo tool call (its `rawInput`), for a
//! session where the agent sends no plan of its own, decided on evidence:
//!
//! - a derived plan is **held**, not sent, until the agent's next line that
//!   is not about that tool call; the agent's own plan arriving first drops
//!   it (many agents send the tool call, its `rawInput`, then a plan of
//!   their own);
//! - a derived plan already sent when the agent's own plan arrives is
//!   removed for a client that can be told (`plan_removed`, v1 with `plan`
//!   and v2; a v1 client without `plan` has one plan, which the agent's
//!   replaces), and nothing more is derived in that session.
//!
//! So a client holds one plan, the agent's last. The cost is latency: the
//! derived plan reaches the client with the agent's next line (a message
//! chunk, the next tool call, the turn's answer) instead of at once.

use std::borrow::Cow;
use std::collections::HashMap;

use plan_core::agent::PlanSender;
use plan_core::{PlanContent, PlanId};
use serde_json::Value;

use super::todos::todo_list;

/// What the proxy knows of one session the agent spoke of.
#[derive(Debug)]
pub(crate) struct Session {
    /// The plans this client is sent, as it can read them.
    pub(crate) sender: PlanSender,
    /// Whether the agent sends plans of its own here: then nothing is derived.
    pub(crate) own_plans: bool,
    /// A derived plan not yet sent, and the tool call it came from.
    held: Option<(String, PlanContent)>,
    /// The id of a derived plan that was sent (and not yet removed).
    sent: Option<PlanId>,
}

impl Session {
    pub(crate) fn new(sender: PlanSender) -> Self {
        Self {
            sender,
            own_plans: false,
            held: None,
            sent: None,
        }
    }

    /// The held plan goes to the client now (unless the client already has
    /// it as it is): its line, in the client's spelling.
    pub(crate) fn release(&mut self) -> Option<Vec<u8>> {
        let (_, plan) = self.held.take()?;
        let id = plan.id().clone();
        let notification = self.sender.update_if_changed(plan)?;
        self.sent = Some(id);
        Some(notification.to_json(self.sender.spelling()).into_bytes())
    }

    /// Whether the held plan came from `call`.
    pub(crate) fn holds_for(&self, call: Option<&str>) -> bool {
        matches!((&self.held, call), (Some((held, _)), Some(call)) if held == call)
    }

    /// The agent sent a plan of its own: the held plan is dropped, a sent
    /// one removed for a client that reads `plan_removed` (the removal's
    /// line, to go before the agent's plan), and nothing more is derived.
    pub(crate) fn agent_plans(&mut self) -> Option<Vec<u8>> {
        self.own_plans = true;
        self.held = None;
        let id = self.sent.take()?;
        let removal = self.sender.remove(&id);
        // A v1 client without `plan` is sent the v1 view, which the agent's
        // own plan replaces: only clients of plan operations get a line.
        removal
            .filter(|_| self.sender.supports_plan_operations())
            .map(|n| n.to_json(self.sender.spelling()).into_bytes())
    }
}

/// A tool call's update: its todo list, if it holds one, held as the plan it
/// makes (replacing one held before for the same call), for a session where
/// the agent sends no plan of its own. A `tool_call` names its tool
/// (`titles` keeps it, by the call's id), for a stable plan id.
pub(crate) fn hold_todo_plan(
    titles: &mut HashMap<String, String>,
    session: &mut Session,
    update: &serde_json::Map<String, Value>,
    tool_call: bool,
) {
    let call = tool_call_id(update).unwrap_or_default();
    if tool_call && let Some(title) = update.get("title").and_then(Value::as_str) {
        titles.insert(call.to_owned(), title.to_owned());
    }
    if session.own_plans {
        return;
    }
    let Some(entries) = update.get("rawInput").and_then(todo_list) else {
        return;
    };
    let tool = titles
        .get(call)
        .map_or("todos", String::as_str)
        .to_ascii_lowercase();
    let plan = PlanContent::items(plan_id(&tool), entries);
    session.held = Some((call.to_owned(), plan));
}

/// A tool call update's `toolCallId`.
pub(crate) fn tool_call_id(update: &serde_json::Map<String, Value>) -> Option<&str> {
    update.get("toolCallId").and_then(Value::as_str)
}

/// Every held plan of `sessions` but the one `keep` names, released into
/// `out`, in the order of their sessions' ids (stable from run to run).
pub(crate) fn release_all(
    sessions: &mut HashMap<String, Session>,
    keep: Option<&str>,
    out: &mut Vec<Cow<'_, [u8]>>,
) {
    let mut ids: Vec<&String> = sessions
        .iter()
        .filter(|(id, session)| session.held.is_some() && Some(id.as_str()) != keep)
        .map(|(id, _)| id)
        .collect();
    if ids.is_empty() {
        return;
    }
    ids.sort();
    let ids: Vec<String> = ids.into_iter().cloned().collect();
    for id in ids {
        if let Some(line) = sessions.get_mut(&id).and_then(Session::release) {
            out.push(Cow::Owned(line));
        }
    }
}

/// The plan id of a tool's todo list: its name, kept to the characters a
/// plan id reads well with (`todowrite`, `write_todos`).
fn plan_id(tool: &str) -> PlanId {
    let name: String = tool
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let name = name.trim_matches('-');
    PlanId::new(if name.is_empty() {
        "todos".to_owned()
    } else {
        name.to_owned()
    })
    .unwrap_or_else(|_| PlanId::new("todos").expect("a valid id"))
}
