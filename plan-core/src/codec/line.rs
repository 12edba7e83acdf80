//! One line of a conversation, a recording or a fixture, read once: the
//! envelope reader splits it into its parts (borrowed from the text), and
//! the typed reader of its form reads the part that is a plan message, and
//! nothing else. No byte of the line goes to two readers of values.

use std::borrow::Cow;

use crate::codec::content::content_members;
use crate::codec::envelope::{self, Member, MessageRead, Shape};
use crate::codec::notification::{notification_members, params_text};
use crate::codec::strictness::{Parsed, ReadNotes, Strictness};
use crate::codec::update::update_members;
use crate::error::{Error, ErrorKind};
use crate::protocol::content::PlanContent;
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::SessionUpdate;
use crate::rules::KEY_PARAMS;

/// One line, read once: what its envelope is, and the plan message it
/// carries, if it is one. What a client reads from an agent, and what a
/// checker of recordings reads from a file, where an update or plan content
/// may also stand alone.
///
/// ```
/// use plan_core::wire::{Line, Strictness, PlanMessage};
///
/// let text = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#;
/// let line = Line::read(text, Strictness::Strict);
/// assert!(line.envelope.problems.is_empty());
/// let plan = line.plan.expect("a session/update")?;
/// assert!(matches!(plan.value, PlanMessage::Notification(_)));
///
/// // Any other message is its envelope alone.
/// let line = Line::read(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, Strictness::Strict);
/// assert!(line.plan.is_none());
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Line<'a> {
    /// What the envelope reader saw: the message, its id, every problem of
    /// its envelope, its shape.
    pub envelope: MessageRead<'a>,
    /// The plan message, read in the strictness asked (or why it cannot be):
    /// for a `session/update` notification (an envelope problem is its
    /// error), an update alone, plan content alone, and any other object,
    /// read as a notification so that its error says what one misses.
    /// `None` for another JSON-RPC message and for text that is not JSON:
    /// the envelope says all there is.
    pub plan: Option<Result<Parsed<PlanMessage>, Error>>,
}

/// A plan message in the form it came in.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PlanMessage {
    /// A whole `session/update` notification.
    Notification(SessionNotification),
    /// An update alone.
    Update(SessionUpdate),
    /// Plan content alone.
    Content(PlanContent),
}

impl PlanMessage {
    /// The update it carries (plan content alone is a `plan_update`).
    pub fn update(&self) -> Cow<'_, SessionUpdate> {
        match self {
            Self::Notification(n) => Cow::Borrowed(&n.update),
            Self::Update(u) => Cow::Borrowed(u),
            Self::Content(c) => Cow::Owned(SessionUpdate::plan_update(c.clone())),
        }
    }
}

impl Parsed<PlanMessage> {
    /// The notification it is, with what reading saw; `None` for an update
    /// or plan content alone (never so for [`Line::read_message`]).
    pub fn into_notification(self) -> Option<Parsed<SessionNotification>> {
        let Parsed {
            value,
            skipped,
            plan_id,
        } = self;
        match value {
            PlanMessage::Notification(value) => Some(Parsed {
                value,
                skipped,
                plan_id,
            }),
            PlanMessage::Update(_) | PlanMessage::Content(_) => None,
        }
    }
}

impl<'a> Line<'a> {
    /// Reads a line of a recording or a fixture once, in `strictness`, where an
    /// update or plan content may stand alone: see [`Line`].
    pub fn read(text: &'a str, strictness: Strictness) -> Self {
        Self::read_as(text, strictness, Forms::Alone)
    }

    /// Reads a line a peer sent once, in `strictness`: every line of a
    /// conversation is a JSON-RPC message, so an update or plan content
    /// alone is read as a notification too, and its error says what it
    /// misses.
    pub fn read_message(text: &'a str, strictness: Strictness) -> Self {
        Self::read_as(text, strictness, Forms::Messages)
    }

    fn read_as(text: &'a str, strictness: Strictness, forms: Forms) -> Self {
        let mut members = Vec::new();
        let envelope = envelope::read_keeping(text, Some(&mut members));
        let mut reading = ReadNotes::new(strictness);
        let plan = plan(&envelope, members, text, forms, &mut reading)
            .map(|read| read.map(|value| reading.into_parsed(value)));
        Line { envelope, plan }
    }
}

/// Which forms a line may take.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Forms {
    /// A message, an update alone or plan content alone (a recording).
    Alone,
    /// A message only (a conversation).
    Messages,
}

