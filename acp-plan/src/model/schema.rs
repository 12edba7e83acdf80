//! A tool's input schema brought to one form before it is read as a plan
//! tool: JSON Schema lets a generator write the same input many ways
//! (pydantic writes a list as `anyOf: [{type: array, items: {$ref}}, {type:
//! null}]` and a status as a `$ref` to an enum in `$defs`). [`inline`]
//! resolves local references (`#/$defs/X`, `#/definitions/X`, any JSON
//! pointer into the document), drops the `null` alternative of a union,
//! merges `allOf` parts and single alternatives into the node, and turns a
//! union of string constants (or a `const`) into an `enum`. A reference
//! that leads back to itself ends as `{}`, never loops; a reference out of
//! the document is `{}` too (nothing here fetches anything).
//!
//! Below it, what the plan tool's reader asks of a schema (its type, its
//! properties, its enum) and the value a required field is filled with.

use plan_core::tools::Todo;
use serde_json::{Map, Value, json};

/// How deep a schema may nest before the rest is read as `{}` (a schema
/// is never that deep; this bounds a hostile one).
const MAX_DEPTH: usize = 64;

/// `schema` with its references resolved and its unions flattened, as
/// described in the module's documentation.
pub(crate) fn inline(schema: &Value) -> Value {
    resolve(schema, schema, &mut Vec::new(), 0)
}

fn resolve(node: &Value, root: &Value, stack: &mut Vec<String>, depth: usize) -> Value {
    let Value::Object(map) = node else {
        return node.clone();
    };
    if depth > MAX_DEPTH {
        return Value::Object(Map::new());
    }
    let mut out = Map::new();
    if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
        let target = reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(&unescape(pointer)));
        if let Some(target) = target
            && !stack.iter().any(|seen| seen == reference)
        {
            stack.push(reference.to_owned());
            let resolved = resolve(target, root, stack, depth + 1);
            stack.pop();
            merge(&mut out, resolved);
        }
    }
    for (key, value) in map {
        match key.as_str() {
            "$ref" | "$defs" | "definitions" => {}
            "anyOf" | "oneOf" => {
                let alternatives: Vec<Value> = value
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .map(|a| resolve(a, root, stack, depth + 1))
                    .filter(|a| !is_null(a))
                    .collect();
                union(&mut out, key, alternatives);
            }
            "allOf" => {
                for part in value.as_array().map(Vec::as_slice).unwrap_or_default() {
                    let part = resolve(part, root, stack, depth + 1);
                    merge(&mut out, part);
                }
            }
            "properties" => {
                let properties: Map<String, Value> = value
                    .as_object()
                    .map(|p| {
                        p.iter()
                            .map(|(k, v)| (k.clone(), resolve(v, root, stack, depth + 1)))
                            .collect()
                    })
                    .unwrap_or_default();
                merge(&mut out, json!({ "properties": properties }));
            }
            "items" => {
                let items = resolve(value, root, stack, depth + 1);
                out.insert(key.clone(), items);
            }
            "const" if !map.contains_key("enum") => {
                out.insert("enum".to_owned(), Value::Array(vec![value.clone()]));
                out.insert(key.clone(), value.clone());
            }
            _ => {
                merge(
                    &mut out,
                    Value::Object(Map::from_iter([(key.clone(), value.clone())])),
                );
            }
        }
    }
    Value::Object(out)
}

/// A union's alternatives (`null` already left out) into `out`: constants
/// as one string enum, a single alternative as itself, else the union kept.
fn union(out: &mut Map<String, Value>, key: &str, alternatives: Vec<Value>) {
    match constants(&alternatives) {
        Some(words) => merge(out, json!({ "type": "string", "enum": words })),
        None if alternatives.len() == 1 => {
            let only = alternatives.into_iter().next().unwrap_or(Value::Null);
            merge(out, only);
        }
        None => {
            out.insert(key.to_owned(), Value::Array(alternatives));
        }
    }
}

