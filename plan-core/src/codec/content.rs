//! Plan content: written (`Members`) and read (`WireType`, the one
//! reader's visitor, by `type`).

use std::fmt;

use serde_core::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::codec::entry::EntriesSeed;
use crate::codec::envelope::Member;
use crate::codec::fields;
use crate::codec::read::shared::{
    KeySeed, KeysRead, ObjectKey as _, StrSeed, insert, next_str, plan_id, read_late_tag,
    read_meta, wrong,
};
use crate::codec::read::{self, shared::ReadState};
use crate::codec::strictness::ReadNotes;
use crate::codec::wire_type::WireType;
use crate::codec::writer::{Members, Sink};
use crate::error::{Error, Path};
use crate::protocol::content::{OWN_KEYS, PlanContent};
use crate::protocol::entry::PlanEntry;
use crate::protocol::id::PlanId;
use crate::protocol::meta::Meta;
use crate::protocol::naming::{self, TypeName};
use crate::protocol::spelling::Spelling;
use crate::rules::{KEY_CONTENT, KEY_ENTRIES, KEY_PATH, KEY_TYPE, KEY_URI, PlanType};

impl Members for PlanContent {
    fn members<O: Sink>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
        match self {
            PlanContent::Items { .. } => out.word(KEY_TYPE, PlanType::Items.name())?,
            PlanContent::Markdown { .. } => out.word(KEY_TYPE, PlanType::Markdown.name())?,
            PlanContent::File { .. } => out.word(KEY_TYPE, PlanType::File.name())?,
            PlanContent::Custom { .. } | PlanContent::Reserved { .. } => {
                out.str(KEY_TYPE, self.type_name())?;
            }
        }
        out.str(spelling.plan_id_key(), self.id().as_str())?;
        // Every field named (the type, the id and `_meta` are written
        // around the match): one this writer forgets does not compile.
        match self {
            PlanContent::Items {
                id: _,
                entries,
                meta: _,
            } => out.list(KEY_ENTRIES, entries, spelling)?,
            PlanContent::File {
                id: _,
                uri,
                meta: _,
            } => out.str(KEY_URI, uri.as_str())?,
            PlanContent::Markdown {
                id: _,
                content,
                path,
                meta: _,
            } => {
                out.str(KEY_CONTENT, content)?;
                if let Some(path) = path {
                    out.str(KEY_PATH, path.as_str())?;
                }
            }
            PlanContent::Custom {
                kind: _,
                id: _,
                fields,
                meta: _,
            }
            | PlanContent::Reserved {
                kind: _,
                id: _,
                fields,
                meta: _,
            } => {
                for (key, value) in crate::codec::sorted::SortedMap(fields).entries() {
                    if !OWN_KEYS.contains(&key.as_str()) {
                        out.value(key, value)?;
                    }
                }
            }
        }
        out.meta(self.meta())
    }
}

impl WireType for PlanContent {
    fn read_str(json: &str, reading: &mut ReadNotes) -> Result<Self, Error> {
        content(json, reading)
    }

    fn read(value: Value, reading: &mut ReadNotes, at: &Path<'_>) -> Result<Self, Error> {
        content_value(value, reading, at)
    }
}

super::wire_type::wire_methods!(
    PlanContent,
    "plan content (the `plan` object of a `plan_update`)"
);

// ---- reading: the one reader's visitors for this message, and its ways in ----

