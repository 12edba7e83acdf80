//! Reading and writing session updates.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::codec::entry::Entries;
use crate::codec::{self, Reading, Spelling, Wire};
use crate::error::{Error, Path};
use crate::protocol::update::SessionUpdate;
use crate::rules::KEY_SESSION_UPDATE;

impl Wire for SessionUpdate {
    fn write<S: Serializer>(&self, spelling: Spelling, s: S) -> Result<S::Ok, S::Error> {
        if let SessionUpdate::Other(other) = self {
            return codec::SortedMap(&other.0).serialize(s);
        }
        let has_meta = match self {
            SessionUpdate::Plan(plan) => plan.meta.is_some(),
            SessionUpdate::PlanUpdate { meta, .. } | SessionUpdate::PlanRemoved { meta, .. } => {
                meta.is_some()
            }
            SessionUpdate::Other(_) => false,
        };
        let mut map = s.serialize_map(Some(2 + usize::from(has_meta)))?;
        map.serialize_entry(KEY_SESSION_UPDATE, self.kind())?;
        let meta = match self {
            SessionUpdate::Plan(plan) => {
                map.serialize_entry(crate::rules::KEY_ENTRIES, &Entries(&plan.entries))?;
                plan.meta.as_ref()
            }
            SessionUpdate::PlanUpdate { plan, meta } => {
                map.serialize_entry(crate::rules::KEY_PLAN, &codec::Spelled(plan, spelling))?;
                meta.as_ref()
            }
            SessionUpdate::PlanRemoved { id, meta } => {
                map.serialize_entry(spelling.plan_id_key(), id.as_str())?;
                meta.as_ref()
            }
            SessionUpdate::Other(_) => None,
        };
        codec::write_meta(&mut map, meta)?;
        map.end()
    }

    fn emit<W: std::io::Write>(&self, out: W, spelling: Spelling) -> std::io::Result<()> {
        crate::codec::text_writer::Emitter::new(out, spelling).update(self)
    }

    fn read_str(json: &str, reading: &mut Reading) -> Result<Self, Error> {
        crate::codec::text_reader::update(json, reading)
    }

    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        crate::codec::text_reader::update_value(value, reading, at)
    }
}

codec::wire_methods!(SessionUpdate, "a session update (the `update` object)");
