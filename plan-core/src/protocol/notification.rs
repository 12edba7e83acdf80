//! The JSON-RPC `session/update` notification that carries every update.

use crate::protocol::id::SessionId;
use crate::protocol::meta::Meta;
use crate::protocol::update::SessionUpdate;

/// The JSON-RPC method of every session update.
pub const METHOD: &str = crate::rules::SESSION_UPDATE;

/// A whole `session/update` notification: a session id and one update,
/// in the JSON-RPC 2.0 envelope.
///
/// ```
/// use plan_core::{PlanContent, PlanId, SessionNotification, SessionUpdate, wire::Spelling};
///
/// let plan = PlanContent::markdown(PlanId::new("notes")?, "- [ ] Refactor");
/// let message = SessionNotification::new("sess_1", plan.into());
/// let json = message.to_json(Spelling::Acp);
/// assert_eq!(
///     json,
///     r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"notes","content":"- [ ] Refactor"}}}}"#
/// );
/// assert_eq!(SessionNotification::from_json(&json)?, message);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionNotification {
    /// The session the update belongs to.
    pub session_id: SessionId,
    /// The update.
    pub update: SessionUpdate,
    /// `_meta` of the notification's `params`.
    pub meta: Option<Meta>,
}

impl SessionNotification {
    /// A notification of `update` for `session_id`.
    pub fn new(session_id: impl Into<SessionId>, update: SessionUpdate) -> Self {
        Self {
            session_id: session_id.into(),
            update,
            meta: None,
        }
    }
}
