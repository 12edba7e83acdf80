//! The scripted model's server: `tiny_http` on a loopback port, one thread
//! answering each request in turn ([`answer`]), the [`Log`] of what it did,
//! stopped when dropped.

use std::net::SocketAddr;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::json;

use super::api::Answer;
use super::log::Log;
use super::route::answer;
use super::script::Script;

/// How long the model thinks before each answer of a planning turn but
/// its first, as a model takes its time, so a client's `session/cancel`
/// after the first plan lands mid-turn.
pub(crate) const PAUSE: std::time::Duration = std::time::Duration::from_millis(300);

/// The scripted model, serving on a loopback port until dropped.
pub(crate) struct ScriptedModel {
    server: Arc<tiny_http::Server>,
    address: SocketAddr,
    thread: Option<JoinHandle<()>>,
    log: Arc<Mutex<Log>>,
    gate: Arc<Gate>,
}

/// Whether the model holds the answers it would pause before (every
/// answer of a planning turn but its first) until released: `check
/// --cancel` holds them through the turn it cancels, so the cancel always
/// lands mid-turn, and releases them when the cancel is sent.
#[derive(Debug, Default)]
struct Gate {
    held: Mutex<bool>,
    released: Condvar,
}

/// The longest a held answer waits (a turn whose cancel is never sent
/// goes on after it, only slower).
const HOLD_AT_MOST: Duration = Duration::from_secs(5);

impl ScriptedModel {
    /// Starts serving `script` on 127.0.0.1, on `port` (0: any free port),
    /// saying each request and its answer on standard error when `echo`.
    ///
    /// # Errors
    /// Why the port could not be bound.
    pub(crate) fn start(script: Script, port: u16, echo: bool) -> Result<Self, String> {
        let server = tiny_http::Server::http(("127.0.0.1", port))
            .map_err(|e| format!("the scripted model cannot listen on 127.0.0.1:{port}: {e}"))?;
        let address = server
            .server_addr()
            .to_ip()
            .ok_or("the scripted model's address is not an IP address")?;
        let server = Arc::new(server);
        let serving = Arc::clone(&server);
        let model_log = Arc::new(Mutex::new(Log::default()));
        let logging = Arc::clone(&model_log);
        let gate = Arc::new(Gate::default());
        let gated = Arc::clone(&gate);
        let thread = std::thread::spawn(move || {
            for request in serving.incoming_requests() {
                respond(&script, &logging, echo, &gated, request);
            }
        });
        Ok(Self {
            server,
            address,
            thread: Some(thread),
            log: model_log,
            gate,
        })
    }

    /// Holds (`true`) or releases (`false`) the answers the model pauses
    /// before (see [`Gate`]).
    pub(crate) fn hold(&self, on: bool) {
        *self
            .gate
            .held
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = on;
        self.gate.released.notify_all();
    }

    /// What the model did since it started or was last asked, and a fresh
    /// log from here on (`check` asks after each agent it ran).
    pub(crate) fn take_log(&self) -> Log {
        std::mem::take(&mut *self.log.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// `http://127.0.0.1:PORT`, the base an agent is pointed at.
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The port it listens on.
    #[cfg(test)]
    pub(crate) fn port(&self) -> u16 {
        self.address.port()
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

fn respond(
    script: &Script,
    model_log: &Mutex<Log>,
    echo: bool,
    gate: &Gate,
    mut request: tiny_http::Request,
) {
    let mut body = Vec::new();
    let read = request.as_reader().read_to_end(&mut body);
    let answer = match read {
        Ok(_) => answer(
            script,
            model_log,
            request.method().as_str(),
            request.url(),
            &body,
        ),
        Err(e) => Answer::json(
            400,
            &json!({ "error": { "type": "invalid_request_error", "message": format!("unreadable body: {e}") } }),
        ),
    };
    if echo {
        eprintln!(
            "model: {} {}: {}",
            request.method(),
            request.url(),
            answer.summary
        );
    }
    if answer.pause {
        let held = gate.held.lock().unwrap_or_else(PoisonError::into_inner);
        if *held {
            let _ = gate
                .released
                .wait_timeout_while(held, HOLD_AT_MOST, |held| *held);
        } else {
            drop(held);
            std::thread::sleep(PAUSE);
        }
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
        let body = serde_json::json!({ "model": "m", "stream": true,
            "messages": [{ "role": "user", "content": "plan" }],
            "tools": [{ "name": "TodoWrite",
                "input_schema": plan_core::tools::TodoWrite::definition().schema }] })
        .to_string();
        for path in ["/v1/messages?beta=true", "/messages"] {
            let reply = http(port, "POST", path, &body);
            assert!(reply.contains("text/event-stream"), "{reply}");
            assert!(reply.contains("\"name\":\"TodoWrite\""), "{reply}");
        }
        let log = model.take_log();
        assert_eq!(log.requests, 2);
        assert_eq!(log.made.len(), 1, "the same call made twice is one plan");
        assert_eq!(model.take_log().requests, 0);
        let gemini = r#"{"contents":[{"role":"user","parts":[{"text":"title?"}]}]}"#;
        let reply = http(
            port,
            "POST",
            "/v1beta/models/gemini-2.5-pro:generateContent",
            gemini,
        );
        assert!(
            reply.starts_with("HTTP/1.1 200") && reply.contains("candidates"),
            "{reply}"
        );
        let chat = r#"{"model":"m","messages":[{"role":"user","content":"title?"}]}"#;
        let reply = http(port, "POST", "/v1/chat/completions", chat);
        assert!(reply.contains("chat.completion"), "{reply}");
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
    #[test]
    fn a_held_model_answers_a_planning_turn_only_once_released() {
        let model = ScriptedModel::start(Script::built_in(), 0, false).unwrap();
        let port = model.port();
        // The second answer of a planning turn: one the model pauses before.
        let body = serde_json::json!({ "model": "m", "stream": true, "messages": [
            { "role": "user", "content": "plan" },
            { "role": "assistant", "content": [{ "type": "tool_use", "id": "t0", "name": "TodoWrite", "input": {} }] },
            { "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "t0", "content": "ok" }] } ],
            "tools": [{ "name": "TodoWrite",
                "input_schema": plan_core::tools::TodoWrite::definition().schema }] })
        .to_string();
        model.hold(true);
        let (sent, answered) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sent.send(http(port, "POST", "/v1/messages", &body));
        });
        // Held: no answer while the client has not cancelled (the hold
        // lasts up to `HOLD_AT_MOST`, far longer than this wait).
        assert!(
            answered
                .recv_timeout(std::time::Duration::from_millis(500))
                .is_err()
        );
        model.hold(false);
        let reply = answered
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("answered once released");
        assert!(reply.contains("\"name\":\"TodoWrite\""), "{reply}");
    }

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
