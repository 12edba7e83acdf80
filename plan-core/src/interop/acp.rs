//! plan-core inside the official Rust SDK (`agent-client-protocol` 5.0.0):
//! our notification is a JSON-RPC notification the SDK sends and receives
//! as it is, and the SDK's `initialize` request shapes a [`PlanSender`].
//!
//! An agent on the SDK sends a plan with `connection.send_notification(..)`
//! and no conversion by hand; a client registers a handler for
//! [`SessionNotification`] and receives `session/update` in our types (other
//! updates arrive as [`SessionUpdate::Other`](crate::SessionUpdate::Other)).
//!
//! ```
//! use agent_client_protocol::{JsonRpcMessage, UntypedMessage};
//! use plan_core::{SessionNotification, plan};
//!
//! let sent = SessionNotification::new("sess_1", plan! { id: "p", items: [high pending "Analyze"] }.into());
//! let wire: UntypedMessage = sent.to_untyped_message()?;
//! assert_eq!(wire.method, "session/update");
//! assert_eq!(wire.params["update"]["plan"]["planId"], "p");
//! let received = SessionNotification::parse_message(&wire.method, &wire.params)?;
//! assert_eq!(received, sent);
//! # Ok::<(), agent_client_protocol::Error>(())
//! ```
//!
//! [`PlanSender`]: crate::PlanSender

use agent_client_protocol::{
    Error as SdkError, JsonRpcMessage, JsonRpcNotification, UntypedMessage,
};
use agent_client_protocol_schema::{v1, v2};
use serde_json::Value;

use crate::agent::initialize::InitializeRequest;
use crate::codec::{Reading, Spelling};
use crate::error::Path;
use crate::protocol::capabilities::{ClientCapabilities, PlanCapabilities};
use crate::protocol::notification::{METHOD, SessionNotification};

/// `session/update`, in the ACP spelling (what every SDK reads).
impl JsonRpcMessage for SessionNotification {
    fn matches_method(method: &str) -> bool {
        method == METHOD
    }

    fn method(&self) -> &str {
        METHOD
    }

    fn to_untyped_message(&self) -> Result<UntypedMessage, SdkError> {
        UntypedMessage::new(
            METHOD,
            crate::codec::notification::Params(self, Spelling::Acp),
        )
    }

    fn parse_message(method: &str, params: &Value) -> Result<Self, SdkError> {
        if method != METHOD {
            return Err(SdkError::method_not_found().data(Value::from(method)));
        }
        // Read as a client reads: leniently, like the SDK's own types.
        let mut cx = Reading::lenient();
        crate::codec::notification::read_params(params.clone(), &mut cx, &Path::Root)
            .map_err(|e| SdkError::invalid_params().data(Value::from(e.to_string())))
    }
}

impl JsonRpcNotification for SessionNotification {}

/// What a client sent in `initialize`, as an agent on the SDK's v1 API
/// receives it: its capabilities, mapped field by field, and its version
/// capped at 1. An agent on the v1 API answers v1 whatever the client
/// offered (a client that offers the v2 draft and also speaks v1 says in
/// the same request what a v1 agent reads, `clientCapabilities.plan` among
/// it), so a [`PlanSender::for_client`](crate::PlanSender::for_client) of
/// this request writes v1.
impl From<&v1::InitializeRequest> for InitializeRequest {
    fn from(request: &v1::InitializeRequest) -> Self {
        let plan = request
            .client_capabilities
            .plan
            .as_ref()
            .map(|_| PlanCapabilities::default());
        Self {
            protocol_version: u64::from(request.protocol_version.as_u16()).min(1),
            capabilities: ClientCapabilities::with_plan(plan, Spelling::Acp),
            skipped: Vec::new(),
        }
    }
}

/// What a v2 client sent in `initialize` (v2 has no plan capability).
impl From<&v2::InitializeRequest> for InitializeRequest {
    fn from(request: &v2::InitializeRequest) -> Self {
        Self {
            protocol_version: u64::from(request.protocol_version.as_u16()),
            capabilities: ClientCapabilities::default(),
            skipped: Vec::new(),
        }
    }
}
