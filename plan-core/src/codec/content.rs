//! Reading and writing plan content.

use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::codec::entry::Entries;
use crate::codec::{self, Reading, Wire};
use crate::error::{Error, Path};
use crate::protocol::content::{OWN_KEYS, PlanContent};
use crate::protocol::spelling::Spelling;
use crate::rules::{KEY_CONTENT, KEY_ENTRIES, KEY_PATH, KEY_URI};

impl Wire for PlanContent {
    fn write<S: Serializer>(&self, spelling: Spelling, s: S) -> Result<S::Ok, S::Error> {
        let own = match self {
            PlanContent::Custom { fields, .. } | PlanContent::Reserved { fields, .. } => fields
                .keys()
                .filter(|k| !OWN_KEYS.contains(&k.as_str()))
                .count(),
            PlanContent::Markdown { path: Some(_), .. } => 2,
            _ => 1,
        };
        let mut map = s.serialize_map(Some(2 + own + usize::from(self.meta().is_some())))?;
        map.serialize_entry(crate::rules::KEY_TYPE, self.type_name())?;
        map.serialize_entry(spelling.plan_id_key(), self.id().as_str())?;
        match self {
            PlanContent::Items { entries, .. } => {
                map.serialize_entry(KEY_ENTRIES, &Entries(entries))?;
            }
            PlanContent::File { uri, .. } => {
                map.serialize_entry(KEY_URI, uri.as_str())?;
            }
            PlanContent::Markdown { content, path, .. } => {
                map.serialize_entry(KEY_CONTENT, &**content)?;
                if let Some(path) = path {
                    map.serialize_entry(KEY_PATH, path.as_str())?;
                }
            }
            PlanContent::Custom { fields, .. } | PlanContent::Reserved { fields, .. } => {
                let sorted = codec::SortedMap(fields);
                for (key, value) in sorted.entries() {
                    if !OWN_KEYS.contains(&key.as_str()) {
                        map.serialize_entry(key, &codec::Sorted(value))?;
                    }
                }
            }
        }
        codec::write_meta(&mut map, self.meta())?;
        map.end()
    }

    fn emit<W: std::io::Write>(&self, out: W, spelling: Spelling) -> std::io::Result<()> {
        crate::codec::text_writer::Emitter::new(out, spelling).content(self)
    }

    fn read_str(json: &str, reading: &mut Reading) -> Result<Self, Error> {
        crate::codec::text_reader::content(json, reading)
    }

    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        crate::codec::text_reader::content_value(value, reading, at)
    }
}

codec::wire_methods!(
    PlanContent,
    "plan content (the `plan` object of a `plan_update`)"
);
