//! Strict and lenient reading: the mode a reader runs in ([`Strictness`], and
//! [`ReadNotes`], its state), what lenient reading drops or lets through
//! ([`Skipped`]), the key a plan id was read under ([`PlanIdKey`]), and the
//! value read with all of that ([`Parsed`]).

use std::fmt;

use crate::error::{Error, Path};
use crate::protocol::spelling::Spelling;

/// A rule lenient reading skipped instead of failing the message: the value
/// that broke it was dropped (see [`Strictness::Lenient`] for what is), or
/// let through because the published SDKs read it (an empty plan id, a file
/// URI with a space): then [`let_through`](Self::let_through) is `true`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    path: String,
    reason: String,
    let_through: bool,
}

impl Skipped {
    /// Where the value was, e.g. `params.update.plan.entries[0]`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong with it: the error strict reading would have reported.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// `true` if the value was kept as it came (the SDKs read it), `false`
    /// if it was dropped.
    pub fn let_through(&self) -> bool {
        self.let_through
    }
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if self.let_through {
            "let through"
        } else {
            "skipped"
        };
        write!(f, "{verb} `{}`: {}", self.path, self.reason)
    }
}

/// How a message is read: rejected at its first malformed part, or read as
/// the published SDKs read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strictness {
    /// Any malformed part fails the message (`from_json`). The default.
    #[default]
    Strict,
    /// Follows the hints the public ACP schema gives SDKs and drops, instead
    /// of failing:
    /// - a malformed entry inside `entries` (`x-deserialize-skip-invalid-items`);
    /// - a `_meta` that is not an object or `null` (`x-deserialize-default-on-error`);
    /// - a plan capability that is not an object or `null` (read as absent).
    ///
    /// and keeps, reporting each as [`Skipped::let_through`], what breaks a rule of
    /// ours that the SDKs do not enforce on reading: an empty or blank plan
    /// id, a file URI that is not an RFC 3986 URI, a relative markdown `path`.
    ///
    /// Everything else (a missing plan id, `entries` that is not an array, a
    /// known plan type without its fields) is an error in both modes.
    Lenient,
}

/// The key a plan id was read under: where it was, and which spelling's key
/// it is (`planId`, the ACP spelling; `id`, the RFD's, which no published
/// SDK reads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanIdKey {
    path: String,
    spelling: Spelling,
}

impl PlanIdKey {
    /// Where the plan id was, key included, e.g. `params.update.plan.id`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The spelling whose key it was under.
    pub fn spelling(&self) -> Spelling {
        self.spelling
    }
}

/// A value read, with what reading saw on the way: what lenient reading
/// dropped or let through, and the key its plan id was under.
///
/// `parse(text, strictness)` gives it in either [`Strictness`]; `from_json_lenient` is
/// `parse(text, Strictness::Lenient)`.
///
/// ```
/// use plan_core::{SessionNotification, SessionUpdate, wire::{Strictness, Spelling}};
///
/// let read = SessionUpdate::parse(r#"{"sessionUpdate":"plan_removed","id":"p"}"#, Strictness::Strict)?;
/// let key = read.plan_id.expect("a plan id was read");
/// assert_eq!((key.path(), key.spelling()), ("id", Spelling::Rfd));
///
/// // A parsed value reads the same, where it is in the message.
/// let line = serde_json::json!({"jsonrpc": "2.0", "method": "session/update", "params": {
///     "sessionId": "s", "update": {"sessionUpdate": "plan_update",
///     "plan": {"type": "items", "planId": "p", "entries": [7]}}}});
/// let read = SessionNotification::parse_value(line, Strictness::Lenient)?;
/// let key = read.plan_id.expect("a plan id was read");
/// assert_eq!((key.path(), key.spelling()), ("params.update.plan.planId", Spelling::Acp));
/// assert_eq!(read.skipped[0].path(), "params.update.plan.entries[0]");
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<T> {
    /// The value read.
    pub value: T,
    /// What lenient reading dropped or let through, in message order. Empty
    /// when strict, and when strict reading would have succeeded too.
    pub skipped: Vec<Skipped>,
    /// The key the message's plan id was read under; `None` for a message
    /// without one (a list of entries, another update, capabilities).
    pub plan_id: Option<PlanIdKey>,
}

/// What a reading notes as it goes: whether it is lenient, what it
/// skipped so far, and the key the plan id came under.
pub(crate) struct ReadNotes {
    lenient: bool,
    skipped: Vec<Skipped>,
    plan_id: Option<PlanIdKey>,
}

impl ReadNotes {
    pub(crate) fn new(strictness: Strictness) -> Self {
        Self {
            lenient: strictness == Strictness::Lenient,
            skipped: Vec::new(),
            plan_id: None,
        }
    }

    pub(crate) fn strict() -> Self {
        Self::new(Strictness::Strict)
    }

    /// Records the key a plan id was read under (the first one: a message
    /// holds one plan id).
    pub(crate) fn saw_plan_id(&mut self, at: &Path<'_>, spelling: Spelling) {
        if self.plan_id.is_none() {
            self.plan_id = Some(PlanIdKey {
                path: at.render(),
                spelling,
            });
        }
    }

    /// When lenient, records `err` as skipped and returns `None`; when
    /// strict, returns the error.
    pub(crate) fn skip_or_fail<T>(&mut self, err: Error) -> Result<Option<T>, Error> {
        self.record(err, false)?;
        Ok(None)
    }

    /// When lenient, records `err` as let through (the value is kept);
    /// when strict, returns the error.
    pub(crate) fn let_through(&mut self, err: Error) -> Result<(), Error> {
        self.record(err, true)
    }

    fn record(&mut self, err: Error, let_through: bool) -> Result<(), Error> {
        if self.lenient {
            let reason = err.kind().to_string();
            self.skipped.push(Skipped {
                path: err.path().to_owned(),
                reason,
                let_through,
            });
            Ok(())
        } else {
            Err(err)
        }
    }

    pub(crate) fn into_skipped(self) -> Vec<Skipped> {
        self.skipped
    }

    /// `value` with what this reading saw.
    pub(crate) fn into_parsed<T>(self, value: T) -> Parsed<T> {
        Parsed {
            value,
            skipped: self.skipped,
            plan_id: self.plan_id,
        }
    }
}
