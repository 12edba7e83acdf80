//! The JSON-RPC side of the example agent (a module of the `agent`
//! example): each line the client sends read as a request, a notification,
//! a response or a batch of them, and what is none of these answered with
//! the error JSON-RPC 2.0 gives it. Serving the methods is in `agent.rs`.

use std::io::{self, Write};

use plan_core::ErrorKind;
use plan_core::wire::Message;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::{Agent, code};

/// A message read from the client.
pub(super) enum Incoming {
    /// A request: answer it.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification: act on it, answer nothing.
    Notification { method: String, params: Value },
    /// A response to a request of ours (this agent sends none): ignored.
    Response,
    /// A JSON-RPC batch (an array of messages): each served in order, the
    /// responses sent together as one array; an entry that is no message
    /// gets its own Invalid Request.
    Batch(Vec<Result<Incoming, Value>>),
}

impl<W: Write, L: Write> Agent<W, L> {
    /// Reads one line; a line that is not a JSON-RPC message (or batch) is
    /// answered with an error here (`None`).
    pub(super) fn read(&mut self, line: &[u8]) -> io::Result<Option<Incoming>> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        let Ok(text) = std::str::from_utf8(line) else {
            self.error(&Value::Null, code::PARSE_ERROR, "not JSON: not UTF-8 text")?;
            return Ok(None);
        };
        let message = match Message::batch(text) {
            Some(Err(e)) => Err(error_response(
                &Value::Null,
                code::PARSE_ERROR,
                &e.to_string(),
            )),
            // One Invalid Request for an empty batch (JSON-RPC 2.0).
            Some(Ok(items)) if items.is_empty() => Err(error_response(
                &Value::Null,
                code::INVALID_REQUEST,
                "an empty batch",
            )),
            Some(Ok(items)) => Ok(Incoming::Batch(
                items.iter().map(|item| classify(item.get())).collect(),
            )),
            None => classify(text),
        };
        match message {
            Ok(message) => Ok(Some(message)),
            Err(error) => {
                self.send_response(error)?;
                Ok(None)
            }
        }
    }
}

/// One JSON-RPC message, alone or in a batch, read by plan-core's reader of
/// messages; what is not one is the error response it gets (Parse error for
/// text that is not JSON, else Invalid Request, with its id if it has one).
fn classify(text: &str) -> Result<Incoming, Value> {
    let value = |raw: &RawValue| serde_json::from_str::<Value>(raw.get()).unwrap_or(Value::Null);
    let read = Message::read(text);
    if let Some(problem) = read.problems.first() {
        let code = match problem.kind() {
            ErrorKind::Syntax { .. } => code::PARSE_ERROR,
            _ => code::INVALID_REQUEST,
        };
        let id = read.id.map_or(Value::Null, value);
        return Err(error_response(&id, code, &problem.to_string()));
    }
    Ok(match read.message {
        Some(Message::Request {
            id, method, params, ..
        }) => Incoming::Request {
            id: value(id),
            method: method.into_owned(),
            params: params.map_or(Value::Null, value),
        },
        Some(Message::Notification { method, params, .. }) => Incoming::Notification {
            method: method.into_owned(),
            params: params.map_or(Value::Null, value),
        },
        _ => Incoming::Response,
    })
}

pub(super) fn error_response(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::code;
    use super::super::tests::talk;

    #[test]
    fn batches_are_served_as_json_rpc_says() {
        let init =
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2}}"#;
        // Notifications alone, in a batch: nothing at all comes back.
        assert_eq!(
            talk("[{\"jsonrpc\":\"2.0\",\"method\":\"_x/notify\"}]\n"),
            Vec::<Value>::new()
        );
        // A batch: one array of responses, none for the notification, an
        // Invalid Request for each entry that is no message.
        let out = talk(&format!(
            "[{init},{{\"jsonrpc\":\"2.0\",\"method\":\"_x/notify\"}},1,{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"_x/ask\"}}]\n"
        ));
        assert_eq!(out.len(), 1, "{out:?}");
        let responses = out[0].as_array().expect("an array of responses");
        let ids: Vec<(&Value, &Value)> = responses
            .iter()
            .map(|r| (&r["id"], &r["error"]["code"]))
            .collect();
        assert_eq!(
            ids,
            [
                (&json!(1), &Value::Null),
                (&Value::Null, &json!(code::INVALID_REQUEST)),
                (&json!(2), &json!(code::METHOD_NOT_FOUND)),
            ]
        );
        assert_eq!(responses[0]["result"]["protocolVersion"], 2);
        // A batch of no messages: an Invalid Request for each, in one array.
        let out = talk("[1,2]\n");
        assert_eq!(out.len(), 1);
        let codes: Vec<&Value> = out[0]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| &r["error"]["code"])
            .collect();
        assert_eq!(codes, [&json!(code::INVALID_REQUEST); 2]);
        // An empty batch is one Invalid Request, not an array.
        let out = talk("[]\n");
        assert_eq!(out.len(), 1);
        assert_eq!(out[0]["error"]["code"], code::INVALID_REQUEST);
    }
}