/// The plan message of a line whose envelope reads `envelope`, from the
/// members it was split into.
fn plan(
    envelope: &MessageRead<'_>,
    members: Vec<Member<'_>>,
    text: &str,
    forms: Forms,
    reading: &mut ReadNotes,
) -> Option<Result<PlanMessage, Error>> {
    let read = match envelope.shape {
        Shape::JsonRpc => {
            let message = envelope.message.as_ref()?;
            if !message.is_session_update() {
                return None;
            }
            match (envelope.problems.first(), message.params()) {
                (Some(problem), _) => Err(problem.clone()),
                (None, None) => Err(crate::error::Path::Root.missing(KEY_PARAMS)),
                (None, Some(params)) => {
                    params_text(params.get(), reading).map(PlanMessage::Notification)
                }
            }
        }
        Shape::Update if forms == Forms::Alone => {
            update_members(members, reading).map(PlanMessage::Update)
        }
        Shape::Content if forms == Forms::Alone => {
            content_members(members, reading).map(PlanMessage::Content)
        }
        Shape::Update | Shape::Content | Shape::Unknown => match envelope.problems.first() {
            Some(e) if matches!(e.kind(), ErrorKind::Syntax { .. }) => return None,
            Some(e) if !text.trim_start().starts_with('{') => Err(e.clone()),
            _ => notification_members(members, reading).map(PlanMessage::Notification),
        },
    };
    Some(read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::spelling::Spelling;

    /// What reading the whole text again with the typed reader of its form
    /// gives: what `Line::read` must give from the parts, once.
    fn read_whole(text: &str, strictness: Strictness) -> Result<Parsed<PlanMessage>, Error> {
        let envelope = envelope::read_keeping(text, None);
        match envelope.shape {
            Shape::Update => map(SessionUpdate::parse(text, strictness), PlanMessage::Update),
            Shape::Content => map(PlanContent::parse(text, strictness), PlanMessage::Content),
            _ => map(
                SessionNotification::parse(text, strictness),
                PlanMessage::Notification,
            ),
        }
    }

    fn map<T>(
        read: Result<Parsed<T>, Error>,
        form: fn(T) -> PlanMessage,
    ) -> Result<Parsed<PlanMessage>, Error> {
        read.map(|read| Parsed {
            value: form(read.value),
            skipped: read.skipped,
            plan_id: read.plan_id,
        })
    }

    const PLAN_LINES: &[&str] = &[
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}}}"#,
        // Keys in another order, params first, the tag last.
        r#"{"params":{"update":{"entries":[],"sessionUpdate":"plan"},"sessionId":"s"},"method":"session/update","jsonrpc":"2.0"}"#,
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"items","id":"p1","entries":[]}}}}"#,
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}"#,
        // A malformed entry: dropped when lenient, an error when strict.
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a"}]}}}"#,
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":1,"update":{}}}"#,
        r#"{"jsonrpc":"2.0","method":"session/update"}"#,
        r#"{"sessionUpdate":"plan","entries":[]}"#,
        r#"{"entries":[],"sessionUpdate":"plan"}"#,
        r#"{"planId":"p","entries":[{"content":"x","priority":"low","status":"done"}],"type":"items"}"#,
        r#"{"type":"markdown","planId":"p","content":"- [ ] a","path":"relative.md"}"#,
        r#"{"type":"items","id":"p","entries":[]}"#,
        r#"{"planId":"p"}"#,
        "{}",
    ];

    #[test]
    fn a_plan_line_read_once_is_what_reading_it_whole_gives() {
        for text in PLAN_LINES {
            for strictness in [Strictness::Strict, Strictness::Lenient] {
                let once = Line::read(text, strictness).plan.expect("a plan line");
                let whole = read_whole(text, strictness);
                match (&once, &whole) {
                    (Ok(once), Ok(whole)) => {
                        assert_eq!(once.value, whole.value, "{text}");
                        assert_eq!(once.skipped, whole.skipped, "{text}");
                        assert_eq!(once.plan_id, whole.plan_id, "{text}");
                    }
                    (Err(once), Err(whole)) => {
                        assert_eq!(once.to_string(), whole.to_string(), "{text}");
                    }
                    _ => panic!("{text} in {strictness:?}: once {once:?}, whole {whole:?}"),
                }
            }
        }
    }

    #[test]
    fn the_plan_id_key_is_where_it_was_in_the_line() {
        let text = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_removed","id":"p1"}}}"#;
        let read = Line::read(text, Strictness::Strict).plan.unwrap().unwrap();
        let key = read.plan_id.unwrap();
        assert_eq!(key.path(), "params.update.id");
        assert_eq!(key.spelling(), Spelling::Rfd);
    }

    #[test]
    fn other_messages_and_text_that_is_not_json_carry_no_plan() {
        for text in [
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}"#,
            // A `session/update` with an id is a request, not a plan message.
            r#"{"jsonrpc":"2.0","id":1,"method":"session/update","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update""#,
            "not json",
        ] {
            let line = Line::read(text, Strictness::Lenient);
            assert!(line.plan.is_none(), "{text}");
        }
        let line = Line::read("not json", Strictness::Lenient);
        assert!(matches!(
            line.envelope.problems[0].kind(),
            ErrorKind::Syntax { .. }
        ));
    }

    #[test]
    fn an_envelope_problem_is_the_plan_messages_error() {
        let text = r#"{"jsonrpc":"1.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#;
        let line = Line::read(text, Strictness::Lenient);
        let err = line.plan.unwrap().unwrap_err();
        assert_eq!(err, line.envelope.problems[0]);
        assert!(err.to_string().contains("jsonrpc"), "{err}");
        // Not an object at all: its envelope problem.
        let line = Line::read("[1]", Strictness::Lenient);
        assert_eq!(line.plan.unwrap().unwrap_err(), line.envelope.problems[0]);
    }

    #[test]
    fn a_peers_line_is_a_message_or_an_error() {
        for text in [
            r#"{"sessionUpdate":"plan","entries":[]}"#,
            r#"{"type":"items","planId":"p","entries":[]}"#,
        ] {
            let err = Line::read_message(text, Strictness::Lenient)
                .plan
                .unwrap()
                .unwrap_err();
            let whole = SessionNotification::from_json(text).unwrap_err();
            assert_eq!(err.to_string(), whole.to_string());
            assert!(Line::read(text, Strictness::Lenient).plan.unwrap().is_ok());
        }
    }

    #[test]
    fn plan_content_alone_is_a_plan_update() {
        let text = r#"{"type":"items","planId":"p","entries":[]}"#;
        let read = Line::read(text, Strictness::Strict).plan.unwrap().unwrap();
        assert!(matches!(
            read.value.update().as_ref(),
            SessionUpdate::PlanUpdate { .. }
        ));
    }
}
