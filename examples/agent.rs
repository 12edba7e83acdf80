//! A real ACP agent on standard input and output: it answers `initialize`
//! (protocol versions 1 and 2), `session/new`, `session/prompt` and
//! `session/cancel`, and on each prompt works through a refactor, showing
//! its plans to the client as it goes. The plans are declared with `plan!`
//! and `#[derive(Steps)]` and sent by a `PlanSender` shaped by what the client
//! said in `initialize`, so every client gets only what it can read.
//!
//! ```text
//! cargo run -p acp-plan -- board -- cargo run -q -p plan-examples --example agent   # our client drives it
//! cargo run --example agent                                     # speak JSON-RPC to it by hand
//! cargo run --example agent -- --fast                           # no pauses between steps
//! ```
//!
//! One JSON-RPC message per line. Standard output carries only the
//! protocol; everything else goes to standard error. Malformed lines,
//! unknown methods, bad parameters and unknown sessions are answered with
//! JSON-RPC errors, and the agent keeps serving until its input closes.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use plan_core::{
    agent::{InitializeRequest, PlanSender},
    wire::ProtocolVersion,
};
use serde_json::{Value, json};

mod agent_rpc;
mod agent_turn;
use agent_rpc::{Incoming, error_response};

/// The agent's name and version, as `initialize` reports them.
pub const NAME: &str = "plan-core-example-agent";

/// JSON-RPC error codes.
pub mod code {
    /// The line is not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// The JSON is not a JSON-RPC request (or came before `initialize`).
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method is not one the agent serves.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// The parameters are wrong (an unknown session among them).
    pub const INVALID_PARAMS: i64 = -32602;
    /// v2: a prompt held, not yet inserted, whose session's work was
    /// cancelled (`session/cancel`) or closed (`session/close`).
    pub const REQUEST_CANCELLED: i64 = -32800;
}

/// What the command line asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The pause between two steps of a turn.
    pub pause: Duration,
    /// `--help`: print the usage and exit.
    pub help: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            pause: Duration::from_millis(400),
            help: false,
        }
    }
}

/// What `--help` prints (and a command-line mistake, after the mistake).
pub const USAGE: &str = "\
usage: cargo run --example agent [-- [--fast]]
An ACP agent on standard input and output (JSON-RPC 2.0, one message a line).

  --fast       no pause between the steps of a turn
  -h, --help   this text
";

