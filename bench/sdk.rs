//! What both of the SDK-path benches build and run: the run-time data, our
//! notification and the SDK's built from it, and the SDK's own send and
//! receive pipelines. `versus.rs` times them with Criterion; `count.rs`
//! runs them a set number of times for an instruction count.

use agent_client_protocol::v1::schema as acp;
use agent_client_protocol::{RawJsonRpcMessage, RawJsonRpcParams, TransportFrame};
use plan_core::{PlanContent, PlanEntry, PlanId, Priority, SessionNotification, Status};
use serde::{Deserialize, Serialize};

pub(crate) const SESSION: &str = "sess_abc123def456";

/// The run-time data both libraries build from: (content, priority, status).
pub(crate) fn data(entries: usize) -> Vec<(String, usize, usize)> {
    (0..entries)
        .map(|i| {
            (
                format!("Step {i}: refactor the module number {i} of the codebase"),
                i % 3,
                i % 3,
            )
        })
        .collect()
}

pub(crate) fn ours(data: &[(String, usize, usize)]) -> SessionNotification {
    const PRIORITIES: [Priority; 3] = [Priority::High, Priority::Medium, Priority::Low];
    const STATUSES: [Status; 3] = [Status::Completed, Status::InProgress, Status::Pending];
    let entries = data.iter().map(|(content, p, s)| {
        PlanEntry::new(
            content.clone(),
            PRIORITIES[*p].clone(),
            STATUSES[*s].clone(),
        )
    });
    let plan = PlanContent::items(PlanId::new(String::from("plan-1")).unwrap(), entries);
    SessionNotification::new(SESSION, plan.into())
}

/// The JSON-RPC envelope around the published crate's notification.
#[derive(Serialize, Deserialize)]
pub(crate) struct Envelope<P> {
    pub(crate) jsonrpc: String,
    pub(crate) method: String,
    pub(crate) params: P,
}

pub(crate) fn theirs(data: &[(String, usize, usize)]) -> Envelope<acp::SessionNotification> {
    const PRIORITIES: [acp::PlanEntryPriority; 3] = [
        acp::PlanEntryPriority::High,
        acp::PlanEntryPriority::Medium,
        acp::PlanEntryPriority::Low,
    ];
    const STATUSES: [acp::PlanEntryStatus; 3] = [
        acp::PlanEntryStatus::Completed,
        acp::PlanEntryStatus::InProgress,
        acp::PlanEntryStatus::Pending,
    ];
    let entries = data
        .iter()
        .map(|(content, p, s)| {
            acp::PlanEntry::new(
                content.clone(),
                PRIORITIES[*p].clone(),
                STATUSES[*s].clone(),
            )
        })
        .collect();
    let content = acp::PlanUpdateContent::items(String::from("plan-1"), entries);
    let update = acp::SessionUpdate::PlanUpdate(acp::PlanUpdate::new(content));
    Envelope {
        jsonrpc: "2.0".into(),
        method: "session/update".into(),
        params: acp::SessionNotification::new(SESSION, update),
    }
}

/// The SDK's send pipeline, as its connection runs it: `to_untyped_message`
/// (the `params` value), the raw JSON-RPC message, and the frame written as
/// a line (`TransportFrame::to_json`).
pub(crate) fn sdk_send(message: &impl agent_client_protocol::JsonRpcMessage) -> String {
    let untyped = message.to_untyped_message().unwrap();
    let raw = RawJsonRpcMessage::notification(untyped.method, untyped.params).unwrap();
    TransportFrame::Single(raw).to_json().unwrap()
}

/// The SDK's receive pipeline: the line read into a frame
/// (`TransportFrame::parse_json`), then `parse_message` with its method and
/// `params`.
pub(crate) fn sdk_receive<T: agent_client_protocol::JsonRpcMessage>(line: &str) -> T {
    let TransportFrame::Single(RawJsonRpcMessage::Notification(notification)) =
        TransportFrame::parse_json(line)
    else {
        panic!("a notification: {line}")
    };
    let params = notification
        .params
        .map(RawJsonRpcParams::into_value)
        .unwrap_or_default();
    T::parse_message(&notification.method, &params).unwrap()
}
