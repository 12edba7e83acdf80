//! The fallback rules: how a plan is mapped onto what a client's protocol
//! can carry (the v1 `plan` view, v1's closed sets, `file` plans as
//! markdown). Each rule is a plain function, replaceable; `PlanSender`
//! applies them. A rule that leaves a value as it is gives it back
//! borrowed, so the sender copies nothing the fallback does not change.

use std::borrow::Cow;

use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::id::{AbsolutePath, FileUri, PlanId};
use crate::protocol::meta::Meta;
use crate::protocol::steps::markdown_to_entries;
use crate::protocol::version::ClientKind;

/// Which live plans a v1 client without plan operations is shown, as its single plan.
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
/// v1 client with it, and `file` plans (gone from the stabilized protocol)
/// for every client. Each rule is a plain function, so any of them can be
/// replaced:
///
/// ```
/// use plan_core::{PlanEntry, Status, agent::{Fallback, View}};
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
    /// Which live plans a v1 client without the plan capability is shown.
    pub view: View,
    /// One entry of an items plan onto v1's closed sets: the entry itself,
    /// borrowed, where it needs no change; `None` drops it. Default:
    /// [`Fallback::default_entry`].
    pub entry: fn(&PlanEntry) -> Option<Cow<'_, PlanEntry>>,
    /// A markdown plan as entries, for a v1 client without the plan
    /// capability. Default: its steps ([`markdown_to_entries`]: numbered
    /// steps, bullets, a checklist's items with their statuses, numbered
    /// headings, prose; see [`MarkdownSteps`](crate::client::MarkdownSteps)).
    pub markdown: fn(&str) -> Vec<PlanEntry>,
    /// What a `file` plan is sent as (its id and `_meta` are kept). Default:
    /// [`Fallback::file_as_markdown`].
    pub file: fn(&PlanId, &FileUri) -> PlanContent,
    /// A plan of a type the client does not have (custom under v1, reserved
    /// anywhere) as entries. Default: one pending entry `<type> plan <id>`.
    pub other: fn(&PlanContent) -> Vec<PlanEntry>,
}

impl Default for Fallback {
    fn default() -> Self {
        Self {
            view: View::MostRecent,
            entry: Self::default_entry,
            markdown: Self::default_markdown,
            file: Self::file_as_markdown,
            other: Self::default_other,
        }
    }
}

