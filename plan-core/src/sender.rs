//! The agent's side: send plans the way the client on the other end can read.

use std::io::{self, Write};

use crate::capabilities::ClientCapabilities;
use crate::content::PlanContent;
use crate::entry::{PlanEntry, Priority, Status};
use crate::id::{FileUri, PlanId, SessionId};
use crate::markdown::markdown_checklist;
use crate::notification::SessionNotification;
use crate::update::SessionUpdate;
use crate::wire::Spelling;

/// Sends an agent's plans to one client session, in the form that client
/// understands.
///
/// - A client that advertised the plan capability gets `plan_update` and
///   `plan_removed`, in the spelling it used to advertise it.
/// - Any other client gets v1 `plan` updates: the sender keeps the live plans
///   and sends, after every change, the v1 view that a legacy client should
///   see, as [`Fallback`] defines it.
///
/// ```
/// use plan_core::{plan, ClientCapabilities, PlanSender, SessionUpdate, Spelling};
///
/// // A client that never heard of plan_update.
/// let legacy = ClientCapabilities::from_json(r#"{"fs":{"readTextFile":true}}"#)?;
/// let mut sender = PlanSender::new("sess_1", &legacy);
/// let sent = sender.update(plan! { id: "p", items: [high cancelled "Polish"] });
/// assert_eq!(
///     sent.to_json(Spelling::Rfd),
///     r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"plan","entries":[{"content":"Polish (cancelled)","priority":"high","status":"completed"}]}}}"#
/// );
///
/// // A client that advertised plan support, in the ACP spelling.
/// let modern = ClientCapabilities::from_json(r#"{"plan":{}}"#)?;
/// let mut sender = PlanSender::new("sess_1", &modern);
/// let sent = sender.update(plan! { id: "p", markdown: "- [ ] Refactor" });
/// assert!(matches!(sent.update, SessionUpdate::PlanUpdate { .. }));
/// assert_eq!(sender.spelling(), Spelling::Acp);
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PlanSender {
    session: SessionId,
    mode: Mode,
    fallback: Fallback,
    /// Live plans, the most recently updated last.
    live: Vec<PlanContent>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `plan_update` / `plan_removed`, in this spelling.
    Operations(Spelling),
    /// v1 `plan` only.
    Legacy,
}

impl PlanSender {
    /// A sender for `session`, shaped by what the client advertised in
    /// `initialize`.
    pub fn new(session: impl Into<SessionId>, client: &ClientCapabilities) -> Self {
        let mode = match client.plan_spelling() {
            Some(spelling) => Mode::Operations(spelling),
            None => Mode::Legacy,
        };
        Self {
            session: session.into(),
            mode,
            fallback: Fallback::default(),
            live: Vec::new(),
        }
    }

    /// The same sender with other fallback rules for legacy clients.
    #[must_use]
    pub fn with_fallback(mut self, fallback: Fallback) -> Self {
        self.fallback = fallback;
        self
    }

    /// Whether the client reads `plan_update` and `plan_removed`; if not,
    /// every change is sent as a v1 `plan`.
    pub fn supports_plan_operations(&self) -> bool {
        matches!(self.mode, Mode::Operations(_))
    }

    /// The spelling the client reads: the one it advertised the capability
    /// in, else the RFD spelling (v1 `plan` updates read the same in both).
    pub fn spelling(&self) -> Spelling {
        match self.mode {
            Mode::Operations(spelling) => spelling,
            Mode::Legacy => Spelling::Rfd,
        }
    }

    /// The plans that are live (updated and not removed), least recently updated first.
    pub fn live_plans(&self) -> &[PlanContent] {
        &self.live
    }

    /// Creates or replaces a plan; returns the notification to send.
    pub fn update(&mut self, plan: PlanContent) -> SessionNotification {
        self.live.retain(|p| p.id() != plan.id());
        self.live.push(plan);
        let update = match self.mode {
            Mode::Operations(_) => {
                let plan = self
                    .live
                    .last()
                    .cloned()
                    .unwrap_or_else(|| unreachable!("just pushed"));
                SessionUpdate::plan_update(plan)
            }
            Mode::Legacy => self.legacy_view(),
        };
        SessionNotification::new(self.session.clone(), update)
    }

    /// Dismisses a plan; returns the notification to send. A legacy client
    /// is sent nothing for a plan it never saw (`None`).
    pub fn remove(&mut self, id: &PlanId) -> Option<SessionNotification> {
        let was_live = self.live.iter().any(|p| p.id() == id);
        self.live.retain(|p| p.id() != id);
        let update = match self.mode {
            // Removing an unknown id is harmless for the client; send it anyway.
            Mode::Operations(_) => SessionUpdate::plan_removed(id.clone()),
            Mode::Legacy if was_live => self.legacy_view(),
            Mode::Legacy => return None,
        };
        Some(SessionNotification::new(self.session.clone(), update))
    }

    /// [`update`](Self::update), written to `out` as one NDJSON line.
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

/// How plans become a v1 `plan` for a client without the plan capability.
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
}

impl Default for Fallback {
    fn default() -> Self {
        Self {
            view: View::MostRecent,
            entry: Self::default_entry,
            markdown: Self::default_markdown,
            file: Self::default_file,
            other: Self::default_other,
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
