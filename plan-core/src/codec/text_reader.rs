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
//! Why one file over 500 lines: the visitors of the notification, the
//! update, the content, the entries and `_meta` share the private [`ReadState`]
//! and seed types and hand each other the path; split by type, those would
//! become crate items any code could reach. Most of the length is serde's
//! visitor shape, one per type.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::codec::entry;
use crate::codec::{self, Reading, Wire};
use crate::error::{Error, ErrorKind, Path};
use crate::protocol::content::PlanContent;
use crate::protocol::entry::PlanEntry;
use crate::protocol::id::{PlanId, SessionId};
use crate::protocol::meta::Meta;
use crate::protocol::naming::{self, TypeName};
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::{OtherUpdate, Plan, SessionUpdate};
use crate::rules::{
    EnvelopeProblem, JSONRPC_VERSION, KEY_CONTENT, KEY_ENTRIES, KEY_JSONRPC, KEY_META, KEY_METHOD,
    KEY_PARAMS, KEY_PATH, KEY_PLAN, KEY_PLAN_ID, KEY_PLAN_ID_RFD, KEY_PRIORITY, KEY_SESSION_ID,
    KEY_SESSION_UPDATE, KEY_STATUS, KEY_TYPE, KEY_UPDATE, KEY_URI, PlanType, SESSION_UPDATE,
    check_envelope,
};
use serde_json::value::RawValue;

/// Reading state: the mode, and the first rule broken (which stops the parse).
struct ReadState<'c> {
    reading: &'c mut Reading,
    broken: Option<Error>,
}

impl ReadState<'_> {
    /// Records `err` and returns the serde error that stops the parse.
    fn fail<E: de::Error>(&mut self, err: Error) -> E {
        self.broken.get_or_insert(err);
        E::custom("plan-core: rule broken")
    }

    /// In lenient mode records a skip and returns `None`; in strict mode fails.
    fn skip<T, E: de::Error>(&mut self, err: Error) -> Result<Option<T>, E> {
        self.reading.skip_or_fail(err).map_err(|err| self.fail(err))
    }
}

