//! A language server over stdio, for `tests/editor.rs`: requests with a
//! deadline each, the server's own requests answered, its status awaited.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long the server may take to load the crate and build the macros.
pub(crate) const LOAD: Duration = Duration::from_mins(10);
/// How long one answer may take once loaded.
const ANSWER: Duration = Duration::from_mins(2);

/// A running server; dropped, it is killed.
pub(crate) struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    version: i64,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    pub(crate) fn start(binary: &Path, root: &Path) -> Self {
        let mut child = Command::new(binary)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let Some(length) = length else { return };
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let Ok(message) = serde_json::from_slice(&body) else {
                    return;
                };
                if send.send(message).is_err() {
                    return;
                }
            }
        });
        Self {
            child,
            stdin,
            messages,
            next_id: 0,
            version: 1,
        }
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub(crate) fn notify(&mut self, method: &str, params: &Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message, answering the server's own requests on the way
    /// (`until` says how long to wait in all).
    fn next(&mut self, until: Instant) -> Value {
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let message = self
                .messages
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("rust-analyzer said nothing in time"));
            if let (Some(id), Some(method)) = (message.get("id"), message["method"].as_str()) {
                let result = if method == "workspace/configuration" {
                    let items = message["params"]["items"].as_array().map_or(0, Vec::len);
                    Value::Array(vec![Value::Null; items])
                } else {
                    Value::Null
                };
                let answer = json!({"jsonrpc": "2.0", "id": id, "result": result});
                self.send(&answer);
                continue;
            }
            return message;
        }
    }

    pub(crate) fn request(&mut self, method: &str, params: &Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let until = Instant::now() + ANSWER;
        loop {
            let message = self.next(until);
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{method} failed: {message}");
                return message["result"].clone();
            }
        }
    }

    /// Waits until the server says it has loaded the crate and is idle.
    pub(crate) fn wait_quiescent(&mut self) {
        let until = Instant::now() + LOAD;
        loop {
            let message = self.next(until);
            if message["method"] == "experimental/serverStatus"
                && message["params"]["quiescent"] == json!(true)
            {
                return;
            }
        }
    }

    pub(crate) fn change(&mut self, uri: &str, text: &str) {
        self.version += 1;
        let version = self.version;
        self.notify(
            "textDocument/didChange",
            &json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }
}
