//! Plan entries, priorities and statuses: written (`Members`) and read
//! (`WireType`, the one reader's visitors: an entry and a list of them).

use std::fmt;

use serde_core::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::codec::fields;
use crate::codec::read::shared::{KeySeed, KeysRead, read_meta, wrong};
use crate::codec::read::{self, shared::ReadState};
use crate::codec::strictness::ReadNotes;
use crate::codec::wire_type::WireType;
use crate::codec::writer::{Members, Sink};
use crate::error::{Error, ErrorKind, Path};
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::meta::Meta;
use crate::protocol::spelling::Spelling;

impl Members for PlanEntry {
    fn members<O: Sink>(&self, _: Spelling, out: &mut O) -> Result<(), O::Error> {
        // Every field named: one this writer forgets does not compile.
        let PlanEntry {
            content,
            priority,
            status,
            meta,
        } = self;
        out.str(crate::rules::KEY_CONTENT, content)?;
        match priority.known_str() {
            Some(word) => out.word(crate::rules::KEY_PRIORITY, word)?,
            None => out.str(crate::rules::KEY_PRIORITY, priority.as_str())?,
        }
        match status.known_str() {
            Some(word) => out.word(crate::rules::KEY_STATUS, word)?,
            None => out.str(crate::rules::KEY_STATUS, status.as_str())?,
        }
        out.meta(meta.as_ref())
    }
}

impl WireType for PlanEntry {
    fn read(value: Value, reading: &mut ReadNotes, at: &Path<'_>) -> Result<Self, Error> {
        entry_value(value, reading, at)
    }
}

super::wire_type::wire_methods!(PlanEntry, "a plan entry");

// ---- reading: the one reader's visitors for this message, and its ways in ----

/// [`WireType::read`] of one entry.
pub(in crate::codec) fn entry_value(
    value: Value,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<PlanEntry, Error> {
    read::from_value(value, reading, at, None, |state, input| {
        input.read(EntrySeed { state, at })
    })
    .and_then(|entry| entry)
}

/// An `entries` array already parsed; lenient reading drops malformed entries.
pub(in crate::codec) fn entries_value(
    items: Vec<Value>,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<Vec<PlanEntry>, Error> {
    read::from_value(Value::Array(items), reading, at, None, |state, input| {
        input.read(EntriesSeed { state, at })
    })
}

object_keys! {
    /// The keys of a plan entry.
    EntryKey {
        Content(0) = crate::rules::KEY_CONTENT,
        Priority(1) = crate::rules::KEY_PRIORITY,
        Status(2) = crate::rules::KEY_STATUS,
        Meta(3) = crate::rules::KEY_META,
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
pub(in crate::codec) struct EntrySeed<'s, 'c, 'p> {
    pub(in crate::codec) state: &'s mut ReadState<'c>,
    pub(in crate::codec) at: &'p Path<'p>,
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
        let mut seen = KeysRead::default();
        while let Some(key) = map.next_key_seed(KeySeed::new())? {
            seen.check(&key, self.state, self.at)?;
            match key {
                EntryKey::Content => content = Some(map.next_value::<Value>()?),
                EntryKey::Priority => priority = Some(map.next_value::<Value>()?),
                EntryKey::Status => status = Some(map.next_value::<Value>()?),
                EntryKey::Meta => meta = Some(map.next_value::<Box<RawValue>>()?),
                EntryKey::Other(_) => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let at = self.at;
        let field = |value: Option<Value>, key: &'static str| {
            value
                .ok_or_else(|| at.missing(key))
                .and_then(|v| fields::expect_string(v, &at.key(key)))
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
        Ok(Ok(from_wire(content, priority, status, meta)))
    }
}

/// An entry from its three wire strings, as the reader found them.
fn from_wire(content: String, priority: String, status: String, meta: Option<Meta>) -> PlanEntry {
    PlanEntry {
        content: fields::owned(content),
        priority: Priority::from_wire(priority),
        status: Status::from_wire(status),
        meta,
    }
}
