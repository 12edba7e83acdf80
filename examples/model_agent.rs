//! An ACP agent whose model is a recorded script of tool calls (no network):
//! each plan tool call the model makes becomes a plan through
//! `plan_core::tools::ModelPlans`, which sends every kind of client what it
//! reads and skips a plan sent unchanged. A call the model got wrong is
//! answered with the error written for it (here, logged), and the script's
//! next call is the model's second try. The plan file the model writes in
//! plan mode is sent as a markdown plan with its absolute `path`.
//!
//! ```text
//! cargo run -p acp-plan -- board -- cargo run -q -p plan-examples --example model_agent
//! ```
//!
//! The script is `examples/data/model-script.ndjson`. One JSON-RPC message
//! per line on standard input and output; logs on standard error. A line
//! that is not a request gets a JSON-RPC error and the agent keeps serving.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::time::Duration;

use plan_core::agent::{InitializeRequest, PlanSender};
use plan_core::tools::{ModelPlans, Scope, ToolOutcome};
use plan_core::wire::{Message, ProtocolVersion};
use serde_json::{Value, json};

/// What the model does, a line each.
const SCRIPT: &str = include_str!("data/model-script.ndjson");

/// The pause between two of the model's steps, so a board draws them live.
const PAUSE: Duration = Duration::from_millis(250);

fn main() {
    let mut out = io::stdout().lock();
    let mut client: Option<InitializeRequest> = None;
    let mut sessions: Vec<ModelPlans> = Vec::new();
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let reply = match request(&line) {
            Ok((id, method, params)) => match (method.as_str(), &client) {
                ("initialize", _) => match InitializeRequest::from_value(params) {
                    Ok(init) => {
                        let result = initialized(init.negotiated(ProtocolVersion::LATEST));
                        client = Some(init);
                        answer(&id, &result)
                    }
                    Err(e) => error(&id, -32602, &e.to_string()),
                },
                ("session/new", Some(init)) => {
                    let id_text = format!("sess_{}", sessions.len() + 1);
                    sessions.push(ModelPlans::new(PlanSender::for_client(
                        id_text.clone(),
                        init,
                        ProtocolVersion::LATEST,
                    )));
                    answer(&id, &json!({ "sessionId": id_text }))
                }
                ("session/prompt", Some(init)) => {
                    let found = sessions
                        .iter_mut()
                        .find(|s| params["sessionId"] == s.sender().session().as_str());
                    match found {
                        Some(plans) => turn(
                            &mut out,
                            &id,
                            plans,
                            init.negotiated(ProtocolVersion::LATEST),
                        ),
                        None => error(&id, -32602, "unknown session"),
                    }
                }
                (_, None) => error(&id, -32600, "initialize first"),
                (method, Some(_)) => error(&id, -32601, &format!("`{method}` is not served")),
            },
            Err(None) => continue, // a notification (`session/cancel`, ...): nothing to answer
            Err(Some(reply)) => reply,
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break; // the client went away
        }
    }
}

/// A request's id, method and params; `Err(None)` for a notification or a
/// response, `Err(Some(reply))` for a line that is neither (its error).
fn request(line: &str) -> Result<(Value, String, Value), Option<Value>> {
    let read = Message::read(line);
    let value =
        |raw: &serde_json::value::RawValue| serde_json::from_str(raw.get()).unwrap_or(Value::Null);
    if let Some(problem) = read.problems.first() {
        let code = if serde_json::from_str::<Value>(line).is_err() {
            -32700
        } else {
            -32600
        };
        return Err(Some(error(
            &read.id.map_or(Value::Null, value),
            code,
            &problem.to_string(),
        )));
    }
    match read.message {
        Some(Message::Request {
            id, method, params, ..
        }) => Ok((
            value(id),
            method.into_owned(),
            params.map_or(Value::Null, value),
        )),
        _ => Err(None),
    }
}

fn initialized(protocol: ProtocolVersion) -> Value {
    let info = json!({ "name": "plan-core-model-agent", "version": env!("CARGO_PKG_VERSION") });
    match protocol {
        ProtocolVersion::V1 => {
            json!({ "protocolVersion": 1, "agentCapabilities": {}, "authMethods": [], "agentInfo": info })
        }
        ProtocolVersion::V2 => {
            json!({ "protocolVersion": 2, "info": info, "capabilities": { "session": {} } })
        }
    }
}

/// One turn: the script played through, each plan message written as it
/// comes; then the turn's end (v1: the prompt's answer; v2: `idle`).
fn turn(
    out: &mut impl Write,
    id: &Value,
    plans: &mut ModelPlans,
    protocol: ProtocolVersion,
) -> Value {
    let session = plans.sender().session().as_str().to_owned();
    let update = |kind: &str, mut fields: Value| {
        fields["sessionUpdate"] = json!(kind);
        json!({ "jsonrpc": "2.0", "method": "session/update", "params": { "sessionId": session, "update": fields } })
    };
    if protocol == ProtocolVersion::V2 {
        let _ = writeln!(out, "{}", answer(id, &json!({ "messageId": "msg_1" })));
        let _ = writeln!(
            out,
            "{}",
            update("state_update", json!({ "state": "running" }))
        );
    }
    let folder = std::env::temp_dir().join(format!("model-agent-{}", std::process::id()));
    for step in SCRIPT
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
    {
        let spelling = plans.sender().spelling();
        if let Some(Ok(outcome)) = model_step(plans, &step, &folder) {
            for correction in &outcome.corrections {
                eprintln!("model-agent: read leniently: {correction}");
            }
            match &outcome.notification {
                Some(sent) => drop(sent.write_line(&mut *out, spelling)),
                None => eprintln!("model-agent: the plan is unchanged; not sent again"),
            }
            let _ = out.flush();
            std::thread::sleep(PAUSE);
        }
    }
    match protocol {
        ProtocolVersion::V1 => answer(id, &json!({ "stopReason": "end_turn" })),
        ProtocolVersion::V2 => update(
            "state_update",
            json!({ "state": "idle", "stopReason": "end_turn" }),
        ),
    }
}

/// One step of the script; `None` for a step that sends no plan. A tool
/// error goes back to the model as the tool's result (here: logged).
fn model_step(
    plans: &mut ModelPlans,
    step: &Value,
    folder: &Path,
) -> Option<Result<ToolOutcome, String>> {
    let arguments = step["arguments"].as_str().unwrap_or_default();
    let path = folder.join(step["path"].as_str().unwrap_or("PLAN.md"));
    let result = match step["tool"].as_str()? {
        "TodoWrite" => plans
            .todo_write(&Scope::MAIN, arguments)
            .map_err(|e| e.to_string()),
        "update_plan" => plans
            .update_plan(&Scope::MAIN, arguments)
            .map_err(|e| e.to_string()),
        "write_file" => {
            let written = std::fs::create_dir_all(folder)
                .and_then(|()| std::fs::write(&path, step["content"].as_str().unwrap_or_default()));
            if let Err(e) = written {
                eprintln!("model-agent: cannot write {}: {e}", path.display());
            }
            return None;
        }
        "ExitPlanMode" => plans
            .plan_file(&Scope::PLAN_MODE, &path)
            .map_err(|e| e.to_string()),
        _ => return None,
    };
    if let Err(for_model) = &result {
        eprintln!("model-agent: tool result for the model (is_error): {for_model}");
    }
    Some(result)
}

fn answer(id: &Value, result: &Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}
