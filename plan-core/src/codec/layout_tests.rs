//! The writer and reader held to the one layout of each message
//! (`rules/layout.rs`): the one writer through both its sinks (JSON text and
//! serde) writes exactly the table's keys, in its order, with every
//! required key; the one reader, from text and from a `Value`, refuses a
//! message that lacks a required key, naming it.

use serde_core::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::codec::writer::Spelled;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::id::{AbsolutePath, FileUri, PlanId};
use crate::protocol::meta::Meta;
use crate::protocol::notification::SessionNotification;
use crate::protocol::spelling::Spelling;
use crate::protocol::update::{Plan, SessionUpdate};
use crate::rules::layout::{self, Field};
use crate::rules::{KEY_PLAN_ID, KEY_PLAN_ID_RFD};

/// A JSON value that keeps its objects' key order (`serde_json`'s `Value`
/// sorts keys unless a dependency turns on `preserve_order`).
#[derive(Debug)]
enum Node {
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
    Scalar,
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct NodeVisitor;
        impl<'de> Visitor<'de> for NodeVisitor {
            type Value = Node;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut fields = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Node>()? {
                    fields.push((key, value));
                }
                Ok(Node::Object(fields))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Node>()? {
                    items.push(item);
                }
                Ok(Node::Array(items))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
                Ok(Node::Scalar)
            }
        }
        d.deserialize_any(NodeVisitor)
    }
}

/// The table's key as written in `spelling`.
fn spelled(key: &'static str, spelling: Spelling) -> &'static str {
    if key == KEY_PLAN_ID && spelling == Spelling::Rfd {
        KEY_PLAN_ID_RFD
    } else {
        key
    }
}

/// The layout of the object at `at`, found by what the object says.
fn layout_of(at: &str, fields: &[(String, Node)], text: &Value) -> Option<&'static [Field]> {
    Some(match at {
        "" => layout::NOTIFICATION,
        ".params" => layout::PARAMS,
        ".params.update" => match text["sessionUpdate"].as_str()? {
            "plan" => layout::UPDATE_PLAN,
            "plan_update" => layout::UPDATE_PLAN_UPDATE,
            "plan_removed" => layout::UPDATE_PLAN_REMOVED,
            _ => return None,
        },
        ".params.update.plan" => match text["type"].as_str()? {
            "items" => layout::ITEMS,
            "markdown" => layout::MARKDOWN,
            "file" => layout::FILE,
            _ => layout::CUSTOM,
        },
        _ if at.ends_with(']') && fields.iter().any(|(k, _)| k == "priority") => layout::ENTRY,
        _ => return None,
    })
}

/// Every object of `node` (at `at`, `text` its value) checked against its
/// layout; the problems found.
fn check(node: &Node, text: &Value, at: &str, spelling: Spelling, problems: &mut Vec<String>) {
    match node {
        Node::Object(fields) => {
            if let Some(layout) = layout_of(at, fields, text) {
                let mut keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
                if layout == layout::CUSTOM {
                    // A custom type's own fields stand between its id and
                    // `_meta`, in key order; the table holds the rest.
                    let own: Vec<&str> = keys
                        .iter()
                        .copied()
                        .filter(|k| !layout.iter().any(|f| spelled(f.key, spelling) == *k))
                        .collect();
                    // Right after the id, together, sorted.
                    let after_id = keys
                        .iter()
                        .position(|k| *k == spelled(KEY_PLAN_ID, spelling))
                        .map_or(0, |i| i + 1);
                    let there = keys.get(after_id..after_id + own.len());
                    if !own.is_sorted() || there != Some(own.as_slice()) {
                        problems.push(format!(
                            "at `{at}`: own fields {own:?} not together, in key order, after the id: {keys:?}"
                        ));
                    }
                    keys.retain(|k| !own.contains(k));
                }
                let mut expected = layout.iter().filter(|f| {
                    let key = spelled(f.key, spelling);
                    !f.optional || keys.contains(&key)
                });
                let want: Vec<&str> = expected
                    .by_ref()
                    .map(|f| spelled(f.key, spelling))
                    .collect();
                if keys != want {
                    problems.push(format!(
                        "at `{at}`: wrote {keys:?}; the layout says {want:?}"
                    ));
                }
                for (key, value) in fields {
                    // `_meta` is the user's own object, not a layout of ours.
                    if key != "_meta" {
                        check(
                            value,
                            &text[key],
                            &format!("{at}.{key}"),
                            spelling,
                            problems,
                        );
                    }
                }
            }
        }
        Node::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                check(item, &text[i], &format!("{at}[{i}]"), spelling, problems);
            }
        }
        Node::Scalar => {}
    }
}