impl Fallback {
    /// Every default fallback, by name, with what it does: the version
    /// table's words, which `check` also gives as a [`Violation::fix`](crate::agent::Violation::fix).
    ///
    /// ```
    /// use plan_core::agent::Fallback;
    ///
    /// let (name, wording) = Fallback::RULES[0];
    /// assert_eq!(name, "cancelled-as-completed");
    /// assert!(wording.contains("(cancelled)"));
    /// ```
    pub const RULES: &'static [(&'static str, &'static str)] = &{
        let mut rules = [("", ""); crate::rules::FALLBACKS.len()];
        let mut i = 0;
        while i < rules.len() {
            rules[i] = (
                crate::rules::FALLBACKS[i].name,
                crate::rules::FALLBACKS[i].wording,
            );
            i += 1;
        }
        rules
    };

    /// The entries a v1 client without the plan capability sees for one plan.
    pub fn entries(&self, plan: &PlanContent) -> Vec<PlanEntry> {
        let entries = match plan {
            PlanContent::Items { entries, .. } => {
                return entries
                    .iter()
                    .filter_map(self.entry)
                    .map(Cow::into_owned)
                    .collect();
            }
            PlanContent::Markdown { content, .. } => (self.markdown)(content),
            PlanContent::File { id, uri, meta } => match self.file_plan(id, uri, meta.as_ref()) {
                PlanContent::File { .. } => (self.other)(plan),
                mapped => return self.entries(&mapped),
            },
            PlanContent::Custom { .. } | PlanContent::Reserved { .. } => (self.other)(plan),
        };
        // What a rule for whole plans returns is still mapped onto v1's sets.
        entries
            .iter()
            .filter_map(self.entry)
            .map(Cow::into_owned)
            .collect()
    }

    /// `plan` as a client of `kind` that reads `plan_update` is sent it: a
    /// type its row of the version table allows is kept, entries mapped onto
    /// its values (v1: [`entry`](Self::entry); v2: [`v2_entry`](Self::v2_entry));
    /// any other type as an `items` plan of the same id, entries from
    /// [`other`](Self::other). A `file` plan is kept here: the sender maps it
    /// first (see [`file`](Self::file)). The plan itself, borrowed, where
    /// nothing in it changes.
    pub fn content<'p>(&self, kind: ClientKind, plan: &'p PlanContent) -> Cow<'p, PlanContent> {
        let row = kind.rules();
        match plan {
            PlanContent::Items { entries, .. } => {
                match mapped_entries(entries, |entry| self.entry_for(kind, entry)) {
                    None => Cow::Borrowed(plan),
                    Some(entries) => Cow::Owned(items_like(plan, entries)),
                }
            }
            PlanContent::File { .. } => Cow::Borrowed(plan),
            _ if row.allows_plan_type(plan.type_name()) => Cow::Borrowed(plan),
            _ => Cow::Owned(items_like(
                plan,
                (self.other)(plan)
                    .iter()
                    .filter_map(|entry| self.entry_for(kind, entry))
                    .map(Cow::into_owned)
                    .collect(),
            )),
        }
    }

    /// An entry onto the values a client of `kind` reads.
    fn entry_for<'e>(&self, kind: ClientKind, entry: &'e PlanEntry) -> Option<Cow<'e, PlanEntry>> {
        match kind {
            ClientKind::V2 => Some(Self::v2_entry(entry)),
            ClientKind::V1 | ClientKind::V1Plan => (self.entry)(entry),
        }
    }

    /// A file plan (its parts) through [`file`](Self::file), its id and
    /// `_meta` kept.
    pub(crate) fn file_plan(&self, id: &PlanId, uri: &FileUri, meta: Option<&Meta>) -> PlanContent {
        let mapped = (self.file)(id, uri);
        match meta {
            Some(meta) => mapped.with_meta(meta.clone()),
            None => mapped,
        }
    }

    /// An entry as a v2 sender may send it: every known and custom `_x`
    /// value kept; a reserved value (read from some peer, never sendable)
    /// becomes `medium` or `pending`. An entry with no reserved value comes
    /// back borrowed.
    pub fn v2_entry(entry: &PlanEntry) -> Cow<'_, PlanEntry> {
        let reserved_priority = matches!(entry.priority, Priority::Reserved(_));
        let reserved_status = matches!(entry.status, Status::Reserved(_));
        if !reserved_priority && !reserved_status {
            return Cow::Borrowed(entry);
        }
        let mut entry = entry.clone();
        if reserved_priority {
            entry.priority = Priority::Medium;
        }
        if reserved_status {
            entry.status = Status::Pending;
        }
        Cow::Owned(entry)
    }

    /// A `file` plan as the stabilized protocol has it: a `markdown` plan of
    /// the same id. A `file:` URI whose path is absolute (`file:///home/dev/PLAN.md`,
    /// `file://localhost/...`, `file:///C:/dev/PLAN.md`) gives the markdown
    /// its `path`, percent-escapes decoded, and the content names the file;
    /// any other URI (another scheme, a remote host) is named in the content,
    /// with no `path`.
    ///
    /// Why markdown: it is the stabilized protocol's type for a plan that
    /// lives in a file (`path` is what a client opens), and its `content` is
    /// what every client shows, so a client that cannot open the file still
    /// learns where the plan is.
    ///
    /// ```
    /// use plan_core::{PlanId, agent::Fallback, wire::{FileUri, Spelling}};
    ///
    /// let plan = Fallback::file_as_markdown(
    ///     &PlanId::new("design")?,
    ///     &FileUri::new("file:///home/dev/my%20project/PLAN.md")?,
    /// );
    /// assert_eq!(
    ///     plan.to_json(Spelling::Acp),
    ///     r#"{"type":"markdown","planId":"design","content":"The plan is in `/home/dev/my project/PLAN.md`.","path":"/home/dev/my project/PLAN.md"}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn file_as_markdown(id: &PlanId, uri: &FileUri) -> PlanContent {
        match local_path(uri.as_str()).and_then(|path| AbsolutePath::new(path).ok()) {
            Some(path) => {
                let content = format!("The plan is in `{path}`.");
                PlanContent::markdown_at(id.clone(), content, path)
            }
            None => PlanContent::markdown(id.clone(), format!("The plan is at <{uri}>.")),
        }
    }

    /// A `file` plan sent as it is: for [`file`](Self::file), where a client
    /// is known to read pre-stable `file` plans (see also
    /// [`PlanSender::with_pre_stable_file`](crate::agent::PlanSender::with_pre_stable_file)).
    pub fn file_as_is(id: &PlanId, uri: &FileUri) -> PlanContent {
        PlanContent::file(id.clone(), uri.clone())
    }

    /// Priorities: known ones kept, custom ones `medium`. Statuses:
    /// `pending`, `in_progress`, `completed` kept; `cancelled` becomes
    /// `completed` with " (cancelled)" after the content (the work is over,
    /// and the reader is told why); custom ones `pending`. `_meta` is kept.
    /// An entry v1 reads as it is comes back borrowed (nothing is copied).
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use plan_core::{PlanEntry, Priority, Status, agent::Fallback};
    ///
    /// let ok = PlanEntry::new("Ship", Priority::High, Status::Pending);
    /// assert!(matches!(Fallback::default_entry(&ok), Some(Cow::Borrowed(_))));
    /// let cancelled = PlanEntry::new("Ship", Priority::High, Status::Cancelled);
    /// let mapped = Fallback::default_entry(&cancelled).unwrap();
    /// assert_eq!((mapped.content.as_ref(), &mapped.status), ("Ship (cancelled)", &Status::Completed));
    /// ```
    pub fn default_entry(entry: &PlanEntry) -> Option<Cow<'_, PlanEntry>> {
        let v1_status = matches!(
            entry.status,
            Status::Pending | Status::InProgress | Status::Completed
        );
        if entry.priority.is_v1() && v1_status {
            return Some(Cow::Borrowed(entry));
        }
        let mut entry = entry.clone();
        if !entry.priority.is_v1() {
            entry.priority = Priority::Medium;
        }
        match entry.status {
            Status::Pending | Status::InProgress | Status::Completed => {}
            Status::Cancelled => {
                entry.content = format!("{}{}", entry.content, crate::rules::CANCELLED_MARK).into();
                entry.status = Status::Completed;
            }
            Status::Custom(_) | Status::Reserved(_) => entry.status = Status::Pending,
        }
        Some(Cow::Owned(entry))
    }

    /// The steps of the markdown plan, as the agent wrote them
    /// ([`markdown_to_entries`]): at least one for any markdown with text,
    /// none for white space alone.
    ///
    /// ```
    /// use plan_core::agent::Fallback;
    ///
    /// let plan = "# Plan: fix the auth cycle\n\n## Steps\n1. Find the cycle\n2. Break it\n";
    /// let steps = Fallback::default_markdown(plan);
    /// assert_eq!(steps.len(), 2);
    /// assert_eq!(steps[1].content, "Break it");
    /// ```
    pub fn default_markdown(markdown: &str) -> Vec<PlanEntry> {
        markdown_to_entries(markdown)
    }

    /// One pending entry naming the type and the id.
    pub fn default_other(plan: &PlanContent) -> Vec<PlanEntry> {
        let text = format!("{} plan {}", plan.type_name(), plan.id());
        vec![PlanEntry::new(text, Priority::Medium, Status::Pending)]
    }
}

