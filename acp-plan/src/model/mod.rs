//! A scripted model: a loopback HTTP server that stands in for a model API,
//! so that a real agent runs a whole turn offline, with no key, and makes
//! the plans of a script with its own plan tool.
//!
//! It speaks the APIs the agents people use call, as they call them
//! (`docs/ci.md` says how each agent is pointed at it):
//! - the Anthropic Messages API (`POST /v1/messages` or `/messages`, and
//!   `count_tokens`): Claude Code ([`anthropic`]);
//! - the OpenAI Responses API (`POST /v1/responses`, and `GET /v1/models`):
//!   codex, opencode ([`openai`]);
//! - the OpenAI Chat Completions API (`POST /v1/chat/completions`):
//!   qwen-code ([`chat`]);
//! - the Gemini API (`POST /v1beta/models/M:streamGenerateContent?alt=sse`
//!   and `:generateContent`): Gemini CLI ([`gemini`]).
//!
//! Each request is read into one form ([`request::Request`]) and answered by
//! one script ([`turn::decide`]), with the agent's own plan tool
//! ([`plan_tool`]): the next plan of the script, counted from the plan
//! calls already in the conversation since the user's prompt; after the
//! last, a short text that ends the turn. A request that offers no plan
//! tool (a title, a suggestion) gets a short text, or JSON where it asks
//! for JSON. The server binds 127.0.0.1 only, keeps no state between
//! requests but a [`Log`] of what it did (for `check`), and stops
//! when dropped.

pub(crate) mod anthropic;
pub(crate) mod chat;
pub(crate) mod gemini;
pub(crate) mod log;
pub(crate) mod openai;
pub mod plan_tool;
pub(crate) mod point;
pub(crate) mod request;
mod schema;
mod script;
mod server;
mod setup;
pub(crate) mod tasks;
pub(crate) mod turn;

use std::sync::{Mutex, PoisonError};

use serde_json::{Value, json};

pub(crate) use log::Log;
pub use point::ModelSetup;
pub use script::{Script, ScriptError};
pub(crate) use server::ScriptedModel;
use turn::Decision;

/// Which script a command's `--scripted-model` plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelChoice {
    /// [`Script::built_in`].
    BuiltIn,
    /// [`Script::from_file`].
    File(std::path::PathBuf),
}

impl ModelChoice {
    /// The script, read.
    ///
    /// # Errors
    /// The file's script cannot be used.
    pub fn script(&self) -> Result<Script, ScriptError> {
        match self {
            Self::BuiltIn => Ok(Script::built_in()),
            Self::File(path) => Script::from_file(path),
        }
    }

    /// Starts the model on a free loopback port and points the agent
    /// `command` starts at it: keep both for as long as the agent runs.
    ///
    /// # Errors
    /// The script cannot be used, or the model cannot be started.
    pub fn start(
        &self,
        command: &[String],
        setup: &ModelSetup,
    ) -> Result<(ScriptedModel, point::Pointing), String> {
        let script = self
            .script()
            .map_err(|e| format!("scripted model: {e}"))?
            .in_plan_mode(setup.plan_mode);
        let model = ScriptedModel::start(script, setup.port.unwrap_or(0), false)?;
        let pointing = point::point(&model.url(), command, setup)
            .map_err(|e| format!("scripted model: cannot point the agent at it: {e}"))?;
        Ok((model, pointing))
    }
}

/// One answer of the model, as the tests of each API read it.
#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Turn {
    /// The body, whole.
    pub stream: String,
    /// What it says: the tool it calls, or that it answers with text.
    pub said: String,
    /// Whether it pauses before answering ([`PAUSE`]).
    pub pause: bool,
}

/// The model's answer to `request` through an API's `read` and `write`, as
/// the server streams it (for each API's tests).
#[cfg(test)]
pub(crate) fn answered_by(
    read: fn(&Value) -> request::Request,
    write: fn(&Value, &Decision) -> String,
    script: &Script,
    request: &Value,
) -> Turn {
    let decision = turn::decide(script, &read(request));
    Turn {
        stream: write(request, &decision),
        said: decision.said,
        pause: decision.pause,
    }
}

/// How long the model thinks before each answer of a planning turn but
/// its first, as a model takes its time, so a client's `session/cancel`
/// after the first plan lands mid-turn.
pub(crate) const PAUSE: std::time::Duration = std::time::Duration::from_millis(300);

