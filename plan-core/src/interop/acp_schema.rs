//! Conversions to and from the published `agent-client-protocol-schema`
//! crate's v1 types (with `unstable_plan_operations`) and, in [`v2`], its
//! protocol v2 types (`unstable_protocol_v2`), for agents and clients built
//! on the official SDK.
//!
//! Every conversion goes through the ACP spelling's JSON, so nothing the two
//! crates both express is lost. What v1 cannot express is an error, checked
//! before converting (the published crate would otherwise silently skip an
//! entry it cannot read): `cancelled`, custom priorities and statuses,
//! custom plan types.
//!
//! ```
//! use agent_client_protocol_schema::v1 as acp;
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
//! # Ok::<(), plan_core::ConversionError>(())
//! ```

use std::fmt;

use agent_client_protocol_schema::v1 as acp;
use serde_json::json;

use crate::codec::Spelling;
use crate::error::Error;
use crate::error::Path;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::PlanEntry;
use crate::protocol::notification::{METHOD, SessionNotification};
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

/// What v1 cannot express, checked before converting.
fn v1_entries(entries: &[PlanEntry], at: &Path<'_>) -> Result<(), ConversionError> {
    for (index, entry) in entries.iter().enumerate() {
        let at = at.index(index);
        if !entry.priority.is_v1() {
            let message = format_args!("the priority `{}` has no v1 equivalent", entry.priority);
            return Err(ConversionError::at(&at.key("priority"), message));
        }
        if !entry.status.is_v1() {
            let message = format_args!("the status `{}` has no v1 equivalent", entry.status);
            return Err(ConversionError::at(&at.key("status"), message));
        }
    }
    Ok(())
}

fn v1_content(plan: &PlanContent, at: &Path<'_>) -> Result<(), ConversionError> {
    match plan {
        PlanContent::Items { entries, .. } => v1_entries(entries, &at.key("entries")),
        PlanContent::File { .. } | PlanContent::Markdown { .. } => Ok(()),
        other => Err(ConversionError::at(
            &at.key("type"),
            format_args!("the plan type `{}` has no v1 equivalent", other.type_name()),
        )),
    }
}

fn v1_update(update: &SessionUpdate, at: &Path<'_>) -> Result<(), ConversionError> {
    match update {
        SessionUpdate::Plan(plan) => v1_entries(&plan.entries, &at.key("entries")),
        SessionUpdate::PlanUpdate { plan, .. } => v1_content(plan, &at.key("plan")),
        SessionUpdate::PlanRemoved { .. } | SessionUpdate::Other(_) => Ok(()),
    }
}

/// `TryFrom` both ways between one of our types and one of theirs, through
/// the ACP spelling's JSON, after `$check`.
macro_rules! conversions {
    ($ours:ty, $theirs:ty, |$value:ident| $check:expr, |$json:ident| $to_theirs:expr, |$their_json:ident| $to_ours:expr) => {
        impl TryFrom<&$ours> for $theirs {
            type Error = ConversionError;
            fn try_from($value: &$ours) -> Result<Self, ConversionError> {
                $check?;
                let $json = $value.to_value(Spelling::Acp);
                serde_json::from_value($to_theirs).map_err(|e| their_error(&e))
            }
        }

        impl TryFrom<$ours> for $theirs {
            type Error = ConversionError;
            fn try_from(value: $ours) -> Result<Self, ConversionError> {
                Self::try_from(&value)
            }
        }

        impl TryFrom<&$theirs> for $ours {
            type Error = ConversionError;
            fn try_from(value: &$theirs) -> Result<Self, ConversionError> {
                let $their_json = serde_json::to_value(value).map_err(|e| their_error(&e))?;
                Ok(<$ours>::from_value($to_ours)?)
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

conversions!(
    PlanEntry,
    acp::PlanEntry,
    |entry| v1_entries(std::slice::from_ref(entry), &Path::Root).map_err(strip_index),
    |json| json,
    |json| json
);
conversions!(
    PlanContent,
    acp::PlanUpdateContent,
    |plan| v1_content(plan, &Path::Root),
    |json| json,
    |json| json
);
conversions!(
    SessionUpdate,
    acp::SessionUpdate,
    |update| v1_update(update, &Path::Root),
    |json| json,
    |json| json
);
conversions!(
    SessionNotification,
    acp::SessionNotification,
    |notification| v1_update(
        &notification.update,
        &Path::Root.key("params").key("update")
    ),
    |json| json["params"].clone(),
    |json| json!({ "jsonrpc": "2.0", "method": METHOD, "params": json })
);
conversions!(
    ClientCapabilities,
    acp::ClientCapabilities,
    |caps| Ok::<(), ConversionError>(()),
    |json| json,
    |json| json
);

impl TryFrom<&Plan> for acp::Plan {
    type Error = ConversionError;
    fn try_from(plan: &Plan) -> Result<Self, ConversionError> {
        let update = SessionUpdate::Plan(plan.clone());
        match acp::SessionUpdate::try_from(&update)? {
            acp::SessionUpdate::Plan(plan) => Ok(plan),
            _ => Err(ConversionError {
                path: String::new(),
                message: "not a v1 plan".into(),
            }),
        }
    }
}

impl TryFrom<&acp::Plan> for Plan {
    type Error = ConversionError;
    fn try_from(plan: &acp::Plan) -> Result<Self, ConversionError> {
        match SessionUpdate::try_from(&acp::SessionUpdate::Plan(plan.clone()))? {
            SessionUpdate::Plan(plan) => Ok(plan),
            _ => Err(ConversionError {
                path: String::new(),
                message: "not a v1 plan".into(),
            }),
        }
    }
}

/// An entry's path is the entry itself, not `[0]` of a list.
fn strip_index(err: ConversionError) -> ConversionError {
    let path = err
        .path
        .strip_prefix("[0]")
        .map_or(err.path.clone(), |rest| {
            rest.trim_start_matches('.').to_owned()
        });
    ConversionError { path, ..err }
}

/// Conversions with the published crate's protocol v2 types. v2 expresses
/// everything plan-core does (`cancelled`, custom values and plan types,
/// other updates), so only what its reader refuses fails.
pub mod v2 {
    use agent_client_protocol_schema::v2 as acp;
    use serde_json::json;

    use super::{ConversionError, their_error};
    use crate::codec::Spelling;
    use crate::protocol::content::PlanContent;
    use crate::protocol::entry::PlanEntry;
    use crate::protocol::notification::{METHOD, SessionNotification};
    use crate::protocol::update::SessionUpdate;

    conversions!(
        PlanEntry,
        acp::PlanEntry,
        |entry| Ok::<(), ConversionError>(()),
        |json| json,
        |json| json
    );
    conversions!(
        PlanContent,
        acp::PlanUpdateContent,
        |plan| Ok::<(), ConversionError>(()),
        |json| json,
        |json| json
    );
    conversions!(
        SessionUpdate,
        acp::SessionUpdate,
        |update| Ok::<(), ConversionError>(()),
        |json| json,
        |json| json
    );
    conversions!(
        SessionNotification,
        acp::UpdateSessionNotification,
        |notification| Ok::<(), ConversionError>(()),
        |json| json["params"].clone(),
        |json| json!({ "jsonrpc": "2.0", "method": METHOD, "params": json })
    );
}
