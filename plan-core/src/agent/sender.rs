//! The agent's side: send plans the way the client on the other end can read.

use std::io::{self, Write};

use crate::agent::initialize::InitializeRequest;
use crate::client::markdown::markdown_checklist;
use crate::codec::Spelling;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::id::{FileUri, PlanId, SessionId};
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::SessionUpdate;
use crate::protocol::version::ProtocolVersion;

/// Sends an agent's plans to one client session, in the form that client
/// can read: what the negotiated protocol version and the client's
/// capabilities allow, and nothing else.
///
/// | protocol | client | what is sent |
/// |---|---|---|
/// | v1 | no plan capability | v1 `plan` updates: the sender keeps the live plans and sends, after every change, the view [`Fallback`] defines |
/// | v1 | plan capability (`plan`, or the RFD's `planCapabilities`) | `plan_update`/`plan_removed` in the spelling of the key it used; values v1 lacks (`cancelled`, custom `_x`) mapped by [`Fallback::entry`], custom types by [`Fallback::other`] |
/// | v2 | any | `plan_update` with `items` and custom `_x` types, every v2 value; `file`, `markdown` and `plan_removed` (unstable in v2) only after [`with_unstable`](Self::with_unstable), else mapped by [`Fallback`] |
///
/// The published SDK readers drop an entry they cannot read without a word,
/// so sending a value the version does not allow would be silent data loss;
/// the mapping is explicit, and every rule of it can be replaced.
///
/// ```
/// use plan_core::{plan, ClientCapabilities, InitializeRequest, PlanSender, SessionUpdate, Spelling};
///
/// // A v1 client that never heard of plan_update.
/// let legacy = ClientCapabilities::from_json(r#"{"fs":{"readTextFile":true}}"#)?;
/// let mut sender = PlanSender::new("sess_1", &legacy);
/// let sent = sender.update(plan! { id: "p", items: [high cancelled "Polish"] });
/// assert_eq!(
///     sent.to_json(Spelling::Acp),
///     r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"plan","entries":[{"content":"Polish (cancelled)","priority":"high","status":"completed"}]}}}"#
/// );
///
/// // A v2 client, straight from its `initialize` request.
/// let init = InitializeRequest::from_json(r#"{"protocolVersion":2,"info":{"name":"ed","version":"1"}}"#)?;
/// let mut sender = PlanSender::for_client("sess_1", &init);
/// let sent = sender.update(plan! { id: "p", items: [high cancelled "Polish"] });
/// assert!(sent.to_json(Spelling::Acp).contains(r#""status":"cancelled""#));
/// assert_eq!(sender.spelling(), Spelling::Acp);
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PlanSender {
    session: SessionId,
    target: Target,
    fallback: Fallback,
    /// Live plans, as the agent sent them, the most recently updated last.
    live: Vec<PlanContent>,
}

/// What the client on the other end reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// v1 without the plan capability: v1 `plan` only.
    V1Legacy,
    /// v1 with the plan capability, advertised in this spelling.
    V1Operations(Spelling),
    /// v2; `unstable`: the agent opted in to v2's unstable plan variants.
    V2 { unstable: bool },
}

impl PlanSender {
    /// A sender for `session` of a **v1** client, shaped by the capabilities
    /// it advertised in `initialize`. For a client of either version, use
    /// [`for_client`](Self::for_client).
    pub fn new(session: impl Into<SessionId>, client: &ClientCapabilities) -> Self {
        Self::with_protocol(session, ProtocolVersion::V1, client)
    }

    /// A sender for `session` of the client that sent `initialize`: the
    /// version the agent answers with (see [`InitializeRequest::negotiated`])
    /// and the client's capabilities, in one call.
    pub fn for_client(session: impl Into<SessionId>, initialize: &InitializeRequest) -> Self {
        Self::with_protocol(session, initialize.negotiated(), &initialize.capabilities)
    }

