//! The agent's side: send plans the way the client on the other end can read.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::agent::fallback::{Fallback, View};
use crate::codec::Spelling;
use crate::codec::initialize::InitializeRequest;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::PlanEntry;
use crate::protocol::id::{PlanId, SessionId};
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::SessionUpdate;
use crate::protocol::version::{ClientKind, ProtocolVersion};

/// Sends an agent's plans to one client session, in the form that client
/// can read: what the negotiated protocol version and the client's
/// capabilities allow under the protocol as stabilized on 2026-11-20, and
/// nothing else.
///
/// | client ([`ClientKind`]) | what is sent |
/// |---|---|
/// | v1 without `plan` | v1 `plan` updates: the sender keeps the live plans and sends, after every change, the view [`Fallback`] defines |
/// | v1 with `plan` (or the RFD's `planCapabilities`) | `plan_update` (`items`, `markdown` with its `path`) and `plan_removed`, in the spelling of the key it used; values v1 lacks (`cancelled`, custom `_x`) mapped by [`Fallback::entry`], custom types by [`Fallback::other`] |
/// | v2 (a draft) | `plan_update` with `items`, `markdown` and custom `_x` types, every v2 value, and `plan_removed` |
///
/// A `file` plan (pre-stable: the stabilized protocol has none) goes to
/// every client through [`Fallback::file`], as a `markdown` plan by default;
/// [`with_pre_stable_file`](Self::with_pre_stable_file) sends it as it is,
/// for a client known to run a pre-stable SDK.
///
/// The published SDK readers drop an entry they cannot read without a word,
/// so sending a value the version does not allow would be silent data loss;
/// the mapping is explicit, and every rule of it can be replaced.
///
/// **One sender per session, for as long as the session lives.** It keeps the
/// live plans, which the v1 view is drawn from after every change: a sender
/// made anew for each prompt would forget the plans of earlier turns.
///
/// ```
/// use plan_core::{plan, SessionUpdate, wire::{ClientCapabilities, ProtocolVersion, Spelling}, agent::{InitializeRequest, PlanSender}};
///
/// // A v1 client that never heard of plan_update.
/// let v1_only = ClientCapabilities::from_json(r#"{"fs":{"readTextFile":true}}"#)?;
/// let mut sender = PlanSender::new("sess_1", &v1_only);
/// let sent = sender.update(plan! { id: "p", items: [high cancelled "Polish"] });
/// assert_eq!(
///     sent.to_json(Spelling::Acp),
///     r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"plan","entries":[{"content":"Polish (cancelled)","priority":"high","status":"completed"}]}}}"#
/// );
///
/// // A v1 client that opted in with `plan`: markdown with its path, as it is.
/// let init = InitializeRequest::from_json(
///     r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#,
/// )?;
/// let mut sender = PlanSender::for_client("sess_1", &init, ProtocolVersion::V1);
/// let sent = sender.update(plan! { id: "design", markdown: "# Design", path: "/home/dev/PLAN.md" });
/// assert!(sent.to_json(Spelling::Acp).ends_with(
///     r##"{"type":"markdown","planId":"design","content":"# Design","path":"/home/dev/PLAN.md"}}}}"##
/// ));
///
/// // A v2 client, straight from its `initialize` request, by an agent that speaks the v2 draft.
/// let init = InitializeRequest::from_json(r#"{"protocolVersion":2,"info":{"name":"ed","version":"1"}}"#)?;
/// let mut sender = PlanSender::for_client("sess_1", &init, ProtocolVersion::V2);
/// let sent = sender.update(plan! { id: "p", items: [high cancelled "Polish"] });
/// assert!(sent.to_json(Spelling::Acp).contains(r#""status":"cancelled""#));
/// assert_eq!(sender.spelling(), Spelling::Acp);
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PlanSender {
    session: SessionId,
    /// The row of the version table the client is.
    kind: ClientKind,
    /// The spelling the client advertised its plan capability in (v1 with
    /// `plan`); the ACP spelling otherwise.
    spelling: Spelling,
    fallback: Fallback,
    /// Whether `file` plans go out as they are (a client known to read them).
    pre_stable_file: bool,
    /// Live plans, as the agent sent them, the most recently updated last.
    live: Vec<PlanContent>,
    /// The entries of the v1 view this client was last sent (a v1 client
    /// without plan operations), so an unchanged view is not sent again.
    last_v1: Option<Vec<PlanEntry>>,
}

