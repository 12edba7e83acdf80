//! The OpenAI Responses API, streamed, as codex and opencode call it
//! (`POST /v1/responses`): a request's `tools` (function tools, each
//! `name` and `parameters`), its `instructions` and `input` items
//! (`function_call` items the calls, `function_call_output` their results),
//! read into a [`Request`]; the answer is the event stream
//! (`response.created`, `response.output_item.added`,
//! `response.function_call_arguments.delta`/`.done` or the text events,
//! `response.output_item.done`, `response.completed`).

use serde_json::{Value, json};

use super::api::{content_text, event, halves, items, named_tools, text_of};
use super::request::{PastCall, Request};
use super::turn::{Decision, Reply};

/// Whether an input item is a message of `role` (the type may be left out).
fn message_of(item: &Value, role: &str) -> bool {
    (item["type"] == "message" || item["type"].is_null()) && item["role"] == role
}

/// `request` read: its tools, its calls and their results, where the turn
/// under way starts (after the user's last message), its instructions and
/// developer messages, and whether it asks for JSON (`text.format`).
pub(crate) fn read(request: &Value) -> Request {
    let mut read = Request {
        tools: named_tools(items(&request["tools"]), "parameters"),
        cue_text: text_of(&request["instructions"]),
        ..Request::default()
    };
    let format = &request["text"]["format"];
    read.json = match format["type"].as_str() {
        Some("json_schema") => Some(format["schema"].clone()),
        Some("json_object") => Some(Value::Null),
        _ => None,
    };
    let input = items(&request["input"]);
    let prompt = input.iter().rposition(|item| message_of(item, "user"));
    for (i, item) in input.iter().enumerate() {
        if Some(i) == prompt {
            read.turn_start = read.calls.len();
        }
        let instructions = message_of(item, "developer") || message_of(item, "system");
        if instructions || prompt.is_some_and(|p| i >= p) {
            read.cue_text.push('\n');
            read.cue_text.push_str(&content_text(&item["content"]));
        }
        match item["type"].as_str() {
            Some("function_call") => read.calls.push(PastCall {
                name: text_of(&item["name"]),
                id: text_of(&item["call_id"]),
                arguments: serde_json::from_str(item["arguments"].as_str().unwrap_or("{}"))
                    .unwrap_or(Value::Null),
                result: None,
                failed: false,
            }),
            Some("function_call_output") => {
                if let Some(call) = read.calls.iter_mut().find(|c| c.id == item["call_id"]) {
                    call.result = Some(match &item["output"] {
                        Value::String(text) => text.clone(),
                        other => other.to_string(),
                    });
                }
            }
            _ => {}
        }
    }
    read
}

/// The id of the call numbered `number`.
pub(crate) fn call_id(number: usize) -> String {
    format!("call_scripted_{number}")
}

/// Events numbered as the API numbers them.
struct Stream {
    out: String,
    sequence: u64,
}

impl Stream {
    fn event(&mut self, name: &str, mut data: Value) {
        data["type"] = Value::from(name);
        data["sequence_number"] = Value::from(self.sequence);
        self.sequence += 1;
        event(&mut self.out, name, &data);
    }
}

/// The event stream that says `decision`, for `request`.
pub(crate) fn write(request: &Value, decision: &Decision) -> String {
    let model = request["model"].as_str().unwrap_or("scripted-model");
    let made = decision.number;
    let id = format!("resp_scripted_{made}");
    let response = |status: &str, output: Value| {
        json!({ "id": id, "object": "response", "created_at": 0, "status": status,
            "model": model, "output": output,
            "usage": { "input_tokens": 1, "input_tokens_details": { "cached_tokens": 0 },
                "output_tokens": 1, "output_tokens_details": { "reasoning_tokens": 0 },
                "total_tokens": 2 } })
    };
    let mut stream = Stream {
        out: String::new(),
        sequence: 0,
    };
    stream.event(
        "response.created",
        json!({ "response": response("in_progress", json!([])) }),
    );
    let item = match &decision.reply {
        Reply::Call { tool, arguments } => function_call(&mut stream, made, tool, arguments),
        Reply::Text(said) => text(&mut stream, made, said),
    };
    stream.event(
        "response.output_item.done",
        json!({ "output_index": 0, "item": item }),
    );
    stream.event(
        "response.completed",
        json!({ "response": response("completed", json!([item])) }),
    );
    stream.out
}

/// The events of a call (its arguments in two parts, as a model streams
/// them); the item they make.
fn function_call(stream: &mut Stream, made: usize, tool: &str, arguments: &Value) -> Value {
    let arguments = arguments.to_string();
    let item_id = format!("fc_scripted_{made}");
    let item = |arguments: &str, status: &str| {
        json!({ "type": "function_call", "id": item_id, "call_id": call_id(made),
            "name": tool, "arguments": arguments, "status": status })
    };
    stream.event(
        "response.output_item.added",
        json!({ "output_index": 0, "item": item("", "in_progress") }),
    );
    for part in halves(&arguments) {
        stream.event(
            "response.function_call_arguments.delta",
            json!({ "item_id": item_id, "output_index": 0, "delta": part }),
        );
    }
    stream.event(
        "response.function_call_arguments.done",
        json!({ "item_id": item_id, "output_index": 0, "arguments": arguments }),
    );
    item(&arguments, "completed")
}

