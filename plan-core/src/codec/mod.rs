//! Reading and writing JSON: the two spellings, strict and lenient reading,
//! and the helpers every type's reader and writer share.
//!
//! Each wire type implements [`Members`] once (the one writer: its members,
//! with the [`Spelling`] as a parameter, put out as text or through serde)
//! and [`Readable`] (its reading, which accepts both spellings). [`wire_methods!`] then gives every type the
//! same public surface (`from_json`, `to_json`, `Serialize`, `Deserialize`, ...).

use std::borrow::Cow;
use std::fmt;

use serde::ser::{SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorKind, Path};
use crate::protocol::id::{AbsolutePath, FileUri, PlanId};
use crate::protocol::meta::Meta;
pub(crate) use crate::protocol::spelling::Spelling;
use crate::rules;
pub(crate) use reading::Reading;
pub use reading::{Mode, Parsed, PlanIdKey, Skipped};

// First: the reading engine's macros (the seed shape) are for the message
// files after it.
#[macro_use]
pub(crate) mod read;

pub(crate) mod capabilities;
pub(crate) mod content;
pub(crate) mod custom;
pub(crate) mod entry;
pub(crate) mod envelope;
pub(crate) mod initialize;
#[cfg(test)]
pub(crate) mod layout_tests;
#[cfg(all(test, feature = "macros"))]
mod macro_tests;
pub(crate) mod notification;
pub(crate) mod reading;
pub(crate) mod text_writer;
pub(crate) mod update;
pub(crate) mod writer;

pub(crate) use writer::{Members, Out, Spelled};

/// One wire type: written in a chosen spelling through its [`Members`] (the
/// one writer, `writer.rs`), read in either.
pub(crate) trait Readable: Members + Sized {
    /// Reads a value; `at` is where `value` sits in the whole message.
    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error>;

    /// Reads JSON text. By default through a `Value`; the message types
    /// override it with the one reader (their visitors, `codec/read/`'s engine).
    fn read_str(json: &str, reading: &mut Reading) -> Result<Self, Error> {
        let value: Value = serde_json::from_str(json).map_err(|e| Error::syntax(&e))?;
        Self::read(value, reading, &Path::Root)
    }
}

/// The bytes as text, or an error saying where they stop being UTF-8.
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(bytes).map_err(|e| {
        Path::Root.invalid(format_args!(
            "the message is not UTF-8 text: invalid byte at offset {}",
            e.valid_up_to()
        ))
    })
}

/// Writes `value` as compact JSON, into a buffer sized up front
/// (`text_writer::size`: one allocation unless a string needs escapes). Our
/// types hold only strings, numbers and JSON values with string keys, which
/// `serde_json` always serializes.
pub(crate) fn to_json<T: Members>(value: &T, spelling: Spelling) -> String {
    let mut out = Vec::with_capacity(text_writer::size(value, spelling));
    text_writer::object(value, spelling, &mut out)
        .unwrap_or_else(|e| unreachable!("writing to a Vec cannot fail: {e}"));
    String::from_utf8(out).unwrap_or_else(|e| unreachable!("the writers write UTF-8: {e}"))
}