#[allow(dead_code)] // `main` is unused where a test includes this file.
fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) if options.help => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(options) => options,
        Err(message) => {
            eprintln!("agent: {message}");
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdin = io::BufReader::new(io::stdin());
    match serve(stdin, io::stdout().lock(), io::stderr(), options) {
        Ok(()) => ExitCode::SUCCESS,
        // The client went away while we wrote: not a crash, just stop.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agent: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the command line.
///
/// # Errors
/// What is wrong with it, in one sentence.
pub fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    for arg in args {
        match arg.as_str() {
            "--fast" => options.pause = Duration::ZERO,
            "--help" | "-h" => options.help = true,
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(options)
}

/// Serves one client: reads JSON-RPC lines from `input` until it closes,
/// writes answers and notifications to `out`, logs to `log`.
///
/// # Errors
/// An error writing to `out` (a closed pipe is `BrokenPipe`).
pub fn serve<R, W, L>(input: R, out: W, log: L, options: Options) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
    L: Write,
{
    // Not a scoped thread: if writing fails (the client stopped reading),
    // the agent returns without waiting for its input to close.
    let (lines, inbox) = mpsc::channel();
    std::thread::spawn(move || {
        for line in input.split(b'\n') {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut agent = Agent {
        out,
        log,
        options,
        inbox,
        protocol: None,
        client: None,
        sessions: Vec::new(),
        queued: VecDeque::new(),
        next_session: 0,
        next_message: 0,
        batch: None,
    };
    agent.run()
}

/// One session: its id, its working directory and the sender shaped for the client.
struct Session {
    id: String,
    cwd: Value,
    sender: PlanSender,
}

struct Agent<W, L> {
    out: W,
    log: L,
    options: Options,
    inbox: Receiver<Vec<u8>>,
    protocol: Option<ProtocolVersion>,
    client: Option<InitializeRequest>,
    sessions: Vec<Session>,
    /// Requests that arrived during a turn, served after it.
    queued: VecDeque<Incoming>,
    next_session: u64,
    next_message: u64,
    /// While a batch is served: its responses, sent as one array after it.
    batch: Option<Vec<Value>>,
}

/// How a turn ended.
enum TurnEnd {
    Done,
    Cancelled,
    /// The client closed its side.
    Closed,
}

impl<W: Write, L: Write> Agent<W, L> {
    fn run(&mut self) -> io::Result<()> {
        loop {
            let message = match self.queued.pop_front() {
                Some(message) => message,
                None => match self.inbox.recv() {
                    Ok(line) => match self.read(&line)? {
                        Some(message) => message,
                        None => continue,
                    },
                    Err(_) => {
                        let _ = writeln!(self.log, "agent: the client closed its side; done");
                        return Ok(());
                    }
                },
            };
            if let TurnEnd::Closed = self.handle(message)? {
                let _ = writeln!(self.log, "agent: the client closed its side mid-turn; done");
                return Ok(());
            }
        }
    }

    fn handle(&mut self, message: Incoming) -> io::Result<TurnEnd> {
        match message {
            Incoming::Batch(entries) => {
                self.batch = Some(Vec::new());
                let mut end = TurnEnd::Done;
                for entry in entries {
                    end = match entry {
                        Ok(message) => self.handle(message)?,
                        Err(error) => {
                            self.send_response(error)?;
                            TurnEnd::Done
                        }
                    };
                    if let TurnEnd::Closed = end {
                        break;
                    }
                }
                // Nothing at all for a batch of notifications.
                let responses = self.batch.take().unwrap_or_default();
                if !responses.is_empty() {
                    self.write(&Value::Array(responses))?;
                }
                Ok(end)
            }
            Incoming::Request { id, method, params } => self.request(&id, &method, params),
            Incoming::Notification { method, .. } => {
                // `session/cancel` outside a turn has nothing to cancel.
                if method != "session/cancel" {
                    let _ = writeln!(self.log, "agent: ignored notification `{method}`");
                }
                Ok(TurnEnd::Done)
            }
            Incoming::Response => Ok(TurnEnd::Done),
        }
    }

    fn request(&mut self, id: &Value, method: &str, params: Value) -> io::Result<TurnEnd> {
        if method == "initialize" {
            self.initialize(id, params)?;
            return Ok(TurnEnd::Done);
        }
        let Some(protocol) = self.protocol else {
            self.error(id, code::INVALID_REQUEST, "send `initialize` first")?;
            return Ok(TurnEnd::Done);
        };
        match method {
            "session/new" => self.new_session(id, &params, protocol)?,
            "session/prompt" => return self.prompt(id, &params, protocol),
            "session/list" | "session/resume" | "session/close"
                if protocol == ProtocolVersion::V2 =>
            {
                self.v2_session(id, method, &params)?;
            }
            other => self.error(
                id,
                code::METHOD_NOT_FOUND,
                &format!("method `{other}` is not served by this agent"),
            )?,
        }
        Ok(TurnEnd::Done)
    }

    fn initialize(&mut self, id: &Value, params: Value) -> io::Result<()> {
        if self.protocol.is_some() {
            return self.error(id, code::INVALID_REQUEST, "already initialized");
        }
        let client = match InitializeRequest::from_value(params) {
            Ok(client) => client,
            Err(e) => return self.error(id, code::INVALID_PARAMS, &e.to_string()),
        };
        for skipped in &client.skipped {
            let _ = writeln!(self.log, "agent: initialize: {skipped} (read as absent)");
        }
        let protocol = client.negotiated(ProtocolVersion::LATEST);
        let info = json!({ "name": NAME, "version": env!("CARGO_PKG_VERSION") });
        let result = match protocol {
            ProtocolVersion::V1 => json!({
                "protocolVersion": 1,
                "agentCapabilities": {},
                "authMethods": [],
                "agentInfo": info,
            }),
            // `session: {}`: the baseline session methods (new, list,
            // resume, close, prompt, cancel), which this agent serves.
            ProtocolVersion::V2 => json!({
                "protocolVersion": 2,
                "info": info,
                "capabilities": { "session": {} },
            }),
        };
        let _ = writeln!(
            self.log,
            "agent: speaking protocol {protocol}; the client asked for {}",
            client.protocol_version
        );
        self.protocol = Some(protocol);
        self.client = Some(client);
        self.respond(id, &result)
    }

    fn new_session(
        &mut self,
        id: &Value,
        params: &Value,
        protocol: ProtocolVersion,
    ) -> io::Result<()> {
        if !params["cwd"].is_string() {
            return self.error(
                id,
                code::INVALID_PARAMS,
                "`cwd` must be a string (an absolute path)",
            );
        }
        self.next_session += 1;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let session = format!(
            "sess_{}_{nanos:08x}_{}",
            std::process::id(),
            self.next_session
        );
        let client = self
            .client
            .as_ref()
            .map(|c| c.capabilities.clone())
            .unwrap_or_default();
        // One sender per session, for the session's life: it keeps the live
        // plans the v1 fallback is drawn from, turn after turn.
        let sender = PlanSender::with_protocol(session.clone(), protocol, &client);
        self.sessions.push(Session {
            id: session.clone(),
            cwd: params["cwd"].clone(),
            sender,
        });
        self.respond(id, &json!({ "sessionId": session }))
    }

    /// v2's other baseline session methods: sessions live as long as the
    /// process; `resume` replays nothing (no history is kept).
    fn v2_session(&mut self, id: &Value, method: &str, params: &Value) -> io::Result<()> {
        if method == "session/list" {
            let sessions: Vec<Value> = self
                .sessions
                .iter()
                .filter(|s| params["cwd"].is_null() || params["cwd"] == s.cwd)
                .map(|s| json!({ "sessionId": s.id, "cwd": s.cwd }))
                .collect();
            return self.respond(id, &json!({ "sessions": sessions }));
        }
        let Some(index) = self
            .sessions
            .iter()
            .position(|s| params["sessionId"] == s.id)
        else {
            let message = format!("unknown session {}", params["sessionId"]);
            return self.error(id, code::INVALID_PARAMS, &message);
        };
        if method == "session/close" {
            self.sessions.remove(index);
        }
        self.respond(id, &json!({}))
    }

    fn respond(&mut self, id: &Value, result: &Value) -> io::Result<()> {
        self.send_response(json!({ "jsonrpc": "2.0", "id": id, "result": result }))
    }

    fn error(&mut self, id: &Value, code: i64, message: &str) -> io::Result<()> {
        self.send_response(error_response(id, code, message))
    }

    /// A response: written, or kept for the batch being served.
    fn send_response(&mut self, response: Value) -> io::Result<()> {
        if let Some(error) = response.get("error") {
            let _ = writeln!(
                self.log,
                "agent: error {}: {}",
                error["code"], error["message"]
            );
        }
        match &mut self.batch {
            Some(responses) => {
                responses.push(response);
                Ok(())
            }
            None => self.write(&response),
        }
    }

    fn write(&mut self, message: &Value) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, message)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the agent on `input` (client lines) and returns its output lines.
    pub(super) fn talk(input: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let options = Options {
            pause: Duration::ZERO,
            ..Options::default()
        };
        serve(
            io::Cursor::new(input.to_owned().into_bytes()),
            &mut out,
            io::sink(),
            options,
        )
        .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    #[test]
    fn flags() {
        let parse = |args: &[&str]| parse_args(args.iter().map(|s| (*s).to_owned()));
        assert_eq!(parse(&[]), Ok(Options::default()));
        assert_eq!(parse(&["--fast"]).unwrap().pause, Duration::ZERO);
        assert!(parse(&["--help"]).unwrap().help);
        assert!(parse(&["--json"]).unwrap_err().contains("unknown argument"));
    }

    #[test]
    fn bad_input_gets_errors_and_the_agent_keeps_serving() {
        let out = talk(concat!(
            "not json\n",
            "42\n",
            "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"initialize\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/new\",\"params\":{\"cwd\":\"/\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"one\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/load\",\"params\":{}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"nope\",\"prompt\":[]}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"session/new\",\"params\":{}}\n",
        ));
        let codes: Vec<(Value, Value)> = out
            .iter()
            .map(|m| (m["id"].clone(), m["error"]["code"].clone()))
            .collect();
        assert_eq!(
            codes,
            [
                (Value::Null, json!(code::PARSE_ERROR)),
                (Value::Null, json!(code::INVALID_REQUEST)),
                (json!(1), json!(code::INVALID_REQUEST)),
                (json!(2), json!(code::INVALID_REQUEST)),
                (json!(3), json!(code::INVALID_PARAMS)),
                (json!(4), Value::Null),
                (json!(5), json!(code::METHOD_NOT_FOUND)),
                (json!(6), json!(code::INVALID_PARAMS)),
                (json!(7), json!(code::INVALID_PARAMS)),
            ]
        );
        assert_eq!(out[5]["result"]["protocolVersion"], 1);
    }
}
