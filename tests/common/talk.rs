//! Our client (`acp_plan::board`) driving our agent (`examples/agent.rs`)
//! over OS pipes, each in its own thread, as two processes would; what the
//! agent wrote is recorded. Every wait is bounded. A test that includes this
//! file declares `mod agent;` (the example) beside it.
#![allow(dead_code, unreachable_pub)]

use std::io::{self, BufReader, Write};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use plan_core::client::TerminalStyle;
use serde_json::Value;

use super::agent;

/// How long a whole conversation may take before the test fails.
pub const TIMEOUT: Duration = Duration::from_mins(1);

/// A writer that passes everything on and keeps a copy.
pub struct Tee<W> {
    inner: W,
    copy: Arc<Mutex<Vec<u8>>>,
}

impl<W: Write> Tee<W> {
    pub fn new(inner: W) -> (Self, Arc<Mutex<Vec<u8>>>) {
        let copy = Arc::new(Mutex::new(Vec::new()));
        (
            Self {
                inner,
                copy: Arc::clone(&copy),
            },
            copy,
        )
    }
}

impl<W: Write> Write for Tee<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.copy.lock().unwrap().extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// What one conversation left behind.
pub struct Conversation {
    /// The client's result: `Err` says why the turn did not end well.
    pub outcome: Result<(), String>,
    /// What the client printed (the final state, with `--json`).
    pub out: String,
    /// What the client said on standard error.
    pub err: String,
    /// Every line the agent wrote.
    pub agent_lines: Vec<String>,
}

impl Conversation {
    /// The final board state (the client ran with `json: true`).
    pub fn state(&self) -> Value {
        assert_eq!(self.outcome, Ok(()), "{}", self.err);
        serde_json::from_str(&self.out).unwrap_or_else(|e| panic!("{e}: {}", self.out))
    }
}

/// Runs `client` against our agent (no pauses) and waits at most [`TIMEOUT`].
pub fn converse(client: acp_plan::BoardOptions) -> Conversation {
    let (done, result) = mpsc::channel();
    std::thread::spawn(move || {
        let (agent_reads, client_writes) = io::pipe().unwrap();
        let (client_reads, agent_writes) = io::pipe().unwrap();
        let (tee, copy) = Tee::new(agent_writes);
        let agent = std::thread::spawn(move || {
            let options = agent::Options {
                pause: Duration::ZERO,
                ..agent::Options::default()
            };
            agent::serve(BufReader::new(agent_reads), tee, io::sink(), options)
        });
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let outcome = acp_plan::harness::board_connected(
            &client,
            BufReader::new(client_reads),
            client_writes,
            &mut out,
            &mut err,
            TerminalStyle::PLAIN,
            false,
        );
        // The client dropped its end of the agent's input: the agent ends.
        let served = agent.join().expect("the agent panicked");
        assert!(served.is_ok(), "the agent failed: {served:?}");
        let agent_lines = String::from_utf8(copy.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        let _ = done.send(Conversation {
            outcome,
            out: String::from_utf8(out).unwrap(),
            err: String::from_utf8(err).unwrap(),
            agent_lines,
        });
    });
    result
        .recv_timeout(TIMEOUT)
        .expect("the conversation did not end in time")
}

/// Our agent in a thread, talked to line by line by the test itself.
pub struct Agent {
    input: Option<io::PipeWriter>,
    lines: mpsc::Receiver<Value>,
    served: std::thread::JoinHandle<io::Result<()>>,
}

impl Agent {
    /// Starts the agent with `pause` between the steps of a turn.
    pub fn start(pause: Duration) -> Self {
        let (agent_reads, input) = io::pipe().unwrap();
        let (test_reads, agent_writes) = io::pipe().unwrap();
        let served = std::thread::spawn(move || {
            agent::serve(
                BufReader::new(agent_reads),
                agent_writes,
                io::sink(),
                agent::Options {
                    pause,
                    ..agent::Options::default()
                },
            )
        });
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in BufReader::new(test_reads).lines() {
                let Ok(line) = line else { break };
                let value = serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("the agent wrote a line that is not JSON ({e}): {line}")
                });
                if send.send(value).is_err() {
                    break;
                }
            }
        });
        Self {
            input: Some(input),
            lines,
            served,
        }
    }

    /// Sends one message.
    pub fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// Sends one line as it is (garbage included).
    pub fn send_line(&mut self, line: &str) {
        let input = self.input.as_mut().expect("the input is open");
        writeln!(input, "{line}").unwrap();
    }

    /// The next message the agent writes (bounded by [`TIMEOUT`]).
    pub fn recv(&self) -> Value {
        self.lines
            .recv_timeout(TIMEOUT)
            .expect("the agent wrote nothing in time")
    }

    /// Messages up to and including the first for which `last` holds.
    pub fn recv_until(&self, last: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut messages = Vec::new();
        loop {
            let message = self.recv();
            let done = last(&message);
            messages.push(message);
            if done {
                return messages;
            }
        }
    }

    /// Sends a request and returns its response (what came before it is dropped).
    pub fn call(&mut self, id: u64, method: &str, params: &Value) -> Value {
        self.send(
            &serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        );
        self.recv_until(|m| m["id"] == id && m.get("method").is_none())
            .pop()
            .unwrap()
    }

    /// Closes the agent's input and waits for it to end (bounded).
    pub fn close(mut self) -> io::Result<()> {
        drop(self.input.take());
        let deadline = std::time::Instant::now() + TIMEOUT;
        while !self.served.is_finished() {
            assert!(
                std::time::Instant::now() < deadline,
                "the agent did not end after its input closed"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        self.served.join().expect("the agent panicked")
    }
}
