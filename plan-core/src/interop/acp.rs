//! plan-core inside the official Rust SDK (`agent-client-protocol` 5.0.0 to
//! 5.2.x):
//! our notification is a JSON-RPC notification the SDK sends and receives
//! as it is, the SDK's `initialize` request shapes the plan state of a
//! connection, the SDK's session ids are ours, and plan-core's errors are
//! the SDK's.
//!
//! # Adding plans to an agent on the SDK
//!
//! Four lines of an agent you already have: a [`SessionPlans`] for the
//! connection, told what the client said in `initialize`; each plan made by
//! it for the session and sent through the SDK's connection as it is.
//!
//! ```no_run
//! use agent_client_protocol::schema::ProtocolVersion;
//! use agent_client_protocol::v1::schema::{
//!     InitializeRequest, InitializeResponse, PromptRequest, PromptResponse, StopReason,
//! };
//! use agent_client_protocol::{Agent, ConnectTo};
//! use plan_core::{PlanId, plan, agent::SessionPlans};
//!
//! async fn serve(transport: impl ConnectTo<Agent> + 'static) -> agent_client_protocol::Result<()> {
//! let plans = SessionPlans::new();                 // one per connection
//! Agent
//!     .v1()
//!     .on_receive_request(
//!         {
//!             let plans = plans.clone();            // handlers share it
//!             async move |initialize: InitializeRequest, responder, _connection| {
//!                 plans.initialize(&initialize);    // what this client reads
//!                 responder.respond(InitializeResponse::new(ProtocolVersion::V1))
//!             }
//!         },
//!         agent_client_protocol::on_receive_request!(),
//!     )
//!     .on_receive_request(
//!         async move |prompt: PromptRequest, responder, connection| {
//!             let id = PlanId::new(format!("turn-{}", prompt.prompt.len()))?; // `?`: our errors are the SDK's
//!             let plan = plan! { id: { id }, items: [high in_progress "Analyze"] };
//!             connection.send_notification(plans.update(&prompt.session_id, plan))?;
//!             responder.respond(PromptResponse::new(StopReason::EndTurn))
//!         },
//!         agent_client_protocol::on_receive_request!(),
//!     )
//!     .connect_to(transport) // `Stdio::new()`, with the SDK's `stdio` feature
//!     .await
//! }
//! ```
//!
//! `examples/sdk_agent.rs` in the repository is a whole agent on this API
//! (steps declared with `#[derive(Steps)]`, a markdown plan with its path,
//! `session/cancel`), and `tests/sdk_peers.rs` drives it with our client.
//! Keep one [`SessionPlans`] per connection (or one
//! [`PlanSender`](crate::agent::PlanSender) per session) for as long as the
//! session lives: it keeps the live plans that the v1 view is drawn from.
//!
//! # What the feature asks of your SDK
//!
//! `agent-client-protocol` from 5.0.0 up to (not including) 5.3: the
//! releases CI builds at both ends (5.0.0 and the newest served, 5.2.0 when
//! this was written), so `cargo add agent-client-protocol` works as it is.
//! It turns on the SDK features `unstable_plan_operations` (the v1 `plan`
//! capability and plan types the conversions read) and
//! `unstable_protocol_v2` (the v2 `initialize` and session ids); Cargo
//! features add up, so your SDK gets both. The SDK pins its schema crate
//! (1.15.1 in 5.0, 1.17.0 in 5.2: plan types before the stabilization, with
//! `file` and without a markdown `path`); the conversions (`acp-schema`,
//! turned on by this feature) are with those types, the ones the SDK
//! re-exports (`agent_client_protocol::v1::schema`, `::v2::schema`). A
//! markdown plan's `path`, which they cannot hold, is a conversion error,
//! never dropped; a [`SessionNotification`] sent as it is keeps it:
//!
//! ```
//! use agent_client_protocol::JsonRpcMessage;
//! use agent_client_protocol::v1::schema as acp;
//! use plan_core::{SessionNotification, plan};
//!
//! let notes = SessionNotification::new(
//!     "sess_1",
//!     plan! { id: "notes", markdown: "# Notes", path: "/home/dev/PLAN.md" }.into(),
//! );
//! // What `connection.send_notification(notes)` puts on the wire: the path is there.
//! let wire = notes.to_untyped_message()?;
//! assert_eq!(wire.params["update"]["plan"]["path"], "/home/dev/PLAN.md");
//! // The SDK's own type has no field for it: refused, at its path.
//! let err = acp::SessionNotification::try_from(&notes).unwrap_err();
//! assert_eq!(err.path(), "params.update.plan.path");
//! # Ok::<(), agent_client_protocol::Error>(())
//! ```
//!
//! SDK 5.3 and later move to the stable schema; CI's drift check
//! (`.ci/drift` in the repository) fails on the first such release, and
//! plan-core follows in its next release.
//!
//! # The notification both ways
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
//! A client registers a handler for [`SessionNotification`] and receives
//! `session/update` in our types (other updates arrive as
//! [`SessionUpdate::Other`](crate::SessionUpdate::Other)).
//!
//! [`SessionPlans`]: crate::agent::SessionPlans

use agent_client_protocol::v1::schema as v1;
use agent_client_protocol::v2::schema as v2;
use agent_client_protocol::{
    Error as SdkError, JsonRpcMessage, JsonRpcNotification, UntypedMessage,
};
use serde_json::Value;

