//! What the visitors of every message type share: the keys they know, the
//! seed shape (`seed!`), the "found X" errors, a `_meta` value, the plan id
//! under its two spellings, and the second reading of an object whose tag is not
//! its first key.

use std::borrow::Cow;
use std::fmt;

/// Reading state: the mode, and the first rule broken (which stops the parse).
pub(in crate::codec) struct ReadState<'c> {
    pub(in crate::codec) reading: &'c mut ReadNotes,
    pub(in crate::codec) broken: Option<Error>,
}

impl ReadState<'_> {
    /// Records `err` and returns the serde error that stops the parse.
    pub(in crate::codec) fn fail<E: de::Error>(&mut self, err: Error) -> E {
        self.broken.get_or_insert(err);
        E::custom("plan-core: rule broken")
    }

    /// In lenient mode records a skip and returns `None`; in strict mode fails.
    pub(in crate::codec) fn skip<T, E: de::Error>(&mut self, err: Error) -> Result<Option<T>, E> {
        self.reading.skip_or_fail(err).map_err(|err| self.fail(err))
    }
}

use serde_core::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::codec::fields;
use crate::codec::strictness::ReadNotes;
use crate::error::{Error, ErrorKind, Path};
use crate::protocol::id::PlanId;
use crate::protocol::meta::Meta;
use serde_json::value::RawValue;

/// The keys of one kind of object: each known key with its bit (to find a
/// key read twice), and `Other` for the rest.
pub(in crate::codec) trait ObjectKey: Sized {
    /// The key `key` is, in this object.
    fn of(key: &str) -> Self;
    /// Its bit (0 for an unknown key, which is not tracked).
    fn bit(&self) -> u32;
    /// The key as written.
    fn name(&self) -> &str;
}

/// Declares one object's keys, each with its bit and its key constant:
/// `EntryKey { Content(0) = KEY_CONTENT, ... }`, plus `Other(String)`.
///
/// Why a macro: the same enum, `of`, `bit` and `name` for each of the five
/// objects; each object's reader names its own keys, so a key one object
/// gains is nobody else's.
macro_rules! object_keys {
    ($(#[$doc:meta])* $name:ident { $($variant:ident($bit:literal) = $key:path),* $(,)? }) => {
        $(#[$doc])*
        pub(in crate::codec) enum $name {
            $($variant,)*
            Other(String),
        }

        impl $crate::codec::read::shared::ObjectKey for $name {
            fn of(key: &str) -> Self {
                match key {
                    $($key => Self::$variant,)*
                    other => Self::Other(other.to_owned()),
                }
            }

            fn bit(&self) -> u32 {
                match self {
                    $(Self::$variant => 1 << $bit,)*
                    Self::Other(_) => 0,
                }
            }

            fn name(&self) -> &str {
                match self {
                    $(Self::$variant => $key,)*
                    Self::Other(other) => other,
                }
            }
        }
    };
}

/// The keys already read in one object. A key read twice makes the message
/// ambiguous (`serde_json::Value` would keep the last, a text reader
/// the first), so it is an error, whichever reader meets it.
#[derive(Default)]
pub(in crate::codec) struct KeysRead(pub(in crate::codec) u32);

impl KeysRead {
    pub(in crate::codec) fn check<E: de::Error>(
        &mut self,
        key: &impl ObjectKey,
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

pub(in crate::codec) fn duplicate(key: &str, at: &Path<'_>) -> Error {
    at.invalid(format_args!(
        "`{key}` appears twice; a message with a repeated key is ambiguous"
    ))
}

/// Inserts a collected field; a key given twice is an error.
pub(in crate::codec) fn insert<E: de::Error>(
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

/// Reads a key of an object whose keys are `K`.
pub(in crate::codec) struct KeySeed<K>(std::marker::PhantomData<K>);

impl<K> KeySeed<K> {
    pub(in crate::codec) fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<'de, K: ObjectKey> DeserializeSeed<'de> for KeySeed<K> {
    type Value = K;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<K, D::Error> {
        d.deserialize_str(self)
    }
}

impl<K: ObjectKey> Visitor<'_> for KeySeed<K> {
    type Value = K;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<K, E> {
        Ok(K::of(key))
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
        pub(in crate::codec) struct $name<'s, 'c, 'p> {
            pub(in crate::codec) state: &'s mut ReadState<'c>,
            pub(in crate::codec) at: &'p Path<'p>,
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
pub(in crate::codec) struct StrSeed;

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
pub(in crate::codec) fn next_str<'de, A: MapAccess<'de>>(
    map: &mut A,
    state: &mut ReadState<'_>,
    at: &Path<'_>,
) -> Result<Cow<'de, str>, A::Error> {
    map.next_value_seed(StrSeed)?
        .map_err(|found| wrong(state, at, "a string", found))
}

/// The "found X" error for a value of the wrong JSON type.
pub(in crate::codec) fn wrong<E: de::Error>(
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
pub(in crate::codec) fn read_meta<E: de::Error>(
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
        Some(Some(Err(found))) => state.skip(crate::error::type_error(
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
pub(in crate::codec) fn plan_id(
    rfd: Option<Found<'_>>,
    acp: Option<Found<'_>>,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<PlanId, Error> {
    let (spelling, value) = fields::one_plan_id(rfd, acp, at)?;
    let at = at.key(spelling.plan_id_key());
    reading.saw_plan_id(&at, spelling);
    match value {
        Ok(id) => fields::plan_id(id.into_owned(), reading, &at),
        Err(found) => Err(at.error(ErrorKind::Type {
            expected: "a string",
            found,
        })),
    }
}

/// The tag was not the first key: collect the object and read it again with
/// the same visitors, its tag first (`read` is one of the `*_value` readers).
pub(in crate::codec) fn read_late_tag<'de, A: MapAccess<'de>, T>(
    state: &mut ReadState<'_>,
    at: &Path<'_>,
    first: &impl ObjectKey,
    mut map: A,
    read: impl FnOnce(Value, &mut ReadNotes, &Path<'_>) -> Result<T, Error>,
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
