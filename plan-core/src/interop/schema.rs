//! `schemars::JsonSchema` for the wire types (feature `schemars`). The
//! schemas describe what this crate reads: both spellings (`id` or `planId`,
//! exactly one), known plan types with their required fields, custom and
//! future types with an id, and any other session update. Which keys each
//! object requires comes from the layout table (`rules/layout.rs`), the one
//! place the readers and writers are held to.
//!
//! ```
//! use plan_core::{SessionNotification, plan, wire::Spelling};
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
use crate::rules::layout::{self, Field};
use crate::rules::{KEY_PLAN_ID, KEY_SESSION_UPDATE, KEY_TYPE};

/// The keys `layout` requires, as a JSON array, but the plan id (its two
/// spellings are [`one_id`]'s) and the tag a conditional schema already
/// matched on.
fn required(layout: &[Field]) -> serde_json::Value {
    layout
        .iter()
        .filter(|f| !f.optional && ![KEY_PLAN_ID, KEY_TYPE, KEY_SESSION_UPDATE].contains(&f.key))
        .map(|f| serde_json::Value::from(f.key))
        .collect()
}

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
            "required": required(layout::ENTRY)
        })
    }
}

impl JsonSchema for PlanContent {
    fn schema_name() -> Cow<'static, str> {
        "PlanContent".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let id = serde_json::json!({ "type": "string", "pattern": "\\S" });
        let requires = |kind: &str, layout: &[Field]| {
            serde_json::json!({
                "if": { "properties": { "type": { "const": kind } } },
                "then": { "required": required(layout) }
            })
        };
        // An absolute path, as `rules::check_absolute_path` has it: `/...`,
        // `\\server\...`, or a drive (`C:\`, `C:/`).
        let path = serde_json::json!({
            "type": ["string", "null"],
            "pattern": r"^(/|\\\\|[A-Za-z]:[\\/])"
        });
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
                "path": path,
                "_meta": generator.subschema_for::<Meta>()
            },
            "required": [KEY_TYPE],
            "allOf": [
                one_id(),
                requires("items", layout::ITEMS),
                requires("file", layout::FILE),
                requires("markdown", layout::MARKDOWN)
            ]
        })
    }
}

impl JsonSchema for SessionUpdate {
    fn schema_name() -> Cow<'static, str> {
        "SessionUpdate".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let kind = |kind: &str, then: serde_json::Value| serde_json::json!({ "if": { "properties": { "sessionUpdate": { "const": kind } } }, "then": then });
        let id = serde_json::json!({ "type": "string", "pattern": "\\S" });
        json_schema!({
            "description": "A session update: `plan` (v1), `plan_update`, `plan_removed`, or any other, kept whole",
            "type": "object",
            "properties": { "sessionUpdate": { "type": "string" }, "_meta": generator.subschema_for::<Meta>() },
            "required": [KEY_SESSION_UPDATE],
            "allOf": [
                kind("plan", serde_json::json!({
                    "properties": { "entries": { "type": "array", "items": generator.subschema_for::<PlanEntry>() } },
                    "required": required(layout::UPDATE_PLAN)
                })),
                kind("plan_update", serde_json::json!({
                    "properties": { "plan": generator.subschema_for::<PlanContent>() },
                    "required": required(layout::UPDATE_PLAN_UPDATE)
                })),
                kind("plan_removed", serde_json::json!({
                    "properties": { "id": id, "planId": id },
                    "allOf": [one_id()]
                }))
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
                    "required": required(layout::PARAMS)
                }
            },
            "required": required(layout::NOTIFICATION),
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use schemars::JsonSchema;
    use serde_json::Value;

    use super::*;

    /// Every key named under a `properties` of `schema`, its nested
    /// conditions included, the definitions of other types left out.
    fn property_names(schema: &Value, into: &mut BTreeSet<String>) {
        match schema {
            Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("$defs" | "definitions", _) => {}
                        ("properties", Value::Object(properties)) => {
                            into.extend(properties.keys().cloned());
                            properties.values().for_each(|v| property_names(v, into));
                        }
                        _ => property_names(value, into),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|v| property_names(v, into)),
            _ => {}
        }
    }

    fn keys_are_properties<T: JsonSchema>(layouts: &[&[Field]]) {
        let schema = serde_json::to_value(schemars::schema_for!(T)).unwrap();
        let mut names = BTreeSet::new();
        property_names(&schema, &mut names);
        for field in layouts.iter().flat_map(|layout| layout.iter()) {
            assert!(
                names.contains(field.key),
                "{}: the layout table has `{}`, the JSON Schema has no such property: {names:?}",
                T::schema_name(),
                field.key
            );
        }
    }

    /// A key the table gains and the schema forgets fails here (a missing
    /// optional property would pass the other tests: the schemas allow
    /// extra keys).
    #[test]
    fn every_key_of_the_layout_table_is_a_property_of_its_schema() {
        keys_are_properties::<PlanEntry>(&[layout::ENTRY]);
        keys_are_properties::<PlanContent>(&[layout::ITEMS, layout::MARKDOWN, layout::FILE]);
        keys_are_properties::<SessionUpdate>(&[
            layout::UPDATE_PLAN,
            layout::UPDATE_PLAN_UPDATE,
            layout::UPDATE_PLAN_REMOVED,
        ]);
        keys_are_properties::<SessionNotification>(&[layout::NOTIFICATION, layout::PARAMS]);
    }
}
