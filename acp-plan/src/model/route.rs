//! Where a request to the scripted model goes: its method and path name the
//! API, whose reader reads it; the turn decides; the same API's writer
//! answers, and the log keeps what was made.

use std::sync::{Mutex, PoisonError};

use serde_json::{Value, json};

use super::api::{Answer, descriptions, items};
use super::log::Log;
use super::script::Script;
use super::{anthropic, chat, gemini, openai, turn};

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
    Answer::decided(&decision, body, streamed)
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
