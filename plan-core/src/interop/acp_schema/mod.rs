//! Conversions to and from the published `agent-client-protocol-schema`
//! crate's v1 types and, in [`v2`] (feature `acp-schema-v2`), its protocol
//! v2 types, for agents and clients built on the official SDK or on the
//! schema crate alone.
//!
//! Conversions map field to field, with no JSON in between (a `_meta` object
//! and an update that is not about plans are the only JSON values that
//! cross). Converting an owned value moves each entry's text across;
//! converting a borrowed one copies it once. Nothing the two
//! crates both express is lost. What v1 cannot express is an error (the
//! published crate would otherwise silently skip an entry it cannot read):
//! `cancelled`, custom priorities and statuses, custom plan types. What our
//! types forbid and theirs allow (a blank plan id, a relative path, a file
//! URI that is not a URI) is an error the other way, as our strict reader
//! reports it.
//!
//! # Which schema: the stable one, or the SDK's
//!
//! A build holds one 1.x of the schema crate, so these conversions are with
//! the one your build has:
//!
//! | features | schema in the build | plan shapes | refused, never dropped |
//! |---|---|---|---|
//! | `acp-schema` | 1.20 or newer (`cargo add agent-client-protocol-schema`) | stable: `items`, `markdown` with its `path` | our pre-stable `file` plan |
//! | `acp` (turns on `acp-schema`) | the SDK's: 1.15.1 (SDK 5.0), 1.17.0 (SDK 5.2) | pre-stable: `items`, `markdown` without `path`, `file` | a markdown plan's `path` |
//!
//! With `acp`, the types are the ones the SDK re-exports
//! (`agent_client_protocol::v1::schema`, `::v2::schema`): the same types,
//! one copy. A `path` the SDK's schema cannot hold is a [`ConversionError`]
//! at `plan.path`; plan-core's own notification, sent through the SDK's
//! connection as it is, keeps it (see `plan_core::acp`).
//!
//! `acp-schema` alone needs 1.20 or newer in your lockfile; if another crate
//! holds your build at an older 1.x (the SDK pins its own), turn on `acp`
//! instead.
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

// The parts both versions share (`acp_schema/parts.rs`).
mod parts;

pub use parts::ConversionError;

// The arms both versions share (`acp_schema/arms.rs`), before the versions.
#[macro_use]
mod arms;

// Protocol v1 (`acp_schema/v1.rs`): no feature beyond `acp-schema`.
mod v1;

// Protocol v2 (`acp_schema/v2.rs`).
#[cfg(feature = "acp-schema-v2")]
#[cfg_attr(docsrs, doc(cfg(feature = "acp-schema-v2")))]
pub mod v2;

#[cfg(test)]
mod tests {
    use crate::codec::layout_tests::samples;
    use crate::protocol::notification::SessionNotification;

    /// Nothing crosses changed: each sample message (every key of the
    /// layout table) converts to the schema's types and back unchanged, or
    /// is refused with a `ConversionError`; a field the conversion forgets
    /// fails here instead of being dropped without a word.
    #[test]
    fn every_sample_converts_back_unchanged_or_is_refused() {
        use agent_client_protocol_schema::v1 as acp;
        for message in samples() {
            if let Ok(theirs) = acp::SessionNotification::try_from(&message) {
                let back = SessionNotification::try_from(&theirs).unwrap();
                assert_eq!(
                    back,
                    message,
                    "v1: {}",
                    message.to_json(crate::codec::Spelling::Acp)
                );
            }
            #[cfg(feature = "acp-schema-v2")]
            {
                use agent_client_protocol_schema::v2 as acp2;
                if let Ok(theirs) = acp2::UpdateSessionNotification::try_from(&message) {
                    let back = SessionNotification::try_from(&theirs).unwrap();
                    assert_eq!(
                        back,
                        message,
                        "v2: {}",
                        message.to_json(crate::codec::Spelling::Acp)
                    );
                }
            }
        }
    }
}
