//! What both judges (`files.rs`, recorded lines; `conformance/`, a live
//! agent's) ask of a message: whether it is about plans, the problems of
//! another JSON-RPC message, the plan ids in the RFD spelling.

use plan_core::SessionUpdate;
use plan_core::agent::Violation;
use plan_core::wire::Message;
use serde_json::Value;

use super::ACP_SPELLING;

/// Whether an update is about plans (`plan`, `plan_update`, `plan_removed`).
pub(crate) fn is_plan(update: &SessionUpdate) -> bool {
    matches!(
        update,
        SessionUpdate::Plan(_)
            | SessionUpdate::PlanUpdate { .. }
            | SessionUpdate::PlanRemoved { .. }
    )
}

/// For a JSON-RPC message that is not a `session/update` notification, the
/// problems of its envelope, as the one reader of messages
/// (`plan_core::wire::Message`) says them; `None` for anything else (a
/// notification of `session/update`, or a message with no `jsonrpc`: a bare
/// update or plan), which is checked as a plan message. `value` is `text`
/// read.
pub(crate) fn other_json_rpc(text: &str, value: &Value) -> Option<Vec<plan_core::Error>> {
    let object = value.as_object()?;
    object.get("jsonrpc")?;
    if object.get("method").and_then(Value::as_str) == Some("session/update")
        && !object.contains_key("id")
    {
        return None;
    }
    Some(Message::check(text).problems)
}

/// Plan ids written `id` (the RFD spelling), which no published SDK reads.
pub(crate) fn rfd_spelling(message: &Value) -> Vec<Violation> {
    // Where a plan id can be, by what the message is.
    let (update, prefix) = match message.get("params") {
        Some(params) => (&params["update"], "params.update."),
        None => (message, ""),
    };
    let places = if update.get("sessionUpdate").is_some() {
        [(&update["plan"], "plan."), (update, "")]
    } else {
        [(update, ""), (&Value::Null, "")]
    };
    places
        .into_iter()
        .filter(|(object, _)| object.get("id").is_some() && object.get("planId").is_none())
        .map(|(_, at)| {
            Violation::new(
                format!("{prefix}{at}id"),
                ACP_SPELLING,
                "`id` is the RFD spelling of the plan id, which no published SDK reads (they require `planId`); write `planId`",
            )
        })
        .collect()
}
