//! An ACP agent nobody has heard of, for `check --scripted-model`'s tests
//! (`tests/check_scripted_model.rs`): it asks its model through the OpenAI
//! Chat Completions API at `$OPENAI_BASE_URL` (plain HTTP, not streamed),
//! offers it a plan tool of a name and shape of its own, `track_steps`
//! (`{items: [{label, state, rank}]}`, states `TODO`, `Doing`, `Done`), runs
//! each call it makes, and sends the client each list as a v1 `plan`.
//!
//! Its first argument changes what it does:
//! - `plans` (the default): as above;
//! - `silent`: runs the calls but sends the client no plan;
//! - `no-plan-tool`: offers its model only `read_file`.

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;

use serde_json::{Value, json};

fn main() {
    let mode = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "plans".to_owned());
    let base = std::env::var("OPENAI_BASE_URL").unwrap_or_default();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = message["id"].clone();
        let result = match message["method"].as_str() {
            Some("initialize") => {
                json!({ "protocolVersion": 1, "agentCapabilities": {}, "authMethods": [] })
            }
            Some("session/new") => json!({ "sessionId": "tool-agent" }),
            Some("session/prompt") => {
                let prompt = message["params"]["prompt"][0]["text"].clone();
                match turn(&base, &mode, &prompt, &mut out) {
                    Ok(()) => json!({ "stopReason": "end_turn" }),
                    Err(e) => {
                        send(
                            &mut out,
                            &json!({ "jsonrpc": "2.0", "id": id,
                            "error": { "code": -32603, "message": e } }),
                        );
                        continue;
                    }
                }
            }
            _ => continue,
        };
        send(
            &mut out,
            &json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        );
    }
}

fn send(out: &mut impl Write, message: &Value) {
    let _ = writeln!(out, "{message}");
    let _ = out.flush();
}

fn tools(mode: &str) -> Value {
    let read_file = json!({ "type": "function", "function": { "name": "read_file",
        "parameters": { "type": "object", "properties": { "path": { "type": "string" } } } } });
    if mode == "no-plan-tool" {
        return json!([read_file]);
    }
    json!([read_file, { "type": "function", "function": { "name": "track_steps", "parameters": {
        "type": "object", "required": ["items"], "properties": { "items": { "type": "array",
            "items": { "type": "object", "required": ["label", "state", "rank"], "properties": {
                "label": { "type": "string" },
                "state": { "type": "string", "enum": ["TODO", "Doing", "Done"] },
                "rank": { "type": "integer" } } } } } } } }])
}

/// One turn: asks the model until it answers with text, running each call.
fn turn(base: &str, mode: &str, prompt: &Value, out: &mut impl Write) -> Result<(), String> {
    let mut messages = vec![json!({ "role": "user", "content": prompt })];
    for _ in 0..20 {
        let request =
            json!({ "model": "any", "stream": false, "messages": messages, "tools": tools(mode) });
        let answer = post(base, "/chat/completions", &request)?;
        let message = answer["choices"][0]["message"].clone();
        let calls = message["tool_calls"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        messages.push(message);
        if calls.is_empty() {
            return Ok(());
        }
        for call in calls {
            let arguments: Value =
                serde_json::from_str(call["function"]["arguments"].as_str().unwrap_or("{}"))
                    .map_err(|e| e.to_string())?;
            if call["function"]["name"] == "track_steps" && mode == "plans" {
                let entries: Vec<Value> = arguments["items"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .map(|item| {
                        let status = match item["state"].as_str() {
                            Some("Doing") => "in_progress",
                            Some("Done") => "completed",
                            _ => "pending",
                        };
                        json!({ "content": item["label"], "priority": "medium", "status": status })
                    })
                    .collect();
                send(
                    out,
                    &json!({ "jsonrpc": "2.0", "method": "session/update", "params": {
                    "sessionId": "tool-agent", "update": { "sessionUpdate": "plan", "entries": entries } } }),
                );
            }
            messages.push(json!({ "role": "tool", "tool_call_id": call["id"], "content": "done" }));
        }
    }
    Err("the model never ended the turn".to_owned())
}

/// A POST of JSON to `base` + `path` (`http://HOST:PORT/...`), its answer.
fn post(base: &str, path: &str, body: &Value) -> Result<Value, String> {
    let rest = base
        .strip_prefix("http://")
        .ok_or("OPENAI_BASE_URL is not http://")?;
    let (host, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream = TcpStream::connect(host).map_err(|e| e.to_string())?;
    let body = body.to_string();
    write!(
        stream,
        "POST /{prefix}{path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| e.to_string())?;
    let mut reply = String::new();
    stream
        .read_to_string(&mut reply)
        .map_err(|e| e.to_string())?;
    let (_, json) = reply.split_once("\r\n\r\n").ok_or("no HTTP body")?;
    serde_json::from_str(json).map_err(|e| format!("{e}: {json}"))
}
