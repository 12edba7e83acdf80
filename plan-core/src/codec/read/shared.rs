//! What the visitors of every message type share: the keys they know, the
//! seed shape (`seed!`), the "found X" errors, a `_meta` value, the plan id
//! under its two spellings, and the fallback for an object whose tag is not
//! its first key.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::codec::{self, Reading};
use crate::error::{Error, ErrorKind, Path};
use crate::protocol::id::PlanId;
use crate::protocol::meta::Meta;
use crate::rules::{
    KEY_CONTENT, KEY_ENTRIES, KEY_JSONRPC, KEY_META, KEY_METHOD, KEY_PARAMS, KEY_PATH, KEY_PLAN,
    KEY_PLAN_ID, KEY_PLAN_ID_RFD, KEY_PRIORITY, KEY_SESSION_ID, KEY_SESSION_UPDATE, KEY_STATUS,
    KEY_TYPE, KEY_UPDATE, KEY_URI,
};
use serde_json::value::RawValue;

use super::ReadState;

/// The keys our objects know; anything else is `Other`.
pub(super) enum Key {
    JsonRpc,
    Method,
    Params,
    Id,
    PlanId,
    SessionId,
    Update,
    SessionUpdate,
    Plan,
    Type,
    Entries,
    Content,
    Priority,
    Status,
    Uri,
    Path,
    Meta,
    Other(String),
}

impl Key {
    /// One bit per known key, to find a key read twice in one object.
    pub(super) fn bit(&self) -> u32 {
        let index = match self {
            Self::JsonRpc => 0,
            Self::Method => 1,
            Self::Params => 2,
            Self::Id => 3,
            Self::PlanId => 4,
            Self::SessionId => 5,
            Self::Update => 6,
            Self::SessionUpdate => 7,
            Self::Plan => 8,
            Self::Type => 9,
            Self::Entries => 10,
            Self::Content => 11,
            Self::Priority => 12,
            Self::Status => 13,
            Self::Uri => 14,
            Self::Meta => 15,
            Self::Path => 16,
            Self::Other(_) => return 0,
        };
        1 << index
    }

    pub(super) fn name(&self) -> &str {
        match self {
            Self::JsonRpc => KEY_JSONRPC,
            Self::Method => KEY_METHOD,
            Self::Params => KEY_PARAMS,
            Self::Id => KEY_PLAN_ID_RFD,
            Self::PlanId => KEY_PLAN_ID,
            Self::SessionId => KEY_SESSION_ID,
            Self::Update => KEY_UPDATE,
            Self::SessionUpdate => KEY_SESSION_UPDATE,
            Self::Plan => KEY_PLAN,
            Self::Type => KEY_TYPE,
            Self::Entries => KEY_ENTRIES,
            Self::Content => KEY_CONTENT,
            Self::Priority => KEY_PRIORITY,
            Self::Status => KEY_STATUS,
            Self::Uri => KEY_URI,
            Self::Path => KEY_PATH,
            Self::Meta => crate::rules::KEY_META,
            Self::Other(other) => other,
        }
    }
}

/// The keys already read in one object. A key read twice makes the message
/// ambiguous (`serde_json::Value` would keep the last, a text reader
/// the first), so it is an error, whichever reader meets it.
#[derive(Default)]
pub(super) struct Seen(pub(super) u32);

impl Seen {
    pub(super) fn check<E: de::Error>(
        &mut self,
        key: &Key,
        state: &mut ReadState<'_>,
        at: &Path<'_>,
    ) -> Result<(), E> {
        let bit = key.bit();
        if self.0 & bit != 0 {
            return Err(state.fail(duplicate(key.name(), at)));
        }
        self.0 |= bit;
        Ok(())
    }
}

pub(super) fn duplicate(key: &str, at: &Path<'_>) -> Error {
    at.invalid(format_args!(
        "`{key}` appears twice; a message with a repeated key is ambiguous"
    ))
}

/// Inserts a collected field; a key given twice is an error.
pub(super) fn insert<E: de::Error>(
    state: &mut ReadState<'_>,
    at: &Path<'_>,
    object: &mut Map<String, Value>,
    key: String,
    value: Value,
) -> Result<(), E> {
    if object.contains_key(&key) {
        return Err(state.fail(duplicate(&key, at)));
    }
    object.insert(key, value);
    Ok(())
}

pub(super) struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        Ok(match key {
            KEY_JSONRPC => Key::JsonRpc,
            KEY_METHOD => Key::Method,
            KEY_PARAMS => Key::Params,
            KEY_PLAN_ID_RFD => Key::Id,
            KEY_PLAN_ID => Key::PlanId,
            KEY_SESSION_ID => Key::SessionId,
            KEY_UPDATE => Key::Update,
            KEY_SESSION_UPDATE => Key::SessionUpdate,
            KEY_PLAN => Key::Plan,
            KEY_TYPE => Key::Type,
            KEY_ENTRIES => Key::Entries,
            KEY_CONTENT => Key::Content,
            KEY_PRIORITY => Key::Priority,
            KEY_STATUS => Key::Status,
            KEY_URI => Key::Uri,
            KEY_PATH => Key::Path,
            KEY_META => Key::Meta,
            other => Key::Other(other.to_owned()),
        })
    }
}