fn meta() -> Meta {
    let mut fields = Map::new();
    fields.insert("trace".to_owned(), Value::from("t-1"));
    Meta::new(fields)
}

fn custom(fields: Map<String, Value>) -> PlanContent {
    let kind = crate::protocol::naming::CustomName::new("_timeline").unwrap();
    PlanContent::custom(kind, PlanId::new("p").unwrap(), fields).unwrap()
}

/// A message of every layout, each optional key present in one and absent
/// in another.
pub(crate) fn samples() -> Vec<SessionNotification> {
    let id = || PlanId::new("p").unwrap();
    let entries = vec![
        PlanEntry::new("Analyze", Priority::High, Status::Completed),
        PlanEntry::new("Ship", Priority::Low, Status::Pending).with_meta(meta()),
    ];
    let plans = [
        PlanContent::items(id(), entries.clone()),
        PlanContent::items(id(), entries.clone()).with_meta(meta()),
        PlanContent::markdown(id(), "# Plan"),
        PlanContent::markdown_at(id(), "# Plan", AbsolutePath::new("/tmp/PLAN.md").unwrap())
            .with_meta(meta()),
        PlanContent::file(id(), FileUri::new("file:///tmp/PLAN.md").unwrap()),
        PlanContent::file(id(), FileUri::new("file:///tmp/PLAN.md").unwrap()).with_meta(meta()),
        custom(Map::new()),
        custom(
            serde_json::json!({"zeta": 1, "alpha": [2], "middle": {"b": 1, "a": 2}})
                .as_object()
                .unwrap()
                .clone(),
        )
        .with_meta(meta()),
    ];
    let mut updates: Vec<SessionUpdate> =
        plans.into_iter().map(SessionUpdate::plan_update).collect();
    updates.push(SessionUpdate::plan_removed(id()));
    updates.push(SessionUpdate::Plan(Plan::new(entries.clone())));
    let mut v1_with_meta = Plan::new(entries.clone());
    v1_with_meta.meta = Some(meta());
    updates.push(SessionUpdate::Plan(v1_with_meta));
    updates.push(SessionUpdate::PlanUpdate {
        plan: PlanContent::items(id(), entries),
        meta: Some(meta()),
    });
    let mut with_meta = SessionUpdate::plan_removed(id());
    if let SessionUpdate::PlanRemoved { meta: m, .. } = &mut with_meta {
        *m = Some(meta());
    }
    updates.push(with_meta);
    let mut out: Vec<SessionNotification> = updates
        .into_iter()
        .map(|u| SessionNotification::new("s", u))
        .collect();
    let mut with_params_meta = out[0].clone();
    with_params_meta.meta = Some(meta());
    out.push(with_params_meta);
    out
}

/// Every layout of the table, named. The tests tell layouts apart by their
/// keys (`each_layout_has_keys_of_its_own`).
pub(crate) const TABLES: [(&str, &[Field]); 10] = [
    ("entry", layout::ENTRY),
    ("items", layout::ITEMS),
    ("markdown", layout::MARKDOWN),
    ("file", layout::FILE),
    ("custom", layout::CUSTOM),
    ("plan", layout::UPDATE_PLAN),
    ("plan_update", layout::UPDATE_PLAN_UPDATE),
    ("plan_removed", layout::UPDATE_PLAN_REMOVED),
    ("notification", layout::NOTIFICATION),
    ("params", layout::PARAMS),
];

