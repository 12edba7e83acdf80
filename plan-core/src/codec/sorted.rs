//! JSON values written with every object's keys in sorted order, in every
//! build.

use serde_core::ser::{SerializeMap, Serializer};
use serde_json::{Map, Value};

/// A JSON value written with every object's keys in sorted (byte) order,
/// whether or not `serde_json`'s `preserve_order` feature is on somewhere in
/// the build: our output, and `plan_json!`'s, is the same in every build.
pub(crate) struct Sorted<'a>(pub(crate) &'a Value);

impl serde_core::Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => SortedMap(map).serialize(s),
            Value::Array(items) => s.collect_seq(items.iter().map(Sorted)),
            other => other.serialize(s),
        }
    }
}

/// An object written with its keys in sorted order (see [`Sorted`]).
pub(crate) struct SortedMap<'a>(pub(crate) &'a Map<String, Value>);

impl SortedMap<'_> {
    /// The entries in sorted order.
    pub(crate) fn entries(&self) -> Vec<(&String, &Value)> {
        let mut entries: Vec<(&String, &Value)> = self.0.iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        entries
    }
}

impl serde_core::Serialize for SortedMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.entries() {
            map.serialize_entry(key, &Sorted(value))?;
        }
        map.end()
    }
}
