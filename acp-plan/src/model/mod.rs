//! A scripted model: a loopback HTTP server that stands in for a model API,
//! so that a real agent runs a whole turn offline, with no key, and makes
//! the plans of a script with its own plan tool.
//!
//! It speaks the two APIs the agents people use call, streamed, as they
//! call them (`docs/ci.md` says how each agent is pointed at it):
//! - the Anthropic Messages API (`POST /v1/messages`, and
//!   `/v1/messages/count_tokens`): Claude Code's `TodoWrite`, or its task
//!   tools ([`anthropic`], [`tasks`]);
//! - the OpenAI Responses API (`POST /v1/responses`, and `GET /v1/models`):
//!   codex's `update_plan` ([`openai`]).
//!
//! Each request carries the whole conversation, so the model knows where
//! the turn is by counting the plan tool calls already in it: the next one
//! is the script's next plan, and after the last it ends the turn with a
//! short text. A request that offers no plan tool (a title, a suggestion)
//! gets a short text answer. The server binds 127.0.0.1 only, keeps no
//! state between requests, and stops when dropped.

pub mod anthropic;
pub mod openai;
pub mod point;
mod script;
pub mod tasks;

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

use serde_json::{Value, json};

pub use script::{Script, ScriptError};

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

    /// Starts the model on a free loopback port and points an agent at it:
    /// keep both for as long as the agent runs.
    ///
    /// # Errors
    /// The script cannot be used, or the model cannot be started.
    pub fn start(&self) -> Result<(ScriptedModel, point::Pointing), String> {
        let script = self.script().map_err(|e| format!("scripted model: {e}"))?;
        let model = ScriptedModel::start(script, 0, false)?;
        let pointing = point::point(&model.url())
            .map_err(|e| format!("scripted model: cannot write the agent's settings: {e}"))?;
        Ok((model, pointing))
    }
}

/// One answer of the model in a turn: its event stream, what it says in a
/// few words (for `acp-plan model`'s log), and whether it thinks first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// The events, whole.
    pub stream: String,
    /// What it says: the tool it calls, or that it answers with text.
    pub said: String,
    /// Whether it pauses before answering ([`PAUSE`]): every answer of the
    /// turn's conversation but its first, as a model takes its time, so a
    /// client's `session/cancel` after the first plan lands mid-turn.
    pub pause: bool,
}

/// How long the model thinks before each answer but a turn's first.
pub const PAUSE: std::time::Duration = std::time::Duration::from_millis(300);

/// What `acp-plan model` serves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct ServeOptions {
    /// The port (0: any free one).
    pub port: u16,
    /// The script.
    pub script: ModelChoice,
}

