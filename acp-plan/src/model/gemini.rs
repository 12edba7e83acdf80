//! The Gemini API, as Gemini CLI calls it
//! (`POST /v1beta/models/MODEL:streamGenerateContent?alt=sse`, and
//! `:generateContent` for side requests): a request's `tools`
//! (`functionDeclarations`, each `name` and `parametersJsonSchema` or
//! `parameters`), its `systemInstruction` and `contents` (a `functionCall`
//! part the call, a `functionResponse` part its result), read into a
//! [`Request`]. The answer is a `GenerateContentResponse` (`candidates`,
//! each a `content` of `parts` and a `finishReason`; `usageMetadata`):
//! streamed, one per server-sent event's `data:` line, with no end marker;
//! else one object. A side request whose `generationConfig.responseMimeType`
//! is `application/json` gets JSON of its `responseJsonSchema` (or
//! `responseSchema`).

use serde_json::{Value, json};

use super::api::{items, text_of};
use super::request::{PastCall, Request};
use super::turn::{Decision, Reply};

fn parts(content: &Value) -> &[Value] {
    items(&content["parts"])
}

fn parts_text(content: &Value) -> String {
    parts(content)
        .iter()
        .map(|p| text_of(&p["text"]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `request` read: its tools, its calls and their results (by id, or the
/// earliest unanswered call of that name where ids are left out), where
/// the turn under way starts (after the user's last text), its system
/// instruction, and whether it asks for JSON.
pub(crate) fn read(request: &Value) -> Request {
    let mut read = Request {
        tools: items(&request["tools"])
            .iter()
            .flat_map(|t| items(&t["functionDeclarations"]))
            .filter_map(|f| {
                let schema = match &f["parametersJsonSchema"] {
                    Value::Null => f["parameters"].clone(),
                    schema => schema.clone(),
                };
                Some((f["name"].as_str()?.to_owned(), schema))
            })
            .collect(),
        cue_text: parts_text(&request["systemInstruction"]),
        ..Request::default()
    };
    let config = &request["generationConfig"];
    if config["responseMimeType"] == "application/json" {
        let schema = match &config["responseJsonSchema"] {
            Value::Null => config["responseSchema"].clone(),
            schema => schema.clone(),
        };
        read.json = Some(schema);
    }
    let contents = items(&request["contents"]);
    let prompt = contents.iter().rposition(|c| {
        c["role"] != "model"
            && parts(c).iter().any(|p| p["text"].is_string())
            && !parts(c).iter().any(|p| p["functionResponse"].is_object())
    });
    for (i, content) in contents.iter().enumerate() {
        if Some(i) == prompt {
            read.turn_start = read.calls.len();
        }
        if prompt.is_some_and(|p| i >= p) {
            read.cue_text.push('\n');
            read.cue_text.push_str(&parts_text(content));
        }
        for part in parts(content) {
            let call = &part["functionCall"];
            if call.is_object() {
                let id = match call["id"].as_str() {
                    Some(id) => id.to_owned(),
                    None => call_id(read.calls.len()),
                };
                read.calls.push(PastCall {
                    name: text_of(&call["name"]),
                    id,
                    arguments: call["args"].clone(),
                    result: None,
                    failed: false,
                });
            }
            let response = &part["functionResponse"];
            if response.is_object() {
                let answered = read.calls.iter_mut().find(|c| {
                    c.result.is_none()
                        && match response["id"].as_str() {
                            Some(id) => c.id == id,
                            None => c.name == response["name"],
                        }
                });
                if let Some(call) = answered {
                    call.result = Some(response["response"].to_string());
                }
            }
        }
    }
    read
}

/// The id of the call numbered `number`.
pub(crate) fn call_id(number: usize) -> String {
    format!("call_scripted_{number}")
}

/// What says `decision`: as one server-sent event when `streamed`, else
/// the one response object.
pub(crate) fn write(decision: &Decision, model: &str, streamed: bool) -> String {
    let part = match &decision.reply {
        Reply::Call { tool, arguments } => json!({ "functionCall": {
            "id": call_id(decision.number), "name": tool, "args": arguments } }),
        Reply::Text(text) => json!({ "text": text }),
    };
    let response = json!({
        "candidates": [{ "content": { "role": "model", "parts": [part] },
            "finishReason": "STOP", "index": 0 }],
        "usageMetadata": { "promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2 },
        "modelVersion": model,
        "responseId": format!("scripted-{}", decision.number),
    });
    if streamed {
        format!("data: {response}\n\n")
    } else {
        response.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Script;
    use crate::model::turn::decide;

    fn request(contents: &Value) -> Value {
        json!({ "contents": contents,
            "systemInstruction": { "parts": [{ "text": "You are Gemini CLI" }] },
            "tools": [{ "functionDeclarations": [
                { "name": "read_file", "parametersJsonSchema": { "type": "object" } },
                { "name": "write_todos", "parametersJsonSchema": { "type": "object",
                    "properties": { "todos": { "type": "array", "items": { "type": "object",
                        "required": ["description", "status"], "properties": {
                        "description": { "type": "string" },
                        "status": { "type": "string",
                            "enum": ["pending", "in_progress", "completed", "cancelled", "blocked"] } } } } } } }] }] })
    }

    #[test]
    fn the_agents_todo_tool_is_called_and_its_response_read_back_with_or_without_ids() {
        let script = Script::built_in();
        let prompt = json!({ "role": "user", "parts": [{ "text": "Fix it" }] });
        let first = request(&json!([prompt]));
        let decision = decide(&script, &read(&first));
        let event = write(&decision, "gemini-2.5-pro", true);
        let data: Value =
            serde_json::from_str(event.strip_prefix("data: ").unwrap().trim_end()).unwrap();
        let call = &data["candidates"][0]["content"]["parts"][0]["functionCall"];
        assert_eq!(call["name"], "write_todos");
        assert_eq!(
            call["args"]["todos"][0],
            json!({ "description": "Read the failing test", "status": "in_progress" })
        );
        for id in [Some("call_scripted_0"), None] {
            let mut call = call.clone();
            let mut response = json!({ "name": "write_todos", "response": { "output": "ok" } });
            if let Some(id) = id {
                response["id"] = Value::from(id);
            } else {
                call.as_object_mut().unwrap().remove("id");
            }
            let next = request(&json!([prompt,
                { "role": "model", "parts": [{ "functionCall": call }] },
                { "role": "user", "parts": [{ "functionResponse": response }] }]));
            let read = read(&next);
            assert_eq!(read.calls[0].id, "call_scripted_0");
            assert!(read.calls[0].result.is_some(), "{id:?}");
            assert_eq!(decide(&script, &read).summary, "calls write_todos (2 of 3)");
        }
    }

    #[test]
    fn a_side_request_for_json_gets_json_of_its_schema_in_one_object() {
        let side = json!({ "contents": [{ "role": "user", "parts": [{ "text": "who next?" }] }],
            "generationConfig": { "responseMimeType": "application/json", "responseJsonSchema": {
                "type": "object", "properties": { "next_speaker": { "type": "string", "enum": ["user", "model"] } } } } });
        let decision = decide(&Script::built_in(), &read(&side));
        let body: Value = serde_json::from_str(&write(&decision, "m", false)).unwrap();
        let text = body["candidates"][0]["content"]["parts"][0]["text"]
            .as_str()
            .unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(text).unwrap()["next_speaker"],
            "user"
        );
    }
}
