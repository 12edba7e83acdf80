//! The reading engine: [`run`] over JSON text, [`from_value`] over a
//! parsed `Value` (its tag put first where it came late), [`from_members`]
//! over an object a router split into its members; each starts a
//! [`ReadState`](super::shared::ReadState), hands it to a visitor's seed
//! and turns what broke into our [`Error`].

use serde_core::de::{self, DeserializeSeed};
use serde_json::Value;

use crate::codec::envelope::Member;
use crate::codec::strictness::ReadNotes;
use crate::error::{Error, Path};

use super::shared::ReadState;

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
