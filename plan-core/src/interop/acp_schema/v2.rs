//! Conversions with the published crate's protocol v2 types. v2 expresses
//! everything plan-core does (`cancelled`, custom values and plan types,
//! other updates), so only what our types forbid fails.
//!
//! The entry mapping differs from v1's in its own arms only: v1's
//! priorities and statuses are closed sets (anything else is a
//! `ConversionError`), v2's are open (`Other`); `arms.rs` holds the rest.

use agent_client_protocol_schema::v2 as acp;
use serde_json::{Map, Value};

use super::parts::{
    ConversionError, TakePart, convert_all, in_params, our_meta, our_other, our_plan_id, our_text,
    their_meta, their_other, their_text, unknown,
};
#[cfg(not(feature = "acp"))]
use super::parts::{no_file, our_path};
#[cfg(feature = "acp")]
use super::parts::{no_path, our_uri};
use crate::codec::Spelling;
use crate::error::Path;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::SessionUpdate;

// The conversions both ways, written once and stamped twice, as v1's are
// (see `v1.rs`'s `stamp!`): `owned` for a value taken whole, `borrowed` for
// a borrowed one.
macro_rules! stamp {
    ($($by:tt)?) => {
        fn entry(entry: $($by)? PlanEntry) -> acp::PlanEntry {
            their_entry!(acp, entry, {
                other => acp::PlanEntryPriority::Other(other.as_str().to_owned()),
            }, {
                Status::Cancelled => acp::PlanEntryStatus::Cancelled,
                other => acp::PlanEntryStatus::Other(other.as_str().to_owned()),
            })
        }

        pub(super) fn entry_at(entry: $($by)? PlanEntry, _: &Path<'_>) -> Result<acp::PlanEntry, ConversionError> {
            Ok(self::entry(entry))
        }

        pub(super) fn from_entry(entry: $($by)? acp::PlanEntry, at: &Path<'_>) -> Result<PlanEntry, ConversionError> {
            our_entry!(acp, entry, at, {
                acp::PlanEntryPriority::Other(name) => Priority::from_wire(name.take_part()),
            }, {
                acp::PlanEntryStatus::Cancelled => Status::Cancelled,
                acp::PlanEntryStatus::Other(name) => Status::from_wire(name.take_part()),
            })
        }

        fn from_entries(
            entries: $($by)? Vec<acp::PlanEntry>,
            at: &Path<'_>,
        ) -> Result<Vec<PlanEntry>, ConversionError> {
            convert_all(entries, at, from_entry)
        }

        pub(super) fn content(plan: $($by)? PlanContent, at: &Path<'_>) -> Result<acp::PlanUpdateContent, ConversionError> {
            let their_entries = |list: $($by)? Vec<PlanEntry>| {
                Ok::<_, ConversionError>(list.into_iter().map(entry).collect())
            };
            Ok(
                their_plan!(acp, plan, at, their_entries, |path: &str| acp::AbsolutePath::from(std::path::PathBuf::from(path)), {
                    PlanContent::Custom { kind, id, fields, meta } => other_plan(kind.as_str(), &id, fields.take_part(), meta.as_ref()),
                    PlanContent::Reserved { kind, id, fields, meta } => other_plan(kind.as_str(), &id, fields.take_part(), meta.as_ref()),
                }),
            )
        }

        pub(super) fn from_content(
            plan: $($by)? acp::PlanUpdateContent,
            at: &Path<'_>,
        ) -> Result<PlanContent, ConversionError> {
            Ok(our_plan!(acp, plan, at, from_entries, {
                acp::PlanUpdateContent::Other(acp::OtherPlanUpdateContent { type_, plan_id, fields, .. }) => {
                    // A type named like a known one (`items` without entries)
                    // is what their reader refused; ours reads it as that type.
                    let mut fields: Map<String, Value> = fields
                        .into_iter()
                        .map(|(key, value)| (TakePart::<String>::take_part(key), TakePart::<Value>::take_part(value)))
                        .collect();
                    fields.insert("type".into(), Value::String(type_.take_part()));
                    fields.insert(
                        Spelling::Acp.plan_id_key().into(),
                        Value::String(plan_id.0.to_string()),
                    );
                    PlanContent::from_value(Value::Object(fields))?
                }
                other => return Err(unknown(&at.key(crate::rules::KEY_TYPE), "plan", &other)),
            }))
        }

        pub(super) fn update(update: $($by)? SessionUpdate, at: &Path<'_>) -> Result<acp::SessionUpdate, ConversionError> {
            Ok(their_update!(acp, update, at, content, {
                // v2 has no v1 `plan`: their reader takes it for an unknown update.
                other @ (SessionUpdate::Plan(_) | SessionUpdate::Other(_)) => their_other(&other)?,
            }))
        }

        pub(super) fn from_update(
            update: $($by)? acp::SessionUpdate,
            at: &Path<'_>,
        ) -> Result<SessionUpdate, ConversionError> {
            Ok(our_update!(acp, update, at, from_content, {
                other => our_other(&other)?,
            }))
        }

        notifications!(
            acp::UpdateSessionNotification,
            [$($by)?],
            notification,
            update,
            from_notification,
            from_update
        );
    };
}

/// A plan of a type of its own: their other plans keep `_meta` among the
/// fields, as on the wire (a map type of their choosing: `BTreeMap` before
/// 1.20, `IndexMap` since).
fn other_plan(
    type_name: &str,
    id: &crate::protocol::id::PlanId,
    fields: Map<String, Value>,
    meta: Option<&crate::protocol::meta::Meta>,
) -> acp::PlanUpdateContent {
    let meta = meta.map(|meta| (crate::rules::KEY_META.to_owned(), meta.to_value()));
    acp::PlanUpdateContent::Other(acp::OtherPlanUpdateContent::new(
        type_name,
        std::sync::Arc::<str>::from(id.as_str()),
        fields.into_iter().chain(meta).collect(),
    ))
}

stamps!();

conversions!(PlanEntry, acp::PlanEntry, entry_at, from_entry);
conversions!(PlanContent, acp::PlanUpdateContent, content, from_content);
conversions!(SessionUpdate, acp::SessionUpdate, update, from_update);
conversions!(
    SessionNotification,
    acp::UpdateSessionNotification,
    notification,
    from_notification
);