/// A JSON pointer's `~1` and `~0`, and a URI fragment's `%24` (`$`), read.
fn unescape(pointer: &str) -> String {
    pointer.replace("%24", "$").replace("%25", "%")
}

/// Whether a schema admits only `null`.
fn is_null(schema: &Value) -> bool {
    schema["type"] == "null"
        || schema.get("const") == Some(&Value::Null)
        || schema["enum"] == Value::Array(vec![Value::Null])
}

/// The words of a union whose every alternative is a string constant (or
/// an enum of strings), if it is one.
fn constants(alternatives: &[Value]) -> Option<Vec<Value>> {
    if alternatives.is_empty() {
        return None;
    }
    let mut words = Vec::new();
    for alternative in alternatives {
        let listed = alternative["enum"].as_array()?;
        if listed.iter().any(|w| !w.is_string()) {
            return None;
        }
        words.extend(listed.iter().cloned());
    }
    Some(words)
}

/// `part` merged into `out`: properties joined, `required` lists joined,
/// any other key kept where `out` has none yet.
fn merge(out: &mut Map<String, Value>, part: Value) {
    let Value::Object(part) = part else {
        return;
    };
    for (key, value) in part {
        match (key.as_str(), out.get_mut(&key), value) {
            ("properties", Some(Value::Object(have)), Value::Object(more)) => {
                for (name, schema) in more {
                    have.entry(name).or_insert(schema);
                }
            }
            ("required", Some(Value::Array(have)), Value::Array(more)) => {
                for name in more {
                    if !have.contains(&name) {
                        have.push(name);
                    }
                }
            }
            (_, Some(_), _) => {}
            (_, None, value) => {
                out.insert(key, value);
            }
        }
    }
}

// Reading a schema, and values it accepts.

/// Lower case, letters and digits only: `In-Progress` and `in_progress`
/// are one word.
pub(super) fn plain(word: &str) -> String {
    word.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A schema's `type`, lower case (Gemini's schemas say `OBJECT`); the
/// first of a list of types.
pub(super) fn type_of(schema: &Value) -> String {
    let ty = match &schema["type"] {
        Value::Array(types) => types
            .iter()
            .find(|t| *t != "null")
            .cloned()
            .unwrap_or(Value::Null),
        other => other.clone(),
    };
    ty.as_str().unwrap_or_default().to_ascii_lowercase()
}

