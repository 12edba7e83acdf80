//! The one reader of plan messages: serde visitors that read JSON text
//! straight into our types (`from_json`, without building a
//! `serde_json::Value` of the message) and read an already-parsed `Value`
//! alike (`from_value`, `Deserialize`, the SDK's untyped messages: `Value`
//! is a serde `Deserializer` too, as `serde_json`'s own `Value` reading is).
//!
//! The visitors need each object's tag (`sessionUpdate`, `type`) to be its
//! first key, as every writer we know puts it; when it is not, the object is
//! collected into a `Value` and handed to the same visitors again with its
//! tag first (as serde's internally tagged enums buffer and replay a late
//! tag). `tests/roundtrip.rs` holds reading a text and reading its `Value`
//! to the same results.
//!
//! Errors: a rule broken inside a visitor is recorded in [`ReadState`] as our
//! [`Error`] (with its path) and parsing stops; `serde_json`'s own error is
//! then ignored. Anything `serde_json` reports by itself is a syntax error.
//!
//! This folder is the engine alone: the reading state ([`ReadState`]),
//! [`run`] over text, [`from_value`] over a `Value`, [`from_members`] over
//! an object a router has split into its members (a line read once), and in `shared.rs` what
//! every visitor shares (the keys, the seed shape, the "found X" errors,
//! `_meta`, the plan id and an object whose tag comes late, read again). Each message's visitors
//! sit beside its writer, in `codec/notification.rs`, `codec/update.rs`,
//! `codec/content.rs` and `codec/entry.rs`; they reach the engine only
//! through what is `pub(in crate::codec)` here.

use serde_core::de::{self, DeserializeSeed};
use serde_json::Value;

use crate::codec::envelope::Member;
use crate::codec::strictness::ReadNotes;
use crate::error::{Error, Path};

// First: its macros (the seed shape) are for the visitors in `codec/`.
#[macro_use]
pub(in crate::codec) mod shared;

use shared::ReadState;

/// Runs `seed` over the whole text.
pub(in crate::codec) fn run<T>(
    json: &str,
    reading: &mut ReadNotes,
    seed: impl FnOnce(
        &mut ReadState<'_>,
        &mut serde_json::Deserializer<serde_json::de::StrRead<'_>>,
    ) -> Result<T, serde_json::Error>,
) -> Result<T, Error> {
    let mut state = ReadState {
        reading,
        broken: None,
    };
    let mut de = serde_json::Deserializer::from_str(json);
    let result = seed(&mut state, &mut de).and_then(|value| de.end().map(|()| value));
    match (result, state.broken) {
        (_, Some(broken)) => Err(broken),
        (Ok(value), None) => Ok(value),
        (Err(err), None) => Err(Error::syntax(&err)),
    }
}

/// Reads an already-parsed `value` at `at` with the same visitors as text:
/// the one reader. An object's tag (`tag`: `sessionUpdate`, `type`) is
/// handed to the visitors first, as they expect; a `Value`'s keys come in
/// its map's order, which is not the text's. Without its tag, an object is
/// an error here (the visitors would hand it back).
pub(in crate::codec) fn from_value<T>(
    value: Value,
    reading: &mut ReadNotes,
    at: &Path<'_>,
    tag: Option<&'static str>,
    seed: impl FnOnce(&mut ReadState<'_>, ValueInput) -> Result<T, serde_json::Error>,
) -> Result<T, Error> {
    let input = match (value, tag) {
        (Value::Object(mut object), Some(tag)) => {
            let Some(first) = object.remove(tag) else {
                return Err(at.missing(tag));
            };
            let members: Vec<(String, Value)> = std::iter::once((tag.to_owned(), first))
                .chain(object)
                .collect();
            ValueInput::Tagged(de::value::MapDeserializer::new(members.into_iter()))
        }
        (value, _) => ValueInput::Plain(value),
    };
    let mut state = ReadState {
        reading,
        broken: None,
    };
    let result = seed(&mut state, input);
    match (result, state.broken) {
        (_, Some(broken)) => Err(broken),
        (Ok(value), None) => Ok(value),
        (Err(err), None) => Err(at.invalid(err)),
    }
}

/// Reads an object whose members a router has already split from its text
/// (`envelope::read_keeping`), each value read once, here, by the same
/// visitors; the object's tag (`tag`) is handed to them first.
pub(in crate::codec) fn from_members<'de, T>(
    mut members: Vec<Member<'de>>,
    reading: &mut ReadNotes,
    tag: Option<&'static str>,
    seed: impl FnOnce(&mut ReadState<'_>, MembersInput<'de>) -> Result<T, serde_json::Error>,
) -> Result<T, Error> {
    if let Some(tag) = tag {
        let Some(at) = members.iter().position(|(key, _)| key == tag) else {
            return Err(Path::Root.missing(tag));
        };
        let first = members.remove(at);
        members.insert(0, first);
    }
    let mut state = ReadState {
        reading,
        broken: None,
    };
    let result = seed(
        &mut state,
        de::value::MapDeserializer::new(members.into_iter()),
    );
    match (result, state.broken) {
        (_, Some(broken)) => Err(broken),
        (Ok(value), None) => Ok(value),
        (Err(err), None) => Err(Path::Root.invalid(err)),
    }
}

/// An object's members as the visitors read them (see [`from_members`]).
pub(in crate::codec) type MembersInput<'de> =
    de::value::MapDeserializer<'de, std::vec::IntoIter<Member<'de>>, serde_json::Error>;

/// A `Value` as the visitors read it: as it is, or an object with its tag
/// moved first.
pub(in crate::codec) enum ValueInput {
    Plain(Value),
    Tagged(
        de::value::MapDeserializer<'static, std::vec::IntoIter<(String, Value)>, serde_json::Error>,
    ),
}

impl ValueInput {
    pub(in crate::codec) fn read<'de, S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<S::Value, serde_json::Error> {
        match self {
            Self::Plain(value) => seed.deserialize(value),
            Self::Tagged(map) => seed.deserialize(map),
        }
    }
}
