//! Reading and writing client capabilities.

use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::codec::{self, Reading, Spelling, Wire};
use crate::error::{Error, Path};
use crate::protocol::capabilities::{ClientCapabilities, PlanCapabilities};

impl Wire for ClientCapabilities {
    fn write<S: Serializer>(&self, spelling: Spelling, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        let plan_keys = [
            Spelling::Rfd.capability_key(),
            Spelling::Acp.capability_key(),
        ];
        for (key, value) in codec::SortedMap(&self.other).entries() {
            if !plan_keys.contains(&key.as_str()) {
                map.serialize_entry(key, &codec::Sorted(value))?;
            }
        }
        if let Some(plan) = &self.plan {
            map.serialize_entry(spelling.capability_key(), &CapabilityObject(plan))?;
        }
        map.end()
    }

    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        let mut other = codec::expect_object(value, at)?;
        let mut caps = Self::default();
        // The RFD key first, so that the ACP key wins when both are present.
        for spelling in [Spelling::Rfd, Spelling::Acp] {
            let key = spelling.capability_key();
            let found = match other.remove(key) {
                None | Some(Value::Null) => None,
                Some(value) => read_capability(value, reading, &at.key(key))?,
            };
            if let Some(plan) = found {
                caps.plan = Some(plan);
                caps.spelling = Some(spelling);
            }
        }
        caps.other = other;
        Ok(caps)
    }
}

fn read_capability(
    value: Value,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<Option<PlanCapabilities>, Error> {
    match value {
        Value::Object(mut map) => {
            let meta = codec::take_meta(&mut map, reading, at)?;
            Ok(Some(PlanCapabilities { meta }))
        }
        other => reading.skip_or_fail(codec::type_error(at, "an object or null", &other)),
    }
}

struct CapabilityObject<'a>(&'a PlanCapabilities);

impl serde::Serialize for CapabilityObject<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        codec::write_meta(&mut map, self.0.meta.as_ref())?;
        map.end()
    }
}

codec::wire_methods!(ClientCapabilities, "client capabilities");