impl PlanSender {
    /// A sender for `session` of a **v1** client, shaped by the capabilities
    /// it advertised in `initialize`. For a client of either version, use
    /// [`for_client`](Self::for_client).
    pub fn new(session: impl Into<SessionId>, client: &ClientCapabilities) -> Self {
        Self::with_protocol(session, ProtocolVersion::V1, client)
    }

    /// A sender for `session` of the client that sent `initialize`, from an
    /// agent whose newest protocol version is `agent_newest`: the version
    /// the agent answers with (see [`InitializeRequest::negotiated`]) and
    /// the client's capabilities, in one call.
    pub fn for_client(
        session: impl Into<SessionId>,
        initialize: &InitializeRequest,
        agent_newest: ProtocolVersion,
    ) -> Self {
        let protocol = initialize.negotiated(agent_newest);
        Self::with_protocol(session, protocol, &initialize.capabilities)
    }

    /// A sender for `session` under `protocol`, for a client with `client`'s
    /// capabilities (v2 has no plan capability; they are not consulted).
    pub fn with_protocol(
        session: impl Into<SessionId>,
        protocol: ProtocolVersion,
        client: &ClientCapabilities,
    ) -> Self {
        let spelling = match protocol {
            ProtocolVersion::V1 => client.plan_spelling().unwrap_or(Spelling::Acp),
            ProtocolVersion::V2 => Spelling::Acp,
        };
        Self {
            session: session.into(),
            kind: ClientKind::of(protocol, client),
            spelling,
            fallback: Fallback::default(),
            pre_stable_file: false,
            live: Vec::new(),
            last_v1: None,
        }
    }

    /// The same sender with other fallback rules.
    #[must_use]
    pub fn with_fallback(mut self, fallback: Fallback) -> Self {
        self.fallback = fallback;
        self
    }

    /// Whether to send `file` plans as they are, to a client that reads plan
    /// operations and is known to run a pre-stable SDK (the Rust SDK 5.0.0 /
    /// schema 1.15.1, TypeScript 2.4.0, Python 0.12.1 read them as unstable
    /// variants). Off by default: the stabilized protocol has no `file` type,
    /// so [`Fallback::file`] maps each one (to `markdown`, unless replaced).
    /// A v1 client without the plan capability gets the v1 view either way.
    #[must_use]
    pub fn with_pre_stable_file(mut self, send_as_is: bool) -> Self {
        self.pre_stable_file = send_as_is;
        self
    }

    /// The session the sender writes to.
    pub fn session(&self) -> &SessionId {
        &self.session
    }

    /// The kind of client the sender writes for.
    pub fn client_kind(&self) -> ClientKind {
        self.kind
    }

    /// The protocol version the sender writes for.
    pub fn protocol(&self) -> ProtocolVersion {
        self.client_kind().protocol()
    }

    /// Whether the client reads `plan_update`; if not, every change is sent
    /// as a v1 `plan`.
    pub fn supports_plan_operations(&self) -> bool {
        self.kind != ClientKind::V1
    }

    /// The spelling the client reads: the RFD spelling only for a v1 client
    /// that advertised `planCapabilities`; the ACP spelling for every other.
    pub fn spelling(&self) -> Spelling {
        self.spelling
    }

    /// The plans that are live (updated and not removed), as the agent gave
    /// them (before any mapping), least recently updated first.
    pub fn live_plans(&self) -> &[PlanContent] {
        &self.live
    }

    /// Whether sending `plan` now would send this client exactly what it
    /// last got: for a v1 client without plan operations, the same v1
    /// view (a markdown plan whose steps did not change, say); for any
    /// other, the same plan under its id, as mapped for this client.
    pub fn is_unchanged(&self, plan: &PlanContent) -> bool {
        match self.kind {
            ClientKind::V1 => self
                .last_v1
                .as_ref()
                .is_some_and(|last| *last == self.v1_entries_with(plan)),
            ClientKind::V1Plan | ClientKind::V2 => self
                .live
                .iter()
                .find(|live| live.id() == plan.id())
                .is_some_and(|live| {
                    live == plan || self.content_for_client(live) == self.content_for_client(plan)
                }),
        }
    }

