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
//! - `no-plan-tool`: offers its model only `read_file`;
//! - `pydantic`: its plan tool is `todos`, its schema as pydantic writes
//!   it (`$ref`s into `$defs`, the list `anyOf` with `null`, a required
//!   `action` of `read` or `write`): only `write` changes the plan;
//! - `exit-plan-mode`: it also offers an `ExitPlanMode` of its own, which
//!   takes `options` (a list of words) and refuses anything else;
//! - `sql`: its todos are rows the model writes through a `sql` tool (no
//!   list in its input); it sends no plan `check` could hold to a script;
//! - `tool-calls`: as `plans`, but each call reaches the client only as a
//!   `tool_call` and a `tool_call_update` whose `rawInput` is its
//!   arguments (as opencode's `todowrite` does): no plan of its own;
//! - `own-before`, `own-after`, `own-later`: as `tool-calls`, and the list
//!   as a v1 `plan` of its own too: before the tool call, right after its
//!   `rawInput` (as kimi-code and mistral-vibe do), or after a message
//!   chunk that follows it;
//! - `markdown FILE...`: asks no model; each turn sends each file's text
//!   as a markdown `plan_update` (id `plan-mode`), in order, to a client
//!   that advertised `clientCapabilities.plan`, and nothing to one that
//!   did not (as claude-agent-acp and codex-acp do in plan mode).
//!
//! Its second argument says where it finds its model:
//! - `openai` (the default): `$OPENAI_BASE_URL`;
//! - `custom-env`: `$TOOL_AGENT_ENDPOINT`, a variable of its own;
//! - `toml`: `base_url` in `$HOME/.tool-agent/config.toml`;
//! - `hosted`: nowhere it can be told: its hosted default.
//!
//! Where it finds none, it falls back to its hosted default
//! (`https://api.tool-agent.invalid`), through `$HTTPS_PROXY` where one is
//! set, which fails; it then ends the turn `end_turn` with the words
//! "API call failed after 3 retries: Connection error.", as agents do.

use std::io::{BufRead, Read, Write};
use std::net::TcpStream;

use serde_json::{Value, json};

