//! Session updates: the `update` object of a `session/update` notification.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::content::PlanContent;
use crate::entry::{self, Entries, PlanEntry};
use crate::error::{Error, ErrorKind, Path};
use crate::id::PlanId;
use crate::meta::Meta;
use crate::wire::{self, Cx, Spelling, Wire};

/// The key that tells session updates apart.
const DISCRIMINATOR: &str = "sessionUpdate";

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
pub struct OtherUpdate(Map<String, Value>);

impl OtherUpdate {
    /// Wraps an update object whose `sessionUpdate` is not a plan kind.
    pub(crate) fn new(object: Map<String, Value>) -> Self {
        Self(object)
    }

    /// The `sessionUpdate` value, e.g. `agent_message_chunk`.
    pub fn kind(&self) -> &str {
        self.0
            .get(DISCRIMINATOR)
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
/// use plan_core::{SessionUpdate, Spelling};
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
            Self::Plan(_) => "plan",
            Self::PlanUpdate { .. } => "plan_update",
            Self::PlanRemoved { .. } => "plan_removed",
            Self::Other(other) => other.kind(),
        }
    }
}

impl From<PlanContent> for SessionUpdate {
    fn from(plan: PlanContent) -> Self {
        Self::plan_update(plan)
    }
}

impl From<Plan> for SessionUpdate {
    fn from(plan: Plan) -> Self {
        Self::Plan(plan)
    }
}

impl Wire for SessionUpdate {
    fn write<S: Serializer>(&self, spelling: Spelling, s: S) -> Result<S::Ok, S::Error> {
        if let Self::Other(other) = self {
            return wire::SortedMap(&other.0).serialize(s);
        }
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(DISCRIMINATOR, self.kind())?;
        let meta = match self {
            Self::Plan(plan) => {
                map.serialize_entry("entries", &Entries(&plan.entries))?;
                plan.meta.as_ref()
            }
            Self::PlanUpdate { plan, meta } => {
                map.serialize_entry("plan", &wire::Spelled(plan, spelling))?;
                meta.as_ref()
            }
            Self::PlanRemoved { id, meta } => {
                map.serialize_entry(spelling.plan_id_key(), id.as_str())?;
                meta.as_ref()
            }
            Self::Other(_) => None,
        };
        wire::write_meta(&mut map, meta)?;
        map.end()
    }

    fn emit<W: std::io::Write>(&self, out: W, spelling: Spelling) -> std::io::Result<()> {
        crate::emit::Emitter::new(out, spelling).update(self)
    }

    fn read_str(json: &str, cx: &mut Cx) -> Result<Self, Error> {
        crate::stream::update(json, cx)
    }

    fn read(value: Value, cx: &mut Cx, at: &Path<'_>) -> Result<Self, Error> {
        let mut map = wire::expect_object(value, at)?;
        let kind = match map.get(DISCRIMINATOR) {
            Some(Value::String(kind)) => kind.as_str(),
            Some(other) => return Err(wire::type_error(&at.key(DISCRIMINATOR), "a string", other)),
            None => {
                return Err(at.error(ErrorKind::Missing {
                    field: DISCRIMINATOR,
                }));
            }
        };
        Ok(match kind {
            "plan" => {
                let items = wire::take_array(&mut map, "entries", at)?;
                let entries = entry::read_entries(items, cx, &at.key("entries"))?;
                let meta = wire::take_meta(&mut map, cx, at)?;
                Self::Plan(Plan { entries, meta })
            }
            "plan_update" => {
                let plan = map.remove("plan").ok_or_else(|| at.missing("plan"))?;
                let plan = PlanContent::read(plan, cx, &at.key("plan"))?;
                let meta = wire::take_meta(&mut map, cx, at)?;
                Self::PlanUpdate { plan, meta }
            }
            "plan_removed" => {
                let id = wire::take_plan_id(&mut map, cx, at)?;
                let meta = wire::take_meta(&mut map, cx, at)?;
                Self::PlanRemoved { id, meta }
            }
            _ => Self::Other(OtherUpdate(map)),
        })
    }
}

wire::wire_methods!(SessionUpdate, "a session update (the `update` object)");
