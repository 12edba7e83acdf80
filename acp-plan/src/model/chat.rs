//! The OpenAI Chat Completions API, as qwen-code calls it
//! (`POST /v1/chat/completions`): a request's `tools` (each a `function`
//! with `name` and `parameters`) and `messages` (an assistant message's
//! `tool_calls` the calls, a `tool` message with its `tool_call_id` the
//! result), read into a [`Request`]. Streamed (`"stream": true`) the answer
//! is `data:` lines of `chat.completion.chunk` objects: the role, then the
//! text or the call (its id and name first, its arguments in parts), then
//! the `finish_reason` (`stop` or `tool_calls`), the usage where
//! `stream_options.include_usage` asks, and `data: [DONE]`. Not streamed,
//! it is one `chat.completion` object.

use serde_json::{Value, json};

use super::api::{content_text, halves, items, named_tools, text_of};
use super::request::{PastCall, Request};
use super::turn::{Decision, Reply};

/// `request` read: its tools, its calls and their results, where the turn
/// under way starts (after the user's last message), its system messages,
/// and whether it asks for JSON (`response_format`).
pub(crate) fn read(request: &Value) -> Request {
    let mut read = Request {
        tools: named_tools(
            &items(&request["tools"])
                .iter()
                .map(|t| t["function"].clone())
                .collect::<Vec<_>>(),
            "parameters",
        ),
        ..Request::default()
    };
    let format = &request["response_format"];
    read.json = match format["type"].as_str() {
        Some("json_schema") => Some(format["json_schema"]["schema"].clone()),
        Some("json_object") => Some(Value::Null),
        _ => None,
    };
    let messages = items(&request["messages"]);
    let prompt = messages.iter().rposition(|m| m["role"] == "user");
    for (i, message) in messages.iter().enumerate() {
        if Some(i) == prompt {
            read.turn_start = read.calls.len();
        }
        let system = message["role"] == "system" || message["role"] == "developer";
        if system || prompt.is_some_and(|p| i >= p) {
            read.cue_text.push('\n');
            read.cue_text.push_str(&content_text(&message["content"]));
        }
        for call in items(&message["tool_calls"]) {
            read.calls.push(PastCall {
                name: text_of(&call["function"]["name"]),
                id: text_of(&call["id"]),
                arguments: serde_json::from_str(
                    call["function"]["arguments"].as_str().unwrap_or("{}"),
                )
                .unwrap_or(Value::Null),
                result: None,
                failed: false,
            });
        }
        if message["role"] == "tool"
            && let Some(call) = read
                .calls
                .iter_mut()
                .find(|c| c.id == message["tool_call_id"])
        {
            call.result = Some(content_text(&message["content"]));
        }
    }
    read
}

/// The id of the call numbered `number`.
pub(crate) fn call_id(number: usize) -> String {
    format!("call_scripted_{number}")
}

