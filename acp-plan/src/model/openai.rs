//! The OpenAI Responses API, streamed, as codex calls it: a request's
//! `tools` offer `update_plan` (a function tool), its `input` holds the
//! calls made so far (`function_call` items), and the answer is the event
//! stream (`response.created`, `response.output_item.added`,
//! `response.function_call_arguments.delta`/`.done` or the text events,
//! `response.output_item.done`, `response.completed`).

use plan_core::tools::UpdatePlan;
use serde_json::{Value, json};

use super::{DONE, SIDE_ANSWER, Script, Turn, event, halves, offers};

/// How many `update_plan` calls `items` hold.
fn calls_made(items: &[Value]) -> usize {
    items
        .iter()
        .filter(|item| item["type"] == "function_call" && item["name"] == UpdatePlan::NAME)
        .count()
}

/// The input items of the turn under way: those after the user's last
/// message.
fn this_turn(items: &[Value]) -> &[Value] {
    let start = items
        .iter()
        .rposition(|item| item["type"] == "message" && item["role"] == "user")
        .map_or(0, |i| i + 1);
    &items[start..]
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

/// The turn's answer to `request`.
pub fn answer(script: &Script, request: &Value) -> Turn {
    let model = request["model"].as_str().unwrap_or("scripted-model");
    let items = request["input"].as_array().map_or(&[][..], Vec::as_slice);
    let offered = offers(request, UpdatePlan::NAME);
    // Each turn plays the script from its start; ids stay unique.
    let in_turn = calls_made(this_turn(items));
    let made = calls_made(items);
    let call = offered.then(|| script.update_plan(in_turn)).flatten();
    let said = match (&call, offered) {
        (Some(_), _) => format!(
            "calls {} ({} of {})",
            UpdatePlan::NAME,
            made + 1,
            script.len()
        ),
        (None, true) => "ends the turn".to_owned(),
        (None, false) => "answers a side request with text".to_owned(),
    };
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
    let item = match call {
        Some(steps) => function_call(&mut stream, made, &steps),
        None => text(&mut stream, made, if offered { DONE } else { SIDE_ANSWER }),
    };
    stream.event(
        "response.output_item.done",
        json!({ "output_index": 0, "item": item }),
    );
    stream.event(
        "response.completed",
        json!({ "response": response("completed", json!([item])) }),
    );
    Turn {
        stream: stream.out,
        said,
        pause: offered && in_turn > 0,
    }
}

/// The events of an `update_plan` call (its arguments in two parts, as a
/// model streams them); the item they make.
fn function_call(stream: &mut Stream, made: usize, steps: &UpdatePlan) -> Value {
    let arguments = steps.to_json().to_string();
    let item_id = format!("fc_scripted_{made}");
    let item = |arguments: &str, status: &str| {
        json!({ "type": "function_call", "id": item_id, "call_id": format!("call_scripted_{made}"),
            "name": UpdatePlan::NAME, "arguments": arguments, "status": status })
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
            json!([{ "type": "function", "name": "shell" }, { "type": "function", "name": "update_plan" }])
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
                said,
                pause,
            } = answer(&script, &request(made, true));
            assert_eq!(pause, made > 0);
            assert_eq!(said, format!("calls update_plan ({} of 3)", made + 1));
            let (item, names) = done_item(&stream);
            assert_eq!(item["name"], "update_plan");
            let read = UpdatePlan::read(item["arguments"].as_str().unwrap()).unwrap();
            assert_eq!(read.input, script.update_plan(made).unwrap());
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
