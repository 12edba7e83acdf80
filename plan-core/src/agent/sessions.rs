//! The plans of every session of one client connection: one [`PlanSender`]
//! per session, built from what the client said in `initialize`, shared by
//! an agent's handlers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::agent::fallback::Fallback;
use crate::agent::sender::PlanSender;
use crate::codec::initialize::InitializeRequest;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::content::PlanContent;
use crate::protocol::id::{PlanId, SessionId};
use crate::protocol::notification::SessionNotification;
use crate::protocol::version::{ClientKind, ProtocolVersion};

/// The plan state of one client connection: what the client said in
/// `initialize`, and a [`PlanSender`] for each of its sessions.
///
/// An agent serves one client per connection and usually several sessions;
/// each session needs a sender of its own, **for as long as the session
/// lives**, because a sender keeps the live plans that the v1 view is drawn
/// from after every change. `SessionPlans` owns that bookkeeping:
///
/// - [`initialize`](Self::initialize) records the client (from our
///   [`InitializeRequest`], or with the `acp` feature from the SDK's v1 or v2
///   request as its handler receives it). A new `initialize` starts over.
/// - [`update`](Self::update) and [`remove`](Self::remove) take a session id
///   (ours, or with `acp` the SDK's, by reference or value). A session's
///   sender is made on its first plan, and lives until
///   [`close`](Self::close) (call it on `session/close`, or when the agent
///   forgets the session otherwise).
///
/// Cloning is cheap and shares the state (an [`Arc`]), so each of an SDK
/// agent's handlers can own a clone. Before `initialize`, plans are written
/// for a v1 client without the plan capability, which every client reads.
///
/// ```
/// use plan_core::{plan, PlanId, SessionUpdate, agent::{InitializeRequest, SessionPlans}};
///
/// let plans = SessionPlans::new();
/// plans.initialize(InitializeRequest::from_json(r#"{"protocolVersion":1}"#)?);
///
/// // Turn one shows a plan, turn two another, then removes it. The v1 view
/// // (one plan per session) falls back to turn one's plan: the session's
/// // sender still knows it.
/// plans.update("sess_1", plan! { id: "build", items: [high completed "Compile"] });
/// plans.update("sess_1", plan! { id: "test", items: [high pending "Run the tests"] });
/// let sent = plans.remove("sess_1", &PlanId::new("test")?).expect("`test` is live");
/// let SessionUpdate::Plan(view) = &sent.update else { panic!("v1 clients get `plan`") };
/// assert_eq!(view.entries[0].content, "Compile");
///
/// // Another session starts empty; closing one forgets its plans.
/// let sent = plans.update("sess_2", plan! { id: "lint", items: [low pending "Lint"] });
/// let SessionUpdate::Plan(view) = &sent.update else { panic!("v1 clients get `plan`") };
/// assert_eq!(view.entries.len(), 1);
/// assert!(plans.close("sess_1"));
/// assert_eq!(plans.sessions(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct SessionPlans {
    shared: Arc<Mutex<Connection>>,
}

#[derive(Debug)]
struct Connection {
    /// `None` until `initialize`.
    client: Option<InitializeRequest>,
    /// The newest protocol version the agent speaks.
    speaks: ProtocolVersion,
    fallback: Fallback,
    pre_stable_file: bool,
    senders: HashMap<SessionId, PlanSender>,
}

impl Default for Connection {
    fn default() -> Self {
        Self {
            client: None,
            speaks: ProtocolVersion::V1,
            fallback: Fallback::default(),
            pre_stable_file: false,
            senders: HashMap::new(),
        }
    }
}

impl SessionPlans {
    /// No client yet, no sessions, the default [`Fallback`], for an agent
    /// that speaks protocol v1 (the stable protocol; see
    /// [`speaking`](Self::speaking) for the v2 draft).
    pub fn new() -> Self {
        Self::default()
    }

    /// The same state for an agent whose newest protocol version is
    /// `newest`: with [`ProtocolVersion::V2`] a client that offers the v2
    /// draft is answered `2` and sent v2 plans. v1 unless said.
    ///
    /// ```
    /// use plan_core::{agent::{InitializeRequest, SessionPlans}, wire::{ClientKind, ProtocolVersion}};
    ///
    /// let offer = InitializeRequest::from_json(r#"{"protocolVersion":2,"clientCapabilities":{"plan":{}}}"#)?;
    /// // A v1 agent answers a v2 offer with 1, and reads the client's v1 capabilities.
    /// let v1_agent = SessionPlans::new();
    /// assert_eq!(v1_agent.initialize(offer.clone()), ProtocolVersion::V1);
    /// assert_eq!(v1_agent.client_kind(), ClientKind::V1Plan);
    /// // An agent that speaks the draft says so.
    /// let v2_agent = SessionPlans::new().speaking(ProtocolVersion::V2);
    /// assert_eq!(v2_agent.initialize(offer), ProtocolVersion::V2);
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    #[must_use]
    pub fn speaking(self, newest: ProtocolVersion) -> Self {
        self.state().speaks = newest;
        self
    }

    /// The same state with other fallback rules for every session's sender
    /// (see [`PlanSender::with_fallback`]).
    #[must_use]
    pub fn with_fallback(self, fallback: Fallback) -> Self {
        self.state().fallback = fallback;
        self
    }

    /// Whether every session's sender sends `file` plans as they are (see
    /// [`PlanSender::with_pre_stable_file`]).
    #[must_use]
    pub fn with_pre_stable_file(self, send_as_is: bool) -> Self {
        self.state().pre_stable_file = send_as_is;
        self
    }

