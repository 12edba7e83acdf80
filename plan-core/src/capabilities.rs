//! The client's capabilities, as far as plans are concerned.

use serde::ser::{SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::error::{Error, Path};
use crate::meta::Meta;
use crate::wire::{self, Cx, Spelling, Wire};

/// The plan capability: its presence says the client accepts `plan_update`
/// and `plan_removed`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanCapabilities {
    /// `_meta` of the capability.
    pub meta: Option<Meta>,
}

/// A client's `ClientCapabilities`, as sent in `initialize`.
///
/// Only the plan capability is modelled; every other field (`fs`, `terminal`,
/// ...) is kept in [`other`](Self::other) and written back unchanged.
/// The capability is read under either key (`planCapabilities`, the RFD
/// spelling, or `plan`, the ACP spelling); `null` means the same as absent.
/// If a client sends both keys, the ACP key wins.
///
/// ```
/// use plan_core::{ClientCapabilities, Spelling};
///
/// let caps = ClientCapabilities::from_json(r#"{"fs":{"readTextFile":true},"plan":{}}"#)?;
/// assert!(caps.supports_plan_operations());
/// assert_eq!(caps.plan_spelling(), Some(Spelling::Acp));
///
/// let legacy = ClientCapabilities::from_json(r#"{"plan":null}"#)?;
/// assert!(!legacy.supports_plan_operations());
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientCapabilities {
    /// `Some` if the client accepts `plan_update` and `plan_removed`.
    pub plan: Option<PlanCapabilities>,
    /// Every other capability, as it came. Keys of the plan capability in
    /// either spelling are not written from here.
    pub other: Map<String, Value>,
    spelling: Option<Spelling>,
}

impl ClientCapabilities {
    /// Capabilities that advertise plan support, to be written in `spelling`
    /// (a client would send these).
    pub fn with_plan_support(spelling: Spelling) -> Self {
        Self {
            plan: Some(PlanCapabilities::default()),
            other: Map::new(),
            spelling: Some(spelling),
        }
    }

    /// Capabilities with this plan capability, read under `spelling`'s key.
    #[cfg(feature = "acp")]
    pub(crate) fn with_plan(plan: Option<PlanCapabilities>, spelling: Spelling) -> Self {
        Self {
            spelling: plan.as_ref().map(|_| spelling),
            plan,
            other: Map::new(),
        }
    }

    /// Whether the client accepts `plan_update` and `plan_removed`.
    pub fn supports_plan_operations(&self) -> bool {
        self.plan.is_some()
    }

    /// The spelling under which the client advertised plan support, if it did:
    /// an agent answers in that spelling.
    pub fn plan_spelling(&self) -> Option<Spelling> {
        self.plan.as_ref().and(self.spelling)
    }
}

impl Wire for ClientCapabilities {
    fn write<S: Serializer>(&self, spelling: Spelling, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        let plan_keys = [
            Spelling::Rfd.capability_key(),
            Spelling::Acp.capability_key(),
        ];
        for (key, value) in wire::SortedMap(&self.other).entries() {
            if !plan_keys.contains(&key.as_str()) {
                map.serialize_entry(key, &wire::Sorted(value))?;
            }
        }
        if let Some(plan) = &self.plan {
            map.serialize_entry(spelling.capability_key(), &CapabilityObject(plan))?;
        }
        map.end()
    }

    fn read(value: Value, cx: &mut Cx, at: &Path<'_>) -> Result<Self, Error> {
        let mut other = wire::expect_object(value, at)?;
        let mut caps = Self::default();
        // The RFD key first, so that the ACP key wins when both are present.
        for spelling in [Spelling::Rfd, Spelling::Acp] {
            let key = spelling.capability_key();
            let found = match other.remove(key) {
                None | Some(Value::Null) => None,
                Some(value) => read_capability(value, cx, &at.key(key))?,
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
    cx: &mut Cx,
    at: &Path<'_>,
) -> Result<Option<PlanCapabilities>, Error> {
    match value {
        Value::Object(mut map) => {
            let meta = wire::take_meta(&mut map, cx, at)?;
            Ok(Some(PlanCapabilities { meta }))
        }
        other => cx.skip_or_fail(wire::type_error(at, "an object or null", &other)),
    }
}

struct CapabilityObject<'a>(&'a PlanCapabilities);

impl serde::Serialize for CapabilityObject<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        wire::write_meta(&mut map, self.0.meta.as_ref())?;
        map.end()
    }
}

wire::wire_methods!(ClientCapabilities, "client capabilities");