/// The events of a text answer; the message item they make.
fn text(stream: &mut Stream, made: usize, text: &str) -> Value {
    let item_id = format!("msg_scripted_{made}");
    let part = |text: &str| json!({ "type": "output_text", "text": text, "annotations": [] });
    let at = |key: &str, data: Value| {
        let mut place = json!({ "item_id": item_id, "output_index": 0, "content_index": 0 });
        place[key] = data;
        place
    };
    stream.event(
        "response.output_item.added",
        json!({ "output_index": 0, "item": { "type": "message", "id": item_id,
            "role": "assistant", "status": "in_progress", "content": [] } }),
    );
    stream.event("response.content_part.added", at("part", part("")));
    stream.event("response.output_text.delta", at("delta", Value::from(text)));
    stream.event("response.output_text.done", at("text", Value::from(text)));
    stream.event("response.content_part.done", at("part", part(text)));
    json!({ "type": "message", "id": item_id, "role": "assistant",
        "status": "completed", "content": [part(text)] })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::api::Turn;
    use crate::model::script::Script;
    use crate::model::turn::{DONE, SIDE_ANSWER};
    use plan_core::tools::UpdatePlan;

    fn answer(script: &Script, request: &Value) -> Turn {
        crate::model::api::answered_by(read, write, script, request)
    }

    fn request(calls: usize, tools: bool) -> Value {
        let mut input = vec![json!({ "type": "message", "role": "user",
            "content": [{ "type": "input_text", "text": "Fix the parser" }] })];
        for i in 0..calls {
            input.push(json!({ "type": "function_call", "name": "update_plan",
                "arguments": "{}", "call_id": format!("c{i}") }));
            input.push(
                json!({ "type": "function_call_output", "call_id": format!("c{i}"),
                "output": "Plan updated" }),
            );
        }
        let tools = if tools {
            json!([{ "type": "function", "name": "shell", "parameters": {} },
                { "type": "function", "name": "update_plan",
                  "parameters": plan_core::tools::UpdatePlan::definition().schema }])
        } else {
            json!([])
        };
        json!({ "model": "gpt-x", "stream": true, "input": input, "tools": tools })
    }

    /// The `response.output_item.done` item of a stream, and the events' names.
    fn done_item(stream: &str) -> (Value, Vec<String>) {
        let mut item = Value::Null;
        let mut names = Vec::new();
        for (i, e) in stream.split("\n\n").filter(|e| !e.is_empty()).enumerate() {
            let (name, data) = e.split_once("\ndata: ").unwrap();
            let data: Value = serde_json::from_str(data).unwrap();
            assert_eq!(data["sequence_number"], i);
            if data["type"] == "response.output_item.done" {
                item = data["item"].clone();
            }
            names.push(name.trim_start_matches("event: ").to_owned());
        }
        (item, names)
    }

    #[test]
    fn each_request_gets_the_scripts_next_call_then_the_turn_ends() {
        let script = Script::built_in();
        for made in 0..script.len() {
            let Turn {
                stream,
                summary,
                pause,
            } = answer(&script, &request(made, true));
            assert_eq!(pause, made > 0);
            assert_eq!(summary, format!("calls update_plan ({} of 3)", made + 1));
            let (item, names) = done_item(&stream);
            assert_eq!(item["name"], "update_plan");
            let read = UpdatePlan::read(item["arguments"].as_str().unwrap()).unwrap();
            let steps: Vec<(&str, &plan_core::Status)> = read
                .input
                .plan
                .iter()
                .map(|s| (s.step.as_str(), &s.status))
                .collect();
            let todos: Vec<(&str, &plan_core::Status)> = script
                .todo_write(made)
                .unwrap()
                .todos
                .iter()
                .map(|t| (t.content.as_str(), &t.status))
                .collect();
            assert_eq!(steps, todos);
            assert_eq!(names.last().unwrap(), "response.completed");
        }
        let (item, _) = done_item(&answer(&script, &request(script.len(), true)).stream);
        assert_eq!(item["type"], "message");
        assert_eq!(item["content"][0]["text"], DONE);
    }

    #[test]
    fn a_request_without_the_plan_tool_gets_a_short_text() {
        let (item, names) = done_item(&answer(&Script::built_in(), &request(0, false)).stream);
        assert_eq!(item["content"][0]["text"], SIDE_ANSWER);
        assert_eq!(
            names,
            [
                "response.created",
                "response.output_item.added",
                "response.content_part.added",
                "response.output_text.delta",
                "response.output_text.done",
                "response.content_part.done",
                "response.output_item.done",
                "response.completed"
            ]
        );
    }
}
