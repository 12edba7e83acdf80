//! A real ACP agent on standard input and output: it answers `initialize`
//! (protocol versions 1 and 2), `session/new`, `session/prompt` and
//! `session/cancel`, and on each prompt works through a refactor, showing
//! its plans to the client as it goes. The plans are declared with `plan!`
//! and `#[derive(Steps)]` and sent by a `PlanSender` shaped by what the client
//! said in `initialize`, so every client gets only what it can read.
//!
//! ```text
//! cargo run --example board -- cargo run -q --example agent      # our client drives it
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
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use plan_core::{
    InitializeRequest, PlanContent, PlanEntry, PlanId, PlanSender, Priority, ProtocolVersion,
    Status, Steps, plan,
};
use serde_json::{Value, json};

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
    };
    agent.run()
}

/// One session: its id, its working directory and the sender shaped for the client.
struct Session {
    id: String,
    cwd: Value,
    sender: PlanSender,
}

/// A message read from the client.
enum Incoming {
    /// A request: answer it.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification: act on it, answer nothing.
    Notification { method: String, params: Value },
    /// A response to a request of ours (this agent sends none): ignored.
    Response,
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

    /// Reads one line; a line that is not a JSON-RPC message is answered
    /// with an error here (`None`).
    fn read(&mut self, line: &[u8]) -> io::Result<Option<Incoming>> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        let value: Value = match serde_json::from_slice(line) {
            Ok(value) => value,
            Err(e) => {
                self.error(&Value::Null, code::PARSE_ERROR, &format!("not JSON: {e}"))?;
                return Ok(None);
            }
        };
        let Value::Object(mut object) = value else {
            self.error(
                &Value::Null,
                code::INVALID_REQUEST,
                "a JSON-RPC message is an object",
            )?;
            return Ok(None);
        };
        let id = object.remove("id");
        if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            let id = id.unwrap_or(Value::Null);
            self.error(
                &id,
                code::INVALID_REQUEST,
                "expected `\"jsonrpc\": \"2.0\"`",
            )?;
            return Ok(None);
        }
        let params = object.remove("params").unwrap_or(Value::Null);
        Ok(Some(match (object.remove("method"), id) {
            (Some(Value::String(method)), Some(id)) => Incoming::Request { id, method, params },
            (Some(Value::String(method)), None) => Incoming::Notification { method, params },
            (None, Some(_)) if object.contains_key("result") || object.contains_key("error") => {
                Incoming::Response
            }
            (_, id) => {
                let id = id.unwrap_or(Value::Null);
                self.error(&id, code::INVALID_REQUEST, "`method` must be a string")?;
                return Ok(None);
            }
        }))
    }

    fn handle(&mut self, message: Incoming) -> io::Result<TurnEnd> {
        match message {
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
        let protocol = client.negotiated();
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

    fn prompt(
        &mut self,
        id: &Value,
        params: &Value,
        protocol: ProtocolVersion,
    ) -> io::Result<TurnEnd> {
        let Some(session) = params["sessionId"].as_str() else {
            self.error(id, code::INVALID_PARAMS, "`sessionId` must be a string")?;
            return Ok(TurnEnd::Done);
        };
        let Some(index) = self.sessions.iter().position(|s| s.id == session) else {
            self.error(
                id,
                code::INVALID_PARAMS,
                &format!("unknown session `{session}`"),
            )?;
            return Ok(TurnEnd::Done);
        };
        if !params["prompt"].is_array() {
            self.error(
                id,
                code::INVALID_PARAMS,
                "`prompt` must be an array of content blocks",
            )?;
            return Ok(TurnEnd::Done);
        }
        if protocol == ProtocolVersion::V2 {
            // v2: the response accepts the prompt and names the user message
            // it became, which the agent echoes; the turn's end is a state update.
            self.next_message += 1;
            let message = format!("msg_{}", self.next_message);
            self.respond(id, &json!({ "messageId": message }))?;
            let echo = json!({ "messageId": message, "content": params["prompt"] });
            self.update(index, "user_message", echo)?;
            self.update(index, "state_update", json!({ "state": "running" }))?;
        }
        let end = self.turn(index)?;
        let stop = match end {
            TurnEnd::Done => "end_turn",
            TurnEnd::Cancelled => "cancelled",
            TurnEnd::Closed => return Ok(TurnEnd::Closed),
        };
        match protocol {
            ProtocolVersion::V1 => self.respond(id, &json!({ "stopReason": stop }))?,
            ProtocolVersion::V2 => {
                self.update(
                    index,
                    "state_update",
                    json!({ "state": "idle", "stopReason": stop }),
                )?;
            }
        }
        Ok(end)
    }

    /// The work of one prompt: a refactor, its notes (markdown, then a
    /// checklist of the same id, removed when done), a design document in a
    /// file (a markdown plan with its `path`), and a verification plan
    /// declared as a type.
    fn turn(&mut self, index: usize) -> io::Result<TurnEnd> {
        let refactor_id = PlanId::new("refactor").unwrap_or_else(|_| unreachable!("a valid id"));
        let mut refactor = vec![
            PlanEntry::new(
                "Analyze the existing codebase structure",
                Priority::High,
                Status::Pending,
            ),
            PlanEntry::new(
                "Identify components that need refactoring",
                Priority::High,
                Status::Pending,
            ),
            PlanEntry::new(
                "Create unit tests for critical functions",
                Priority::Medium,
                Status::Pending,
            ),
            PlanEntry::new("Update the changelog", Priority::Low, Status::Pending),
        ];
        let notes = notes(false);
        let mut verify = Verify::start().one_at_a_time();

        let items = |entries: &[PlanEntry]| {
            Step::Update(PlanContent::items(refactor_id.clone(), entries.to_vec()))
        };
        let session_id = self.sessions[index].id.clone();
        for stage in 0.. {
            let (r, v) = (&mut refactor, &mut verify);
            let actions = match stage {
                0 => vec![items(r)],
                1 => vec![Step::Update(notes.clone()), Step::Update(design(false))],
                2 => {
                    r[0].status = Status::InProgress;
                    vec![items(r)]
                }
                3 => {
                    r[0].status = Status::Completed;
                    r[1].status = Status::InProgress;
                    vec![items(r), Step::Update(self::notes(true))]
                }
                4 => {
                    // A discovery: a new task joins the plan, after the current one.
                    let found = "Fix the circular dependency in the auth module";
                    r.insert(2, PlanEntry::new(found, Priority::High, Status::Pending));
                    vec![items(r)]
                }
                5 => {
                    r[1].status = Status::Completed;
                    r[2].status = Status::InProgress;
                    vec![items(r), Step::Remove(notes.id().clone())]
                }
                6 => {
                    r[2].status = Status::Completed;
                    r[3].status = Status::InProgress;
                    let _ = v.begin(Verify::Lint);
                    // The design is agreed: its file is rewritten, and so is the plan.
                    vec![
                        items(r),
                        Step::Update(v.content()),
                        Step::Update(design(true)),
                    ]
                }
                7 => {
                    r[3].status = Status::Completed;
                    let _ = v.finish(Verify::Lint);
                    let _ = v.begin(Verify::Test);
                    vec![items(r), Step::Update(v.content())]
                }
                8 => {
                    // The changelog is not needed after all.
                    r[4].status = Status::Cancelled;
                    let _ = v.finish(Verify::Test);
                    vec![items(r), Step::Update(v.content())]
                }
                _ => return Ok(TurnEnd::Done),
            };
            for action in actions {
                self.send(index, action)?;
            }
            match self.pause(&session_id) {
                Pause::Go => {}
                Pause::Closed => return Ok(TurnEnd::Closed),
                Pause::Cancelled => {
                    // Stop: what is not done will not be done in this turn.
                    for entry in &mut refactor {
                        if entry.status != Status::Completed {
                            entry.status = Status::Cancelled;
                        }
                    }
                    self.send(index, items(&refactor))?;
                    if verify.steps().any(|(_, s)| *s != Status::Pending) {
                        let _ = verify.abandon();
                        self.send(index, Step::Update(verify.content()))?;
                    }
                    return Ok(TurnEnd::Cancelled);
                }
            }
        }
        Ok(TurnEnd::Done)
    }

    /// Waits the pause between steps, reading what the client sends
    /// meanwhile: a `session/cancel` for this session stops the turn;
    /// requests wait for the turn to end.
    fn pause(&mut self, session: &str) -> Pause {
        let deadline = std::time::Instant::now() + self.options.pause;
        loop {
            let wait = deadline.saturating_duration_since(std::time::Instant::now());
            let line = if wait.is_zero() {
                match self.inbox.try_recv() {
                    Ok(line) => line,
                    Err(mpsc::TryRecvError::Empty) => return Pause::Go,
                    Err(mpsc::TryRecvError::Disconnected) => return Pause::Closed,
                }
            } else {
                match self.inbox.recv_timeout(wait) {
                    Ok(line) => line,
                    Err(RecvTimeoutError::Timeout) => return Pause::Go,
                    Err(RecvTimeoutError::Disconnected) => return Pause::Closed,
                }
            };
            match self.read(&line) {
                Ok(Some(Incoming::Notification { method, params }))
                    if method == "session/cancel" && params["sessionId"] == session =>
                {
                    return Pause::Cancelled;
                }
                Ok(Some(message)) => self.queued.push_back(message),
                Ok(None) => {}
                Err(_) => return Pause::Closed,
            }
        }
    }

    fn send(&mut self, index: usize, step: Step) -> io::Result<()> {
        let session = &mut self.sessions[index];
        match step {
            Step::Update(plan) => session.sender.send_update(&mut self.out, plan).map(drop),
            Step::Remove(id) => session.sender.send_remove(&mut self.out, &id).map(drop),
        }
    }

    /// A session update other than a plan (v2's `state_update`, `user_message`).
    fn update(&mut self, index: usize, kind: &str, fields: Value) -> io::Result<()> {
        let mut update = fields;
        update["sessionUpdate"] = json!(kind);
        let params = json!({ "sessionId": self.sessions[index].id, "update": update });
        self.write(&json!({ "jsonrpc": "2.0", "method": "session/update", "params": params }))
    }

    fn respond(&mut self, id: &Value, result: &Value) -> io::Result<()> {
        self.write(&json!({ "jsonrpc": "2.0", "id": id, "result": result }))
    }

    fn error(&mut self, id: &Value, code: i64, message: &str) -> io::Result<()> {
        let _ = writeln!(self.log, "agent: error {code}: {message}");
        self.write(
            &json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }),
        )
    }

    fn write(&mut self, message: &Value) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, message)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