/// Gives a [`Readable`] type its public reading and writing methods and its serde impls.
///
/// Why a macro (and the only one that writes public methods): ten methods
/// and two serde impls on each of five wire types, which must be inherent
/// (users call `SessionUpdate::from_json(..)` with no trait to import) and
/// documented per type. A generic impl cannot add inherent methods to
/// several types, and serde's traits cannot be implemented for every
/// `T: Readable` (the orphan rule). Each method is one line calling a generic
/// function of this module, where go-to-definition lands for the logic.
macro_rules! wire_methods {
    ($ty:ty, $what:literal) => {
        impl $ty {
            #[doc = concat!("Reads ", $what, " from JSON text, in either spelling.")]
            ///
            /// # Errors
            /// [`Error`](crate::Error) if the text is not JSON or breaks the
            /// protocol; the error says where.
            pub fn from_json(json: &str) -> Result<Self, $crate::error::Error> {
                <Self as $crate::codec::Readable>::read_str(json, &mut $crate::codec::Reading::strict())
            }

            #[doc = concat!("Reads ", $what, " from bytes of JSON text (what a transport hands over).")]
            ///
            /// # Errors
            /// [`Error`](crate::Error) if the bytes are not UTF-8 (saying where),
            /// not JSON, or break the protocol.
            pub fn from_slice(json: &[u8]) -> Result<Self, $crate::error::Error> {
                Self::from_json($crate::codec::utf8(json)?)
            }

            #[doc = concat!("Reads ", $what, " from JSON text, dropping malformed parts")]
            /// where the protocol allows; see [`Mode::Lenient`](crate::wire::Mode::Lenient).
            ///
            /// # Errors
            /// [`Error`](crate::Error) for mistakes lenient reading does not drop.
            pub fn from_json_lenient(json: &str) -> Result<$crate::codec::Parsed<Self>, $crate::error::Error> {
                Self::parse(json, $crate::codec::Mode::Lenient)
            }

            #[doc = concat!("Reads ", $what, " from JSON text in `mode`, with what reading saw:")]
            /// what lenient reading dropped, and the key the plan id was
            /// read under (see [`Parsed`](crate::wire::Parsed)).
            ///
            /// # Errors
            /// As [`from_json`](Self::from_json) in strict mode,
            /// [`from_json_lenient`](Self::from_json_lenient) in lenient mode.
            pub fn parse(json: &str, mode: $crate::codec::Mode) -> Result<$crate::codec::Parsed<Self>, $crate::error::Error> {
                let mut reading = $crate::codec::Reading::new(mode);
                let value = <Self as $crate::codec::Readable>::read_str(json, &mut reading)?;
                Ok(reading.into_parsed(value))
            }

            #[doc = concat!("Reads ", $what, " from a parsed JSON value, in either spelling.")]
            ///
            /// # Errors
            /// [`Error`](crate::Error) if the value breaks the protocol; the error says where.
            pub fn from_value(value: ::serde_json::Value) -> Result<Self, $crate::error::Error> {
                let mut reading = $crate::codec::Reading::strict();
                <Self as $crate::codec::Readable>::read(value, &mut reading, &$crate::error::Path::Root)
            }

            /// [`parse`](Self::parse) for a parsed value: the same reader, in `mode`.
            ///
            /// # Errors
            /// As [`parse`](Self::parse).
            pub fn parse_value(value: ::serde_json::Value, mode: $crate::codec::Mode) -> Result<$crate::codec::Parsed<Self>, $crate::error::Error> {
                let mut reading = $crate::codec::Reading::new(mode);
                let value = <Self as $crate::codec::Readable>::read(value, &mut reading, &$crate::error::Path::Root)?;
                Ok(reading.into_parsed(value))
            }

            /// Writes compact JSON in `spelling`.
            pub fn to_json(&self, spelling: $crate::codec::Spelling) -> String {
                $crate::codec::to_json(self, spelling)
            }

            /// Writes compact JSON in `spelling` to `writer`.
            ///
            /// # Errors
            /// The writer's I/O error (a closed pipe, a full disk).
            pub fn write_json<W: ::std::io::Write>(
                &self,
                mut writer: W,
                spelling: $crate::codec::Spelling,
            ) -> ::std::io::Result<()> {
                $crate::codec::text_writer::object(self, spelling, &mut writer)
            }

            /// Converts to a JSON value in `spelling`.
            pub fn to_value(&self, spelling: $crate::codec::Spelling) -> ::serde_json::Value {
                ::serde_json::to_value($crate::codec::Spelled(self, spelling))
                    .unwrap_or_else(|e| unreachable!("plan-core wire types always serialize: {e}"))
            }

            /// A view that serializes in `spelling` with any serde serializer.
            /// (The plain `Serialize` impl writes the ACP spelling.)
            pub fn spelled(&self, spelling: $crate::codec::Spelling) -> impl ::serde::Serialize + '_ {
                $crate::codec::Spelled(self, spelling)
            }
        }

        /// Writes the ACP spelling (what the published SDKs read); use
        /// `spelled` for the other.
        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                ::serde::Serialize::serialize(&$crate::codec::Spelled(self, $crate::codec::Spelling::Acp), s)
            }
        }

        /// Reads either spelling, strictly.
        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(d)?;
                Self::from_value(value).map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }
    };
}
pub(crate) use wire_methods;

// ---- reading helpers -------------------------------------------------------

pub(crate) use crate::error::type_error;

pub(crate) fn expect_object(value: Value, at: &Path<'_>) -> Result<Map<String, Value>, Error> {
    match value {
        Value::Object(map) => Ok(map),
        other => Err(type_error(at, "an object", &other)),
    }
}

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
pub(crate) fn plan_id(id: String, reading: &mut Reading, at: &Path<'_>) -> Result<PlanId, Error> {
    checked(id, rules::check_plan_id, reading, at).map(PlanId::new_unchecked)
}

/// A file URI read from a message: checked; lenient reading keeps one that
/// is not an RFC 3986 URI (the SDKs read any string) and reports it.
pub(crate) fn file_uri(
    uri: String,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<FileUri, Error> {
    checked(uri, rules::check_uri, reading, at).map(FileUri::new_unchecked)
}

/// A markdown plan's `path` read from a message: absent or `null` is no
/// file; a string is checked, and lenient reading keeps a relative one (the
/// SDKs read any string) and reports it; anything else is an error.
pub(crate) fn markdown_path(
    value: Option<Value>,
    reading: &mut Reading,
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
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<Cow<'static, str>, Error> {
    if let Err(problem) = rule(&text) {
        reading.let_through(at.invalid(problem))?;
    }
    Ok(owned(text))
}

/// Removes and returns the optional `_meta` field.
pub(crate) fn take_meta(
    map: &mut Map<String, Value>,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<Option<Meta>, Error> {
    match map.remove(crate::rules::KEY_META) {
        None => Ok(None),
        Some(value) => match Meta::from_value(value) {
            Ok(meta) => Ok(Some(meta)),
            Err(found) => reading.skip_or_fail(type_error(
                &at.key(crate::rules::KEY_META),
                "an object or null",
                &found,
            )),
        },
    }
}

/// Turns owned text into the `Cow` our types store.
pub(crate) fn owned(s: String) -> Cow<'static, str> {
    Cow::Owned(s)
}

// ---- writing helpers -------------------------------------------------------

/// A JSON value written with every object's keys in sorted (byte) order,
/// whether or not `serde_json`'s `preserve_order` feature is on somewhere in
/// the build: our output, and `plan_json!`'s, is the same in every build.
pub(crate) struct Sorted<'a>(pub(crate) &'a Value);

impl serde::Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => SortedMap(map).serialize(s),
            Value::Array(items) => s.collect_seq(items.iter().map(Sorted)),
            other => other.serialize(s),
        }
    }
}

/// An object written with its keys in sorted order (see [`Sorted`]).
pub(crate) struct SortedMap<'a>(pub(crate) &'a Map<String, Value>);

impl SortedMap<'_> {
    /// The entries in sorted order.
    pub(crate) fn entries(&self) -> Vec<(&String, &Value)> {
        let mut entries: Vec<(&String, &Value)> = self.0.iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        entries
    }
}

impl serde::Serialize for SortedMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.entries() {
            map.serialize_entry(key, &Sorted(value))?;
        }
        map.end()
    }
}