    /// [`update`](Self::update), unless this client would get what it last
    /// got ([`is_unchanged`](Self::is_unchanged)): then `None`, and the plan
    /// is still kept live as given. Models resend their whole list on every
    /// tool call, often as it was, and stream markdown plans in deltas that
    /// leave the steps as they were; a client is told each state once.
    ///
    /// ```
    /// use plan_core::{PlanContent, PlanId, agent::PlanSender, wire::ClientCapabilities};
    ///
    /// let mut sender = PlanSender::new("s", &ClientCapabilities::default());
    /// let id = PlanId::new("plan")?;
    /// let first = sender.update_if_changed(PlanContent::markdown(id.clone(), "- Read\n- Fix"));
    /// assert!(first.is_some());
    /// // The same steps, more text after them: nothing new for a v1 client.
    /// let delta = sender.update_if_changed(PlanContent::markdown(id.clone(), "- Read\n- Fix\n\nThen ship."));
    /// assert!(delta.is_none());
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    pub fn update_if_changed(
        &mut self,
        plan: impl Into<PlanContent>,
    ) -> Option<SessionNotification> {
        let plan = plan.into();
        if self.kind == ClientKind::V1 {
            let entries = self.v1_entries_with(&plan);
            self.keep_live(plan);
            if self.last_v1.as_ref() == Some(&entries) {
                return None;
            }
            self.last_v1 = Some(entries.clone());
            let update = SessionUpdate::plan(entries);
            return Some(SessionNotification::new(self.session.clone(), update));
        }
        if self.is_unchanged(&plan) {
            self.keep_live(plan);
            return None;
        }
        Some(self.update(plan))
    }

    /// Creates or replaces a plan; returns the notification to send. The
    /// sender keeps the plan live, so the notification holds a copy of it
    /// (or of what the fallback made of it); [`send_update`](Self::send_update)
    /// writes one without copying.
    ///
    /// A v1 [`Plan`](crate::Plan) (`plan! { entries: [...] }`) is the plan
    /// of id `main`: each client gets what it can read of it, a v1 client
    /// without `clientCapabilities.plan` the v1 `plan` itself.
    pub fn update(&mut self, plan: impl Into<PlanContent>) -> SessionNotification {
        let plan = plan.into();
        let content = match self.mapped(&plan) {
            Sent::Plan => Some(plan.clone()),
            Sent::Mapped(content) => Some(content),
            Sent::V1View => None,
        };
        self.keep_live(plan);
        self.notification(content)
    }

    /// What this client is sent for `plan`.
    fn mapped(&self, plan: &PlanContent) -> Sent {
        match self.kind {
            ClientKind::V1 => Sent::V1View,
            ClientKind::V1Plan | ClientKind::V2 => match self.content_for_client(plan) {
                Cow::Borrowed(_) => Sent::Plan,
                Cow::Owned(content) => Sent::Mapped(content),
            },
        }
    }

    /// `plan` live, in place of the plan of its id (nothing sent: for a
    /// plan this client already has as it would be sent).
    pub(crate) fn keep_live(&mut self, plan: PlanContent) {
        self.live.retain(|p| p.id() != plan.id());
        self.live.push(plan);
    }

    /// The `plan_update` of `content`; without one, the v1 view of the
    /// live plans (a client without plan operations).
    fn notification(&mut self, content: Option<PlanContent>) -> SessionNotification {
        let update = match content {
            Some(content) => SessionUpdate::plan_update(content),
            None => self.v1_plan_view(),
        };
        SessionNotification::new(self.session.clone(), update)
    }