use crate::agent::run::StepError;
use crate::codec::Spelling;
use crate::codec::initialize::InitializeRequest;
use crate::codec::strictness::ReadNotes;
use crate::error::Error;
use crate::error::Path;
use crate::interop::acp_schema::ConversionError;
use crate::protocol::capabilities::{ClientCapabilities, PlanCapabilities};
use crate::protocol::id::{InvalidPath, InvalidPlanId, InvalidUri, SessionId};
use crate::protocol::naming::{NameError, ParseNameError};
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
            crate::codec::writer::Spelled(&crate::codec::notification::Params(self), Spelling::Acp),
        )
    }

    fn parse_message(method: &str, params: &Value) -> Result<Self, SdkError> {
        if method != METHOD {
            return Err(SdkError::method_not_found().data(Value::from(method)));
        }
        // Read as a client reads: leniently, like the SDK's own types.
        let mut reading = ReadNotes::new(crate::codec::Strictness::Lenient);
        crate::codec::notification::params_value(params.clone(), &mut reading, &Path::Root)
            .map_err(|e| SdkError::invalid_params().data(Value::from(e.to_string())))
    }
}

impl JsonRpcNotification for SessionNotification {}

/// What a client sent in `initialize`, as an agent on the SDK's v1 API
/// receives it: its capabilities, mapped field by field, and its version
/// capped at 1. An agent on the v1 API answers v1 whatever the client
/// offered (a client that offers the v2 draft and also speaks v1 says in
/// the same request what a v1 agent reads, `clientCapabilities.plan` among
/// it), so a [`PlanSender::for_client`](crate::agent::PlanSender::for_client) of
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

// ---- errors and session ids, so `?` and `.into()` work in SDK handlers -----

/// A plan-core error as the SDK's: `-32602` invalid params, the error's own
/// words as its `data` (a plan the agent could not build from what the
/// client sent is a parameter the client got wrong).
fn invalid_params(error: &impl std::fmt::Display) -> SdkError {
    SdkError::invalid_params().data(Value::from(error.to_string()))
}

/// A message that cannot be read, as invalid params (see [`Error`]).
impl From<Error> for SdkError {
    fn from(error: Error) -> Self {
        invalid_params(&error)
    }
}

/// A string that is not a plan id, as invalid params.
impl From<InvalidPlanId> for SdkError {
    fn from(error: InvalidPlanId) -> Self {
        invalid_params(&error)
    }
}

/// A string that is not a markdown plan's absolute path, as invalid params.
impl From<InvalidPath> for SdkError {
    fn from(error: InvalidPath) -> Self {
        invalid_params(&error)
    }
}

/// A string that is not a file URI, as invalid params.
impl From<InvalidUri> for SdkError {
    fn from(error: InvalidUri) -> Self {
        invalid_params(&error)
    }
}

/// A name that breaks the naming rule, as invalid params.
impl From<NameError> for SdkError {
    fn from(error: NameError) -> Self {
        invalid_params(&error)
    }
}

/// A priority or status name that does not parse, as invalid params.
impl From<ParseNameError> for SdkError {
    fn from(error: ParseNameError) -> Self {
        invalid_params(&error)
    }
}

/// A step moved against its run's rules, as invalid params.
impl From<StepError> for SdkError {
    fn from(error: StepError) -> Self {
        invalid_params(&error)
    }
}

/// A value with no equivalent on the other side, as invalid params.
impl From<ConversionError> for SdkError {
    fn from(error: ConversionError) -> Self {
        invalid_params(&error)
    }
}

/// The SDK's v1 session id as ours (the agent assigned it; any string).
impl From<&v1::SessionId> for SessionId {
    fn from(id: &v1::SessionId) -> Self {
        Self::new(id.0.to_string())
    }
}

/// The SDK's v1 session id as ours.
impl From<v1::SessionId> for SessionId {
    fn from(id: v1::SessionId) -> Self {
        Self::from(&id)
    }
}

/// The SDK's v2 session id as ours.
impl From<&v2::SessionId> for SessionId {
    fn from(id: &v2::SessionId) -> Self {
        Self::new(id.0.to_string())
    }
}

/// The SDK's v2 session id as ours.
impl From<v2::SessionId> for SessionId {
    fn from(id: v2::SessionId) -> Self {
        Self::from(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_errors_are_invalid_params_with_their_words() {
        let error: SdkError = crate::protocol::id::PlanId::new("  ").unwrap_err().into();
        assert_eq!(error.code, SdkError::invalid_params().code);
        assert_eq!(
            error.data,
            Some(Value::from("a plan id cannot be only white space"))
        );
        let error: SdkError = crate::protocol::id::AbsolutePath::new("docs/PLAN.md")
            .unwrap_err()
            .into();
        assert!(
            error
                .data
                .unwrap()
                .as_str()
                .unwrap()
                .contains("must be absolute")
        );
    }

    #[test]
    fn session_ids_convert() {
        let theirs = v1::SessionId::new("sess_1");
        assert_eq!(SessionId::from(&theirs).as_str(), "sess_1");
        let theirs = v2::SessionId::new("sess_2");
        assert_eq!(SessionId::from(theirs).as_str(), "sess_2");
    }
}
