//! A plan's content read: `items`, `markdown`, the pre-stable `file`, and a
//! custom or reserved type with its own fields.

use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::codec::{self, Readable};
use crate::error::Path;
use crate::protocol::content::PlanContent;
use crate::protocol::naming::{self, TypeName};
use crate::rules::PlanType;
use serde_json::value::RawValue;

use super::ReadState;
use super::entry::EntriesSeed;
use super::shared::{
    KeySeed, ObjectKey as _, Seen, StrSeed, fallback, insert, next_str, plan_id, read_meta, wrong,
};

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

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PlanContent, A::Error> {
        let at = self.at;
        let Some(first) = map.next_key_seed(KeySeed::new())? else {
            return Err(self.state.fail(at.missing(crate::rules::KEY_TYPE)));
        };
        let kind = match first {
            ContentKey::Type => next_str(&mut map, self.state, &at.key(crate::rules::KEY_TYPE))?,
            other => return fallback(self.state, at, &other, map, PlanContent::read),
        };
        let classified = naming::classify_plan_type(kind.into_owned());
        let known = classified.known();
        let (mut entries, mut early_entries, mut text, mut path) = (None, None, None, None);
        let (mut rfd_id, mut acp_id, mut meta) = (None, None, None);
        let mut fields = Map::new();
        let entries_at = at.key(crate::rules::KEY_ENTRIES);
        let mut seen = Seen(ContentKey::Type.bit());
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
                    early_entries = Some(map.next_value::<Value>()?);
                }
                ContentKey::Entries if known == Some(PlanType::Items) => {
                    entries = Some(map.next_value_seed(EntriesSeed {
                        state: self.state,
                        at: &entries_at,
                    })?);
                }
                ContentKey::Uri if known == Some(PlanType::File) => {
                    text = Some(map.next_value::<Value>()?);
                }
                ContentKey::Content if known == Some(PlanType::Markdown) => {
                    text = Some(map.next_value::<Value>()?);
                }
                ContentKey::Path if known == Some(PlanType::Markdown) => {
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
                    super::entries_value(items, self.state.reading, &entries_at)
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