fn main() {
    let mode = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "plans".to_owned());
    let source = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "openai".to_owned());
    let base = model_address(&source);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut plan_capability = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let id = message["id"].clone();
        let result = match message["method"].as_str() {
            Some("initialize") => {
                plan_capability = message["params"]["clientCapabilities"]["plan"].is_object();
                json!({ "protocolVersion": 1, "agentCapabilities": {}, "authMethods": [] })
            }
            Some("session/prompt") if mode == "markdown" => {
                for path in std::env::args().skip(2).filter(|_| plan_capability) {
                    let content = std::fs::read_to_string(&path).unwrap_or_default();
                    send(
                        &mut out,
                        &json!({ "jsonrpc": "2.0", "method": "session/update", "params": {
                        "sessionId": "tool-agent", "update": { "sessionUpdate": "plan_update",
                        "plan": { "type": "markdown", "planId": "plan-mode", "content": content } } } }),
                    );
                }
                json!({ "stopReason": "end_turn" })
            }
            Some("session/new") => json!({ "sessionId": "tool-agent" }),
            Some("session/prompt") => {
                let prompt = message["params"]["prompt"][0]["text"].clone();
                let outcome = match &base {
                    Some(base) => turn(base, &mode, &prompt, &mut out),
                    None => Err(hosted()),
                };
                match outcome {
                    Ok(()) => json!({ "stopReason": "end_turn" }),
                    // The model was not reached: said as a message, and
                    // the turn ends as if all were well (as agents do).
                    Err(e) if e.starts_with(FAILED) => {
                        send(
                            &mut out,
                            &json!({ "jsonrpc": "2.0", "method": "session/update", "params": {
                            "sessionId": "tool-agent", "update": { "sessionUpdate": "agent_message_chunk",
                            "content": { "type": "text", "text": e } } } }),
                        );
                        json!({ "stopReason": "end_turn" })
                    }
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

/// The `pydantic` mode's plan tool's schema.
const PYDANTIC_TODOS: &str = include_str!("schemas/pydantic-todos.json");

/// What it says when its model cannot be reached.
const FAILED: &str = "API call failed after 3 retries: Connection error.";

/// Where its model is, as `source` says to look; `None` when nowhere (its
/// hosted default, then).
fn model_address(source: &str) -> Option<String> {
    let set = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    match source {
        "custom-env" => set("TOOL_AGENT_ENDPOINT"),
        "toml" => {
            let home = set("HOME")?;
            let text = std::fs::read_to_string(format!("{home}/.tool-agent/config.toml")).ok()?;
            text.lines().find_map(|line| {
                let (key, value) = line.split_once('=')?;
                (key.trim() == "base_url").then(|| value.trim().trim_matches('"').to_owned())
            })
        }
        "hosted" => None,
        _ => set("OPENAI_BASE_URL"),
    }
}

/// Its hosted default, tried: through `$HTTPS_PROXY` where one is set (a
/// CONNECT the proxy must answer), else the host itself; both fail here.
fn hosted() -> String {
    let proxy = std::env::var("HTTPS_PROXY").unwrap_or_default();
    let reached = match proxy.strip_prefix("http://") {
        Some(address) => TcpStream::connect(address.trim_end_matches('/')).is_ok(),
        None => TcpStream::connect("api.tool-agent.invalid:443").is_ok(),
    };
    // Even a proxy that answers gets nothing: this agent has no real model.
    let _ = reached;
    FAILED.to_owned()
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
    let function = |name: &str, description: &str, parameters: Value| {
        json!({ "type": "function", "function": { "name": name, "description": description,
            "parameters": parameters } })
    };
    match mode {
        "pydantic" => {
            // As pydantic writes it (`tests/common/schemas/pydantic-todos.json`).
            let schema: Value = serde_json::from_str(PYDANTIC_TODOS).unwrap_or(Value::Null);
            return json!([
                read_file,
                function("todos", "Read or write the todo list.", schema)
            ]);
        }
        "sql" => {
            return json!([
                read_file,
                function(
                    "sql",
                    "Run SQL against the session database. Your todo list is the table todos(id TEXT, title TEXT, status TEXT): keep it current with INSERT and UPDATE as you plan.",
                    json!({ "type": "object", "required": ["query"],
                    "properties": { "query": { "type": "string" } } })
                )
            ]);
        }
        _ => {}
    }
    let exit_plan_mode = function(
        "ExitPlanMode",
        "Leave plan mode, offering the user these options.",
        json!({ "type": "object", "required": ["options"], "additionalProperties": false,
            "properties": { "options": { "type": "array", "items": { "type": "string" } } } }),
    );
    let mut offered = vec![read_file];
    if mode == "exit-plan-mode" {
        offered.push(exit_plan_mode);
    }
    offered.push(
        json!({ "type": "function", "function": { "name": "track_steps", "parameters": {
        "type": "object", "required": ["items"], "properties": { "items": { "type": "array",
            "items": { "type": "object", "required": ["label", "state", "rank"], "properties": {
                "label": { "type": "string" },
                "state": { "type": "string", "enum": ["TODO", "Doing", "Done"] },
                "rank": { "type": "integer" } } } } } } } }),
    );
    Value::Array(offered)
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
            let name = call["function"]["name"].as_str().unwrap_or_default();
            let result = run_call(name, &arguments, mode, out);
            messages.push(json!({ "role": "tool", "tool_call_id": call["id"], "content": result }));
        }
    }
    Err("the model never ended the turn".to_owned())
}

/// Runs one call of the model's; the text of its result.
fn run_call(name: &str, arguments: &Value, mode: &str, out: &mut impl Write) -> String {
    let send_plan = |out: &mut dyn Write, entries: Vec<Value>| {
        let line = json!({ "jsonrpc": "2.0", "method": "session/update", "params": {
            "sessionId": "tool-agent", "update": { "sessionUpdate": "plan", "entries": entries } } });
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let entry = |content: &Value, status: &str| json!({ "content": content, "priority": "medium", "status": status });
    match name {
        "ExitPlanMode" if arguments.get("options").is_none_or(|o| !o.is_array()) => {
            "error: ExitPlanMode takes `options`, a list of words".to_owned()
        }
        "todos" if mode == "pydantic" => {
            if arguments["action"] != "write" {
                return "the todo list, unchanged".to_owned();
            }
            let entries = arguments["todos"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .map(|todo| {
                    let status = match todo["status"].as_str() {
                        Some("cancelled") => "completed",
                        Some(other) => other,
                        None => "pending",
                    };
                    entry(&todo["content"], status)
                })
                .collect();
            send_plan(out, entries);
            "the todo list is written".to_owned()
        }
        "track_steps" if TOOL_CALL_MODES.contains(&mode) => {
            let call = |update: Value| {
                json!({ "jsonrpc": "2.0", "method": "session/update", "params": {
                    "sessionId": "tool-agent", "update": update } })
            };
            let id = format!("call-{}", arguments.to_string().len());
            let own = (mode != "tool-calls").then(|| {
                call(json!({ "sessionUpdate": "plan", "entries": track_steps_entries(arguments) }))
            });
            let chunk = call(json!({ "sessionUpdate": "agent_message_chunk",
                "content": { "type": "text", "text": "Updated the steps." } }));
            let mut lines = vec![
                call(json!({ "sessionUpdate": "tool_call", "toolCallId": id,
                    "title": "track_steps", "kind": "other", "status": "pending" })),
                call(
                    json!({ "sessionUpdate": "tool_call_update", "toolCallId": id,
                    "status": "completed", "rawInput": arguments }),
                ),
            ];
            match (mode, own) {
                ("own-before", Some(own)) => lines.insert(0, own),
                ("own-after", Some(own)) => lines.extend([own, chunk]),
                ("own-later", Some(own)) => lines.extend([chunk, own]),
                _ => lines.push(chunk),
            }
            for line in lines {
                let _ = writeln!(out, "{line}");
            }
            let _ = out.flush();
            "done".to_owned()
        }
        "track_steps" if mode == "plans" || mode == "exit-plan-mode" => {
            send_plan(out, track_steps_entries(arguments));
            "done".to_owned()
        }
        _ => "done".to_owned(),
    }
}

/// The modes whose `track_steps` calls reach the client as tool calls.
const TOOL_CALL_MODES: [&str; 4] = ["tool-calls", "own-before", "own-after", "own-later"];

/// A `track_steps` call's items as v1 entries.
fn track_steps_entries(arguments: &Value) -> Vec<Value> {
    arguments["items"]
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
        .collect()
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
