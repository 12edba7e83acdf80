//! Reading and writing client capabilities.

use std::fmt;

use serde_core::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::codec::read::shared::{KeySeed, KeysRead, ObjectKey, insert, read_meta, wrong};
use crate::codec::read::{self, shared::ReadState};
use crate::codec::strictness::ReadNotes;
use crate::codec::wire_type::WireType;
use crate::codec::writer::{Members, Sink};
use crate::error::{Error, ErrorKind, Path};
use crate::protocol::capabilities::{ClientCapabilities, PlanCapabilities};
use crate::protocol::spelling::Spelling;

impl Members for ClientCapabilities {
    fn members<O: Sink>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
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
    fn members<O: Sink>(&self, _: Spelling, out: &mut O) -> Result<(), O::Error> {
        let PlanCapabilities { meta } = self;
        out.meta(meta.as_ref())
    }
}

impl WireType for ClientCapabilities {
    fn read_str(json: &str, reading: &mut ReadNotes) -> Result<Self, Error> {
        read::run(json, reading, |state, de| {
            CapabilitiesSeed {
                state,
                at: &Path::Root,
            }
            .deserialize(de)
        })
    }

    fn read(value: Value, reading: &mut ReadNotes, at: &Path<'_>) -> Result<Self, Error> {
        read::from_value(value, reading, at, None, |state, input| {
            input.read(CapabilitiesSeed { state, at })
        })
    }
}

// ---- reading: the one reader's visitors for capabilities ----

object_keys! {
    /// The keys of client capabilities a plan reader knows: the plan
    /// capability in each spelling (every other is kept as it came).
    CapabilityKey {
        Rfd(0) = RFD_KEY,
        Acp(1) = ACP_KEY,
    }
}

object_keys! {
    /// The keys of the plan capability: its `_meta` (no other is defined).
    PlanCapabilityKey {
        Meta(0) = crate::rules::KEY_META,
    }
}

/// The plan capability's key in each spelling.
const RFD_KEY: &str = Spelling::Rfd.capability_key();
const ACP_KEY: &str = Spelling::Acp.capability_key();

seed!(CapabilitiesSeed, ClientCapabilities, "an object");

impl<'de> Visitor<'de> for CapabilitiesSeed<'_, '_, '_> {
    type Value = ClientCapabilities;
    not_an_object!("an object");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ClientCapabilities, A::Error> {
        let at = self.at;
        let (mut rfd, mut acp) = (None, None);
        let mut caps = ClientCapabilities::default();
        let mut seen = KeysRead::default();
        while let Some(key) = map.next_key_seed(KeySeed::<CapabilityKey>::new())? {
            seen.check(&key, self.state, at)?;
            let plan_at = at.key(key.name());
            let plan = PlanCapabilitySeed {
                state: self.state,
                at: &plan_at,
            };
            match key {
                CapabilityKey::Rfd => rfd = map.next_value_seed(plan)?,
                CapabilityKey::Acp => acp = map.next_value_seed(plan)?,
                CapabilityKey::Other(key) => {
                    let value = map.next_value::<Value>()?;
                    insert(self.state, at, &mut caps.other, key, value)?;
                }
            }
        }
        // The ACP key wins when both hold a capability.
        for (spelling, found) in [(Spelling::Rfd, rfd), (Spelling::Acp, acp)] {
            if let Some(plan) = found {
                caps.plan = Some(plan);
                caps.spelling = Some(spelling);
            }
        }
        Ok(caps)
    }
}

/// The plan capability: an object (its `_meta` read), or `null`, the same as
/// absent (`None`); anything else fails strict reading, and lenient reading
/// reads it as absent, as the SDKs do.
struct PlanCapabilitySeed<'s, 'c, 'p> {
    state: &'s mut ReadState<'c>,
    at: &'p Path<'p>,
}