    /// A sender for `session` under `protocol`, for a client with `client`'s
    /// capabilities (v2 has no plan capability; they are not consulted).
    pub fn with_protocol(
        session: impl Into<SessionId>,
        protocol: ProtocolVersion,
        client: &ClientCapabilities,
    ) -> Self {
        let target = match (protocol, client.plan_spelling()) {
            (ProtocolVersion::V1, None) => Target::V1Legacy,
            (ProtocolVersion::V1, Some(spelling)) => Target::V1Operations(spelling),
            (ProtocolVersion::V2, _) => Target::V2 { unstable: false },
        };
        Self {
            session: session.into(),
            target,
            fallback: Fallback::default(),
            live: Vec::new(),
        }
    }

    /// The same sender with other fallback rules.
    #[must_use]
    pub fn with_fallback(mut self, fallback: Fallback) -> Self {
        self.fallback = fallback;
        self
    }

    /// Under v2, whether to send the variants that are still unstable there
    /// (`file` and `markdown` plans, `plan_removed`) as they are: for a
    /// client known to read v2's unstable schema. Off by default: they are
    /// mapped by the [`Fallback`]. Under v1 it changes nothing.
    #[must_use]
    pub fn with_unstable(mut self, unstable: bool) -> Self {
        if let Target::V2 { .. } = self.target {
            self.target = Target::V2 { unstable };
        }
        self
    }

    /// The protocol version the sender writes for.
    pub fn protocol(&self) -> ProtocolVersion {
        match self.target {
            Target::V1Legacy | Target::V1Operations(_) => ProtocolVersion::V1,
            Target::V2 { .. } => ProtocolVersion::V2,
        }
    }

    /// Whether the client reads `plan_update`; if not, every change is sent
    /// as a v1 `plan`.
    pub fn supports_plan_operations(&self) -> bool {
        self.target != Target::V1Legacy
    }

    /// The spelling the client reads: the RFD spelling only for a v1 client
    /// that advertised `planCapabilities`; the ACP spelling for every other.
    pub fn spelling(&self) -> Spelling {
        match self.target {
            Target::V1Operations(spelling) => spelling,
            Target::V1Legacy | Target::V2 { .. } => Spelling::Acp,
        }
    }

    /// The plans that are live (updated and not removed), as the agent gave
    /// them (before any mapping), least recently updated first.
    pub fn live_plans(&self) -> &[PlanContent] {
        &self.live
    }

    /// Creates or replaces a plan; returns the notification to send.
    pub fn update(&mut self, plan: PlanContent) -> SessionNotification {
        let update = match self.target {
            Target::V1Legacy => None,
            Target::V1Operations(_) => Some(self.fallback.v1_content(&plan)),
            Target::V2 { unstable } => Some(self.fallback.v2_content(&plan, unstable)),
        };
        self.live.retain(|p| p.id() != plan.id());
        self.live.push(plan);
        let update = match update {
            Some(content) => SessionUpdate::plan_update(content),
            None => self.legacy_view(),
        };
        SessionNotification::new(self.session.clone(), update)
    }

    /// Dismisses a plan; returns the notification to send, if any: a v1
    /// client without the plan capability, or a v2 client without
    /// [`with_unstable`](Self::with_unstable), is sent nothing for a plan it
    /// never saw.
    pub fn remove(&mut self, id: &PlanId) -> Option<SessionNotification> {
        let was_live = self.live.iter().any(|p| p.id() == id);
        self.live.retain(|p| p.id() != id);
        let update = match self.target {
            // Removing an unknown id is harmless for the client; send it anyway.
            Target::V1Operations(_) | Target::V2 { unstable: true } => {
                SessionUpdate::plan_removed(id.clone())
            }
            Target::V2 { unstable: false } if was_live => {
                let content = (self.fallback.removed)(id)?;
                SessionUpdate::plan_update(self.fallback.v2_content(&content, false))
            }
            Target::V1Legacy if was_live => self.legacy_view(),
            Target::V1Legacy | Target::V2 { .. } => return None,
        };
        Some(SessionNotification::new(self.session.clone(), update))
    }

