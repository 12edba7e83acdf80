//! `include_plan!`'s JSON reader (plan-macros/src/json_reader.rs, compiled
//! here as a module: a proc-macro crate exports only macros) against
//! serde_json: never a panic; the same texts accepted, to the same values
//! (a repeated key, which the reader rejects on purpose, aside).
#![no_main]
#![allow(dead_code)]

#[path = "../../plan-macros/src/json_reader.rs"]
mod json_reader;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn to_value(node: &json_reader::Node) -> Value {
    match &node.kind {
        json_reader::NodeKind::Null => Value::Null,
        json_reader::NodeKind::Bool(b) => Value::Bool(*b),
        json_reader::NodeKind::Number(text) => serde_json::from_str(text).expect("a number the reader accepted"),
        json_reader::NodeKind::String(s) => Value::String(s.clone()),
        json_reader::NodeKind::Array(items) => items.iter().map(to_value).collect(),
        json_reader::NodeKind::Object(fields) => fields.iter().map(|(k, v)| (k.clone(), to_value(v))).collect(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let ours = json_reader::parse(text);
    let theirs = serde_json::from_str::<Value>(text);
    match (&ours, &theirs) {
        (Ok(node), Ok(value)) => assert_eq!(&to_value(node), value, "{text}"),
        (Err(e), Ok(_)) => assert!(e.message.contains("appears twice"), "rejected what serde_json reads: {e} in {text:?}"),
        (Ok(_), Err(e)) => panic!("read what serde_json rejects ({e}): {text:?}"),
        (Err(_), Err(_)) => {}
    }
});