/// The local file-system path of a `file:` URI (`file:///p`, `file://localhost/p`),
/// percent-escapes decoded; `None` for another scheme, a remote host, or
/// escapes that are not UTF-8. `file:///C:/p` gives `C:/p`.
fn local_path(uri: &str) -> Option<String> {
    let (scheme, rest) = uri.split_once(':')?;
    if !scheme.eq_ignore_ascii_case("file") {
        return None;
    }
    let rest = rest.strip_prefix("//")?;
    let path = rest
        .strip_prefix("localhost")
        .filter(|p| p.starts_with('/'))
        .unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let mut bytes = Vec::with_capacity(path.len());
    let mut iter = path.bytes();
    while let Some(byte) = iter.next() {
        if byte == b'%' {
            let hex = [iter.next()?, iter.next()?];
            let hex = std::str::from_utf8(&hex).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
        } else {
            bytes.push(byte);
        }
    }
    let path = String::from_utf8(bytes).ok()?;
    // `/C:/dev/PLAN.md`: a Windows drive, written without the leading slash.
    let drive = path
        .as_bytes()
        .get(1..4)
        .is_some_and(|b| b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'/');
    Some(if drive { path[1..].to_owned() } else { path })
}

/// `entries` through `map`, or `None` where each comes back as itself
/// (borrowed, the same entry) and none is dropped: nothing to copy.
fn mapped_entries<'p>(
    entries: &'p [PlanEntry],
    map: impl Fn(&'p PlanEntry) -> Option<Cow<'p, PlanEntry>>,
) -> Option<Vec<PlanEntry>> {
    let mut mapped: Option<Vec<PlanEntry>> = None;
    for (index, entry) in entries.iter().enumerate() {
        let result = map(entry);
        if let (None, Some(Cow::Borrowed(same))) = (&mapped, &result)
            && std::ptr::eq(*same, entry)
        {
            continue;
        }
        let out = mapped.get_or_insert_with(|| {
            let mut out = Vec::with_capacity(entries.len());
            out.extend_from_slice(&entries[..index]);
            out
        });
        out.extend(result.map(Cow::into_owned));
    }
    mapped
}

