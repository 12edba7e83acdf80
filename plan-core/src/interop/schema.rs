//! `schemars::JsonSchema` for the wire types (feature `schemars`). The
//! schemas describe what this crate reads: both spellings (`id` or `planId`,
//! exactly one), known plan types with their required fields, custom and
//! future types with an id, and any other session update.
//!
//! ```
//! use plan_core::{SessionNotification, Spelling, plan};
//!
//! let schema = schemars::schema_for!(SessionNotification);
//! let text = serde_json::to_string(&schema)?;
//! assert!(text.contains("planId"));
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::meta::Meta;
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::SessionUpdate;

/// Exactly one spelling of the plan id, non-empty.
fn one_id() -> serde_json::Value {
    serde_json::json!({
        "oneOf": [
            { "required": ["id"], "not": { "required": ["planId"] } },
            { "required": ["planId"], "not": { "required": ["id"] } }
        ]
    })
}

impl JsonSchema for Meta {
    fn schema_name() -> Cow<'static, str> {
        "Meta".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "description": "`_meta`: implementation-specific metadata", "type": ["object", "null"] })
    }
}

impl JsonSchema for Priority {
    fn schema_name() -> Cow<'static, str> {
        "Priority".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "`high`, `medium`, `low`, or a custom `_name` (other names are reserved, kept when read)",
            "type": "string"
        })
    }
}

impl JsonSchema for Status {
    fn schema_name() -> Cow<'static, str> {
        "Status".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "`pending`, `in_progress`, `completed`, `cancelled` (v2), or a custom `_name`",
            "type": "string"
        })
    }
}

impl JsonSchema for PlanEntry {
    fn schema_name() -> Cow<'static, str> {
        "PlanEntry".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "properties": {
                "content": { "type": "string" },
                "priority": generator.subschema_for::<Priority>(),
                "status": generator.subschema_for::<Status>(),
                "_meta": generator.subschema_for::<Meta>()
            },
            "required": ["content", "priority", "status"]
        })
    }
}

impl JsonSchema for PlanContent {
    fn schema_name() -> Cow<'static, str> {
        "PlanContent".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let id = serde_json::json!({ "type": "string", "pattern": "\\S" });
        let requires = |kind: &str, field: &str| {
            serde_json::json!({
                "if": { "properties": { "type": { "const": kind } } },
                "then": { "required": [field] }
            })
        };
        json_schema!({
            "description": "A plan: `items`, `file`, `markdown`, or a custom `_type` with its own fields",
            "type": "object",
            "properties": {
                "type": { "type": "string" },
                "id": id,
                "planId": id,
                "entries": { "type": "array", "items": generator.subschema_for::<PlanEntry>() },
                "uri": { "type": "string", "format": "uri" },
                "content": { "type": "string" },
                "_meta": generator.subschema_for::<Meta>()
            },
            "required": ["type"],
            "allOf": [one_id(), requires("items", "entries"), requires("file", "uri"), requires("markdown", "content")]
        })
    }
}

impl JsonSchema for SessionUpdate {
    fn schema_name() -> Cow<'static, str> {
        "SessionUpdate".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let kind = |kind: &str, then: serde_json::Value| serde_json::json!({ "if": { "properties": { "sessionUpdate": { "const": kind } } }, "then": then });
        json_schema!({
            "description": "A session update: `plan` (v1), `plan_update`, `plan_removed`, or any other, kept whole",
            "type": "object",
            "properties": { "sessionUpdate": { "type": "string" }, "_meta": generator.subschema_for::<Meta>() },
            "required": ["sessionUpdate"],
            "allOf": [
                kind("plan", serde_json::json!({
                    "properties": { "entries": { "type": "array", "items": generator.subschema_for::<PlanEntry>() } },
                    "required": ["entries"]
                })),
                kind("plan_update", serde_json::json!({
                    "properties": { "plan": generator.subschema_for::<PlanContent>() },
                    "required": ["plan"]
                })),
                kind("plan_removed", one_id())
            ]
        })
    }
}

impl JsonSchema for SessionNotification {
    fn schema_name() -> Cow<'static, str> {
        "SessionNotification".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A JSON-RPC `session/update` notification",
            "type": "object",
            "properties": {
                "jsonrpc": { "const": "2.0" },
                "method": { "const": "session/update" },
                "params": {
                    "type": "object",
                    "properties": {
                        "sessionId": { "type": "string" },
                        "update": generator.subschema_for::<SessionUpdate>(),
                        "_meta": generator.subschema_for::<Meta>()
                    },
                    "required": ["sessionId", "update"]
                }
            },
            "required": ["jsonrpc", "method", "params"],
            "not": { "required": ["id"] }
        })
    }
}

impl JsonSchema for ClientCapabilities {
    fn schema_name() -> Cow<'static, str> {
        "ClientCapabilities".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let capability = serde_json::json!({
            "type": ["object", "null"],
            "properties": { "_meta": generator.subschema_for::<Meta>() }
        });
        json_schema!({
            "description": "Client capabilities; the plan capability under `plan` (ACP) or `planCapabilities` (RFD)",
            "type": "object",
            "properties": { "plan": capability, "planCapabilities": capability }
        })
    }
}
