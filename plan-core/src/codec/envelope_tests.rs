//! Tests of the envelope reader (`envelope.rs`): every kind of message, every
//! problem said once, the shape of a line, batches.

use super::*;

fn said(text: &str) -> Vec<String> {
    Message::read(text)
        .problems
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn each_kind_of_message_is_told_with_its_parts() {
    let request = Message::parse(
        r#"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":1}}"#,
    )
    .unwrap();
    assert_eq!(request.method(), Some("initialize"));
    assert_eq!(request.id().unwrap().get(), r#""a""#);
    assert_eq!(request.params().unwrap().get(), r#"{"protocolVersion":1}"#);
    let update =
        Message::parse(r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}"#)
            .unwrap();
    assert!(update.is_session_update() && update.id().is_none());
    let ok = Message::parse(r#"{"jsonrpc":"2.0","id":1,"result":null}"#).unwrap();
    assert!(matches!(ok, Message::Response { outcome: Ok(r), .. } if r.get() == "null"));
    let refused =
        Message::parse(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"x"}}"#)
            .unwrap();
    assert!(matches!(
        refused,
        Message::Response {
            outcome: Err(_),
            ..
        }
    ));
    // An escaped method is read as it means; other keys are skipped.
    let escaped =
        Message::parse(r#"{"x":[1,{"y":2}],"jsonrpc":"2.0","method":"session\/cancel"}"#).unwrap();
    assert_eq!(escaped.method(), Some("session/cancel"));
}

#[test]
fn each_problem_is_said_at_its_path() {
    assert_eq!(
        said(r#"{"jsonrpc":"1.0","id":3,"result":null}"#),
        [r#"at `jsonrpc`: expected JSON-RPC version "2.0", found "1.0""#]
    );
    assert_eq!(
        said(r#"{"jsonrpc":"2.0","id":2,"error":{"code":"bad","message":7}}"#),
        [
            "at `error.code`: expected a whole number",
            "at `error.message`: expected a string"
        ]
    );
    assert_eq!(
        said(r#"{"jsonrpc":"2.0","result":{}}"#),
        ["at `id`: a response carries the `id` of its request"]
    );
    assert_eq!(
        said(r#"{"jsonrpc":"2.0","id":4,"method":"session/update","params":{}}"#),
        ["at `id`: a `session/update` is a notification and carries no `id`; this is a request"]
    );
    assert_eq!(
        said(r#"{"jsonrpc":"2.0","id":5}"#),
        [
            "in the message: neither a request (`method`), a notification nor a response (`result`/`error`)"
        ]
    );
    assert_eq!(
        said(r#"{"jsonrpc":"2.0","method":7}"#),
        ["at `method`: expected a string, found a number"]
    );
    assert_eq!(
        said(r#"{"method":"x"}"#),
        [r#"in the message: not a JSON-RPC message: no `"jsonrpc": "2.0"`"#]
    );
    assert_eq!(
        said("42"),
        ["in the message: expected a JSON-RPC message (an object), found a number"]
    );
    assert_eq!(said("not json").len(), 1);
    assert!(said("[1]")[0].contains("batch"));
    // A problem found, the kind still told where it can be: `parse` refuses.
    assert!(Message::parse(r#"{"jsonrpc":"1.0","id":3,"result":null}"#).is_err());
}

#[test]
fn a_batch_is_its_elements() {
    let items = Message::batch(r#" [{"jsonrpc":"2.0","method":"a"}, 1]"#)
        .unwrap()
        .unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(Message::parse(items[0].get()).unwrap().method(), Some("a"));
    assert!(Message::parse(items[1].get()).is_err());
    assert!(Message::batch("{}").is_none());
    assert!(Message::batch("[1,").unwrap().is_err());
}

#[test]
fn a_line_is_shaped_by_its_keys_whatever_else_is_wrong() {
    for (text, shape) in [
        (
            r#"{"jsonrpc":"2.0","method":"session/update","params":{}}"#,
            Shape::JsonRpc,
        ),
        (
            r#"{"sessionUpdate":"plan","jsonrpc":"1.0"}"#,
            Shape::JsonRpc,
        ),
        (r#"{"type":"items","sessionUpdate":"plan"}"#, Shape::Update),
        (r#"{"type":"items","planId":"p"}"#, Shape::Content),
        (r#"{"planId":"p"}"#, Shape::Unknown),
        ("[1]", Shape::Unknown),
        ("7", Shape::Unknown),
        (r#"{"type":"#, Shape::Unknown),
    ] {
        assert_eq!(Message::read(text).shape, shape, "{text}");
    }
}

#[test]
fn a_parsed_message_has_its_envelope_judged_as_its_text_is() {
    for text in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
        r#"{"jsonrpc":"2.0","method":"session/update"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"1.0","id":1,"method":"initialize"}"#,
        r#"{"jsonrpc":2,"id":1,"method":"initialize"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"y"}}"#,
        r#"{"jsonrpc":"2.0","result":{}}"#,
    ] {
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let object = value.as_object().unwrap();
        let from_value = method_of_object(object).map_err(|e| e.to_string());
        let from_text = Message::parse(text)
            .map(|m| m.method().map(str::to_owned))
            .map_err(|e| e.to_string());
        assert_eq!(
            from_value.map(|m| m.map(str::to_owned)),
            from_text,
            "{text}"
        );
    }
}
