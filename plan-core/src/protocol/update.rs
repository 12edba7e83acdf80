//! Session updates: the `update` object of a `session/update` notification.

use serde_json::{Map, Value};

use crate::protocol::content::PlanContent;
use crate::protocol::entry::PlanEntry;
use crate::protocol::id::PlanId;
use crate::protocol::meta::Meta;

/// The v1 `plan` update: the session's one plan, replaced whole each time.
///
/// v1 knows only `high`/`medium`/`low` and `pending`/`in_progress`/`completed`;
/// [`SessionUpdate::check`] reports anything else.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Every entry, with its current status.
    pub entries: Vec<PlanEntry>,
    /// `_meta` of the update.
    pub meta: Option<Meta>,
}

impl Plan {
    /// A v1 plan of these entries.
    pub fn new(entries: impl IntoIterator<Item = PlanEntry>) -> Self {
        Self {
            entries: entries.into_iter().collect(),
            meta: None,
        }
    }
}

/// A session update this crate does not model (`agent_message_chunk`,
/// `tool_call`, ...), kept whole so it can be passed on unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherUpdate(pub(crate) Map<String, Value>);

impl OtherUpdate {
    /// Wraps an update object whose `sessionUpdate` is not a plan kind.
    pub(crate) fn new(object: Map<String, Value>) -> Self {
        Self(object)
    }

    /// The `sessionUpdate` value, e.g. `agent_message_chunk`.
    pub fn kind(&self) -> &str {
        self.0
            .get(crate::rules::KEY_SESSION_UPDATE)
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// The whole update object, `sessionUpdate` included.
    pub fn as_object(&self) -> &Map<String, Value> {
        &self.0
    }

    /// The whole update object, `sessionUpdate` included.
    pub fn into_object(self) -> Map<String, Value> {
        self.0
    }
}

/// One session update: a plan message, or any other update kept as it came.
///
/// ```
/// use plan_core::{SessionUpdate, wire::Spelling};
///
/// let update = SessionUpdate::from_json(r#"{"sessionUpdate":"plan_removed","planId":"plan-1"}"#)?;
/// assert!(matches!(&update, SessionUpdate::PlanRemoved { id, .. } if id.as_str() == "plan-1"));
/// assert_eq!(update.to_json(Spelling::Rfd), r#"{"sessionUpdate":"plan_removed","id":"plan-1"}"#);
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionUpdate {
    /// `sessionUpdate: "plan"` (protocol v1): the session's single plan.
    Plan(Plan),
    /// `sessionUpdate: "plan_update"`: create or replace the plan with `plan`'s id.
    PlanUpdate {
        /// The plan's new content, whole.
        plan: PlanContent,
        /// `_meta` of the update.
        meta: Option<Meta>,
    },
    /// `sessionUpdate: "plan_removed"`: dismiss the plan with this id.
    PlanRemoved {
        /// The plan to dismiss.
        id: PlanId,
        /// `_meta` of the update.
        meta: Option<Meta>,
    },
    /// Any other session update, kept whole.
    Other(OtherUpdate),
}

impl SessionUpdate {
    /// A v1 `plan` update.
    pub fn plan(entries: impl IntoIterator<Item = PlanEntry>) -> Self {
        Self::Plan(Plan::new(entries))
    }

    /// A `plan_update` carrying `plan`.
    pub fn plan_update(plan: PlanContent) -> Self {
        Self::PlanUpdate { plan, meta: None }
    }

    /// A `plan_removed` for `id`.
    pub fn plan_removed(id: PlanId) -> Self {
        Self::PlanRemoved { id, meta: None }
    }

    /// The `sessionUpdate` value.
    pub fn kind(&self) -> &str {
        match self {
            Self::Plan(_) => crate::rules::TAG_PLAN,
            Self::PlanUpdate { .. } => crate::rules::TAG_PLAN_UPDATE,
            Self::PlanRemoved { .. } => crate::rules::TAG_PLAN_REMOVED,
            Self::Other(other) => other.kind(),
        }
    }
}

impl From<PlanContent> for SessionUpdate {
    fn from(plan: PlanContent) -> Self {
        Self::plan_update(plan)
    }
}

/// A v1 plan as the plan operations carry it: an `items` plan of the id
/// `main` ([`PlanId::V1_PLAN`], as the public ACP schema maps the v1
/// `plan`), its entries and `_meta` kept. So a sender takes the `entries`
/// form of `plan!` too, and gives each client what it can read: a v1 client
/// without `clientCapabilities.plan` the v1 `plan` itself.
///
/// ```
/// use plan_core::{PlanContent, plan};
///
/// let content: PlanContent = plan! { entries: [ high pending "Ship" ] }.into();
/// assert_eq!(content.id().as_str(), "main");
/// assert_eq!(content.entries().map(<[_]>::len), Some(1));
/// ```
impl From<Plan> for PlanContent {
    fn from(plan: Plan) -> Self {
        Self::Items {
            id: PlanId::V1_PLAN,
            entries: plan.entries,
            meta: plan.meta,
        }
    }
}

impl From<Plan> for SessionUpdate {
    fn from(plan: Plan) -> Self {
        Self::Plan(plan)
    }
}
