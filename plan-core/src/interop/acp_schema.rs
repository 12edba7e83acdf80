//! Conversions to and from the published `agent-client-protocol-schema`
//! crate's v1 types (with `unstable_plan_operations`) and, in [`v2`], its
//! protocol v2 types (`unstable_protocol_v2`), for agents and clients built
//! on the official SDK.
//!
//! Conversions map field to field, with no JSON in between (a `_meta` object
//! and an update that is not about plans are the only JSON values that
//! cross), so they cost less than serializing the value once. Nothing the two
//! crates both express is lost. What v1 cannot express is an error (the
//! published crate would otherwise silently skip an entry it cannot read):
//! `cancelled`, custom priorities and statuses, custom plan types. What our
//! types forbid and theirs allow (a blank plan id, a file URI that is not a
//! URI) is an error the other way, as our strict reader reports it.
//!
//! **One exception: a markdown plan's `path`.** 1.15.1 predates the
//! protocol's stabilization (2026-11-20) and its `PlanMarkdown` has no
//! `path`, so converting to it leaves the path behind, and converting from
//! it gives none. The SDK's own reader likewise ignores a `path` in JSON;
//! the content, which names the plan in full, is what its clients show.
//!
//! An agent on the SDK reaches these types through the SDK's re-exports
//! (`agent_client_protocol::v1::schema`, `::v2::schema`), as the SDK asks;
//! with `acp-schema` alone they are `agent_client_protocol_schema::v1` and
//! `::v2`, the same types.
//!
//! ```
//! # #[cfg(feature = "acp")]
//! use agent_client_protocol::v1::schema as acp;
//! # #[cfg(not(feature = "acp"))]
//! # use agent_client_protocol_schema::v1 as acp;
//! use plan_core::{SessionUpdate, plan};
//!
//! // An agent on the official SDK declares its plan with `plan!`...
//! let update: SessionUpdate = plan! { id: "p", items: [high pending "Analyze"] }.into();
//! // ...and hands the SDK its own type.
//! let sdk_update = acp::SessionUpdate::try_from(&update)?;
//! assert!(matches!(sdk_update, acp::SessionUpdate::PlanUpdate(_)));
//! assert_eq!(SessionUpdate::try_from(&sdk_update)?, update);
//!
//! let blocked: SessionUpdate = plan! { id: "p", items: [high _blocked "Wait"] }.into();
//! let err = acp::SessionUpdate::try_from(&blocked).unwrap_err();
//! assert_eq!(err.to_string(), "at `plan.entries[0].status`: the status `_blocked` has no v1 equivalent");
//! # Ok::<(), plan_core::acp_schema::ConversionError>(())
//! ```

use std::fmt;

use agent_client_protocol_schema::v1 as acp;
use serde_json::{Map, Value};

use crate::codec::{Reading, Spelling};
use crate::error::Error;
use crate::error::Path;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::id::{FileUri, PlanId, SessionId};
use crate::protocol::meta::Meta;
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::{Plan, SessionUpdate};

/// A value that cannot be converted: v1 has no equivalent, or the other
/// side's reader refused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionError {
    path: String,
    message: String,
}

impl ConversionError {
    fn at(path: &Path<'_>, message: impl fmt::Display) -> Self {
        Self {
            path: path.render(),
            message: message.to_string(),
        }
    }