/// What says `decision` for `request`: the chunks as server-sent events
/// when it streams, else the one completion object.
pub(crate) fn write(request: &Value, decision: &Decision) -> String {
    let model = request["model"].as_str().unwrap_or("scripted-model");
    let id = format!("chatcmpl-scripted-{}", decision.number);
    let usage = json!({ "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2 });
    let finish = match decision.reply {
        Reply::Call { .. } => "tool_calls",
        Reply::Text(_) => "stop",
    };
    if request["stream"] != true {
        let message = match &decision.reply {
            Reply::Call { tool, arguments } => json!({ "role": "assistant", "content": null,
                "tool_calls": [{ "id": call_id(decision.number), "type": "function",
                    "function": { "name": tool, "arguments": arguments.to_string() } }] }),
            Reply::Text(text) => json!({ "role": "assistant", "content": text }),
        };
        return json!({ "id": id, "object": "chat.completion", "created": 0, "model": model,
            "choices": [{ "index": 0, "message": message, "finish_reason": finish }],
            "usage": usage })
        .to_string();
    }
    let mut out = String::new();
    let mut chunk = |delta: Value, finish: Option<&str>| {
        let data = json!({ "id": id, "object": "chat.completion.chunk", "created": 0,
            "model": model, "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }] });
        data_line(&mut out, &data.to_string());
    };
    match &decision.reply {
        Reply::Call { tool, arguments } => {
            chunk(
                json!({ "role": "assistant", "content": null, "tool_calls": [{ "index": 0,
                    "id": call_id(decision.number), "type": "function",
                    "function": { "name": tool, "arguments": "" } }] }),
                None,
            );
            let arguments = arguments.to_string();
            for part in halves(&arguments) {
                chunk(
                    json!({ "tool_calls": [{ "index": 0, "function": { "arguments": part } }] }),
                    None,
                );
            }
        }
        Reply::Text(text) => {
            chunk(json!({ "role": "assistant", "content": "" }), None);
            chunk(json!({ "content": text }), None);
        }
    }
    chunk(json!({}), Some(finish));
    if request["stream_options"]["include_usage"] == true {
        let data = json!({ "id": id, "object": "chat.completion.chunk", "created": 0,
            "model": model, "choices": [], "usage": usage });
        data_line(&mut out, &data.to_string());
    }
    data_line(&mut out, "[DONE]");
    out
}

fn data_line(out: &mut String, data: &str) {
    out.push_str("data: ");
    out.push_str(data);
    out.push_str("\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Script;
    use crate::model::turn::decide;

    fn todo_write_tool() -> Value {
        json!({ "type": "function", "function": { "name": "todo_write", "parameters": {
            "type": "object", "required": ["todos"], "properties": { "todos": { "type": "array",
            "items": { "type": "object", "required": ["content", "status", "id"], "properties": {
                "content": { "type": "string" }, "id": { "type": "string" },
                "status": { "type": "string", "enum": ["pending", "in_progress", "completed"] } } } } } } } })
    }

    /// The call a stream makes, joined from its chunks: (id, name, arguments).
    fn joined(stream: &str) -> (String, String, Value, Vec<Value>) {
        let mut chunks: Vec<Value> = Vec::new();
        let mut lines = stream.split("\n\n").filter(|l| !l.is_empty()).peekable();
        let mut done = false;
        while let Some(line) = lines.next() {
            let data = line.strip_prefix("data: ").unwrap();
            if data == "[DONE]" {
                done = lines.peek().is_none();
                break;
            }
            chunks.push(serde_json::from_str(data).unwrap());
        }
        assert!(done, "the stream ends with [DONE]");
        let (mut id, mut name, mut arguments) = (String::new(), String::new(), String::new());
        for c in &chunks {
            for call in c["choices"][0]["delta"]["tool_calls"]
                .as_array()
                .map_or(&[][..], Vec::as_slice)
            {
                id.push_str(call["id"].as_str().unwrap_or_default());
                name.push_str(call["function"]["name"].as_str().unwrap_or_default());
                arguments.push_str(call["function"]["arguments"].as_str().unwrap_or_default());
            }
        }
        let arguments = serde_json::from_str(&arguments).unwrap_or(Value::Null);
        (id, name, arguments, chunks)
    }

    #[test]
    fn a_streamed_call_of_the_agents_todo_tool_and_its_result_read_back() {
        let script = Script::built_in();
        let mut request = json!({ "model": "m", "stream": true,
            "stream_options": { "include_usage": true },
            "messages": [{ "role": "system", "content": "You are an agent" },
                         { "role": "user", "content": [{ "type": "text", "text": "Fix it" }] }],
            "tools": [todo_write_tool()] });
        let decision = decide(&script, &read(&request));
        let (id, name, arguments, chunks) = joined(&write(&request, &decision));
        assert_eq!(
            (id.as_str(), name.as_str()),
            ("call_scripted_0", "todo_write")
        );
        assert_eq!(arguments["todos"][0]["id"], "1");
        assert_eq!(arguments["todos"][0]["status"], "in_progress");
        let finish = &chunks[chunks.len() - 2]["choices"][0]["finish_reason"];
        assert_eq!(finish, "tool_calls");
        assert_eq!(chunks.last().unwrap()["usage"]["total_tokens"], 2);
        // The agent ran it: the next request carries the call and its result.
        let messages = request["messages"].as_array_mut().unwrap();
        messages.push(json!({ "role": "assistant", "content": null, "tool_calls": [{
            "id": id, "type": "function", "function": { "name": name, "arguments": arguments.to_string() } }] }));
        messages
            .push(json!({ "role": "tool", "tool_call_id": "call_scripted_0", "content": "ok" }));
        let read = read(&request);
        assert_eq!(read.calls.len(), 1);
        assert_eq!(read.calls[0].result.as_deref(), Some("ok"));
        assert_eq!(read.turn_start, 0);
        let decision = decide(&script, &read);
        assert_eq!(decision.summary, "calls todo_write (2 of 3)");
        assert!(decision.pause);
    }

    #[test]
    fn a_side_request_gets_one_completion_object_in_the_form_asked() {
        let request = json!({ "model": "m", "messages": [{ "role": "user", "content": "title?" }],
            "response_format": { "type": "json_schema", "json_schema": { "name": "t",
                "schema": { "type": "object", "properties": { "title": { "type": "string" } } } } } });
        let decision = decide(&Script::built_in(), &read(&request));
        let body: Value = serde_json::from_str(&write(&request, &decision)).unwrap();
        assert_eq!(body["object"], "chat.completion");
        let content: Value =
            serde_json::from_str(body["choices"][0]["message"]["content"].as_str().unwrap())
                .unwrap();
        assert!(content["title"].is_string());
    }
}