/// An `items` plan with `plan`'s id and `_meta` and these entries.
fn items_like(plan: &PlanContent, entries: Vec<PlanEntry>) -> PlanContent {
    PlanContent::Items {
        id: plan.id().clone(),
        entries,
        meta: plan.meta().cloned(),
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::{Fallback, local_path};
    use crate::protocol::content::PlanContent;
    use crate::protocol::entry::{PlanEntry, Priority, Status};
    use crate::protocol::id::PlanId;
    use crate::protocol::naming::CustomName;
    use crate::protocol::version::ClientKind;

    /// What the fallback leaves as it is comes back borrowed (the plan
    /// itself, so the sender copies nothing); what it changes, owned.
    #[test]
    fn a_plan_the_fallback_leaves_is_given_back_borrowed() {
        let id = || PlanId::new("p").unwrap();
        let known = PlanContent::items(
            id(),
            [PlanEntry::new("a", Priority::High, Status::InProgress)],
        );
        let cancelled = PlanContent::items(
            id(),
            [
                PlanEntry::new("a", Priority::High, Status::Pending),
                PlanEntry::new("b", Priority::Low, Status::Cancelled),
            ],
        );
        let custom = PlanContent::custom(
            CustomName::new("_timeline").unwrap(),
            id(),
            serde_json::Map::new(),
        )
        .unwrap();
        let markdown = PlanContent::markdown(id(), "- [ ] a");
        let fallback = Fallback::default();
        let cases = [
            (&known, ClientKind::V1Plan, true),
            (&known, ClientKind::V2, true),
            (&cancelled, ClientKind::V1Plan, false),
            (&cancelled, ClientKind::V2, true),
            (&markdown, ClientKind::V1Plan, true),
            (&custom, ClientKind::V1Plan, false),
            (&custom, ClientKind::V2, true),
        ];
        for (plan, kind, left) in cases {
            match fallback.content(kind, plan) {
                Cow::Borrowed(same) => {
                    assert!(left && std::ptr::eq(same, plan), "{kind:?}: {plan:?}");
                }
                Cow::Owned(mapped) => assert!(!left && mapped != *plan, "{kind:?}: {plan:?}"),
            }
        }
    }

    #[test]
    fn file_uris_give_local_paths() {
        let cases = [
            ("file:///home/dev/PLAN.md", Some("/home/dev/PLAN.md")),
            ("file://localhost/tmp/p.md", Some("/tmp/p.md")),
            ("FILE:///tmp/a%20b.md", Some("/tmp/a b.md")),
            ("file:///C:/dev/PLAN.md", Some("C:/dev/PLAN.md")),
            ("file:///tmp/p.md?x=1#top", Some("/tmp/p.md")),
            ("file://server/share/p.md", None),
            ("file:relative.md", None),
            ("https://example.com/p.md", None),
            ("file:///bad%zz", None),
            ("file:///bad%ff", None),
            ("file:///cut%2", None),
        ];
        for (uri, expected) in cases {
            assert_eq!(local_path(uri).as_deref(), expected, "{uri}");
        }
    }
}