    /// Where in the value the problem is (`""` for the value as a whole).
    pub fn path(&self) -> &str {
        &self.path
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at `{}`: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ConversionError {}

impl From<Error> for ConversionError {
    fn from(err: Error) -> Self {
        Self {
            path: err.path().to_owned(),
            message: err.kind().to_string(),
        }
    }
}

fn their_error(err: &serde_json::Error) -> ConversionError {
    ConversionError {
        path: String::new(),
        message: format!("the published crate cannot read it: {err}"),
    }
}

/// Both crates' `_meta` is an object: ours kept as text, theirs a map.
/// `null` is absent in theirs.
fn their_meta(meta: Option<&Meta>) -> Option<Map<String, Value>> {
    meta.and_then(Meta::to_object)
}

fn our_meta(meta: Option<&Map<String, Value>>) -> Option<Meta> {
    meta.map(|map| Meta::new(map.clone()))
}

/// A plan id from theirs (any string) checked as our strict reader checks it.
fn our_plan_id(id: &str, at: &Path<'_>) -> Result<PlanId, ConversionError> {
    Ok(crate::codec::plan_id(
        id.to_owned(),
        &mut Reading::strict(),
        at,
    )?)
}

fn our_uri(uri: &str, at: &Path<'_>) -> Result<FileUri, ConversionError> {
    Ok(crate::codec::file_uri(
        uri.to_owned(),
        &mut Reading::strict(),
        at,
    )?)
}

/// An update that is not about plans: the one place a JSON value crosses
/// (such updates are kept whole as JSON on our side).
fn their_other<T: serde::de::DeserializeOwned>(
    update: &SessionUpdate,
) -> Result<T, ConversionError> {
    serde_json::from_value(update.to_value(Spelling::Acp)).map_err(|e| their_error(&e))
}

fn our_other<T: serde::Serialize>(update: &T) -> Result<SessionUpdate, ConversionError> {
    let value = serde_json::to_value(update).map_err(|e| their_error(&e))?;
    Ok(SessionUpdate::from_value(value)?)
}

/// `TryFrom` both ways, borrowed and owned, between one of our types and
/// one of theirs, from the two functions that convert at a path.
///
/// Why a macro: four impls of one shape for each of six type pairs; the
/// logic is in the named functions, where go-to-definition lands.
macro_rules! conversions {
    ($ours:ty, $theirs:ty, $to_theirs:expr, $to_ours:expr) => {
        impl TryFrom<&$ours> for $theirs {
            type Error = ConversionError;
            fn try_from(value: &$ours) -> Result<Self, ConversionError> {
                ($to_theirs)(value, &Path::Root)
            }
        }

        impl TryFrom<&$theirs> for $ours {
            type Error = ConversionError;
            fn try_from(value: &$theirs) -> Result<Self, ConversionError> {
                ($to_ours)(value, &Path::Root)
            }
        }

        impl TryFrom<$ours> for $theirs {
            type Error = ConversionError;
            fn try_from(value: $ours) -> Result<Self, ConversionError> {
                Self::try_from(&value)
            }
        }

        impl TryFrom<$theirs> for $ours {
            type Error = ConversionError;
            fn try_from(value: $theirs) -> Result<Self, ConversionError> {
                Self::try_from(&value)
            }
        }
    };
}

/// The plan types both versions of their crate share (`items`, `file`,
/// `markdown`), from ours: `match` arms for `$plan`, with the entries
/// converted by `$entries`, then the version's own arms.
///
/// Why a macro: the v1 and v2 crates have distinct types with the same
/// variant names, which no generic function can name; the arms are written
/// once here, for both.
macro_rules! their_plan {
    ($acp:ident, $plan:expr, $entries:expr, { $($rest:tt)* }) => {{
        let plan: &PlanContent = $plan;
        let id = plan.id().as_str().to_owned();
        let meta = their_meta(plan.meta());
        match plan {
            PlanContent::Items { entries, .. } => {
                $acp::PlanUpdateContent::Items($acp::PlanItems::new(id, $entries(entries)?).meta(meta))
            }
            PlanContent::File { uri, .. } => {
                $acp::PlanUpdateContent::File($acp::PlanFile::new(id, uri.as_str()).meta(meta))
            }
            // 1.15.1 predates the stabilized `path` and has no field for it:
            // the one thing this conversion leaves behind (see the module docs).
            PlanContent::Markdown { content, .. } => $acp::PlanUpdateContent::Markdown(
                $acp::PlanMarkdown::new(id, content.as_ref()).meta(meta),
            ),
            $($rest)*
        }
    }};
}

/// The same three plan types, to ours, then the version's own arms.
macro_rules! our_plan {
    ($acp:ident, $plan:expr, $at:expr, $entries:expr, { $($rest:tt)* }) => {{
        let at: &Path<'_> = $at;
        let id_at = at.key(Spelling::Acp.plan_id_key());
        match $plan {
            $acp::PlanUpdateContent::Items(items) => PlanContent::Items {
                id: our_plan_id(&items.plan_id.0, &id_at)?,
                entries: $entries(&items.entries, &at.key(crate::rules::KEY_ENTRIES))?,
                meta: our_meta(items.meta.as_ref()),
            },
            $acp::PlanUpdateContent::File(file) => PlanContent::File {
                id: our_plan_id(&file.plan_id.0, &id_at)?,
                uri: our_uri(&file.uri, &at.key(crate::rules::KEY_URI))?,
                meta: our_meta(file.meta.as_ref()),
            },
            $acp::PlanUpdateContent::Markdown(markdown) => PlanContent::Markdown {
                id: our_plan_id(&markdown.plan_id.0, &id_at)?,
                content: markdown.content.clone().into(),
                // 1.15.1 predates the stabilized `path`: there is none to read.
                path: None,
                meta: our_meta(markdown.meta.as_ref()),
            },
            $($rest)*
        }
    }};
}

fn no_v1(at: &Path<'_>, what: &str, name: impl fmt::Display) -> ConversionError {
    ConversionError::at(at, format_args!("the {what} `{name}` has no v1 equivalent"))
}

fn v1_entry(entry: &PlanEntry, at: &Path<'_>) -> Result<acp::PlanEntry, ConversionError> {
    let priority = match &entry.priority {
        Priority::High => acp::PlanEntryPriority::High,
        Priority::Medium => acp::PlanEntryPriority::Medium,
        Priority::Low => acp::PlanEntryPriority::Low,
        other => {
            return Err(no_v1(
                &at.key(crate::rules::KEY_PRIORITY),
                "priority",
                other,
            ));
        }
    };
    let status = match &entry.status {
        Status::Pending => acp::PlanEntryStatus::Pending,
        Status::InProgress => acp::PlanEntryStatus::InProgress,
        Status::Completed => acp::PlanEntryStatus::Completed,
        other => return Err(no_v1(&at.key(crate::rules::KEY_STATUS), "status", other)),
    };
    Ok(
        acp::PlanEntry::new(entry.content.as_ref(), priority, status)
            .meta(their_meta(entry.meta.as_ref())),
    )
}

/// Converts each item of a list, its path `at[i]`, into a vector of the
/// right size (collecting `Result`s would grow it step by step).
fn convert_all<T, U>(
    items: &[T],
    at: &Path<'_>,
    convert: impl Fn(&T, &Path<'_>) -> Result<U, ConversionError>,
) -> Result<Vec<U>, ConversionError> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        out.push(convert(item, &at.index(i))?);
    }
    Ok(out)
}

fn v1_entries(
    entries: &[PlanEntry],
    at: &Path<'_>,
) -> Result<Vec<acp::PlanEntry>, ConversionError> {
    convert_all(entries, at, v1_entry)
}

/// A name of theirs that is not one of the known ones of this crate version.
fn unknown(at: &Path<'_>, what: &str, name: &impl fmt::Debug) -> ConversionError {
    ConversionError::at(
        at,
        format_args!("the {what} {name:?} is not one plan-core knows"),
    )
}

fn from_v1_entry(entry: &acp::PlanEntry, at: &Path<'_>) -> Result<PlanEntry, ConversionError> {
    let priority = match &entry.priority {
        acp::PlanEntryPriority::High => Priority::High,
        acp::PlanEntryPriority::Medium => Priority::Medium,
        acp::PlanEntryPriority::Low => Priority::Low,
        other => {
            return Err(unknown(
                &at.key(crate::rules::KEY_PRIORITY),
                "priority",
                other,
            ));
        }
    };
    let status = match &entry.status {
        acp::PlanEntryStatus::Pending => Status::Pending,
        acp::PlanEntryStatus::InProgress => Status::InProgress,
        acp::PlanEntryStatus::Completed => Status::Completed,
        other => return Err(unknown(&at.key(crate::rules::KEY_STATUS), "status", other)),
    };
    Ok(PlanEntry {
        content: entry.content.clone().into(),
        priority,
        status,
        meta: our_meta(entry.meta.as_ref()),
    })
}

fn from_v1_entries(
    entries: &[acp::PlanEntry],
    at: &Path<'_>,
) -> Result<Vec<PlanEntry>, ConversionError> {
    convert_all(entries, at, from_v1_entry)
}

fn v1_content(
    plan: &PlanContent,
    at: &Path<'_>,
) -> Result<acp::PlanUpdateContent, ConversionError> {
    let entries = |entries: &[PlanEntry]| v1_entries(entries, &at.key(crate::rules::KEY_ENTRIES));
    Ok(their_plan!(acp, plan, entries, {
        other => return Err(no_v1(&at.key(crate::rules::KEY_TYPE), "plan type", other.type_name())),
    }))
}

fn from_v1_content(
    plan: &acp::PlanUpdateContent,
    at: &Path<'_>,
) -> Result<PlanContent, ConversionError> {
    Ok(our_plan!(acp, plan, at, from_v1_entries, {
        other => return Err(unknown(&at.key(crate::rules::KEY_TYPE), "plan", other)),
    }))
}

fn v1_update(update: &SessionUpdate, at: &Path<'_>) -> Result<acp::SessionUpdate, ConversionError> {
    Ok(match update {
        SessionUpdate::Plan(plan) => acp::SessionUpdate::Plan(
            acp::Plan::new(v1_entries(
                &plan.entries,
                &at.key(crate::rules::KEY_ENTRIES),
            )?)
            .meta(their_meta(plan.meta.as_ref())),
        ),
        SessionUpdate::PlanUpdate { plan, meta } => acp::SessionUpdate::PlanUpdate(
            acp::PlanUpdate::new(v1_content(plan, &at.key(crate::rules::KEY_PLAN))?)
                .meta(their_meta(meta.as_ref())),
        ),
        SessionUpdate::PlanRemoved { id, meta } => acp::SessionUpdate::PlanRemoved(
            acp::PlanRemoved::new(id.as_str().to_owned()).meta(their_meta(meta.as_ref())),
        ),
        SessionUpdate::Other(_) => their_other(update)?,
    })
}

fn from_v1_update(
    update: &acp::SessionUpdate,
    at: &Path<'_>,
) -> Result<SessionUpdate, ConversionError> {
    Ok(match update {
        acp::SessionUpdate::Plan(plan) => SessionUpdate::Plan(Plan {
            entries: from_v1_entries(&plan.entries, &at.key(crate::rules::KEY_ENTRIES))?,
            meta: our_meta(plan.meta.as_ref()),
        }),
        acp::SessionUpdate::PlanUpdate(update) => SessionUpdate::PlanUpdate {
            plan: from_v1_content(&update.plan, &at.key(crate::rules::KEY_PLAN))?,
            meta: our_meta(update.meta.as_ref()),
        },
        acp::SessionUpdate::PlanRemoved(removed) => SessionUpdate::PlanRemoved {
            id: our_plan_id(&removed.plan_id.0, &at.key(Spelling::Acp.plan_id_key()))?,
            meta: our_meta(removed.meta.as_ref()),
        },
        other => our_other(other)?,
    })
}

/// The path of the update in a notification, for errors.
fn in_params<T>(
    convert: impl Fn(&Path<'_>) -> Result<T, ConversionError>,
) -> Result<T, ConversionError> {
    let params = Path::Root.key(crate::rules::KEY_PARAMS);
    convert(&params.key(crate::rules::KEY_UPDATE))
}

fn v1_notification(
    n: &SessionNotification,
    _: &Path<'_>,
) -> Result<acp::SessionNotification, ConversionError> {
    let update = in_params(|at| v1_update(&n.update, at))?;
    Ok(
        acp::SessionNotification::new(n.session_id.as_str().to_owned(), update)
            .meta(their_meta(n.meta.as_ref())),
    )
}

fn from_v1_notification(
    n: &acp::SessionNotification,
    _: &Path<'_>,
) -> Result<SessionNotification, ConversionError> {
    Ok(SessionNotification {
        session_id: SessionId::new(n.session_id.0.to_string()),
        update: in_params(|at| from_v1_update(&n.update, at))?,
        meta: our_meta(n.meta.as_ref()),
    })
}

fn v1_plan(plan: &Plan, at: &Path<'_>) -> Result<acp::Plan, ConversionError> {
    let entries = v1_entries(&plan.entries, &at.key(crate::rules::KEY_ENTRIES))?;
    Ok(acp::Plan::new(entries).meta(their_meta(plan.meta.as_ref())))
}

fn from_v1_plan(plan: &acp::Plan, at: &Path<'_>) -> Result<Plan, ConversionError> {
    Ok(Plan {
        entries: from_v1_entries(&plan.entries, &at.key(crate::rules::KEY_ENTRIES))?,
        meta: our_meta(plan.meta.as_ref()),
    })
}

/// Capabilities: not on any hot path, and mostly fields plan-core keeps as
/// JSON, so through the ACP spelling's JSON.
fn v1_capabilities(
    caps: &ClientCapabilities,
    _: &Path<'_>,
) -> Result<acp::ClientCapabilities, ConversionError> {
    serde_json::from_value(caps.to_value(Spelling::Acp)).map_err(|e| their_error(&e))
}

fn from_v1_capabilities(
    caps: &acp::ClientCapabilities,
    _: &Path<'_>,
) -> Result<ClientCapabilities, ConversionError> {
    let value = serde_json::to_value(caps).map_err(|e| their_error(&e))?;
    Ok(ClientCapabilities::from_value(value)?)
}

conversions!(PlanEntry, acp::PlanEntry, v1_entry, from_v1_entry);
conversions!(
    PlanContent,
    acp::PlanUpdateContent,
    v1_content,
    from_v1_content
);
conversions!(SessionUpdate, acp::SessionUpdate, v1_update, from_v1_update);
conversions!(
    SessionNotification,
    acp::SessionNotification,
    v1_notification,
    from_v1_notification
);
conversions!(Plan, acp::Plan, v1_plan, from_v1_plan);
conversions!(
    ClientCapabilities,
    acp::ClientCapabilities,
    v1_capabilities,
    from_v1_capabilities
);

// Protocol v2 (`acp_schema/v2.rs`).
pub mod v2;
