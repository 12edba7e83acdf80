//! Conversions with the schema's protocol v1 types: the stable plan types
//! (1.20 and newer), or the SDK's pre-stable ones with `acp` (see the
//! parent module). v1's priorities and statuses are closed sets, so
//! anything else is a `ConversionError`.

use std::fmt;

use agent_client_protocol_schema::v1 as acp;

use super::{
    ConversionError, convert_all, our_meta, our_other, our_plan_id, their_error, their_meta,
    their_other, unknown,
};
#[cfg(not(feature = "acp"))]
use super::{no_file, our_path};
#[cfg(feature = "acp")]
use super::{no_path, our_uri};
use crate::codec::Spelling;
use crate::error::Path;
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::{Plan, SessionUpdate};

fn no_v1(at: &Path<'_>, what: &str, name: impl fmt::Display) -> ConversionError {
    ConversionError::at(at, format_args!("the {what} `{name}` has no v1 equivalent"))
}

fn v1_entry(entry: PlanEntry, at: &Path<'_>) -> Result<acp::PlanEntry, ConversionError> {
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
    Ok(with_their_meta!(
        acp::PlanEntry::new(entry.content.into_owned(), priority, status),
        entry.meta
    ))
}

fn v1_entries(
    entries: Vec<PlanEntry>,
    at: &Path<'_>,
) -> Result<Vec<acp::PlanEntry>, ConversionError> {
    convert_all(entries, at, v1_entry)
}

fn from_v1_entry(entry: acp::PlanEntry, at: &Path<'_>) -> Result<PlanEntry, ConversionError> {
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
        content: entry.content.into(),
        priority,
        status,
        meta: our_meta(entry.meta),
    })
}

fn from_v1_entries(
    entries: Vec<acp::PlanEntry>,
    at: &Path<'_>,
) -> Result<Vec<PlanEntry>, ConversionError> {
    convert_all(entries, at, from_v1_entry)
}

fn v1_content(plan: PlanContent, at: &Path<'_>) -> Result<acp::PlanUpdateContent, ConversionError> {
    let entries = |entries: Vec<PlanEntry>| v1_entries(entries, &at.key(crate::rules::KEY_ENTRIES));
    Ok(
        their_plan!(acp, plan, at, entries, std::path::PathBuf::from, {
            other @ (PlanContent::Custom { .. } | PlanContent::Reserved { .. }) => {
                return Err(no_v1(&at.key(crate::rules::KEY_TYPE), "plan type", other.type_name()));
            }
        }),
    )
}

fn from_v1_content(
    plan: acp::PlanUpdateContent,
    at: &Path<'_>,
) -> Result<PlanContent, ConversionError> {
    Ok(our_plan!(acp, plan, at, from_v1_entries, {
        other => return Err(unknown(&at.key(crate::rules::KEY_TYPE), "plan", &other)),
    }))
}

fn v1_update(update: SessionUpdate, at: &Path<'_>) -> Result<acp::SessionUpdate, ConversionError> {
    Ok(their_update!(acp, update, at, v1_content, {
        SessionUpdate::Plan(plan) => acp::SessionUpdate::Plan(v1_plan(plan, at)?),
        other @ SessionUpdate::Other(_) => their_other(&other)?,
    }))
}

fn from_v1_update(
    update: acp::SessionUpdate,
    at: &Path<'_>,
) -> Result<SessionUpdate, ConversionError> {
    Ok(our_update!(acp, update, at, from_v1_content, {
        acp::SessionUpdate::Plan(plan) => SessionUpdate::Plan(from_v1_plan(plan, at)?),
        other => our_other(&other)?,
    }))
}

notifications!(
    acp::SessionNotification,
    v1_notification,
    v1_update,
    from_v1_notification,
    from_v1_update
);

fn v1_plan(plan: Plan, at: &Path<'_>) -> Result<acp::Plan, ConversionError> {
    let entries = v1_entries(plan.entries, &at.key(crate::rules::KEY_ENTRIES))?;
    Ok(with_their_meta!(acp::Plan::new(entries), plan.meta))
}

fn from_v1_plan(plan: acp::Plan, at: &Path<'_>) -> Result<Plan, ConversionError> {
    Ok(Plan {
        entries: from_v1_entries(plan.entries, &at.key(crate::rules::KEY_ENTRIES))?,
        meta: our_meta(plan.meta),
    })
}

/// Capabilities: not on any hot path, and mostly fields plan-core keeps as
/// JSON, so through the ACP spelling's JSON.
fn v1_capabilities(
    caps: ClientCapabilities,
    _: &Path<'_>,
) -> Result<acp::ClientCapabilities, ConversionError> {
    let value = serde_json::to_value(caps).map_err(|e| their_error(&e))?;
    serde_json::from_value(value).map_err(|e| their_error(&e))
}

fn from_v1_capabilities(
    caps: acp::ClientCapabilities,
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
