//! The Anthropic Messages API, streamed, as Claude Code calls it: a
//! request's `tools` offer `TodoWrite` (or, with its task tools on,
//! `TaskCreate` and `TaskUpdate`: [`tasks`]), its `messages`
//! hold the calls made so far, and the answer is the event stream (`message_start`,
//! `content_block_start`, `content_block_delta` with `input_json_delta` or
//! `text_delta`, `content_block_stop`, `message_delta` with its
//! `stop_reason`, `message_stop`).

use plan_core::tools::TodoWrite;
use serde_json::{Value, json};

use super::{DONE, SIDE_ANSWER, Script, Turn, event, halves, offers, tasks};

/// Claude Code's tool that loads a deferred tool (`TodoWrite` is one).
const TOOL_SEARCH: &str = "ToolSearch";

/// The messages of the turn under way: those after the user's last
/// prompt (a user message that carries no tool results).
fn this_turn(request: &Value) -> &[Value] {
    let messages = request["messages"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let results = |message: &Value| {
        message["content"]
            .as_array()
            .is_some_and(|blocks| blocks.iter().any(|b| b["type"] == "tool_result"))
    };
    let start = messages
        .iter()
        .rposition(|m| m["role"] == "user" && !results(m))
        .map_or(0, |i| i + 1);
    &messages[start..]
}

/// How many calls of `tool` `messages` hold.
fn calls_made(messages: &[Value], tool: &str) -> usize {
    messages
        .iter()
        .filter(|message| message["role"] == "assistant")
        .filter_map(|message| message["content"].as_array())
        .flatten()
        .filter(|block| block["type"] == "tool_use" && block["name"] == tool)
        .count()
}

/// How many plan tool calls (`TodoWrite`, `TaskCreate`, `TaskUpdate`)
/// `messages` hold.
fn plan_calls(messages: &[Value]) -> usize {
    [TodoWrite::NAME, tasks::CREATE, tasks::UPDATE]
        .iter()
        .map(|tool| calls_made(messages, tool))
        .sum()
}

/// The call the model makes next, as (tool, which of how many, arguments):
/// the script's next `TodoWrite`, or its next task call where the task
/// tools are offered instead; or, where Claude Code defers them behind
/// `ToolSearch` (as it does for its default model), first the search that
/// loads them; or none.
fn next_call(script: &Script, request: &Value) -> Option<(&'static str, String, Value)> {
    // Each turn plays the script from its start.
    let made = plan_calls(this_turn(request));
    let all = request["messages"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    if offers(request, TodoWrite::NAME) {
        return script.todo_write(made).map(|todos| {
            let which = format!("{} of {}", made + 1, script.len());
            (TodoWrite::NAME, which, todos.to_json())
        });
    }
    if offers(request, tasks::CREATE) && offers(request, tasks::UPDATE) {
        return tasks::call(script, made, all).map(|(tool, arguments)| {
            let which = format!("{} of {}", made + 1, tasks::len(script));
            (tool, which, arguments)
        });
    }
    // `select:` finds nothing if one name is missing: `TodoWrite` first,
    // then, when it is not there, the task tools.
    let query = match calls_made(all, TOOL_SEARCH) {
        0 => format!("select:{}", TodoWrite::NAME),
        1 => format!("select:{},{}", tasks::CREATE, tasks::UPDATE),
        _ => return None,
    };
    offers(request, TOOL_SEARCH).then(|| {
        (
            TOOL_SEARCH,
            "to load a plan tool".to_owned(),
            json!({ "query": query, "max_results": 5 }),
        )
    })
}

/// Whether this is the turn's conversation (it offers a plan tool or the
/// search that loads one), not a side request such as a title.
fn plans_here(request: &Value) -> bool {
    [TodoWrite::NAME, tasks::CREATE, TOOL_SEARCH]
        .iter()
        .any(|tool| offers(request, tool))
}

/// The turn's answer to `request`.
pub fn answer(script: &Script, request: &Value) -> Turn {
    let model = request["model"].as_str().unwrap_or("scripted-model");
    let all = request["messages"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    // Tool ids unique in the conversation.
    let made = plan_calls(all) + calls_made(all, TOOL_SEARCH);
    let pause = plans_here(request) && plan_calls(this_turn(request)) > 0;
    let call = next_call(script, request);
    let said = match &call {
        Some((tool, which, _)) => format!("calls {tool} ({which})"),
        None if plans_here(request) => "ends the turn".to_owned(),
        None => "answers a side request with text".to_owned(),
    };
    let mut out = String::new();
    event(
        &mut out,
        "message_start",
        &json!({ "type": "message_start", "message": {
            "id": format!("msg_scripted_{made}"), "type": "message", "role": "assistant",
            "model": model, "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": { "input_tokens": 1, "output_tokens": 1 } } }),
    );
    let stop_reason = match call {
        Some((tool, _, arguments)) => {
            let arguments = arguments.to_string();
            event(
                &mut out,
                "content_block_start",
                &json!({ "type": "content_block_start", "index": 0, "content_block": {
                    "type": "tool_use", "id": format!("toolu_scripted_{made}"),
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
        None => {
            let text = if plans_here(request) {
                DONE
            } else {
                SIDE_ANSWER
            };
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
    Turn {
        stream: out,
        said,
        pause,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            json!([{ "name": "Bash" }, { "name": "TodoWrite" }])
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
                said,
                pause,
            } = answer(&script, &request(made, true));
            assert_eq!(
                pause,
                made > 0,
                "a pause before each call but the turn's first"
            );
            assert_eq!(said, format!("calls TodoWrite ({} of 3)", made + 1));
            let read = TodoWrite::read(&arguments(&stream).unwrap().to_string()).unwrap();
            assert_eq!(&read.input, script.todo_write(made).unwrap());
            assert!(stream.contains(r#""stop_reason":"tool_use""#));
        }
        let Turn {
            stream: last, said, ..
        } = answer(&script, &request(script.len(), true));
        assert_eq!(said, "ends the turn");
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
        let searched = json!({ "role": "assistant",
            "content": [{ "type": "tool_use", "id": "s", "name": "ToolSearch", "input": {} }] });
        deferred["messages"]
            .as_array_mut()
            .unwrap()
            .push(searched.clone());
        let stream = answer(&script, &deferred).stream;
        assert_eq!(
            arguments(&stream).unwrap(),
            json!({ "query": "select:TaskCreate,TaskUpdate", "max_results": 5 })
        );
        deferred["messages"].as_array_mut().unwrap().push(searched);
        let stream = answer(&script, &deferred).stream;
        assert_eq!(arguments(&stream), None);
        assert!(stream.contains(DONE));
    }

    #[test]
    fn a_request_without_the_todo_tool_gets_a_short_text() {
        let Turn { stream, said, .. } = answer(&Script::built_in(), &request(0, false));
        assert_eq!(said, "answers a side request with text");
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