impl<'de> DeserializeSeed<'de> for PlanCapabilitySeed<'_, '_, '_> {
    type Value = Option<PlanCapabilities>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl PlanCapabilitySeed<'_, '_, '_> {
    /// A value of another JSON type than an object: `null` is absent; any
    /// other is skipped when lenient, else an error.
    fn found<E: de::Error>(self, found: &'static str) -> Result<Option<PlanCapabilities>, E> {
        if found == "null" {
            return Ok(None);
        }
        let expected = "an object or null";
        self.state
            .skip(self.at.error(ErrorKind::Type { expected, found }))
    }
}

impl<'de> Visitor<'de> for PlanCapabilitySeed<'_, '_, '_> {
    type Value = Option<PlanCapabilities>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object or null")
    }
    scalars_are_found!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // Read to its end, so that a lenient reading goes on after it.
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        self.found("an array")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut meta = None;
        let mut seen = KeysRead::default();
        while let Some(key) = map.next_key_seed(KeySeed::<PlanCapabilityKey>::new())? {
            seen.check(&key, self.state, self.at)?;
            match key {
                PlanCapabilityKey::Meta => meta = Some(map.next_value::<Box<RawValue>>()?),
                PlanCapabilityKey::Other(_) => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let meta = read_meta(self.state, meta, self.at)?;
        Ok(Some(PlanCapabilities { meta }))
    }
}

super::wire_type::wire_methods!(ClientCapabilities, "client capabilities");

#[cfg(test)]
mod tests {
    use crate::codec::strictness::Strictness;
    use crate::protocol::capabilities::ClientCapabilities;
    use crate::protocol::spelling::Spelling;

    /// Text and its parsed value read alike, in both modes.
    fn both(text: &str, strictness: Strictness) -> Result<ClientCapabilities, String> {
        let from_text = ClientCapabilities::parse(text, strictness);
        let value = serde_json::from_str(text).unwrap();
        let from_value = ClientCapabilities::parse_value(value, strictness);
        match (from_text, from_value) {
            (Ok(text), Ok(value)) => {
                assert_eq!(text, value, "{text:?}");
                Ok(text.value)
            }
            (Err(text), Err(value)) => {
                assert_eq!(text.to_string(), value.to_string());
                Err(text.to_string())
            }
            (text, value) => panic!("text {text:?}, value {value:?}"),
        }
    }

    #[test]
    fn a_malformed_plan_capability_is_absent_when_lenient_and_an_error_when_strict() {
        for (text, found) in [
            (
                r#"{"fs":{"readTextFile":true},"plan":[1,[2]],"terminal":true}"#,
                "an array",
            ),
            (r#"{"plan":42,"fs":{}}"#, "a number"),
        ] {
            let read = both(text, Strictness::Lenient).unwrap();
            assert_eq!(read.plan, None);
            assert!(read.other.contains_key("fs"), "{text}");
            assert!(!read.other.contains_key("plan"), "{text}");
            let err = both(text, Strictness::Strict).unwrap_err();
            assert_eq!(
                err,
                format!("at `plan`: expected an object or null, found {found}")
            );
        }
    }

    #[test]
    fn the_acp_key_wins_and_null_is_absent() {
        let read = both(
            r#"{"plan":{"_meta":{"a":1}},"planCapabilities":{}}"#,
            Strictness::Strict,
        )
        .unwrap();
        assert_eq!(read.plan_spelling(), Some(Spelling::Acp));
        assert!(read.plan.unwrap().meta.is_some());
        let read = both(r#"{"planCapabilities":{},"plan":null}"#, Strictness::Strict).unwrap();
        assert_eq!(read.plan_spelling(), Some(Spelling::Rfd));
        let read = both(r#"{"plan":null}"#, Strictness::Strict).unwrap();
        assert_eq!(read.plan, None);
    }

    #[test]
    fn a_key_given_twice_in_the_text_is_ambiguous() {
        let err = ClientCapabilities::from_json(r#"{"plan":{},"plan":null}"#).unwrap_err();
        assert!(err.to_string().contains("appears twice"), "{err}");
    }
}