    /// The plan as this client reads it (v1 with `plan`, or v2): a `file`
    /// plan through [`Fallback::file`] (unless
    /// [`with_pre_stable_file`](Self::with_pre_stable_file)), then
    /// [`Fallback::content`] for the client's row of the version table;
    /// the plan itself, borrowed, where nothing changes.
    fn content_for_client<'p>(&self, plan: &'p PlanContent) -> Cow<'p, PlanContent> {
        match plan {
            PlanContent::File { id, uri, meta } if !self.pre_stable_file => {
                // `content` keeps a file plan a replaced rule chose to keep.
                let mapped = self.fallback.file_plan(id, uri, meta.as_ref());
                Cow::Owned(
                    self.fallback
                        .content(self.client_kind(), &mapped)
                        .into_owned(),
                )
            }
            _ => self.fallback.content(self.client_kind(), plan),
        }
    }

    /// Dismisses a plan; returns the notification to send, if any: a v1
    /// client without the plan capability is sent the v1 view without it,
    /// or nothing for a plan it never saw.
    pub fn remove(&mut self, id: &PlanId) -> Option<SessionNotification> {
        let was_live = self.live.iter().any(|p| p.id() == id);
        self.live.retain(|p| p.id() != id);
        let update = match self.kind {
            // Removing an unknown id is harmless for the client; send it anyway.
            ClientKind::V1Plan | ClientKind::V2 => SessionUpdate::plan_removed(id.clone()),
            ClientKind::V1 if was_live => self.v1_plan_view(),
            ClientKind::V1 => return None,
        };
        Some(SessionNotification::new(self.session.clone(), update))
    }

    /// [`update`](Self::update), written to `out` as one NDJSON line in the
    /// client's [`spelling`](Self::spelling), without copying the plan where
    /// the fallback leaves it as it is (it goes into the line and on to
    /// the live plans).
    ///
    /// # Errors
    /// The writer's error (a closed pipe is `BrokenPipe`); the plan is live
    /// all the same, so the next change sends it again.
    pub fn send_update<W: Write>(
        &mut self,
        out: W,
        plan: impl Into<PlanContent>,
    ) -> io::Result<()> {
        let plan = plan.into();
        let (written, plan) = match self.mapped(&plan) {
            Sent::Plan => {
                let notification = self.notification(Some(plan));
                let written = notification.write_line(out, self.spelling());
                let SessionUpdate::PlanUpdate { plan, .. } = notification.update else {
                    unreachable!("the update was made a plan_update just above")
                };
                (written, plan)
            }
            Sent::Mapped(content) => {
                let notification = self.notification(Some(content));
                (notification.write_line(out, self.spelling()), plan)
            }
            Sent::V1View => {
                self.keep_live(plan);
                let notification = self.notification(None);
                return notification.write_line(out, self.spelling());
            }
        };
        self.keep_live(plan);
        written
    }

    /// [`remove`](Self::remove), written to `out` as one NDJSON line if there is one.
    ///
    /// # Errors
    /// The writer's error.
    pub fn send_remove<W: Write>(
        &mut self,
        out: W,
        id: &PlanId,
    ) -> io::Result<Option<SessionNotification>> {
        let notification = self.remove(id);
        if let Some(notification) = &notification {
            notification.write_line(out, self.spelling())?;
        }
        Ok(notification)
    }

    /// The v1 `plan` a client without plan operations should see now,
    /// recorded as what it was last sent.
    fn v1_plan_view(&mut self) -> SessionUpdate {
        let shown: &[PlanContent] = match self.fallback.view {
            View::MostRecent => self
                .live
                .last()
                .map(std::slice::from_ref)
                .unwrap_or_default(),
            View::All => &self.live,
        };
        let entries = shown
            .iter()
            .flat_map(|plan| self.fallback.entries(plan))
            .collect::<Vec<_>>();
        self.last_v1 = Some(entries.clone());
        SessionUpdate::plan(entries)
    }

    /// The entries of the v1 view if `plan` were kept live now.
    fn v1_entries_with(&self, plan: &PlanContent) -> Vec<PlanEntry> {
        match self.fallback.view {
            View::MostRecent => self.fallback.entries(plan),
            View::All => self
                .live
                .iter()
                .filter(|live| live.id() != plan.id())
                .chain(std::iter::once(plan))
                .flat_map(|shown| self.fallback.entries(shown))
                .collect(),
        }
    }
}

/// What a client is sent for a plan.
enum Sent {
    /// The plan as it is.
    Plan,
    /// What the fallback made of it.
    Mapped(PlanContent),
    /// The v1 view of every live plan (a client without plan operations).
    V1View,
}
