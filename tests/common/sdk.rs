//! The published SDK as the judge of what we write: every line must parse
//! with the reader the SDK re-exports (its schema crate's) of its protocol version with
//! no entry dropped and no value changed.

use agent_client_protocol::{v1::schema as acp1, v2::schema as acp2};
use plan_core::wire::ProtocolVersion;
use serde_json::Value;

/// How many plan entries a `session/update`'s `params` carries.
pub fn entry_count(params: &Value) -> usize {
    let update = &params["update"];
    let entries = match update["sessionUpdate"].as_str() {
        Some("plan") => &update["entries"],
        Some("plan_update") => &update["plan"]["entries"],
        _ => return 0,
    };
    entries.as_array().map_or(0, Vec::len)
}

/// Parses one line we wrote with the SDK reader of `version` and checks
/// that nothing was dropped or changed but a markdown plan's `path`, which
/// the SDK (5.2.0, schema 1.17.0) predates and ignores as an unknown key: the one
/// documented exception. Returns the `sessionUpdate` kind.
pub fn sdk_reads(line: &str, version: ProtocolVersion, context: &str) -> String {
    let message: Value = serde_json::from_str(line).unwrap();
    assert_eq!(message["jsonrpc"], "2.0", "{context}");
    assert_eq!(message["method"], "session/update", "{context}");
    let params = message["params"].clone();
    let kind = params["update"]["sessionUpdate"]
        .as_str()
        .unwrap()
        .to_owned();
    let read_back = match version {
        ProtocolVersion::V1 => {
            let read: acp1::SessionNotification = serde_json::from_value(params.clone())
                .unwrap_or_else(|e| panic!("{context}: the SDK's v1 reader refuses {line}: {e}"));
            serde_json::to_value(&read).unwrap()
        }
        ProtocolVersion::V2 => {
            let read: acp2::UpdateSessionNotification = serde_json::from_value(params.clone())
                .unwrap_or_else(|e| panic!("{context}: the SDK's v2 reader refuses {line}: {e}"));
            if let acp2::SessionUpdate::Other(other) = &read.update {
                panic!(
                    "{context}: the SDK's v2 reader takes {line} for an unknown update: {other:?}"
                );
            }
            serde_json::to_value(&read).unwrap()
        }
    };
    assert_eq!(
        entry_count(&read_back),
        entry_count(&params),
        "{context}: the SDK dropped an entry of {line}"
    );
    let mut expected = params;
    let plan = expected.get_mut("update").and_then(|u| u.get_mut("plan"));
    if let Some(plan) = plan.and_then(Value::as_object_mut) {
        plan.remove("path");
    }
    assert_eq!(
        read_back, expected,
        "{context}: the SDK read {line} differently"
    );
    kind
}

/// Every judge of a message we send to a client: the stabilized protocol's
/// rules for its kind (our `check_for_client`, the version table's; for a
/// client known to read pre-stable `file` plans, only `pre-stable-file` may
/// speak), then, in the ACP spelling, the version's public schema and the
/// SDK's reader of that version.
pub struct Judges {
    schemas: [crate::common::Validator; 2],
}

impl Judges {
    pub fn new() -> Self {
        use crate::common::{Schema, Version};
        Self {
            schemas: [
                Schema::unstable(Version::V1).notification_validator(),
                Schema::unstable(Version::V2).notification_validator(),
            ],
        }
    }

    /// Panics, naming `context`, if a judge refuses `message` sent to `client`.
    pub fn may_send(
        &self,
        message: &plan_core::SessionNotification,
        client: plan_core::fixtures::ClientProfile,
        context: &str,
    ) {
        let protocol = client.protocol();
        let line = message.to_json(client.spelling());
        if let Err(violations) = message.check_for_client(client.kind()) {
            assert!(
                client.reads_file_plans()
                    && violations.iter().all(|v| v.rule() == "pre-stable-file"),
                "{context}: {line}: {violations:?}"
            );
        }
        if client.spelling() == plan_core::wire::Spelling::Rfd {
            // The RFD spelling is what this client asked for; the published
            // schema and SDK read only the ACP spelling.
            return;
        }
        let value: Value = serde_json::from_str(&line).unwrap();
        let schema = &self.schemas[usize::from(protocol == ProtocolVersion::V2)];
        let errors = schema.notification_errors(&value);
        assert!(errors.is_empty(), "{context}: {line}: {errors:#?}");
        sdk_reads(&line, protocol, context);
    }
}