/// Declares a seed struct with the state and the path, its `deserialize_any`,
/// and `found`, the "found X" error for a value of the wrong JSON type.
///
/// Why a macro (this one and the two below, all private): serde's visitor
/// shape repeated for each seed; a generic seed would need the visitors'
/// output types as parameters and cost the reader its monomorphic speed.
macro_rules! seed {
    ($name:ident, $value:ty, $expected:literal) => {
        pub(super) struct $name<'s, 'c, 'p> {
            pub(super) state: &'s mut ReadState<'c>,
            pub(super) at: &'p Path<'p>,
        }

        impl<'de> DeserializeSeed<'de> for $name<'_, '_, '_> {
            type Value = $value;
            fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<$value, D::Error> {
                d.deserialize_any(self)
            }
        }

        impl $name<'_, '_, '_> {
            /// The value has the wrong JSON type: a "found X" error.
            fn found<E: de::Error>(self, found: &'static str) -> Result<$value, E> {
                Err(wrong(self.state, self.at, $expected, found))
            }
        }
    };
}

/// A value that must be a string: its text (borrowed from the input when it
/// holds no escape), or the name of the JSON type found instead. Cheaper than
/// reading a `serde_json::Value` and looking inside.
pub(super) struct StrSeed;

impl<'de> DeserializeSeed<'de> for StrSeed {
    type Value = Result<Cow<'de, str>, &'static str>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrSeed {
    type Value = Result<Cow<'de, str>, &'static str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Ok(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Ok(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Ok(Cow::Owned(v)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Err("a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Err("null"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Err("an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Err("an object"))
    }
}

/// What [`StrSeed`] read.
type Found<'de> = Result<Cow<'de, str>, &'static str>;

/// Reads a value that must be a string, at `at`.
pub(super) fn next_str<'de, A: MapAccess<'de>>(
    map: &mut A,
    state: &mut ReadState<'_>,
    at: &Path<'_>,
) -> Result<Cow<'de, str>, A::Error> {
    map.next_value_seed(StrSeed)?
        .map_err(|found| wrong(state, at, "a string", found))
}

/// The "found X" error for a value of the wrong JSON type.
pub(super) fn wrong<E: de::Error>(
    state: &mut ReadState<'_>,
    at: &Path<'_>,
    expected: &'static str,
    found: &'static str,
) -> E {
    state.fail(at.error(ErrorKind::Type { expected, found }))
}

/// `visit_*` for the scalar JSON types, each handing the type's name to the
/// visitor's own `found`.
macro_rules! scalars_are_found {
    () => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            self.found("a boolean")
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            self.found("a number")
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            self.found("a number")
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            self.found("a number")
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            self.found("a string")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            self.found("null")
        }
    };
}

/// The `visit_*` of a visitor of objects, but `visit_map`.
macro_rules! not_an_object {
    ($expected:literal) => {
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str($expected)
        }
        scalars_are_found!();
        fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
            self.found("an array")
        }
    };
}

/// Checks a `_meta` value; lenient reading drops a bad one.
pub(super) fn read_meta<E: de::Error>(
    state: &mut ReadState<'_>,
    meta: Option<Box<RawValue>>,
    at: &Path<'_>,
) -> Result<Option<Meta>, E> {
    // serde_json's recursion limit counts the containers `_meta` sits in:
    // every step of `at`, and the object that holds it.
    let max_depth = crate::protocol::meta::MAX_DEPTH.saturating_sub(at.depth() + 1);
    match meta.map(|raw| Meta::from_raw(&raw, max_depth)) {
        None => Ok(None),
        Some(Some(Ok(meta))) => Ok(Some(meta)),
        Some(Some(Err(found))) => state.skip(codec::type_error(
            &at.key(crate::rules::KEY_META),
            "an object or null",
            &found,
        )),
        Some(None) => Err(state.fail(
            at.key(crate::rules::KEY_META)
                .invalid(crate::protocol::meta::TOO_DEEP),
        )),
    }
}

/// The plan id from the values under its two spellings' keys (`planId`,
/// `id`): exactly one of them (`codec::one_plan_id`), checked as every
/// plan id is (`codec::plan_id`).
pub(super) fn plan_id(
    rfd: Option<Found<'_>>,
    acp: Option<Found<'_>>,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<PlanId, Error> {
    let (key, value) = codec::one_plan_id(rfd, acp, at)?;
    let at = at.key(key);
    match value {
        Ok(id) => codec::plan_id(id.into_owned(), reading, &at),
        Err(found) => Err(at.error(ErrorKind::Type {
            expected: "a string",
            found,
        })),
    }
}

/// The tag was not the first key: collect the object and read it again with
/// the same visitors, its tag first (`read` is one of the `*_value` readers).
pub(super) fn fallback<'de, A: MapAccess<'de>, T>(
    state: &mut ReadState<'_>,
    at: &Path<'_>,
    first: &Key,
    mut map: A,
    read: impl FnOnce(Value, &mut Reading, &Path<'_>) -> Result<T, Error>,
) -> Result<T, A::Error> {
    let mut object = Map::new();
    let first_value = map.next_value::<Value>()?;
    object.insert(first.name().to_owned(), first_value);
    while let Some(key) = map.next_key::<String>()? {
        let value = map.next_value::<Value>()?;
        insert(state, at, &mut object, key, value)?;
    }
    read(Value::Object(object), state.reading, at).map_err(|err| state.fail(err))
}