/// [`WireType::read`] of plan content.
pub(in crate::codec) fn content_value(
    value: Value,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<PlanContent, Error> {
    read::from_value(value, reading, at, Some(KEY_TYPE), |state, input| {
        input.read(ContentSeed { state, at })
    })
}

/// Plan content from JSON text.
pub(in crate::codec) fn content(json: &str, reading: &mut ReadNotes) -> Result<PlanContent, Error> {
    read::run(json, reading, |state, de| {
        ContentSeed {
            state,
            at: &Path::Root,
        }
        .deserialize(de)
    })
}

/// Plan content alone on its line, from the members the line's router
/// split it into (`codec/line.rs`).
pub(in crate::codec) fn content_members(
    members: Vec<Member<'_>>,
    reading: &mut ReadNotes,
) -> Result<PlanContent, Error> {
    read::from_members(members, reading, Some(KEY_TYPE), |state, input| {
        ContentSeed {
            state,
            at: &Path::Root,
        }
        .deserialize(input)
    })
}

object_keys! {
    /// The keys of a plan's content (a custom type's own are `Other`).
    ContentKey {
        Type(0) = crate::rules::KEY_TYPE,
        Id(1) = crate::rules::KEY_PLAN_ID_RFD,
        PlanId(2) = crate::rules::KEY_PLAN_ID,
        Entries(3) = crate::rules::KEY_ENTRIES,
        Content(4) = crate::rules::KEY_CONTENT,
        Uri(5) = crate::rules::KEY_URI,
        Path(6) = crate::rules::KEY_PATH,
        Meta(7) = crate::rules::KEY_META,
    }
}

seed!(ContentSeed, PlanContent, "an object");

impl<'de> Visitor<'de> for ContentSeed<'_, '_, '_> {
    type Value = PlanContent;
    not_an_object!("an object");

    /// The type first (else read again with it first), then each key as
    /// the type has it; the plan built from them at the end.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PlanContent, A::Error> {
        let at = self.at;
        let Some(first) = map.next_key_seed(KeySeed::new())? else {
            return Err(self.state.fail(at.missing(crate::rules::KEY_TYPE)));
        };
        let kind = match first {
            ContentKey::Type => next_str(&mut map, self.state, &at.key(crate::rules::KEY_TYPE))?,
            other => return read_late_tag(self.state, at, &other, map, PlanContent::read),
        };
        let classified = naming::classify_plan_type(kind.into_owned());
        let known = classified.known();
        let mut parts = Parts::default();
        let (mut rfd_id, mut acp_id, mut meta) = (None, None, None);
        let entries_at = at.key(crate::rules::KEY_ENTRIES);
        let mut seen = KeysRead(ContentKey::Type.bit());
        while let Some(key) = map.next_key_seed(KeySeed::new())? {
            seen.check(&key, self.state, self.at)?;
            match key {
                ContentKey::Id => rfd_id = Some(map.next_value_seed(StrSeed)?),
                ContentKey::PlanId => acp_id = Some(map.next_value_seed(StrSeed)?),
                ContentKey::Meta => meta = Some(map.next_value::<Box<RawValue>>()?),
                // Before the id, keep the entries to read after it, so a
                // missing id is reported first, whatever the key order.
                ContentKey::Entries
                    if known == Some(PlanType::Items) && rfd_id.is_none() && acp_id.is_none() =>
                {
                    parts.early_entries = Some(map.next_value::<Value>()?);
                }
                ContentKey::Entries if known == Some(PlanType::Items) => {
                    parts.entries = Some(map.next_value_seed(EntriesSeed {
                        state: self.state,
                        at: &entries_at,
                    })?);
                }
                ContentKey::Uri if known == Some(PlanType::File) => {
                    parts.text = Some(map.next_value::<Value>()?);
                }
                ContentKey::Content if known == Some(PlanType::Markdown) => {
                    parts.text = Some(map.next_value::<Value>()?);
                }
                ContentKey::Path if known == Some(PlanType::Markdown) => {
                    parts.path = Some(map.next_value::<Value>()?);
                }
                _ if known.is_some() => {
                    map.next_value::<IgnoredAny>()?;
                }
                other => {
                    let value = map.next_value::<Value>()?;
                    insert(
                        self.state,
                        at,
                        &mut parts.fields,
                        other.name().to_owned(),
                        value,
                    )?;
                }
            }
        }
        let id =
            plan_id(rfd_id, acp_id, self.state.reading, at).map_err(|err| self.state.fail(err))?;
        let meta = read_meta(self.state, meta, at)?;
        let content = parts.content(classified, id, meta, self.state.reading, at);
        content.map_err(|err| self.state.fail(err))
    }
}

/// What a plan object held besides its type, id and `_meta`, as read: the
/// entries (read, or kept to read after the id), the `uri` or `content`,
/// the `path`, a custom plan's fields.
#[derive(Default)]
struct Parts {
    entries: Option<Vec<PlanEntry>>,
    early_entries: Option<Value>,
    text: Option<Value>,
    path: Option<Value>,
    fields: Map<String, Value>,
}

impl Parts {
    /// The plan of type `classified` these parts make, or what it misses.
    fn content(
        self,
        classified: TypeName,
        id: PlanId,
        meta: Option<Meta>,
        reading: &mut ReadNotes,
        at: &Path<'_>,
    ) -> Result<PlanContent, Error> {
        let entries_at = at.key(crate::rules::KEY_ENTRIES);
        match classified {
            TypeName::Known(PlanType::Items) => match (self.entries, self.early_entries) {
                (Some(entries), _) => Ok(entries),
                (None, Some(Value::Array(items))) => {
                    crate::codec::entry::entries_value(items, reading, &entries_at)
                }
                (None, Some(other)) => {
                    Err(crate::error::type_error(&entries_at, "an array", &other))
                }
                (None, None) => Err(at.missing(crate::rules::KEY_ENTRIES)),
            }
            .map(|entries| PlanContent::Items { id, entries, meta }),
            TypeName::Known(PlanType::File) => self
                .text
                .ok_or_else(|| at.missing(crate::rules::KEY_URI))
                .and_then(|uri| fields::expect_string(uri, &at.key(crate::rules::KEY_URI)))
                .and_then(|uri| fields::file_uri(uri, reading, &at.key(crate::rules::KEY_URI)))
                .map(|uri| PlanContent::File { id, uri, meta }),
            TypeName::Known(PlanType::Markdown) => self
                .text
                .ok_or_else(|| at.missing(crate::rules::KEY_CONTENT))
                .and_then(|content| {
                    fields::expect_string(content, &at.key(crate::rules::KEY_CONTENT))
                })
                .and_then(|content| {
                    let path = fields::markdown_path(self.path, reading, at)?;
                    Ok(PlanContent::Markdown {
                        id,
                        content: fields::owned(content),
                        path,
                        meta,
                    })
                }),
            TypeName::Custom(kind) => Ok(PlanContent::Custom {
                kind,
                id,
                fields: self.fields,
                meta,
            }),
            TypeName::Reserved(kind) => Ok(PlanContent::Reserved {
                kind,
                id,
                fields: self.fields,
                meta,
            }),
        }
    }
}