    /// [`update`](Self::update), written to `out` as one NDJSON line in the
    /// client's [`spelling`](Self::spelling).
    ///
    /// # Errors
    /// The writer's error (a closed pipe is `BrokenPipe`); the plan is live
    /// all the same, so the next change sends it again.
    pub fn send_update<W: Write>(
        &mut self,
        out: W,
        plan: PlanContent,
    ) -> io::Result<SessionNotification> {
        let notification = self.update(plan);
        notification.write_line(out, self.spelling())?;
        Ok(notification)
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

    /// The v1 `plan` a legacy client should see now.
    fn legacy_view(&self) -> SessionUpdate {
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
        SessionUpdate::plan(entries)
    }
}

/// Which live plans a legacy (v1) client is shown, as its single plan.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum View {
    /// The most recently updated live plan (after a removal, the next most
    /// recent; none left: an empty `entries` list).
    #[default]
    MostRecent,
    /// Every live plan's entries, one after another (least recently updated first).
    All,
}

/// How plans are mapped onto what the client's protocol can carry: the v1
/// `plan` for a client without the plan capability, v1's closed sets for a
/// v1 client with it, and v2's stable variants for a v2 client.
/// Each rule is a plain function, so any of them can be replaced:
///
/// ```
/// use plan_core::{Fallback, PlanEntry, Status, View};
///
/// let fallback = Fallback {
///     view: View::All,
///     // Drop cancelled entries instead of showing them as completed.
///     entry: |e| (e.status != Status::Cancelled).then(|| Fallback::default_entry(e)).flatten(),
///     ..Fallback::default()
/// };
/// # let _ = fallback;
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Fallback {
    /// Which live plans are shown.
    pub view: View,
    /// One entry of an items plan onto v1's closed sets; `None` drops it.
    /// Default: [`Fallback::default_entry`].
    pub entry: fn(&PlanEntry) -> Option<PlanEntry>,
    /// A markdown plan as entries. Default: its checklist
    /// ([`markdown_checklist`]), else one pending entry with its first line.
    pub markdown: fn(&str) -> Vec<PlanEntry>,
    /// A file plan as entries. Default: one pending entry `Plan: <uri>`.
    pub file: fn(&FileUri) -> Vec<PlanEntry>,
    /// A plan of a custom or reserved type as entries. Default: one pending
    /// entry `<type> plan <id>`.
    pub other: fn(&PlanContent) -> Vec<PlanEntry>,
    /// Under v2 without the unstable `plan_removed`: what the removal of a
    /// live plan becomes (`None`: nothing is sent, the client keeps showing
    /// it). Default: the plan with no entries ([`Fallback::default_removed`]).
    pub removed: fn(&PlanId) -> Option<PlanContent>,
}

impl Default for Fallback {
    fn default() -> Self {
        Self {
            view: View::MostRecent,
            entry: Self::default_entry,
            markdown: Self::default_markdown,
            file: Self::default_file,
            other: Self::default_other,
            removed: Self::default_removed,
        }
    }
}

impl Fallback {
    /// The entries a legacy client sees for one plan.
    pub fn entries(&self, plan: &PlanContent) -> Vec<PlanEntry> {
        let entries = match plan {
            PlanContent::Items { entries, .. } => {
                return entries.iter().filter_map(self.entry).collect();
            }
            PlanContent::Markdown { content, .. } => (self.markdown)(content),
            PlanContent::File { uri, .. } => (self.file)(uri),
            PlanContent::Custom { .. } | PlanContent::Reserved { .. } => (self.other)(plan),
        };
        // What a rule for whole plans returns is still mapped onto v1's sets.
        entries.iter().filter_map(self.entry).collect()
    }

    /// The plan as a v1 client with the plan capability reads it: `items`
    /// with every entry through [`entry`](Self::entry); `file` and `markdown`
    /// as they are; a custom or reserved type (not in v1's schema) as an
    /// `items` plan of the same id, entries from [`other`](Self::other).
    pub fn v1_content(&self, plan: &PlanContent) -> PlanContent {
        match plan {
            PlanContent::File { .. } | PlanContent::Markdown { .. } => plan.clone(),
            PlanContent::Items { .. }
            | PlanContent::Custom { .. }
            | PlanContent::Reserved { .. } => items_like(plan, self.entries(plan)),
        }
    }

