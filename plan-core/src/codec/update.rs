//! Session updates: written (`Members`) and read (`WireType`, the one
//! reader's visitor: `plan`, `plan_update`, `plan_removed`, or another
//! update kept whole).

use std::fmt;

use serde_core::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::codec::content::ContentSeed;
use crate::codec::entry::EntriesSeed;
use crate::codec::envelope::Member;
use crate::codec::read::shared::{
    KeySeed, KeysRead, ObjectKey as _, StrSeed, insert, next_str, plan_id, read_late_tag,
    read_meta, wrong,
};
use crate::codec::read::{self, shared::ReadState};
use crate::codec::strictness::ReadNotes;
use crate::codec::wire_type::WireType;
use crate::codec::writer::{Members, Sink};
use crate::error::{Error, ErrorKind, Path};
use crate::protocol::spelling::Spelling;
use crate::protocol::update::{OtherUpdate, Plan, SessionUpdate};
use crate::rules::KEY_SESSION_UPDATE;

impl Members for SessionUpdate {
    fn members<O: Sink>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
        let meta = match self {
            SessionUpdate::Other(other) => {
                for (key, value) in crate::codec::sorted::SortedMap(&other.0).entries() {
                    out.value(key, value)?;
                }
                return Ok(());
            }
            // Every field named: one this writer forgets does not compile.
            SessionUpdate::Plan(Plan { entries, meta }) => {
                out.word(KEY_SESSION_UPDATE, crate::rules::TAG_PLAN)?;
                out.list(crate::rules::KEY_ENTRIES, entries, spelling)?;
                meta.as_ref()
            }
            SessionUpdate::PlanUpdate { plan, meta } => {
                out.word(KEY_SESSION_UPDATE, crate::rules::TAG_PLAN_UPDATE)?;
                out.object(crate::rules::KEY_PLAN, plan, spelling)?;
                meta.as_ref()
            }
            SessionUpdate::PlanRemoved { id, meta } => {
                out.word(KEY_SESSION_UPDATE, crate::rules::TAG_PLAN_REMOVED)?;
                out.str(spelling.plan_id_key(), id.as_str())?;
                meta.as_ref()
            }
        };
        out.meta(meta)
    }
}

impl WireType for SessionUpdate {
    fn read_str(json: &str, reading: &mut ReadNotes) -> Result<Self, Error> {
        update(json, reading)
    }

    fn read(value: Value, reading: &mut ReadNotes, at: &Path<'_>) -> Result<Self, Error> {
        update_value(value, reading, at)
    }
}

super::wire_type::wire_methods!(SessionUpdate, "a session update (the `update` object)");

// ---- reading: the one reader's visitors for this message, and its ways in ----

/// [`WireType::read`] of an update.
pub(in crate::codec) fn update_value(
    value: Value,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<SessionUpdate, Error> {
    read::from_value(
        value,
        reading,
        at,
        Some(KEY_SESSION_UPDATE),
        |state, input| input.read(UpdateSeed { state, at }),
    )
}

/// An update from JSON text.
pub(in crate::codec) fn update(
    json: &str,
    reading: &mut ReadNotes,
) -> Result<SessionUpdate, Error> {
    read::run(json, reading, |state, de| {
        UpdateSeed {
            state,
            at: &Path::Root,
        }
        .deserialize(de)
    })
}

/// An update alone on its line, from the members the line's router split
/// it into (`codec/line.rs`).
pub(in crate::codec) fn update_members(
    members: Vec<Member<'_>>,
    reading: &mut ReadNotes,
) -> Result<SessionUpdate, Error> {
    read::from_members(
        members,
        reading,
        Some(KEY_SESSION_UPDATE),
        |state, input| {
            UpdateSeed {
                state,
                at: &Path::Root,
            }
            .deserialize(input)
        },
    )
}

object_keys! {
    /// The keys of a `session/update`'s `update`.
    UpdateKey {
        SessionUpdate(0) = crate::rules::KEY_SESSION_UPDATE,
        Entries(1) = crate::rules::KEY_ENTRIES,
        Plan(2) = crate::rules::KEY_PLAN,
        Id(3) = crate::rules::KEY_PLAN_ID_RFD,
        PlanId(4) = crate::rules::KEY_PLAN_ID,
        Meta(5) = crate::rules::KEY_META,
    }
}

seed!(UpdateSeed, SessionUpdate, "an object");

impl<'de> Visitor<'de> for UpdateSeed<'_, '_, '_> {
    type Value = SessionUpdate;
    not_an_object!("an object");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SessionUpdate, A::Error> {
        let at = self.at;
        let Some(first) = map.next_key_seed(KeySeed::new())? else {
            return Err(self.state.fail(at.error(ErrorKind::Missing {
                field: "sessionUpdate",
            })));
        };
        let kind = match first {
            UpdateKey::SessionUpdate => next_str(
                &mut map,
                self.state,
                &at.key(crate::rules::KEY_SESSION_UPDATE),
            )?,
            other => return read_late_tag(self.state, at, &other, map, SessionUpdate::read),
        };
        match &*kind {
            crate::rules::TAG_PLAN
            | crate::rules::TAG_PLAN_UPDATE
            | crate::rules::TAG_PLAN_REMOVED => {}
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
        let mut seen = KeysRead(UpdateKey::SessionUpdate.bit());
        while let Some(key) = map.next_key_seed(KeySeed::new())? {
            seen.check(&key, self.state, self.at)?;
            match key {
                UpdateKey::Entries if kind == crate::rules::TAG_PLAN => {
                    entries = Some(map.next_value_seed(EntriesSeed {
                        state: self.state,
                        at: &entries_at,
                    })?);
                }
                UpdateKey::Plan if kind == crate::rules::TAG_PLAN_UPDATE => {
                    plan = Some(map.next_value_seed(ContentSeed {
                        state: self.state,
                        at: &plan_at,
                    })?);
                }
                UpdateKey::Id => rfd_id = Some(map.next_value_seed(StrSeed)?),
                UpdateKey::PlanId => acp_id = Some(map.next_value_seed(StrSeed)?),
                UpdateKey::Meta => meta = Some(map.next_value::<Box<RawValue>>()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let meta = read_meta(self.state, meta, at)?;
        match &*kind {
            crate::rules::TAG_PLAN => {
                let entries = entries
                    .ok_or_else(|| self.state.fail(at.missing(crate::rules::KEY_ENTRIES)))?;
                Ok(SessionUpdate::Plan(Plan { entries, meta }))
            }
            crate::rules::TAG_PLAN_UPDATE => {
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