pub(super) fn properties(schema: &Value) -> Vec<(&str, &Value)> {
    schema["properties"]
        .as_object()
        .map(|p| p.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default()
}

pub(super) fn required(schema: &Value) -> Vec<&str> {
    schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

pub(super) fn enum_words(schema: &Value) -> Vec<&str> {
    schema["enum"]
        .as_array()
        .map(|e| e.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

pub(super) fn is_priority(key: &str) -> bool {
    plain(key).contains("priority")
}

pub(super) fn is_id(key: &str) -> bool {
    key == "id" || key.ends_with("Id") || key.ends_with("_id")
}

/// Words of an enum that mean "write the list" (an `action` the tool also
/// reads with), most likely first.
const WRITE_WORDS: [&str; 12] = [
    "write",
    "set",
    "replace",
    "update",
    "save",
    "overwrite",
    "put",
    "upsert",
    "create",
    "add",
    "merge",
    "edit",
];
/// Words that mean only looking at it: never chosen where another word is.
const READ_WORDS: [&str; 7] = ["read", "get", "list", "view", "show", "fetch", "query"];

/// The word of an enum `key` takes: a priority's middle word, a
/// write-like word (an `action: ["read", "write"]` is filled `write`,
/// never its first word), else the first word that does not only read.
fn choose<'w>(key: &str, words: &[&'w str]) -> &'w str {
    let find = |wanted: &[&str]| {
        wanted
            .iter()
            .find_map(|m| words.iter().find(|w| plain(w) == *m).copied())
    };
    let middle = if is_priority(key) {
        find(&["medium", "normal", "moderate"])
    } else {
        None
    };
    middle
        .or_else(|| find(&WRITE_WORDS))
        .or_else(|| find(&["medium", "normal", "moderate"]))
        .or_else(|| {
            words
                .iter()
                .find(|w| !READ_WORDS.contains(&plain(w).as_str()))
                .copied()
        })
        .unwrap_or(words[0])
}

/// A value of `field` for item `i` (the step `todo`) that its schema
/// accepts: an id its place, a priority `medium` where the enum has it, an
/// action its write-like word, an `activeForm` the step's label in progress.
pub(super) fn fill(key: &str, field: &Value, i: usize, todo: &Todo) -> Value {
    let words = enum_words(field);
    if !words.is_empty() {
        return Value::from(choose(key, &words));
    }
    match type_of(field).as_str() {
        // A priority without an enum (opencode's says "high, medium, low").
        "string" if is_priority(key) => Value::from("medium"),
        "integer" | "number" => json!(i + 1),
        "boolean" => json!(false),
        "array" => json!([]),
        "object" => json!({}),
        _ if is_id(key) => Value::from((i + 1).to_string()),
        _ if plain(key) == "activeform" => Value::from(todo.active_form.as_str()),
        _ => Value::from(todo.content.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pydantic_schema_is_read_as_if_written_inline() {
        let pydantic = json!({
            "$defs": {
                "Status": { "enum": ["pending", "in_progress", "completed", "cancelled"], "type": "string" },
                "TodoItem": { "type": "object", "required": ["content", "status"], "properties": {
                    "content": { "type": "string", "title": "Content" },
                    "status": { "$ref": "#/$defs/Status", "description": "where it is" } } }
            },
            "type": "object", "required": ["action"],
            "properties": {
                "action": { "enum": ["read", "write"], "type": "string" },
                "todos": { "anyOf": [ { "type": "array", "items": { "$ref": "#/$defs/TodoItem" } },
                                       { "type": "null" } ], "default": null }
            }
        });
        let inlined = inline(&pydantic);
        assert!(inlined.get("$defs").is_none());
        let todos = &inlined["properties"]["todos"];
        assert_eq!(todos["type"], "array");
        assert_eq!(todos["items"]["required"], json!(["content", "status"]));
        let status = &todos["items"]["properties"]["status"];
        assert_eq!(status["enum"][3], "cancelled");
        assert_eq!(
            status["description"], "where it is",
            "a $ref's siblings stay"
        );
    }

    #[test]
    fn all_of_parts_merge_and_unions_of_constants_become_an_enum() {
        let schema = json!({ "allOf": [
            { "type": "object", "required": ["a"], "properties": { "a": { "type": "string" } } },
            { "required": ["b"], "properties": { "b": { "oneOf": [ { "const": "TODO" }, { "const": "DONE" } ] } } }
        ] });
        let inlined = inline(&schema);
        assert_eq!(inlined["required"], json!(["a", "b"]));
        assert_eq!(
            inlined["properties"]["b"],
            json!({ "type": "string", "enum": ["TODO", "DONE"] })
        );
    }

    #[test]
    fn a_reference_that_leads_back_to_itself_ends() {
        let schema = json!({ "$defs": { "Node": { "type": "object", "properties": {
            "child": { "$ref": "#/$defs/Node" } } } }, "$ref": "#/$defs/Node" });
        let inlined = inline(&schema);
        assert_eq!(inlined["type"], "object");
        assert_eq!(
            inlined["properties"]["child"],
            json!({}),
            "where it comes back"
        );
        // Out of the document, or nowhere: `{}`, nothing fetched.
        assert_eq!(
            inline(&json!({ "$ref": "https://example.com/s.json" })),
            json!({})
        );
        assert_eq!(inline(&json!({ "$ref": "#/nowhere" })), json!({}));
    }
}
