//! `include_plan!`'s JSON reader (plan-macros/src/include/doc.rs, compiled
//! here as a module: a proc-macro crate exports only macros) against
//! serde_json: never a panic; the same texts accepted, to the same values
//! (a repeated key, which the reader rejects on purpose, aside).
#![no_main]
#![allow(dead_code)]

#[path = "../../plan-macros/src/include/doc.rs"]
mod doc;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn to_value(node: &doc::Node) -> Value {
    match &node.kind {
        doc::Kind::Null => Value::Null,
        doc::Kind::Bool(b) => Value::Bool(*b),
        doc::Kind::Number(text) => serde_json::from_str(text).expect("a number the reader accepted"),
        doc::Kind::String(s) => Value::String(s.clone()),
        doc::Kind::Array(items) => items.iter().map(to_value).collect(),
        doc::Kind::Object(fields) => fields.iter().map(|(k, v)| (k.clone(), to_value(v))).collect(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let ours = doc::parse(text);
    let theirs = serde_json::from_str::<Value>(text);
    match (&ours, &theirs) {
        (Ok(node), Ok(value)) => assert_eq!(&to_value(node), value, "{text}"),
        (Err(e), Ok(_)) => assert!(e.message.contains("appears twice"), "rejected what serde_json reads: {e} in {text:?}"),
        (Ok(_), Err(e)) => panic!("read what serde_json rejects ({e}): {text:?}"),
        (Err(_), Err(_)) => {}
    }
});