    /// The plan as a v2 client reads it: `items` and custom `_x` types as
    /// they are (reserved values, which no sender may send, mapped by
    /// [`v2_entry`](Self::v2_entry)); `file` and `markdown` as they are if
    /// `unstable`, else as an `items` plan of the same id from
    /// [`file`](Self::file) or [`markdown`](Self::markdown); a reserved type
    /// as an `items` plan from [`other`](Self::other).
    pub fn v2_content(&self, plan: &PlanContent, unstable: bool) -> PlanContent {
        let entries = match plan {
            PlanContent::Items { entries, .. } => entries.clone(),
            PlanContent::Custom { .. } => return plan.clone(),
            PlanContent::File { .. } | PlanContent::Markdown { .. } if unstable => {
                return plan.clone();
            }
            PlanContent::File { uri, .. } => (self.file)(uri),
            PlanContent::Markdown { content, .. } => (self.markdown)(content),
            PlanContent::Reserved { .. } => (self.other)(plan),
        };
        items_like(plan, entries.iter().map(Self::v2_entry).collect())
    }

    /// An entry as a v2 sender may send it: every known and custom `_x`
    /// value kept; a reserved value (read from some peer, never sendable)
    /// becomes `medium` or `pending`.
    pub fn v2_entry(entry: &PlanEntry) -> PlanEntry {
        let mut entry = entry.clone();
        if let Priority::Reserved(_) = entry.priority {
            entry.priority = Priority::Medium;
        }
        if let Status::Reserved(_) = entry.status {
            entry.status = Status::Pending;
        }
        entry
    }

    /// The plan with no entries: a v2 client without `plan_removed` shows it
    /// empty.
    pub fn default_removed(id: &PlanId) -> Option<PlanContent> {
        Some(PlanContent::items(id.clone(), []))
    }

    /// Priorities: known ones kept, custom ones `medium`. Statuses:
    /// `pending`, `in_progress`, `completed` kept; `cancelled` becomes
    /// `completed` with " (cancelled)" after the content (the work is over,
    /// and the reader is told why); custom ones `pending`. `_meta` is kept.
    pub fn default_entry(entry: &PlanEntry) -> Option<PlanEntry> {
        let mut entry = entry.clone();
        if !entry.priority.is_v1() {
            entry.priority = Priority::Medium;
        }
        match entry.status {
            Status::Pending | Status::InProgress | Status::Completed => {}
            Status::Cancelled => {
                entry.content = format!("{} (cancelled)", entry.content).into();
                entry.status = Status::Completed;
            }
            Status::Custom(_) | Status::Reserved(_) => entry.status = Status::Pending,
        }
        Some(entry)
    }

    /// The checklist of the markdown, else its first non-empty line (without
    /// leading `#`) as one pending entry; nothing for empty markdown.
    pub fn default_markdown(markdown: &str) -> Vec<PlanEntry> {
        let checklist = markdown_checklist(markdown);
        if !checklist.is_empty() {
            return checklist;
        }
        markdown
            .lines()
            .map(|line| line.trim().trim_start_matches('#').trim())
            .find(|line| !line.is_empty())
            .map(|line| PlanEntry::new(line.to_owned(), Priority::Medium, Status::Pending))
            .into_iter()
            .collect()
    }

    /// One pending entry naming the file.
    pub fn default_file(uri: &FileUri) -> Vec<PlanEntry> {
        vec![PlanEntry::new(
            format!("Plan: {uri}"),
            Priority::Medium,
            Status::Pending,
        )]
    }

    /// One pending entry naming the type and the id.
    pub fn default_other(plan: &PlanContent) -> Vec<PlanEntry> {
        let text = format!("{} plan {}", plan.type_name(), plan.id());
        vec![PlanEntry::new(text, Priority::Medium, Status::Pending)]
    }
}

/// An `items` plan with `plan`'s id and `_meta` and these entries.
fn items_like(plan: &PlanContent, entries: Vec<PlanEntry>) -> PlanContent {
    PlanContent::Items {
        id: plan.id().clone(),
        entries,
        meta: plan.meta().cloned(),
    }
}
