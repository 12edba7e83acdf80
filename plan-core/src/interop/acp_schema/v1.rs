//! Conversions with the schema's protocol v1 types: the stable plan types
//! (1.20 and newer), or the SDK's pre-stable ones with `acp` (see the
//! parent module). v1's priorities and statuses are closed sets, so
//! anything else is a `ConversionError`.

use std::fmt;

use agent_client_protocol_schema::v1 as acp;

use super::parts::{
    ConversionError, convert_all, in_params, our_meta, our_other, our_plan_id, our_text,
    their_error, their_meta, their_other, their_text, unknown,
};
#[cfg(not(feature = "acp"))]
use super::parts::{no_file, our_path};
#[cfg(feature = "acp")]
use super::parts::{no_path, our_uri};
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

/// The conversions both ways, written once and stamped twice: in `owned`
/// for a value taken whole (each text moves across) and in `borrowed` for
/// a borrowed one (each text is copied once; nothing is cloned first).
/// `$by` is `&` in the borrowed stamp; each body takes its value apart
/// with a pattern, which binds the parts by value or by reference as the
/// value is, and takes a text with `their_text` or `our_text` (a part
/// moved or cloned: `TakePart`).
///
/// Why a macro: the two stamps differ only in their parameters' types,
/// which no generic function can name for both (a pattern needs the type).
macro_rules! stamp {
    ($($by:tt)?) => {
        pub(super) fn entry(entry: $($by)? PlanEntry, at: &Path<'_>) -> Result<acp::PlanEntry, ConversionError> {
            Ok(their_entry!(acp, entry, {
                other => return Err(no_v1(&at.key(crate::rules::KEY_PRIORITY), "priority", other)),
            }, {
                other => return Err(no_v1(&at.key(crate::rules::KEY_STATUS), "status", other)),
            }))
        }

        fn entries(
            entries: $($by)? Vec<PlanEntry>,
            at: &Path<'_>,
        ) -> Result<Vec<acp::PlanEntry>, ConversionError> {
            convert_all(entries, at, entry)
        }

        pub(super) fn from_entry(entry: $($by)? acp::PlanEntry, at: &Path<'_>) -> Result<PlanEntry, ConversionError> {
            our_entry!(acp, entry, at, {}, {})
        }

        fn from_entries(
            entries: $($by)? Vec<acp::PlanEntry>,
            at: &Path<'_>,
        ) -> Result<Vec<PlanEntry>, ConversionError> {
            convert_all(entries, at, from_entry)
        }

        pub(super) fn content(plan: $($by)? PlanContent, at: &Path<'_>) -> Result<acp::PlanUpdateContent, ConversionError> {
            let their_entries = |list| entries(list, &at.key(crate::rules::KEY_ENTRIES));
            Ok(
                their_plan!(acp, plan, at, their_entries, std::path::PathBuf::from, {
                    other @ (PlanContent::Custom { .. } | PlanContent::Reserved { .. }) => {
                        return Err(no_v1(&at.key(crate::rules::KEY_TYPE), "plan type", other.type_name()));
                    }
                }),
            )
        }

        pub(super) fn from_content(
            plan: $($by)? acp::PlanUpdateContent,
            at: &Path<'_>,
        ) -> Result<PlanContent, ConversionError> {
            Ok(our_plan!(acp, plan, at, from_entries, {
                other => return Err(unknown(&at.key(crate::rules::KEY_TYPE), "plan", &other)),
            }))
        }

        pub(super) fn update(update: $($by)? SessionUpdate, at: &Path<'_>) -> Result<acp::SessionUpdate, ConversionError> {
            Ok(their_update!(acp, update, at, content, {
                SessionUpdate::Plan(legacy) => acp::SessionUpdate::Plan(plan(legacy, at)?),
                other @ SessionUpdate::Other(_) => their_other(&other)?,
            }))
        }

        pub(super) fn from_update(
            update: $($by)? acp::SessionUpdate,
            at: &Path<'_>,
        ) -> Result<SessionUpdate, ConversionError> {
            Ok(our_update!(acp, update, at, from_content, {
                acp::SessionUpdate::Plan(legacy) => SessionUpdate::Plan(from_plan(legacy, at)?),
                other => our_other(&other)?,
            }))
        }

        notifications!(
            acp::SessionNotification,
            [$($by)?],
            notification,
            update,
            from_notification,
            from_update
        );

        pub(super) fn plan(legacy: $($by)? Plan, at: &Path<'_>) -> Result<acp::Plan, ConversionError> {
            let Plan { entries: list, meta } = legacy;
            let list = entries(list, &at.key(crate::rules::KEY_ENTRIES))?;
            Ok(with_their_meta!(acp::Plan::new(list), meta))
        }

        pub(super) fn from_plan(legacy: $($by)? acp::Plan, at: &Path<'_>) -> Result<Plan, ConversionError> {
            let acp::Plan { entries, meta, .. } = legacy;
            Ok(Plan {
                entries: from_entries(entries, &at.key(crate::rules::KEY_ENTRIES))?,
                meta: our_meta(meta),
            })
        }

        /// Capabilities: not on any hot path, and mostly fields plan-core
        /// keeps as JSON, so through the ACP spelling's JSON.
        pub(super) fn capabilities(
            caps: $($by)? ClientCapabilities,
            _: &Path<'_>,
        ) -> Result<acp::ClientCapabilities, ConversionError> {
            let value = serde_json::to_value(caps).map_err(|e| their_error(&e))?;
            serde_json::from_value(value).map_err(|e| their_error(&e))
        }

        pub(super) fn from_capabilities(
            caps: $($by)? acp::ClientCapabilities,
            _: &Path<'_>,
        ) -> Result<ClientCapabilities, ConversionError> {
            let value = serde_json::to_value(caps).map_err(|e| their_error(&e))?;
            Ok(ClientCapabilities::from_value(value)?)
        }
    };
}

stamps!();

conversions!(PlanEntry, acp::PlanEntry, entry, from_entry);
conversions!(PlanContent, acp::PlanUpdateContent, content, from_content);
conversions!(SessionUpdate, acp::SessionUpdate, update, from_update);
conversions!(
    SessionNotification,
    acp::SessionNotification,
    notification,
    from_notification
);
conversions!(Plan, acp::Plan, plan, from_plan);
conversions!(
    ClientCapabilities,
    acp::ClientCapabilities,
    capabilities,
    from_capabilities
);
