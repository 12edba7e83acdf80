//! What every model API's reader and writer share: the answer the server
//! sends, a server-sent event, and the small readers of a request's JSON
//! (texts, lists, tools and their descriptions).

use serde_json::Value;

use super::turn::Decision;

/// What the model answers: a content type and a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    /// What it said, in a few words (the tool it called, or that it
    /// answered with text), for `acp-plan model`'s log.
    pub summary: String,
    /// Whether it pauses first ([`PAUSE`](super::server::PAUSE)).
    pub pause: bool,
    /// The HTTP status.
    pub status: u16,
    /// `text/event-stream` for a streamed turn, else `application/json`.
    pub content_type: &'static str,
    /// The body, whole (a stream's events one after the other).
    pub body: String,
}

impl Answer {
    pub(super) fn json(status: u16, body: &Value) -> Self {
        Self {
            summary: format!("JSON ({status})"),
            pause: false,
            status,
            content_type: "application/json",
            body: body.to_string(),
        }
    }

    pub(super) fn decided(decision: &Decision, body: String, streamed: bool) -> Self {
        Self {
            summary: decision.summary.clone(),
            pause: decision.pause,
            body,
            status: 200,
            content_type: if streamed {
                "text/event-stream"
            } else {
                "application/json"
            },
        }
    }
}

/// One server-sent event: its name and its JSON data.
pub(super) fn event(out: &mut String, name: &str, data: &Value) {
    out.push_str("event: ");
    out.push_str(name);
    out.push_str("\ndata: ");
    out.push_str(&data.to_string());
    out.push_str("\n\n");
}

/// A JSON string's text, or nothing.
pub(super) fn text_of(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

/// A JSON array's items, or none.
pub(super) fn items(value: &Value) -> &[Value] {
    value.as_array().map_or(&[][..], Vec::as_slice)
}

/// The tools of a list, as (name, input schema): each tool's `name` and
/// its schema under `schema_key` (`input_schema`, `parameters`).
pub(super) fn named_tools(tools: &[Value], schema_key: &str) -> Vec<(String, Value)> {
    tools
        .iter()
        .filter_map(|t| Some((t["name"].as_str()?.to_owned(), t[schema_key].clone())))
        .collect()
}

/// Each tool's description, by name: a tool's own `description`, or its
/// `function`'s (Chat Completions), or each of Gemini's
/// `functionDeclarations`.
pub(super) fn descriptions(tools: &[Value]) -> Vec<(String, String)> {
    tools
        .iter()
        .flat_map(|t| {
            let declared = items(&t["functionDeclarations"]);
            if declared.is_empty() {
                vec![if t["function"].is_object() {
                    &t["function"]
                } else {
                    t
                }]
            } else {
                declared.iter().collect()
            }
        })
        .filter_map(|t| {
            Some((
                t["name"].as_str()?.to_owned(),
                t["description"].as_str()?.to_owned(),
            ))
        })
        .collect()
}

/// The text of a message's content: a string, or parts with a `text` each
/// (joined by new lines).
pub(super) fn content_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .map(|p| text_of(&p["text"]))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A call's arguments in two parts, as a model streams them.
pub(super) fn halves(arguments: &str) -> [&str; 2] {
    let split = (arguments.len() / 2..=arguments.len())
        .find(|&i| arguments.is_char_boundary(i))
        .unwrap_or(arguments.len());
    [&arguments[..split], &arguments[split..]]
}

/// One answer of the model, as the tests of each API read it.
#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Turn {
    /// The body, whole.
    pub stream: String,
    /// What it says: the tool it calls, or that it answers with text.
    pub summary: String,
    /// Whether it pauses before answering ([`PAUSE`](super::server::PAUSE)).
    pub pause: bool,
}

/// The model's answer to `request` through an API's `read` and `write`, as
/// the server streams it (for each API's tests).
#[cfg(test)]
pub(crate) fn answered_by(
    read: fn(&Value) -> super::request::Request,
    write: fn(&Value, &Decision) -> String,
    script: &super::script::Script,
    request: &Value,
) -> Turn {
    let decision = super::turn::decide(script, &read(request));
    Turn {
        stream: write(request, &decision),
        summary: decision.summary,
        pause: decision.pause,
    }
}
