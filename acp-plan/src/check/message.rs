//! What both judges (`files.rs`, recorded lines; `conformance/`, a live
//! agent's) ask of a line: read once by plan-core's readers, it is either a
//! plan message (a `session/update` notification, an update alone, plan
//! content alone) or another JSON-RPC message; and a plan id in the RFD
//! spelling is a finding.

use plan_core::agent::Violation;
use plan_core::wire::{Message, MessageCheck, Mode, Parsed, Shape, Spelling};
use plan_core::{Error, PlanContent, SessionNotification, SessionUpdate};

use super::rule::ACP_SPELLING;

/// One line, read once: the envelope reader routes it, and the typed reader
/// of its form reads it.
pub(crate) enum Line<'a> {
    /// A JSON-RPC message other than a `session/update` notification, or a
    /// broken one that is no plan message: what the envelope reader saw.
    Other(MessageCheck<'a>),
    /// A plan message, read in the judge's mode (or why it cannot be).
    Plan(Result<Parsed<PlanMessage>, Error>),
}

/// A plan message in the form it came in.
pub(crate) enum PlanMessage {
    /// A whole `session/update` notification.
    Notification(SessionNotification),
    /// An update alone.
    Update(SessionUpdate),
    /// Plan content alone.
    Content(PlanContent),
}

impl PlanMessage {
    /// The update it carries (plan content alone is a `plan_update`).
    pub(crate) fn update(&self) -> std::borrow::Cow<'_, SessionUpdate> {
        use std::borrow::Cow;
        match self {
            Self::Notification(n) => Cow::Borrowed(&n.update),
            Self::Update(u) => Cow::Borrowed(u),
            Self::Content(c) => Cow::Owned(SessionUpdate::plan_update(c.clone())),
        }
    }
}

/// Reads `text` once: the envelope reader says what it is by its keys, and
/// a plan message goes to its typed reader in `mode`. A `session/update`
/// with an id, or any other JSON-RPC message, is `Other`. A text of no known
/// form goes to the notification reader, whose error says what is missing.
pub(crate) fn read_line(text: &str, mode: Mode) -> Line<'_> {
    let (envelope, other) = route(text);
    if other {
        return Line::Other(envelope);
    }
    let plan = match envelope.shape {
        Shape::Update => {
            SessionUpdate::parse(text, mode).map(|read| map(read, PlanMessage::Update))
        }
        Shape::Content => {
            PlanContent::parse(text, mode).map(|read| map(read, PlanMessage::Content))
        }
        // A notification, or anything else: its error says what a
        // notification misses.
        _ => {
            SessionNotification::parse(text, mode).map(|read| map(read, PlanMessage::Notification))
        }
    };
    Line::Plan(plan)
}

/// What the envelope reader says of `text`, and whether it is a JSON-RPC
/// message judged by its envelope alone: anything but a `session/update`
/// notification (a request of that method, or a message whose kind cannot
/// be told, included).
pub(crate) fn route(text: &str) -> (MessageCheck<'_>, bool) {
    let envelope = Message::check(text);
    let session_update = envelope
        .message
        .as_ref()
        .is_some_and(Message::is_session_update);
    // Text that is not JSON at all is no plan message either: its envelope
    // problem (not JSON) is its finding, and it counts as no plan judged.
    let not_json = envelope.shape == Shape::Unknown
        && envelope
            .problems
            .first()
            .is_some_and(|e| matches!(e.kind(), plan_core::ErrorKind::Syntax { .. }));
    let other = (envelope.shape == Shape::JsonRpc && !session_update) || not_json;
    (envelope, other)
}

/// A read plan message in its form.
fn map<T>(read: Parsed<T>, form: impl FnOnce(T) -> PlanMessage) -> Parsed<PlanMessage> {
    Parsed {
        value: form(read.value),
        skipped: read.skipped,
        plan_id: read.plan_id,
    }
}

/// Whether an update is about plans (`plan`, `plan_update`, `plan_removed`).
pub(crate) fn is_plan(update: &SessionUpdate) -> bool {
    matches!(
        update,
        SessionUpdate::Plan(_)
            | SessionUpdate::PlanUpdate { .. }
            | SessionUpdate::PlanRemoved { .. }
    )
}

/// A plan id the reader found under the RFD's key (`id`), which no
/// published SDK reads.
pub(crate) fn rfd_spelling<T>(read: &Parsed<T>) -> Option<Violation> {
    let key = read.plan_id.as_ref()?;
    (key.spelling() == Spelling::Rfd).then(|| {
        Violation::new(
            key.path().to_owned(),
            ACP_SPELLING,
            "`id` is the RFD spelling of the plan id, which no published SDK reads (they require `planId`); write `planId`",
        )
    })
}