/// What `acp-plan model` serves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct ModelOptions {
    /// The port (0: any free one).
    pub port: u16,
    /// The script.
    pub script: ModelChoice,
    /// `--plan-mode`: play the agent's plan mode (a markdown plan through
    /// `ExitPlanMode` or a `<proposed_plan>` block) where it asks for one.
    pub plan_mode: bool,
}

/// `acp-plan model`: serves until the process is stopped, after printing
/// where, and the environment that points an agent at it; stopped
/// (`Ctrl-C`, `SIGTERM`, `SIGHUP`), it removes the home it made and ends
/// with the signal's status. 2 when it cannot start (said on standard
/// error).
pub fn serve(options: &ModelOptions) -> u8 {
    let started = options
        .script
        .script()
        .map_err(|e| format!("model: {e}"))
        .and_then(|script| {
            ScriptedModel::start(script.in_plan_mode(options.plan_mode), options.port, true)
        });
    let model = match started {
        Ok(model) => model,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    // No agent named: every agent's variables.
    // Printed for the user's shell: no dead proxy in it.
    let setup = ModelSetup {
        plan_mode: options.plan_mode,
        allow_network: true,
        ..ModelSetup::default()
    };
    let pointing = match point::point(&model.url(), &[], &setup) {
        Ok(pointing) => pointing,
        Err(e) => {
            eprintln!("model: cannot write the agent's settings: {e}");
            return 2;
        }
    };
    println!(
        "# the scripted model serves on {}; point an agent at it with:",
        model.url()
    );
    for line in exports(&pointing.env) {
        println!("{line}");
    }
    let _ = std::io::Write::flush(&mut std::io::stdout());
    // Until stopped: then the throwaway home goes with `pointing`, and the
    // status is the signal's.
    let status = crate::process::until_stopped();
    drop(pointing);
    drop(model);
    status
}

/// The `export` lines `acp-plan model` prints: what an agent needs to reach
/// the model, and nothing that would move the user's own shell if they
/// `eval` them (`HOME`, npm's cache: `check` and `board` set those for the
/// agent alone). A value's single quotes are escaped for the shell.
fn exports(env: &[(String, String)]) -> Vec<String> {
    env.iter()
        .filter(|(key, _)| key != "HOME" && key != "npm_config_cache")
        .map(|(key, value)| format!("export {key}='{}'", value.replace('\'', r"'\''")))
        .collect()
}

/// What the model answers: a content type and a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    /// What it said, in a few words (the tool it called, or that it
    /// answered with text), for `acp-plan model`'s log.
    pub said: String,
    /// Whether it pauses first ([`PAUSE`]).
    pub pause: bool,
    /// The HTTP status.
    pub status: u16,
    /// `text/event-stream` for a streamed turn, else `application/json`.
    pub content_type: &'static str,
    /// The body, whole (a stream's events one after the other).
    pub body: String,
}

impl Answer {
    fn json(status: u16, body: &Value) -> Self {
        Self {
            said: format!("JSON ({status})"),
            pause: false,
            status,
            content_type: "application/json",
            body: body.to_string(),
        }
    }