    /// Records what the client said in `initialize`, and returns the
    /// protocol version to answer it with (the client's, or the newest the
    /// agent [speaks](Self::speaking) if that is older). Sessions opened
    /// before are forgotten: their senders were shaped for another client.
    pub fn initialize(&self, client: impl Into<InitializeRequest>) -> ProtocolVersion {
        let mut state = self.state();
        let client = client.into();
        let answer = client.negotiated(state.speaks);
        state.client = Some(client);
        state.senders.clear();
        answer
    }

    /// The kind of client the plans are written for.
    pub fn client_kind(&self) -> ClientKind {
        let state = self.state();
        match &state.client {
            Some(client) => ClientKind::of(client.negotiated(state.speaks), &client.capabilities),
            None => ClientKind::V1,
        }
    }

    /// Creates or replaces a plan of `session`; returns the notification to
    /// send (see [`PlanSender::update`]).
    pub fn update(
        &self,
        session: impl Into<SessionId>,
        plan: impl Into<PlanContent>,
    ) -> SessionNotification {
        let plan = plan.into();
        self.with_sender(session, |sender| sender.update(plan))
    }

    /// Creates or replaces a plan of `session`; returns the notification to
    /// send, or `None` where the client would get what it last got for it
    /// (see [`PlanSender::update_if_changed`]): what an agent calls on each
    /// of its model's plan tool calls and each delta of a streamed plan.
    pub fn update_if_changed(
        &self,
        session: impl Into<SessionId>,
        plan: impl Into<PlanContent>,
    ) -> Option<SessionNotification> {
        let plan = plan.into();
        self.with_sender(session, |sender| sender.update_if_changed(plan))
    }

    /// Removes a plan of `session`; returns the notification to send, or
    /// `None` if no such plan is live (see [`PlanSender::remove`]).
    pub fn remove(
        &self,
        session: impl Into<SessionId>,
        id: &PlanId,
    ) -> Option<SessionNotification> {
        self.with_sender(session, |sender| sender.remove(id))
    }

    /// Runs `f` with the sender of `session` (made now if the session has
    /// none yet), for what [`update`](Self::update) and
    /// [`remove`](Self::remove) do not cover.
    pub fn with_sender<R>(
        &self,
        session: impl Into<SessionId>,
        f: impl FnOnce(&mut PlanSender) -> R,
    ) -> R {
        let mut state = self.state();
        let state = &mut *state;
        let session = session.into();
        let sender = state.senders.entry(session.clone()).or_insert_with(|| {
            let sender = match &state.client {
                Some(client) => PlanSender::for_client(session, client, state.speaks),
                None => PlanSender::new(session, &ClientCapabilities::default()),
            };
            sender
                .with_fallback(state.fallback)
                .with_pre_stable_file(state.pre_stable_file)
        });
        f(sender)
    }

    /// Forgets `session` and its plans. Returns whether it had any.
    pub fn close(&self, session: impl Into<SessionId>) -> bool {
        self.state().senders.remove(&session.into()).is_some()
    }

    /// How many sessions have plan state.
    pub fn sessions(&self) -> usize {
        self.state().senders.len()
    }

    /// The shared state. A handler that panicked while holding it left it
    /// consistent (every change is one call on a sender), so a poisoned lock
    /// is taken over rather than turned into a second panic.
    fn state(&self) -> MutexGuard<'_, Connection> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::update::SessionUpdate;

    fn init(json: &str) -> InitializeRequest {
        InitializeRequest::from_json(json).unwrap()
    }

    #[test]
    fn each_session_is_written_for_the_client_that_initialized() {
        let plans = SessionPlans::new();
        assert_eq!(plans.client_kind(), ClientKind::V1);
        plans.initialize(init(
            r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#,
        ));
        assert_eq!(plans.client_kind(), ClientKind::V1Plan);
        let sent = plans.update("s", PlanContent::markdown(PlanId::new("p").unwrap(), "# P"));
        assert!(matches!(sent.update, SessionUpdate::PlanUpdate { .. }));
        plans.initialize(init(
            r#"{"protocolVersion":2,"info":{"name":"c","version":"1"}}"#,
        ));
        // A v1 agent (the default) answers a v2 offer with v1.
        assert_eq!(plans.client_kind(), ClientKind::V1);
        let plans = plans.speaking(ProtocolVersion::V2);
        plans.initialize(init(
            r#"{"protocolVersion":2,"info":{"name":"c","version":"1"}}"#,
        ));
        assert_eq!(plans.client_kind(), ClientKind::V2);
        // A new client: the old sessions are gone.
        assert_eq!(plans.sessions(), 0);
    }

    #[test]
    fn a_sender_lives_as_long_as_its_session() {
        let plans = SessionPlans::new();
        let id = PlanId::new("p").unwrap();
        plans.update("s", PlanContent::items(id.clone(), []));
        // A clone shares the state: a second handler removes what the first sent.
        let other_handler = plans.clone();
        assert!(other_handler.remove("s", &id).is_some());
        assert!(plans.remove("s", &id).is_none());
        assert!(plans.close("s"));
        assert!(!plans.close("s"));
    }

    #[test]
    fn the_fallback_reaches_every_sessions_sender() {
        let plans = SessionPlans::new()
            .with_pre_stable_file(true)
            .speaking(ProtocolVersion::V2);
        plans.initialize(init(
            r#"{"protocolVersion":2,"info":{"name":"c","version":"1"}}"#,
        ));
        let keeps_file = plans.with_sender("s", |sender| {
            sender.update(PlanContent::file(
                PlanId::new("f").unwrap(),
                crate::protocol::id::FileUri::new("file:///tmp/PLAN.md").unwrap(),
            ))
        });
        assert!(
            keeps_file
                .to_json(crate::codec::Spelling::Acp)
                .contains(r#""type":"file""#)
        );
    }
}
