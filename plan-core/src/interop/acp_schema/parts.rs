//! The parts both versions' conversions are made of: [`ConversionError`],
//! and the crossings of text, plan ids, paths, `_meta` and the updates that
//! are not about plans, each written once for `v1.rs` and `v2.rs`.

use std::borrow::Cow;
use std::fmt;

use serde_json::{Map, Value};

use crate::codec::Spelling;
use crate::codec::strictness::ReadNotes;
use crate::error::Error;
use crate::error::Path;
#[cfg(feature = "acp")]
use crate::protocol::id::FileUri;
use crate::protocol::id::PlanId;
use crate::protocol::meta::Meta;
use crate::protocol::update::SessionUpdate;

/// A value that cannot be converted: v1 has no equivalent, or the other
/// side's reader refused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionError {
    path: String,
    message: String,
}

impl ConversionError {
    pub(super) fn at(path: &Path<'_>, message: impl fmt::Display) -> Self {
        Self {
            path: path.render(),
            message: message.to_string(),
        }
    }

    /// Where in the value the problem is (`""` for the value as a whole).
    pub fn path(&self) -> &str {
        &self.path
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at `{}`: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ConversionError {}

impl From<Error> for ConversionError {
    fn from(err: Error) -> Self {
        Self {
            path: err.path().to_owned(),
            message: err.kind().to_string(),
        }
    }
}

pub(super) fn their_error(err: &serde_json::Error) -> ConversionError {
    ConversionError {
        path: String::new(),
        message: format!("the published crate cannot read it: {err}"),
    }
}

/// Both crates' `_meta` is an object: ours kept as text, theirs a map.
/// `null` is absent in theirs.
pub(super) fn their_meta(meta: Option<&Meta>) -> Option<Map<String, Value>> {
    meta.and_then(Meta::to_object)
}

pub(super) fn our_meta(meta: impl TakePart<Option<Map<String, Value>>>) -> Option<Meta> {
    meta.take_part().map(Meta::new)
}

/// A part of a value, as a conversion takes it: moved out of a value taken
/// whole, cloned out of a borrowed one. The one difference between the
/// owned and the borrowed conversions (see `v1.rs`'s `stamp!`).
pub(super) trait TakePart<T> {
    fn take_part(self) -> T;
}

impl<T> TakePart<T> for T {
    fn take_part(self) -> T {
        self
    }
}

impl<T: Clone> TakePart<T> for &T {
    fn take_part(self) -> T {
        self.clone()
    }
}

/// A text of ours as theirs: moved when it is owned and ours is taken
/// whole, else copied once.
pub(super) fn their_text(text: impl TakePart<Cow<'static, str>>) -> String {
    text.take_part().into_owned()
}

/// A text of theirs as ours: moved when theirs is taken whole, else copied
/// once.
pub(super) fn our_text(text: impl TakePart<String>) -> Cow<'static, str> {
    Cow::Owned(text.take_part())
}

/// A plan id from theirs (any string) checked as our strict reader checks it.
pub(super) fn our_plan_id(id: &str, at: &Path<'_>) -> Result<PlanId, ConversionError> {
    Ok(crate::codec::fields::plan_id(
        id.to_owned(),
        &mut ReadNotes::strict(),
        at,
    )?)
}

#[cfg(feature = "acp")]
pub(super) fn our_uri(uri: &str, at: &Path<'_>) -> Result<FileUri, ConversionError> {
    Ok(crate::codec::fields::file_uri(
        uri.to_owned(),
        &mut ReadNotes::strict(),
        at,
    )?)
}

/// An update that is not about plans: the one place a JSON value crosses
/// (such updates are kept whole as JSON on our side).
pub(super) fn their_other<T: serde_core::de::DeserializeOwned>(
    update: &SessionUpdate,
) -> Result<T, ConversionError> {
    serde_json::from_value(update.to_value(Spelling::Acp)).map_err(|e| their_error(&e))
}

pub(super) fn our_other<T: serde_core::Serialize>(
    update: &T,
) -> Result<SessionUpdate, ConversionError> {
    let value = serde_json::to_value(update).map_err(|e| their_error(&e))?;
    Ok(SessionUpdate::from_value(value)?)
}

/// Our `file` plan, which the stabilized protocol no longer has.
#[cfg(not(feature = "acp"))]
pub(super) fn no_file(at: &Path<'_>) -> ConversionError {
    ConversionError::at(
        &at.key(crate::rules::KEY_TYPE),
        "the plan type `file` left the protocol when plans were stabilized \
         (2026-11-20): send a `markdown` plan with the file's `path`",
    )
}

/// A markdown plan's `path`, which the SDK's pre-stable schema cannot hold.
#[cfg(feature = "acp")]
pub(super) fn no_path(at: &Path<'_>) -> ConversionError {
    ConversionError::at(
        &at.key(crate::rules::KEY_PATH),
        "the SDK's schema (1.17.0 and older) has no markdown `path`; send \
         plan-core's notification through the SDK as it is (it keeps the path), \
         or clear the path first",
    )
}

/// A markdown plan's path from theirs (any path), checked as our strict
/// reader checks it: absolute, and text.
#[cfg(not(feature = "acp"))]
pub(super) fn our_path(
    path: Option<&std::path::Path>,
    at: &Path<'_>,
) -> Result<Option<crate::protocol::id::AbsolutePath>, ConversionError> {
    let Some(path) = path else { return Ok(None) };
    let Some(text) = path.to_str() else {
        return Err(ConversionError::at(
            &at.key(crate::rules::KEY_PATH),
            format_args!("the path {path:?} is not UTF-8, which JSON cannot carry"),
        ));
    };
    Ok(crate::codec::fields::markdown_path(
        Some(Value::String(text.to_owned())),
        &mut ReadNotes::strict(),
        at,
    )?)
}

/// Converts each item of a list (a `Vec`, or a borrowed one), its path
/// `at[i]`, into a vector of the right size: in the list's own allocation
/// when the list is taken whole and a converted item fits in an item's
/// place (the standard library's `collect` then reuses it), else reserved
/// up front (collecting `Result`s into a new list would grow it step by
/// step).
pub(super) fn convert_all<L, U>(
    items: L,
    at: &Path<'_>,
    convert: impl Fn(L::Item, &Path<'_>) -> Result<U, ConversionError>,
) -> Result<Vec<U>, ConversionError>
where
    L: IntoIterator<IntoIter: ExactSizeIterator>,
{
    let items = items.into_iter();
    if size_of::<U>() <= size_of::<L::Item>() && align_of::<U>() == align_of::<L::Item>() {
        return items
            .enumerate()
            .map(|(i, item)| convert(item, &at.index(i)))
            .collect();
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.enumerate() {
        out.push(convert(item, &at.index(i))?);
    }
    Ok(out)
}

/// A name of theirs that is not one of the known ones of this crate version.
pub(super) fn unknown(at: &Path<'_>, what: &str, name: &impl fmt::Debug) -> ConversionError {
    ConversionError::at(
        at,
        format_args!("the {what} {name:?} is not one plan-core knows"),
    )
}

/// The path of the update in a notification, for errors.
pub(super) fn in_params<T>(
    convert: impl FnOnce(&Path<'_>) -> Result<T, ConversionError>,
) -> Result<T, ConversionError> {
    let params = Path::Root.key(crate::rules::KEY_PARAMS);
    convert(&params.key(crate::rules::KEY_UPDATE))
}