/// One thing a turn sends.
enum Step {
    Update(PlanContent),
    Remove(PlanId),
}

/// What happened during a pause.
enum Pause {
    Go,
    Cancelled,
    Closed,
}

/// The verification that follows a refactor, declared as a type: the
/// compiler knows every step, and a run can only name these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Steps)]
#[plan(id = "verify")]
pub enum Verify {
    /// Run the linters
    #[step(priority = high)]
    Lint,
    /// Run the test suite
    #[step(priority = high)]
    Test,
}

/// The turn's notes: markdown at first; later the same plan as a checklist
/// (`as_tasks`): a `plan_update` replaces the whole plan, even its type.
fn notes(as_tasks: bool) -> PlanContent {
    if as_tasks {
        plan! { id: "notes", items: [
            high pending "Ask about the auth module",
            low completed "Check the CI budget",
        ] }
    } else {
        plan! { id: "notes", markdown: "## Notes\n- [ ] Ask about the auth module\n- [x] Check the CI budget" }
    }
}

/// The design document. It lives in a file: the markdown is what every
/// client shows, the absolute path what one can open.
fn design(agreed: bool) -> PlanContent {
    if agreed {
        plan! {
            id: "design-doc",
            markdown: "# Refactor design\n- [x] Split the auth module\n- [x] Agree on the new interfaces",
            path: "/tmp/refactor-design.md",
        }
    } else {
        plan! {
            id: "design-doc",
            markdown: "# Refactor design\n- [x] Split the auth module\n- [ ] Agree on the new interfaces",
            path: "/tmp/refactor-design.md",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the agent on `input` (client lines) and returns its output lines.
    fn talk(input: &str) -> Vec<Value> {
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
            "[1,2]\n",
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
