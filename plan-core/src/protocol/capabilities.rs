//! The client's capabilities, as far as plans are concerned.

use serde_json::{Map, Value};

use crate::protocol::meta::Meta;
use crate::protocol::spelling::Spelling;

/// The plan capability: its presence says the client accepts `plan_update`
/// and `plan_removed`.
///
/// `#[non_exhaustive]`: the capability may grow fields; make one with
/// `PlanCapabilities::default()`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
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
/// use plan_core::{wire::{ClientCapabilities, Spelling}};
///
/// let caps = ClientCapabilities::from_json(r#"{"fs":{"readTextFile":true},"plan":{}}"#)?;
/// assert!(caps.supports_plan_operations());
/// assert_eq!(caps.plan_spelling(), Some(Spelling::Acp));
///
/// let v1_only = ClientCapabilities::from_json(r#"{"plan":null}"#)?;
/// assert!(!v1_only.supports_plan_operations());
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientCapabilities {
    /// `Some` if the client accepts `plan_update` and `plan_removed`.
    pub plan: Option<PlanCapabilities>,
    /// Every other capability, as it came. Keys of the plan capability in
    /// either spelling are not written from here.
    pub other: Map<String, Value>,
    pub(crate) spelling: Option<Spelling>,
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
