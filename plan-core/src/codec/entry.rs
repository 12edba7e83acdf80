//! Reading and writing plan entries.

use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::codec::{self, Reading, Spelling, Wire};
use crate::error::{Error, Path};
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::meta::Meta;

impl Wire for PlanEntry {
    fn write<S: Serializer>(&self, _: Spelling, s: S) -> Result<S::Ok, S::Error> {
        // The exact length: a serializer that builds a map sizes it once.
        let mut map = s.serialize_map(Some(3 + usize::from(self.meta.is_some())))?;
        map.serialize_entry(crate::rules::KEY_CONTENT, &*self.content)?;
        map.serialize_entry(crate::rules::KEY_PRIORITY, &self.priority)?;
        map.serialize_entry(crate::rules::KEY_STATUS, &self.status)?;
        codec::write_meta(&mut map, self.meta.as_ref())?;
        map.end()
    }

    fn emit<W: std::io::Write>(&self, out: W, spelling: Spelling) -> std::io::Result<()> {
        crate::codec::text_writer::Emitter::new(out, spelling).entry(self)
    }

    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        crate::codec::text_reader::entry_value(value, reading, at)
    }
}

codec::wire_methods!(PlanEntry, "a plan entry");

/// An entry from its three wire strings (both readers' way in).
pub(crate) fn from_wire(
    content: String,
    priority: String,
    status: String,
    meta: Option<Meta>,
) -> PlanEntry {
    PlanEntry {
        content: codec::owned(content),
        priority: Priority::from_wire(priority),
        status: Status::from_wire(status),
        meta,
    }
}

/// Reads an `entries` array; lenient reading drops malformed entries.
pub(crate) fn read_entries(
    items: Vec<Value>,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<Vec<PlanEntry>, Error> {
    crate::codec::text_reader::entries_value(items, reading, at)
}

/// Writes a list of entries.
pub(crate) struct Entries<'a>(pub(crate) &'a [PlanEntry]);

impl serde::Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|e| codec::Spelled(e, Spelling::Rfd)))
    }
}
