//! Reading and writing client capabilities.

use serde_json::Value;

use crate::codec::fields;
use crate::codec::reading::Reading;
use crate::codec::wire_type::WireType;
use crate::codec::writer::{Members, Out};
use crate::error::{Error, Path};
use crate::protocol::capabilities::{ClientCapabilities, PlanCapabilities};
use crate::protocol::spelling::Spelling;

impl Members for ClientCapabilities {
    fn members<O: Out>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
        // Every field named: one this writer forgets does not compile. (The
        // spelling they came in is not written: the caller's is.)
        let ClientCapabilities {
            plan,
            other,
            spelling: _,
        } = self;
        let plan_keys = [
            Spelling::Rfd.capability_key(),
            Spelling::Acp.capability_key(),
        ];
        for (key, value) in crate::codec::sorted::SortedMap(other).entries() {
            if !plan_keys.contains(&key.as_str()) {
                out.value(key, value)?;
            }
        }
        match plan {
            Some(plan) => out.object(spelling.capability_key(), plan, spelling),
            None => Ok(()),
        }
    }
}

/// The `plan` capability object: only its `_meta`.
impl Members for PlanCapabilities {
    fn members<O: Out>(&self, _: Spelling, out: &mut O) -> Result<(), O::Error> {
        let PlanCapabilities { meta } = self;
        out.meta(meta.as_ref())
    }
}

impl WireType for ClientCapabilities {
    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        let mut other = fields::expect_object(value, at)?;
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
            let meta = fields::take_meta(&mut map, reading, at)?;
            Ok(Some(PlanCapabilities { meta }))
        }
        other => reading.skip_or_fail(crate::error::type_error(at, "an object or null", &other)),
    }
}

super::wire_type::wire_methods!(ClientCapabilities, "client capabilities");