/// Runs `seed` over the whole text.
fn run<T>(
    json: &str,
    reading: &mut Reading,
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
fn from_value<T>(
    value: Value,
    reading: &mut Reading,
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

/// A `Value` as the visitors read it: as it is, or an object with its tag
/// moved first.
enum ValueInput {
    Plain(Value),
    Tagged(
        de::value::MapDeserializer<'static, std::vec::IntoIter<(String, Value)>, serde_json::Error>,
    ),
}

impl ValueInput {
    fn read<'de, S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, serde_json::Error> {
        match self {
            Self::Plain(value) => seed.deserialize(value),
            Self::Tagged(map) => seed.deserialize(map),
        }
    }
}

/// [`Wire::read`] of a notification: the visitors over a `Value`.
pub(crate) fn notification_value(
    value: Value,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<SessionNotification, Error> {
    from_value(value, reading, at, None, |state, input| {
        input.read(NotificationSeed { state, at })
    })
}

/// The `params` of a `session/update` (`at` is where they are): what the
/// SDK's untyped notification holds (feature `acp`).
#[cfg(feature = "acp")]
pub(crate) fn params_value(
    value: Value,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<SessionNotification, Error> {
    from_value(value, reading, at, None, |state, input| {
        input.read(ParamsSeed { state, at })
    })
}

/// [`Wire::read`] of an update.
pub(crate) fn update_value(
    value: Value,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<SessionUpdate, Error> {
    from_value(
        value,
        reading,
        at,
        Some(KEY_SESSION_UPDATE),
        |state, input| input.read(UpdateSeed { state, at }),
    )
}

/// [`Wire::read`] of plan content.
pub(crate) fn content_value(
    value: Value,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<PlanContent, Error> {
    from_value(value, reading, at, Some(KEY_TYPE), |state, input| {
        input.read(ContentSeed { state, at })
    })
}

/// [`Wire::read`] of one entry.
pub(crate) fn entry_value(
    value: Value,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<PlanEntry, Error> {
    from_value(value, reading, at, None, |state, input| {
        input.read(EntrySeed { state, at })
    })
    .and_then(|entry| entry)
}

/// An `entries` array already parsed; lenient reading drops malformed entries.
pub(crate) fn entries_value(
    items: Vec<Value>,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<Vec<PlanEntry>, Error> {
    from_value(Value::Array(items), reading, at, None, |state, input| {
        input.read(EntriesSeed { state, at })
    })
}

pub(crate) fn notification(
    json: &str,
    reading: &mut Reading,
) -> Result<SessionNotification, Error> {
    run(json, reading, |state, de| {
        NotificationSeed {
            state,
            at: &Path::Root,
        }
        .deserialize(de)
    })
}

pub(crate) fn update(json: &str, reading: &mut Reading) -> Result<SessionUpdate, Error> {
    run(json, reading, |state, de| {
        UpdateSeed {
            state,
            at: &Path::Root,
        }
        .deserialize(de)
    })
}

pub(crate) fn content(json: &str, reading: &mut Reading) -> Result<PlanContent, Error> {
    run(json, reading, |state, de| {
        ContentSeed {
            state,
            at: &Path::Root,
        }
        .deserialize(de)
    })
}

/// The keys our objects know; anything else is `Other`.
enum Key {
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
    fn bit(&self) -> u32 {
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

    fn name(&self) -> &str {
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
struct Seen(u32);

impl Seen {
    fn check<E: de::Error>(
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

fn duplicate(key: &str, at: &Path<'_>) -> Error {
    at.invalid(format_args!(
        "`{key}` appears twice; a message with a repeated key is ambiguous"
    ))
}

/// Inserts a collected field; a key given twice is an error.
fn insert<E: de::Error>(
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

struct KeySeed;

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
        struct $name<'s, 'c, 'p> {
            state: &'s mut ReadState<'c>,
            at: &'p Path<'p>,
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
struct StrSeed;

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
fn next_str<'de, A: MapAccess<'de>>(
    map: &mut A,
    state: &mut ReadState<'_>,
    at: &Path<'_>,
) -> Result<Cow<'de, str>, A::Error> {
    map.next_value_seed(StrSeed)?
        .map_err(|found| wrong(state, at, "a string", found))
}

/// The "found X" error for a value of the wrong JSON type.
fn wrong<E: de::Error>(
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

seed!(NotificationSeed, SessionNotification, "an object");

impl<'de> Visitor<'de> for NotificationSeed<'_, '_, '_> {
    type Value = SessionNotification;
    not_an_object!("an object");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SessionNotification, A::Error> {
        let at = self.at;
        let (mut version, mut method, mut params) = (false, false, None);
        let params_at = at.key(crate::rules::KEY_PARAMS);
        let mut seen = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            seen.check(&key, self.state, self.at)?;
            match key {
                // The envelope is checked as it comes, so its mistakes are
                // reported before those of `params`, as the reference reader does.
                Key::JsonRpc => {
                    let at = at.key(crate::rules::KEY_JSONRPC);
                    let version_text = next_str(&mut map, self.state, &at)?;
                    check_envelope(&version_text, SESSION_UPDATE)
                        .map_err(|problem| self.state.fail(at.invalid(problem)))?;
                    version = true;
                }
                Key::Method => {
                    let at = at.key(crate::rules::KEY_METHOD);
                    let method_text = next_str(&mut map, self.state, &at)?;
                    check_envelope(JSONRPC_VERSION, &method_text)
                        .map_err(|problem| self.state.fail(at.invalid(problem)))?;
                    method = true;
                }
                Key::Id => {
                    return Err(self
                        .state
                        .fail(at.key("id").invalid(EnvelopeProblem::HasId)));
                }
                Key::Params => {
                    params = Some(map.next_value_seed(ParamsSeed {
                        state: self.state,
                        at: &params_at,
                    })?);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        for (seen, field) in [
            (version, "jsonrpc"),
            (method, "method"),
            (params.is_some(), "params"),
        ] {
            if !seen {
                return Err(self.state.fail(at.error(ErrorKind::Missing { field })));
            }
        }
        params.ok_or_else(|| self.state.fail(at.missing(crate::rules::KEY_PARAMS)))
    }
}

seed!(ParamsSeed, SessionNotification, "an object");

impl<'de> Visitor<'de> for ParamsSeed<'_, '_, '_> {
    type Value = SessionNotification;
    not_an_object!("an object");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SessionNotification, A::Error> {
        let at = self.at;
        let (mut session, mut update, mut early_update, mut meta) = (None, None, None, None);
        let update_at = at.key(crate::rules::KEY_UPDATE);
        let mut seen = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            seen.check(&key, self.state, self.at)?;
            match key {
                Key::SessionId => session = Some(map.next_value_seed(StrSeed)?),
                // Before the session id, keep the update to read after it, so
                // a missing id is reported first, as the reference reader does.
                Key::Update if session.is_none() => early_update = Some(map.next_value::<Value>()?),
                Key::Update => {
                    update = Some(map.next_value_seed(UpdateSeed {
                        state: self.state,
                        at: &update_at,
                    })?);
                }
                Key::Meta => meta = Some(map.next_value::<Box<RawValue>>()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let session = match session {
            Some(Ok(session)) => session.into_owned(),
            Some(Err(found)) => {
                return Err(wrong(
                    self.state,
                    &at.key(crate::rules::KEY_SESSION_ID),
                    "a string",
                    found,
                ));
            }
            None => return Err(self.state.fail(at.missing(crate::rules::KEY_SESSION_ID))),
        };
        let update = match (update, early_update) {
            (Some(update), _) => update,
            (None, Some(value)) => SessionUpdate::read(value, self.state.reading, &update_at)
                .map_err(|err| self.state.fail(err))?,
            (None, None) => return Err(self.state.fail(at.missing(crate::rules::KEY_UPDATE))),
        };
        let meta = read_meta(self.state, meta, at)?;
        Ok(SessionNotification {
            session_id: SessionId::new(session),
            update,
            meta,
        })
    }
}

/// Checks a `_meta` value; lenient reading drops a bad one.
fn read_meta<E: de::Error>(
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

seed!(UpdateSeed, SessionUpdate, "an object");

impl<'de> Visitor<'de> for UpdateSeed<'_, '_, '_> {
    type Value = SessionUpdate;
    not_an_object!("an object");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SessionUpdate, A::Error> {
        let at = self.at;
        let Some(first) = map.next_key_seed(KeySeed)? else {
            return Err(self.state.fail(at.error(ErrorKind::Missing {
                field: "sessionUpdate",
            })));
        };
        let kind = match first {
            Key::SessionUpdate => next_str(
                &mut map,
                self.state,
                &at.key(crate::rules::KEY_SESSION_UPDATE),
            )?,
            other => return fallback(self.state, at, &other, map, SessionUpdate::read),
        };
        match &*kind {
            crate::rules::UPDATE_PLAN
            | crate::rules::UPDATE_PLAN_UPDATE
            | crate::rules::UPDATE_PLAN_REMOVED => {}
            _ => {
                // Not ours: keep it whole.
                let mut object = Map::new();
                object.insert("sessionUpdate".into(), Value::String(kind.into_owned()));
                while let Some(key) = map.next_key::<String>()? {
                    let value = map.next_value::<Value>()?;
                    insert(self.state, at, &mut object, key, value)?;
                }
                return Ok(SessionUpdate::Other(OtherUpdate::new(object)));
            }
        }
        let (mut entries, mut plan, mut rfd_id, mut acp_id, mut meta) =
            (None, None, None, None, None);
        let entries_at = at.key(crate::rules::KEY_ENTRIES);
        let plan_at = at.key(crate::rules::KEY_PLAN);
        let mut seen = Seen(Key::SessionUpdate.bit());
        while let Some(key) = map.next_key_seed(KeySeed)? {
            seen.check(&key, self.state, self.at)?;
            match key {
                Key::Entries if kind == crate::rules::UPDATE_PLAN => {
                    entries = Some(map.next_value_seed(EntriesSeed {
                        state: self.state,
                        at: &entries_at,
                    })?);
                }
                Key::Plan if kind == crate::rules::UPDATE_PLAN_UPDATE => {
                    plan = Some(map.next_value_seed(ContentSeed {
                        state: self.state,
                        at: &plan_at,
                    })?);
                }
                Key::Id => rfd_id = Some(map.next_value_seed(StrSeed)?),
                Key::PlanId => acp_id = Some(map.next_value_seed(StrSeed)?),
                Key::Meta => meta = Some(map.next_value::<Box<RawValue>>()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let meta = read_meta(self.state, meta, at)?;
        match &*kind {
            crate::rules::UPDATE_PLAN => {
                let entries = entries
                    .ok_or_else(|| self.state.fail(at.missing(crate::rules::KEY_ENTRIES)))?;
                Ok(SessionUpdate::Plan(Plan { entries, meta }))
            }
            crate::rules::UPDATE_PLAN_UPDATE => {
                let plan =
                    plan.ok_or_else(|| self.state.fail(at.missing(crate::rules::KEY_PLAN)))?;
                Ok(SessionUpdate::PlanUpdate { plan, meta })
            }
            _ => {
                let id = plan_id(rfd_id, acp_id, self.state.reading, at)
                    .map_err(|err| self.state.fail(err))?;
                Ok(SessionUpdate::PlanRemoved { id, meta })
            }
        }
    }
}

/// The plan id from its two spellings, as `codec::take_plan_id` reads it.
/// The plan id from the values under its two keys, checked as the reference
/// reader checks it (`codec::take_plan_id`).
fn plan_id(
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
fn fallback<'de, A: MapAccess<'de>, T>(
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

seed!(ContentSeed, PlanContent, "an object");

impl<'de> Visitor<'de> for ContentSeed<'_, '_, '_> {
    type Value = PlanContent;
    not_an_object!("an object");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PlanContent, A::Error> {
        let at = self.at;
        let Some(first) = map.next_key_seed(KeySeed)? else {
            return Err(self.state.fail(at.missing(crate::rules::KEY_TYPE)));
        };
        let kind = match first {
            Key::Type => next_str(&mut map, self.state, &at.key(crate::rules::KEY_TYPE))?,
            other => return fallback(self.state, at, &other, map, PlanContent::read),
        };
        let classified = naming::classify_plan_type(kind.into_owned());
        let known = classified.known();
        let (mut entries, mut early_entries, mut text, mut path) = (None, None, None, None);
        let (mut rfd_id, mut acp_id, mut meta) = (None, None, None);
        let mut fields = Map::new();
        let entries_at = at.key(crate::rules::KEY_ENTRIES);
        let mut seen = Seen(Key::Type.bit());
        while let Some(key) = map.next_key_seed(KeySeed)? {
            seen.check(&key, self.state, self.at)?;
            match key {
                Key::Id => rfd_id = Some(map.next_value_seed(StrSeed)?),
                Key::PlanId => acp_id = Some(map.next_value_seed(StrSeed)?),
                Key::Meta => meta = Some(map.next_value::<Box<RawValue>>()?),
                // Before the id, keep the entries to read after it, so a
                // missing id is reported first, as the reference reader does.
                Key::Entries
                    if known == Some(PlanType::Items) && rfd_id.is_none() && acp_id.is_none() =>
                {
                    early_entries = Some(map.next_value::<Value>()?);
                }
                Key::Entries if known == Some(PlanType::Items) => {
                    entries = Some(map.next_value_seed(EntriesSeed {
                        state: self.state,
                        at: &entries_at,
                    })?);
                }
                Key::Uri if known == Some(PlanType::File) => {
                    text = Some(map.next_value::<Value>()?);
                }
                Key::Content if known == Some(PlanType::Markdown) => {
                    text = Some(map.next_value::<Value>()?);
                }
                Key::Path if known == Some(PlanType::Markdown) => {
                    path = Some(map.next_value::<Value>()?);
                }
                _ if known.is_some() => {
                    map.next_value::<IgnoredAny>()?;
                }
                other => {
                    let value = map.next_value::<Value>()?;
                    insert(self.state, at, &mut fields, other.name().to_owned(), value)?;
                }
            }
        }
        let id =
            plan_id(rfd_id, acp_id, self.state.reading, at).map_err(|err| self.state.fail(err))?;
        let meta = read_meta(self.state, meta, at)?;
        let content = match classified {
            TypeName::Known(PlanType::Items) => match (entries, early_entries) {
                (Some(entries), _) => Ok(entries),
                (None, Some(Value::Array(items))) => {
                    entry::read_entries(items, self.state.reading, &entries_at)
                }
                (None, Some(other)) => Err(codec::type_error(&entries_at, "an array", &other)),
                (None, None) => Err(at.missing(crate::rules::KEY_ENTRIES)),
            }
            .map(|entries| PlanContent::Items { id, entries, meta }),
            TypeName::Known(PlanType::File) => text
                .ok_or_else(|| at.missing(crate::rules::KEY_URI))
                .and_then(|uri| codec::expect_string(uri, &at.key(crate::rules::KEY_URI)))
                .and_then(|uri| {
                    codec::file_uri(uri, self.state.reading, &at.key(crate::rules::KEY_URI))
                })
                .map(|uri| PlanContent::File { id, uri, meta }),
            TypeName::Known(PlanType::Markdown) => text
                .ok_or_else(|| at.missing(crate::rules::KEY_CONTENT))
                .and_then(|content| {
                    codec::expect_string(content, &at.key(crate::rules::KEY_CONTENT))
                })
                .and_then(|content| {
                    let path = codec::markdown_path(path, self.state.reading, at)?;
                    Ok(PlanContent::Markdown {
                        id,
                        content: codec::owned(content),
                        path,
                        meta,
                    })
                }),
            TypeName::Custom(kind) => Ok(PlanContent::Custom {
                kind,
                id,
                fields,
                meta,
            }),
            TypeName::Reserved(kind) => Ok(PlanContent::Reserved {
                kind,
                id,
                fields,
                meta,
            }),
        };
        content.map_err(|err| self.state.fail(err))
    }
}

seed!(EntriesSeed, Vec<PlanEntry>, "an array");

impl<'de> Visitor<'de> for EntriesSeed<'_, '_, '_> {
    type Value = Vec<PlanEntry>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }
    scalars_are_found!();
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        self.found("an object")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<PlanEntry>, A::Error> {
        let mut entries = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        let mut index = 0;
        loop {
            let at = self.at.index(index);
            let Some(entry) = seq.next_element_seed(EntrySeed {
                state: self.state,
                at: &at,
            })?
            else {
                break;
            };
            match entry {
                Ok(entry) => entries.push(entry),
                Err(err) => {
                    self.state.skip::<(), A::Error>(err)?;
                }
            }
            index += 1;
        }
        Ok(entries)
    }
}

/// One entry: `Err` for a malformed one (the caller skips or fails), after
/// the whole value has been read, so lenient reading can go on.
struct EntrySeed<'s, 'c, 'p> {
    state: &'s mut ReadState<'c>,
    at: &'p Path<'p>,
}

impl<'de> DeserializeSeed<'de> for EntrySeed<'_, '_, '_> {
    type Value = Result<PlanEntry, Error>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl EntrySeed<'_, '_, '_> {
    /// Not an object: a malformed entry, read whole, for the caller to skip or fail.
    #[allow(clippy::unnecessary_wraps)] // the signature `scalars_are_found!` calls
    fn found<E: de::Error>(self, found: &'static str) -> Result<Result<PlanEntry, Error>, E> {
        Ok(Err(self.at.error(ErrorKind::Type {
            expected: "an object",
            found,
        })))
    }
}

impl<'de> Visitor<'de> for EntrySeed<'_, '_, '_> {
    type Value = Result<PlanEntry, Error>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a plan entry")
    }
    scalars_are_found!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        self.found("an array")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut content, mut priority, mut status, mut meta) = (None, None, None, None);
        let mut seen = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            seen.check(&key, self.state, self.at)?;
            match key {
                Key::Content => content = Some(map.next_value::<Value>()?),
                Key::Priority => priority = Some(map.next_value::<Value>()?),
                Key::Status => status = Some(map.next_value::<Value>()?),
                Key::Meta => meta = Some(map.next_value::<Box<RawValue>>()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let at = self.at;
        let field = |value: Option<Value>, key: &'static str| {
            value
                .ok_or_else(|| at.missing(key))
                .and_then(|v| codec::expect_string(v, &at.key(key)))
        };
        let entry = (|| {
            let content = field(content, "content")?;
            let priority = field(priority, "priority")?;
            let status = field(status, "status")?;
            Ok((content, priority, status))
        })();
        let (content, priority, status) = match entry {
            Ok(fields) => fields,
            Err(err) => return Ok(Err(err)),
        };
        let meta = read_meta(self.state, meta, at)?;
        Ok(Ok(entry::from_wire(content, priority, status, meta)))
    }
}