/// `acp-plan model`: serves until the process is stopped, after printing
/// where, and the environment that points an agent at it. The exit status:
/// 2 when it cannot start (said on standard error).
pub fn serve(options: &ServeOptions) -> u8 {
    let started = options
        .script
        .script()
        .map_err(|e| format!("model: {e}"))
        .and_then(|script| ScriptedModel::start(script, options.port, true));
    let model = match started {
        Ok(model) => model,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let pointing = match point::point(&model.url()) {
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
    for (key, value) in &pointing.env {
        println!("export {key}='{value}'");
    }
    let _ = std::io::Write::flush(&mut std::io::stdout());
    model.wait();
    0
}

/// What the model answers: a content type and a body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// What it said, in a few words (the tool it called, or that it
    /// answered with text), for `acp-plan model`'s log.
    pub said: String,
    /// Whether it pauses first (see [`Turn::pause`]).
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

    fn events(turn: Turn) -> Self {
        Self {
            said: turn.said,
            pause: turn.pause,
            body: turn.stream,
            status: 200,
            content_type: "text/event-stream",
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

/// Whether a request offers the tool `name` (both APIs list tools with a
/// `name`).
fn offers(request: &Value, name: &str) -> bool {
    request["tools"]
        .as_array()
        .is_some_and(|tools| tools.iter().any(|tool| tool["name"] == name))
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

/// Answers one request: `method`, `path` (query included) and body.
pub fn answer(script: &Script, method: &str, path: &str, body: &[u8]) -> Answer {
    let route = path.split('?').next().unwrap_or(path);
    let request = || serde_json::from_slice::<Value>(body);
    match (method, route) {
        ("GET", "/v1/models" | "/models") => {
            Answer::json(200, &json!({ "object": "list", "data": [], "models": [] }))
        }
        ("POST", "/v1/messages/count_tokens") => {
            Answer::json(200, &json!({ "input_tokens": body.len() / 4 + 1 }))
        }
        ("POST", "/v1/messages") => match request() {
            Ok(request) => Answer::events(anthropic::answer(script, &request)),
            Err(e) => bad_request(&e),
        },
        ("POST", "/v1/responses" | "/responses") => match request() {
            Ok(request) => Answer::events(openai::answer(script, &request)),
            Err(e) => bad_request(&e),
        },
        _ => Answer::json(
            404,
            &json!({ "error": { "type": "not_found", "message": format!("the scripted model has no `{method} {route}`") } }),
        ),
    }
}

fn bad_request(e: &serde_json::Error) -> Answer {
    Answer::json(
        400,
        &json!({ "error": { "type": "invalid_request_error", "message": format!("not JSON: {e}") } }),
    )
}

/// The scripted model, serving on a loopback port until dropped.
pub struct ScriptedModel {
    server: Arc<tiny_http::Server>,
    address: SocketAddr,
    thread: Option<JoinHandle<()>>,
}

impl ScriptedModel {
    /// Starts serving `script` on 127.0.0.1, on `port` (0: any free port),
    /// saying each request and its answer on standard error when `log`.
    ///
    /// # Errors
    /// Why the port could not be bound.
    pub fn start(script: Script, port: u16, log: bool) -> Result<Self, String> {
        let server = tiny_http::Server::http(("127.0.0.1", port))
            .map_err(|e| format!("the scripted model cannot listen on 127.0.0.1:{port}: {e}"))?;
        let address = server
            .server_addr()
            .to_ip()
            .ok_or("the scripted model's address is not an IP address")?;
        let server = Arc::new(server);
        let serving = Arc::clone(&server);
        let thread = std::thread::spawn(move || {
            for request in serving.incoming_requests() {
                respond(&script, log, request);
            }
        });
        Ok(Self {
            server,
            address,
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:PORT`, the base an agent is pointed at.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for ScriptedModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedModel")
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

impl Drop for ScriptedModel {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn respond(script: &Script, log: bool, mut request: tiny_http::Request) {
    let mut body = Vec::new();
    let read = request.as_reader().read_to_end(&mut body);
    let answer = match read {
        Ok(_) => answer(script, request.method().as_str(), request.url(), &body),
        Err(e) => Answer::json(
            400,
            &json!({ "error": { "type": "invalid_request_error", "message": format!("unreadable body: {e}") } }),
        ),
    };
    if log {
        eprintln!(
            "model: {} {}: {}",
            request.method(),
            request.url(),
            answer.said
        );
    }
    let header =
        tiny_http::Header::from_bytes("Content-Type", answer.content_type).expect("a valid header");
    let response = tiny_http::Response::from_string(answer.body)
        .with_status_code(answer.status)
        .with_header(header);
    // A client that hung up has nothing left to hear.
    let _ = request.respond(response);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_serves_both_apis_on_loopback_and_stops_when_dropped() {
        let model = ScriptedModel::start(Script::built_in(), 0, false).unwrap();
        assert!(model.url().starts_with("http://127.0.0.1:"));
        let port = model.port();
        let reply = http(port, "GET", "/v1/models", "");
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
        let body = r#"{"model":"m","stream":true,"messages":[{"role":"user","content":"plan"}],"tools":[{"name":"TodoWrite","input_schema":{}}]}"#;
        let reply = http(port, "POST", "/v1/messages?beta=true", body);
        assert!(reply.contains("text/event-stream"), "{reply}");
        assert!(reply.contains("\"name\":\"TodoWrite\""), "{reply}");
        let reply = http(port, "POST", "/v1/messages", "{not json");
        assert!(reply.starts_with("HTTP/1.1 400"), "{reply}");
        drop(model);
        // Stopped: refused, or (tiny_http's acceptor takes one last
        // connection on its way out) closed with no answer.
        if let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            use std::io::{Read as _, Write as _};
            stream
                .set_read_timeout(Some(std::time::Duration::from_secs(10)))
                .unwrap();
            let _ = stream.write_all(b"GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
            let mut reply = String::new();
            let _ = stream.read_to_string(&mut reply);
            assert_eq!(reply, "", "a dropped model answered");
        }
    }

    /// One request over a plain socket, the whole reply as text.
    fn http(port: u16, method: &str, path: &str, body: &str) -> String {
        use std::io::{Read as _, Write as _};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        reply
    }
}
