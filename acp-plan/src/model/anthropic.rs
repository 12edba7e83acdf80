//! The Anthropic Messages API, streamed, as Claude Code calls it
//! (`POST /v1/messages`; some agents post to `/messages`): a request's
//! `tools` (each `name` and `input_schema`), its `system` and `messages`
//! (`tool_use` blocks the calls, `tool_result` blocks their results), read
//! into a [`Request`]; the answer is the event stream (`message_start`,
//! `content_block_start`, `content_block_delta` with `input_json_delta` or
//! `text_delta`, `content_block_stop`, `message_delta` with its
//! `stop_reason`, `message_stop`).

use serde_json::{Value, json};

use super::api::{event, halves, items, named_tools, text_of};
use super::request::{PastCall, Request};
use super::turn::{Decision, Reply};

/// The text of a block list or a string.
fn blocks_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .map(|b| match &b["content"] {
                Value::Null => text_of(&b["text"]),
                inner => blocks_text(inner),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// `request` read: its tools, its calls and their results, where the turn
/// under way starts (after the user's last prompt: a user message that
/// carries no tool results), and its instructions.
pub(crate) fn read(request: &Value) -> Request {
    let mut read = Request {
        tools: named_tools(items(&request["tools"]), "input_schema"),
        cue_text: blocks_text(&request["system"]),
        ..Request::default()
    };
    let messages = items(&request["messages"]);
    let results = |m: &Value| {
        m["content"]
            .as_array()
            .is_some_and(|blocks| blocks.iter().any(|b| b["type"] == "tool_result"))
    };
    let prompt = messages
        .iter()
        .rposition(|m| m["role"] == "user" && !results(m));
    for (i, message) in messages.iter().enumerate() {
        if Some(i) == prompt {
            read.turn_start = read.calls.len();
        }
        if prompt.is_some_and(|p| i >= p) {
            read.cue_text.push('\n');
            read.cue_text.push_str(&blocks_text(&message["content"]));
        }
        for block in items(&message["content"]) {
            if block["type"] == "tool_use" {
                read.calls.push(PastCall {
                    name: text_of(&block["name"]),
                    id: text_of(&block["id"]),
                    arguments: block["input"].clone(),
                    result: None,
                    failed: false,
                });
            } else if block["type"] == "tool_result"
                && let Some(call) = read.calls.iter_mut().find(|c| c.id == block["tool_use_id"])
            {
                call.result = Some(blocks_text(&block["content"]));
                call.failed = block["is_error"] == true;
            }
        }
    }
    read
}

/// The id of the call numbered `number`.
pub(crate) fn call_id(number: usize) -> String {
    format!("toolu_scripted_{number}")
}

/// The event stream that says `decision`, for `request`.
pub(crate) fn write(request: &Value, decision: &Decision) -> String {
    let model = request["model"].as_str().unwrap_or("scripted-model");
    let mut out = String::new();
    event(
        &mut out,
        "message_start",
        &json!({ "type": "message_start", "message": {
            "id": format!("msg_scripted_{}", decision.number), "type": "message", "role": "assistant",
            "model": model, "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": { "input_tokens": 1, "output_tokens": 1 } } }),
    );
    let stop_reason = match &decision.reply {
        Reply::Call { tool, arguments } => {
            let arguments = arguments.to_string();
            event(
                &mut out,
                "content_block_start",
                &json!({ "type": "content_block_start", "index": 0, "content_block": {
                    "type": "tool_use", "id": call_id(decision.number),
                    "name": tool, "input": {} } }),
            );
            for part in halves(&arguments) {
                event(
                    &mut out,
                    "content_block_delta",
                    &json!({ "type": "content_block_delta", "index": 0,
                        "delta": { "type": "input_json_delta", "partial_json": part } }),
                );
            }
            "tool_use"
        }
        Reply::Text(text) => {
            event(
                &mut out,
                "content_block_start",
                &json!({ "type": "content_block_start", "index": 0,
                    "content_block": { "type": "text", "text": "" } }),
            );
            event(
                &mut out,
                "content_block_delta",
                &json!({ "type": "content_block_delta", "index": 0,
                    "delta": { "type": "text_delta", "text": text } }),
            );
            "end_turn"
        }
    };
    event(
        &mut out,
        "content_block_stop",
        &json!({ "type": "content_block_stop", "index": 0 }),
    );
    event(
        &mut out,
        "message_delta",
        &json!({ "type": "message_delta",
            "delta": { "stop_reason": stop_reason, "stop_sequence": null },
            "usage": { "output_tokens": 1 } }),
    );
    event(&mut out, "message_stop", &json!({ "type": "message_stop" }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::api::Turn;
    use crate::model::script::Script;
    use crate::model::turn::{DONE, SIDE_ANSWER};
    use plan_core::tools::TodoWrite;

    fn answer(script: &Script, request: &Value) -> Turn {
        crate::model::api::answered_by(read, write, script, request)
    }

    /// The events of a stream, as (name, data).
    fn events(stream: &str) -> Vec<(String, Value)> {
        stream
            .split("\n\n")
            .filter(|e| !e.is_empty())
            .map(|e| {
                let (name, data) = e.split_once("\ndata: ").unwrap();
                (
                    name.trim_start_matches("event: ").to_owned(),
                    serde_json::from_str(data).unwrap(),
                )
            })
            .collect()
    }

    /// The arguments a stream calls `TodoWrite` with, joined from its parts.
    fn arguments(stream: &str) -> Option<Value> {
        let parts: String = events(stream)
            .iter()
            .filter_map(|(_, data)| data["delta"]["partial_json"].as_str().map(str::to_owned))
            .collect();
        (!parts.is_empty()).then(|| serde_json::from_str(&parts).unwrap())
    }

    fn request(assistant_calls: usize, tools: bool) -> Value {
        let mut messages = vec![json!({ "role": "user", "content": "Fix the parser" })];
        for i in 0..assistant_calls {
            messages.push(json!({ "role": "assistant", "content": [
                { "type": "tool_use", "id": format!("t{i}"), "name": "TodoWrite", "input": {} } ] }));
            messages.push(json!({ "role": "user", "content": [
                { "type": "tool_result", "tool_use_id": format!("t{i}"), "content": "ok" } ] }));
        }
        let tools = if tools {
            json!([{ "name": "Bash", "input_schema": {} },
                { "name": "TodoWrite", "input_schema": plan_core::tools::TodoWrite::definition().schema }])
        } else {
            json!([])
        };
        json!({ "model": "claude-x", "stream": true, "messages": messages, "tools": tools })
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
            assert_eq!(
                pause,
                made > 0,
                "a pause before each call but the turn's first"
            );
            assert_eq!(summary, format!("calls TodoWrite ({} of 3)", made + 1));
            let read = TodoWrite::read(&arguments(&stream).unwrap().to_string()).unwrap();
            assert_eq!(&read.input, script.todo_write(made).unwrap());
            assert!(stream.contains(r#""stop_reason":"tool_use""#));
        }
        let Turn {
            stream: last,
            summary,
            ..
        } = answer(&script, &request(script.len(), true));
        assert_eq!(summary, "ends the turn");
        assert_eq!(arguments(&last), None);
        assert!(last.contains(r#""stop_reason":"end_turn""#));
        assert!(last.contains(DONE));
    }

    #[test]
    fn a_new_prompt_plays_the_script_again() {
        let script = Script::built_in();
        let mut next_turn = request(script.len(), true);
        next_turn["messages"]
            .as_array_mut()
            .unwrap()
            .push(json!({ "role": "user", "content": "Again" }));
        let turn = answer(&script, &next_turn);
        let read = TodoWrite::read(&arguments(&turn.stream).unwrap().to_string()).unwrap();
        assert_eq!(&read.input, script.todo_write(0).unwrap());
        assert!(!turn.pause);
        // Its tool id is new in the conversation.
        assert!(turn.stream.contains("toolu_scripted_3"), "{}", turn.stream);
    }

    #[test]
    fn where_todo_write_is_deferred_the_model_first_loads_it_with_tool_search() {
        let script = Script::built_in();
        let mut deferred = request(0, false);
        deferred["tools"] = json!([{ "name": "Bash" }, { "name": "ToolSearch" }]);
        let stream = answer(&script, &deferred).stream;
        assert!(stream.contains(r#""name":"ToolSearch""#), "{stream}");
        assert_eq!(
            arguments(&stream).unwrap(),
            json!({ "query": "select:TodoWrite", "max_results": 5 })
        );
        // Not found: then the task tools; not found either: the turn ends.
        let searched = |query: &str| {
            json!({ "role": "assistant", "content": [{ "type": "tool_use", "id": query,
                "name": "ToolSearch", "input": { "query": query } }] })
        };
        deferred["messages"]
            .as_array_mut()
            .unwrap()
            .push(searched("select:TodoWrite"));
        let stream = answer(&script, &deferred).stream;
        assert_eq!(
            arguments(&stream).unwrap(),
            json!({ "query": "select:TaskCreate,TaskUpdate", "max_results": 5 })
        );
        deferred["messages"]
            .as_array_mut()
            .unwrap()
            .push(searched("select:TaskCreate,TaskUpdate"));
        let stream = answer(&script, &deferred).stream;
        assert_eq!(arguments(&stream), None);
        assert!(stream.contains(DONE));
    }

    #[test]
    fn a_result_marked_as_an_error_is_a_call_not_carried_out() {
        let mut request = request(2, true);
        // Claude Code's result for a call a cancel stopped.
        request["messages"][4]["content"][0] = json!({ "type": "tool_result", "tool_use_id": "t1",
            "content": "[Request interrupted by user for tool use]", "is_error": true });
        let read = read(&request);
        assert_eq!(read.calls.len(), 2);
        assert!(!read.calls[0].failed);
        assert_eq!(read.calls[0].result.as_deref(), Some("ok"));
        assert!(read.calls[1].failed);
    }

    #[test]
    fn a_request_without_the_todo_tool_gets_a_short_text() {
        let Turn {
            stream, summary, ..
        } = answer(&Script::built_in(), &request(0, false));
        assert_eq!(summary, "answers a side request with text");
        assert_eq!(arguments(&stream), None);
        assert!(stream.contains(SIDE_ANSWER));
        let names: Vec<String> = events(&stream).into_iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );
    }
}