/// Calls `visit` with each object of `value` that has a layout (its path
/// `at` and its layout), outside `_meta` (the user's own object).
fn each_laid_out(
    value: &Value,
    at: &str,
    visit: &mut impl FnMut(&str, &serde_json::Map<String, Value>, &'static [Field]),
) {
    match value {
        Value::Object(object) => {
            let fields: Vec<(String, Node)> =
                object.keys().map(|k| (k.clone(), Node::Scalar)).collect();
            if let Some(layout) = layout_of(at, &fields, value) {
                visit(at, object, layout);
            }
            for (key, item) in object {
                if key != "_meta" {
                    each_laid_out(item, &format!("{at}.{key}"), visit);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                each_laid_out(item, &format!("{at}[{i}]"), visit);
            }
        }
        _ => {}
    }
}

/// Each (layout, key) written somewhere in `value`.
pub(crate) fn keys_written(value: &Value, at: &str, out: &mut Vec<(&'static [Field], String)>) {
    each_laid_out(value, at, &mut |_, object, layout| {
        out.extend(object.keys().map(|k| (layout, k.clone())));
    });
}

/// Each `layout.key` of the table that no (layout, key) of `written` is.
pub(crate) fn keys_not_written(written: &[(&'static [Field], String)]) -> Vec<String> {
    let mut missing = Vec::new();
    for (name, table) in TABLES {
        for field in table {
            if !written
                .iter()
                .any(|(layout, key)| *layout == table && key == field.key)
            {
                missing.push(format!("{name}.{}", field.key));
            }
        }
    }
    missing
}

#[test]
fn each_layout_has_keys_of_its_own() {
    for (i, (name, table)) in TABLES.iter().enumerate() {
        for (other, other_table) in &TABLES[i + 1..] {
            assert_ne!(
                table, other_table,
                "`{name}` and `{other}` have the same keys"
            );
        }
    }
}

/// The net under a new field: the samples hold every key of the table,
/// optional ones included, so a field the samples (or the type, or a
/// writer) leave out fails here, and the round trip below fails where a
/// writer or a reader forgets it.
#[test]
fn the_samples_hold_every_key_of_the_table() {
    let mut written = Vec::new();
    for message in samples() {
        let value: Value = serde_json::from_str(&message.to_json(Spelling::Acp)).unwrap();
        keys_written(&value, "", &mut written);
    }
    let missing = keys_not_written(&written);
    assert!(
        missing.is_empty(),
        "no sample writes {missing:?}: give `samples()` a message with each (a field the samples leave out is a field no test holds)"
    );
}

/// Each sample, written by either sink in either spelling, reads back as
/// it was, from the text and from its `Value`: a writer or a reader that
/// leaves out a field (an optional one too) fails here.
#[test]
fn every_sample_reads_back_as_it_was_written() {
    for message in samples() {
        for spelling in [Spelling::Acp, Spelling::Rfd] {
            for text in [
                message.to_json(spelling),
                serde_json::to_string(&Spelled(&message, spelling)).unwrap(),
            ] {
                let from_text = SessionNotification::from_json(&text).unwrap();
                assert_eq!(from_text, message, "from text, {spelling:?}: {text}");
                let value: Value = serde_json::from_str(&text).unwrap();
                let from_value = SessionNotification::from_value(value).unwrap();
                assert_eq!(from_value, message, "from a value, {spelling:?}: {text}");
            }
        }
    }
}

#[test]
fn both_sinks_write_each_message_in_its_one_layout() {
    for message in samples() {
        for spelling in [Spelling::Acp, Spelling::Rfd] {
            for (writer, text) in [
                ("text sink", message.to_json(spelling)),
                (
                    "serde sink",
                    serde_json::to_string(&Spelled(&message, spelling)).unwrap(),
                ),
            ] {
                let node: Node = serde_json::from_str(&text).unwrap();
                let value: Value = serde_json::from_str(&text).unwrap();
                let mut problems = Vec::new();
                check(&node, &value, "", spelling, &mut problems);
                assert!(
                    problems.is_empty(),
                    "{writer}, {spelling:?}: {problems:?}\n{text}"
                );
            }
        }
    }
}

/// Every (JSON pointer of an object, required key) in `value`, by its layout.
fn required_keys(value: &Value, at: &str, out: &mut Vec<(String, &'static str)>) {
    each_laid_out(value, at, &mut |at, _, layout| {
        let pointer = at.replace(['.', '['], "/").replace(']', "");
        for field in layout.iter().filter(|f| !f.optional) {
            out.push((pointer.clone(), field.key));
        }
    });
}

#[test]
fn text_and_values_are_refused_without_a_required_key() {
    for message in samples() {
        let whole: Value = serde_json::from_str(&message.to_json(Spelling::Acp)).unwrap();
        let mut required = Vec::new();
        required_keys(&whole, "", &mut required);
        assert!(!required.is_empty());
        for (pointer, key) in required {
            let mut value = whole.clone();
            let object = value
                .pointer_mut(&pointer)
                .and_then(Value::as_object_mut)
                .unwrap();
            object.remove(key);
            let text = value.to_string();
            let from_text = SessionNotification::from_json(&text);
            let from_value = SessionNotification::from_value(value);
            for (reader, read) in [("text", from_text), ("value", from_value)] {
                let err = read.expect_err(&format!(
                    "reading from {reader} accepted {text} without `{key}`"
                ));
                let said = err.to_string();
                // The jsonrpc/method checks name the envelope; the rest name the key.
                assert!(
                    said.contains(key)
                        || said.contains("JSON-RPC")
                        || said.contains("session/update"),
                    "from {reader}, `{key}` missing at {pointer:?}: {said}"
                );
            }
        }
    }
}