    fn said(decision: &Decision, body: String, streamed: bool) -> Self {
        Self {
            said: decision.said.clone(),
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
fn event(out: &mut String, name: &str, data: &Value) {
    out.push_str("event: ");
    out.push_str(name);
    out.push_str("\ndata: ");
    out.push_str(&data.to_string());
    out.push_str("\n\n");
}

/// A JSON string's text, or nothing.
fn text_of(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

/// A JSON array's items, or none.
fn items(value: &Value) -> &[Value] {
    value.as_array().map_or(&[][..], Vec::as_slice)
}

/// The tools of a list, as (name, input schema): each tool's `name` and
/// its schema under `schema_key` (`input_schema`, `parameters`).
fn named_tools(tools: &[Value], schema_key: &str) -> Vec<(String, Value)> {
    tools
        .iter()
        .filter_map(|t| Some((t["name"].as_str()?.to_owned(), t[schema_key].clone())))
        .collect()
}

/// Each tool's description, by name: a tool's own `description`, or its
/// `function`'s (Chat Completions), or each of Gemini's
/// `functionDeclarations`.
fn descriptions(tools: &[Value]) -> Vec<(String, String)> {
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
fn content_text(content: &Value) -> String {
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
fn halves(arguments: &str) -> [&str; 2] {
    let split = (arguments.len() / 2..=arguments.len())
        .find(|&i| arguments.is_char_boundary(i))
        .unwrap_or(arguments.len());
    [&arguments[..split], &arguments[split..]]
}

/// The text the model says when it has nothing to plan, or after its plan.
const DONE: &str = "Done: the plan is complete.";
/// Its answer to a request that offers no plan tool (a title, a suggestion).
const SIDE_ANSWER: &str = "Scripted plan";

/// The model APIs it serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Api {
    Anthropic,
    Responses,
    Chat,
    /// Gemini, streamed or not.
    Gemini(bool),
}

/// Answers one request: `method`, `path` (query included) and body; the
/// plans it makes and the calls answered go into `log`.
pub(crate) fn answer(
    script: &Script,
    log: &Mutex<Log>,
    method: &str,
    path: &str,
    body: &[u8],
) -> Answer {
    let route = path.split('?').next().unwrap_or(path);
    let api = match (method, route) {
        ("GET", "/v1/models" | "/models" | "/v1beta/models") => {
            return Answer::json(200, &json!({ "object": "list", "data": [], "models": [] }));
        }
        ("POST", "/v1/messages/count_tokens" | "/messages/count_tokens") => {
            return Answer::json(200, &json!({ "input_tokens": body.len() / 4 + 1 }));
        }
        ("POST", "/v1/messages" | "/messages") => Api::Anthropic,
        ("POST", "/v1/responses" | "/responses") => Api::Responses,
        ("POST", "/v1/chat/completions" | "/chat/completions") => Api::Chat,
        ("POST", gemini) if gemini.starts_with("/v1beta/models/") => {
            match gemini.rsplit_once(':').map(|(_, verb)| verb) {
                Some("streamGenerateContent") => Api::Gemini(true),
                Some("generateContent") => Api::Gemini(false),
                Some("countTokens") => {
                    return Answer::json(200, &json!({ "totalTokens": body.len() / 4 + 1 }));
                }
                _ => return not_found(method, route),
            }
        }
        _ => return not_found(method, route),
    };
    let request = match serde_json::from_slice::<Value>(body) {
        Ok(request) => request,
        Err(e) => return bad_request(&e),
    };
    let read = match api {
        Api::Anthropic => anthropic::read(&request),
        Api::Responses => openai::read(&request),
        Api::Chat => chat::read(&request),
        Api::Gemini(_) => gemini::read(&request),
    };
    let mut read = read;
    read.descriptions = descriptions(items(&request["tools"]));
    let decision = turn::decide(script, &read);
    let (id, body) = match api {
        Api::Anthropic => (
            anthropic::call_id(decision.number),
            anthropic::write(&request, &decision),
        ),
        Api::Responses => (
            openai::call_id(decision.number),
            openai::write(&request, &decision),
        ),
        Api::Chat => (
            chat::call_id(decision.number),
            chat::write(&request, &decision),
        ),
        Api::Gemini(streamed) => {
            // The model is in the path: `/v1beta/models/M:verb`.
            let model = route
                .trim_start_matches("/v1beta/models/")
                .split(':')
                .next()
                .unwrap_or_default();
            (
                gemini::call_id(decision.number),
                gemini::write(&decision, model, streamed),
            )
        }
    };
    log.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .record(&read, &decision, &id);
    let streamed = match api {
        Api::Chat => request["stream"] == true,
        Api::Gemini(streamed) => streamed,
        Api::Anthropic | Api::Responses => true,
    };
    Answer::said(&decision, body, streamed)
}

fn not_found(method: &str, route: &str) -> Answer {
    Answer::json(
        404,
        &json!({ "error": { "type": "not_found", "message": format!("the scripted model has no `{method} {route}`") } }),
    )
}

fn bad_request(e: &serde_json::Error) -> Answer {
    Answer::json(
        400,
        &json!({ "error": { "type": "invalid_request_error", "message": format!("not JSON: {e}") } }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_prints_what_an_agent_needs_and_never_moves_the_users_home() {
        let env = vec![
            (
                "ANTHROPIC_BASE_URL".to_owned(),
                "http://127.0.0.1:1".to_owned(),
            ),
            (
                "OPENCODE_CONFIG_CONTENT".to_owned(),
                "{\"a\":\"it's\"}".to_owned(),
            ),
            ("HOME".to_owned(), "/tmp/x".to_owned()),
            ("npm_config_cache".to_owned(), "/root/.npm".to_owned()),
        ];
        assert_eq!(
            exports(&env),
            [
                "export ANTHROPIC_BASE_URL='http://127.0.0.1:1'",
                r#"export OPENCODE_CONFIG_CONTENT='{"a":"it'\''s"}'"#
            ]
        );
    }
}
