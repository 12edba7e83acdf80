//! The small readers every type's reader shares: an object, a string, the
//! plan id under either key, a file URI, a markdown plan's `path`, `_meta`.
//! Each checks what the rules say and, in lenient reading, keeps what the
//! SDKs would keep and says so.

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;

use super::strictness::ReadNotes;
use crate::error::{Error, ErrorKind, Path, type_error};
use crate::protocol::id::{AbsolutePath, FileUri, PlanId};
use crate::protocol::spelling::Spelling;
use crate::rules;

pub(crate) fn expect_string(value: Value, at: &Path<'_>) -> Result<String, Error> {
    match value {
        Value::String(s) => Ok(s),
        other => Err(type_error(at, "a string", &other)),
    }
}

/// The plan id's value under whichever key it came, and that key's
/// spelling: exactly one of the two spellings must be there.
pub(crate) fn one_plan_id<V>(
    rfd_value: Option<V>,
    acp_value: Option<V>,
    at: &Path<'_>,
) -> Result<(Spelling, V), Error> {
    let (rfd, acp) = (Spelling::Rfd.plan_id_key(), Spelling::Acp.plan_id_key());
    match (rfd_value, acp_value) {
        (Some(_), Some(_)) => Err(at.error(ErrorKind::BothSpellings { rfd, acp })),
        (Some(v), None) => Ok((Spelling::Rfd, v)),
        (None, Some(v)) => Ok((Spelling::Acp, v)),
        (None, None) => Err(at.error(ErrorKind::MissingEither { rfd, acp })),
    }
}

/// A plan id read from a message: checked; lenient reading keeps a blank
/// one (the SDKs read any string) and reports it.
pub(crate) fn plan_id(id: String, reading: &mut ReadNotes, at: &Path<'_>) -> Result<PlanId, Error> {
    checked(id, rules::check_plan_id, reading, at).map(PlanId::new_unchecked)
}

/// A file URI read from a message: checked; lenient reading keeps one that
/// is not an RFC 3986 URI (the SDKs read any string) and reports it.
pub(crate) fn file_uri(
    uri: String,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<FileUri, Error> {
    checked(uri, rules::check_uri, reading, at).map(FileUri::new_unchecked)
}

/// A markdown plan's `path` read from a message: absent or `null` is no
/// file; a string is checked, and lenient reading keeps a relative one (the
/// SDKs read any string) and reports it; anything else is an error.
pub(crate) fn markdown_path(
    value: Option<Value>,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<Option<AbsolutePath>, Error> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(value) => {
            let at = at.key(rules::KEY_PATH);
            let path = expect_string_or_null(value, &at)?;
            checked(path, rules::check_absolute_path, reading, &at)
                .map(|path| Some(AbsolutePath::new_unchecked(path)))
        }
    }
}

/// A string, or the "expected a string or null" error.
fn expect_string_or_null(value: Value, at: &Path<'_>) -> Result<String, Error> {
    match value {
        Value::String(s) => Ok(s),
        other => Err(type_error(at, "a string or null", &other)),
    }
}

/// `text` if it passes `rule`, or if lenient reading lets it through.
fn checked<P: fmt::Display>(
    text: String,
    rule: fn(&str) -> Result<(), P>,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<Cow<'static, str>, Error> {
    if let Err(problem) = rule(&text) {
        reading.let_through(at.invalid(problem))?;
    }
    Ok(owned(text))
}

/// Turns owned text into the `Cow` our types store.
pub(crate) fn owned(s: String) -> Cow<'static, str> {
    Cow::Owned(s)
}

// ---- writing helpers -------------------------------------------------------
