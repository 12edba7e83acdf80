//! A client: starts an ACP agent and draws the plans it shows, live; or
//! reads `session/update` notifications (NDJSON, one JSON-RPC message per
//! line) from a file or standard input. Either way it applies them to one
//! `PlanBoard` per session and draws the boards.
//!
//! ```text
//! cargo run --example board -- cargo run -q --example agent         # drive an agent over ACP
//! cargo run --example board -- ./my-agent --acp                    # any ACP agent (v1, the stable protocol)
//! cargo run --example board -- --protocol 2 -- ./my-agent --acp     # offer the v2 draft
//! cargo run --example board -- --json -- cargo run -q --example agent -- --fast
//! cargo run --example board -- messages.ndjson
//! cargo run --example board -- --json < messages.ndjson   # the final state as JSON
//! cargo run --example board -- --strict messages.ndjson   # refuse what the SDKs would let through
//! ```
//!
//! Driving an agent, it is its client: `initialize` (protocol v1, the
//! stable one, with `clientCapabilities.plan: {}`; `--protocol 2` offers the
//! v2 draft and still says `plan: {}` for an agent that answers v1),
//! `session/new` in the current
//! directory, one `session/prompt` (`--prompt TEXT`); it answers the
//! agent's permission requests by rejecting (and says so on standard
//! error), and when the turn ends prints the final drawing, or with
//! `--json` the final state. It exits 1 if the agent died, broke the
//! protocol or did not answer in time, saying why.
//!
//! It reads as the published SDKs do: a malformed entry is skipped and the
//! rest of its message applied, JSON-RPC requests and responses are ignored
//! (and counted); each skip is reported on standard error with its line
//! number. Invalid lines (not JSON, no usable plan) are reported and
//! skipped; the exit status is 1 if there were any.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

mod agent_process;
use agent_process::AgentProcess;

use plan_core::{Applied, ProtocolVersion, SessionBoards, Spelling, TerminalStyle, render_board};
use serde_json::{Value, json};

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // command-line switches, each on its own
pub struct Options {
    /// Print the final state as JSON instead of drawing it.
    pub json: bool,
    /// Read this file instead of standard input.
    pub path: Option<String>,
    /// Refuse what lenient reading would skip or let through.
    pub strict: bool,
    /// The agent to start and drive (a command and its arguments).
    pub command: Vec<String>,
    /// The protocol version to ask the agent for.
    pub protocol: ProtocolVersion,
    /// Whether to advertise plan support (`clientCapabilities.plan: {}`:
    /// protocol v1, and for a v1 agent when offering v2).
    pub plan_capability: bool,
    /// The prompt to send.
    pub prompt: String,
    /// How long to wait for each message of the agent before giving up.
    pub timeout: Duration,
    /// `--help`: print the usage and exit.
    pub help: bool,
    /// `--auth ID`: call `authenticate` with this method before `session/new`.
    pub auth: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            json: false,
            path: None,
            strict: false,
            command: Vec::new(),
            // The stable protocol: v2 is a draft, offered only when asked.
            protocol: ProtocolVersion::V1,
            plan_capability: true,
            prompt: "Refactor the auth module and show me your plan.".to_owned(),
            timeout: Duration::from_mins(1),
            help: false,
            auth: None,
        }
    }
}

/// The id of the `authenticate` request (`--auth`).
const AUTHENTICATE: u64 = 3;

/// What `--help` prints (and a command-line mistake, after the mistake).
pub const USAGE: &str = "\
usage: cargo run --example board -- [--json] [--strict] [FILE]      read NDJSON from FILE or standard input
       cargo run --example board -- [OPTIONS] [--] COMMAND [ARGS...] start COMMAND as an ACP agent and drive one turn

  --json                 print the final state as JSON instead of drawing it
  --strict               refuse what the SDKs would let through (reading a file)
  --protocol 1|2         the version to offer: 1, the stable protocol (default), or the v2 draft
  --no-plan-capability   a v1 client that does not send `clientCapabilities.plan`
  --prompt TEXT          the prompt to send
  --timeout SECONDS      how long to wait for each message of the agent (default 60)
  --auth ID              authenticate with the agent's method ID before `session/new`
  -h, --help             this text
";

#[allow(dead_code)] // `main` is unused where the end-to-end test includes this file.
fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) if options.help => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(options) => options,
        Err(message) => {
            eprintln!("board: {message}");
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let style = TerminalStyle::detect(&stdout);
    let live = !options.json && stdout.is_terminal();
    if !options.command.is_empty() {
        return match client(&options, &mut stdout.lock(), &mut io::stderr(), style, live) {
            Ok(()) => ExitCode::SUCCESS,
            Err(reason) => {
                eprintln!("board: {reason}");
                ExitCode::FAILURE
            }
        };
    }
    let input: Box<dyn BufRead> = match &options.path {
        Some(path) => match File::open(path) {
            Ok(file) => Box::new(BufReader::new(file)),
            Err(e) => {
                eprintln!("board: cannot open {path}: {e}");
                return ExitCode::from(2);
            }
        },
        None => Box::new(io::stdin().lock()),
    };
    match run(
        &options,
        input,
        &mut stdout.lock(),
        &mut io::stderr(),
        style,
        live,
    ) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("board: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `path` is a file this user may run (on Unix: a file with an
/// execute bit), which the board starts as an agent rather than reads.
fn is_program(path: &str) -> bool {
    let Ok(metadata) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        metadata.is_file()
            && std::path::Path::new(path)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("exe"))
    }
}

/// Reads the command line.
///
/// # Errors
/// What is wrong with it, in one sentence.
pub fn parse_args(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("`{name}` needs a value"));
        match arg.as_str() {
            "--help" | "-h" => options.help = true,
            "--json" => options.json = true,
            "--strict" => options.strict = true,
            "--no-plan-capability" => options.plan_capability = false,
            "--protocol" => {
                options.protocol = match value("--protocol")?.as_str() {
                    "1" => ProtocolVersion::V1,
                    "2" => ProtocolVersion::V2,
                    other => {
                        return Err(format!(
                            "unknown protocol version `{other}`; expected 1 or 2"
                        ));
                    }
                }
            }
            "--prompt" => options.prompt = value("--prompt")?,
            "--auth" => options.auth = Some(value("--auth")?),
            "--timeout" => {
                let text = value("--timeout")?;
                let seconds: u64 = text
                    .parse()
                    .map_err(|_| format!("`--timeout` takes whole seconds, not `{text}`"))?;
                options.timeout = Duration::from_secs(seconds);
            }
            "--" => {
                options.command = args.by_ref().collect();
                if options.command.is_empty() {
                    return Err("`--` must be followed by the agent's command".to_owned());
                }
            }
            flag if flag.starts_with("--") => return Err(format!("unknown argument `{flag}`")),
            // `board cargo run ...`: the first word that is not a file to read starts a command.
            word if options.path.is_none()
                && options.command.is_empty()
                && args.peek().is_some() =>
            {
                options.command = std::iter::once(word.to_owned())
                    .chain(args.by_ref())
                    .collect();
            }
            // A program given without `--` (`board ./target/debug/my-agent`) is an agent to start.
            word if options.path.is_none() && options.command.is_empty() && is_program(word) => {
                options.command = vec![word.to_owned()];
            }
            path if options.path.is_none() => options.path = Some(path.to_owned()),
            extra => return Err(format!("one input file only; `{extra}` is a second")),
        }
    }
    if options.path.is_some() && !options.command.is_empty() {
        return Err("either a file to read or an agent to start, not both".to_owned());
    }
    Ok(options)
}

/// How many unreadable lines in a row make the board stop reading: not an
/// NDJSON stream of ACP messages (a binary, say).
pub const UNREADABLE_RUN: usize = 20;

/// Applies every line of `input`; draws the boards after each line when
/// `live`, else once at the end (or prints them as JSON). Returns how many
/// lines were invalid.
///
/// # Errors
/// An error reading the input or writing the output.
pub fn run(
    options: &Options,
    input: impl BufRead,
    out: &mut impl Write,
    err: &mut impl Write,
    style: TerminalStyle,
    live: bool,
) -> io::Result<usize> {
    let mut boards = if options.strict {
        SessionBoards::new().strict()
    } else {
        SessionBoards::new()
    };
    let (mut invalid, mut other_messages, mut in_a_row) = (0, 0, 0);
    // Lines are read as bytes, so a line that is not UTF-8 is reported and
    // skipped like any other bad line instead of ending the stream.
    for (index, bytes) in input.split(b'\n').enumerate() {
        let bytes = bytes?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match boards.apply_slice(&bytes) {
            Ok(read) => {
                in_a_row = 0;
                for skipped in &read.skipped {
                    writeln!(err, "board: line {}: {skipped}", index + 1)?;
                }
                if let Applied::OtherMessage { .. } = read.value {
                    other_messages += 1;
                } else if live {
                    write!(out, "\x1b[H\x1b[2J")?;
                    draw(&boards, out, style)?;
                }
            }
            Err(e) => {
                invalid += 1;
                in_a_row += 1;
                writeln!(err, "board: line {}: {e}", index + 1)?;
                if in_a_row == UNREADABLE_RUN {
                    writeln!(
                        err,
                        "board: stopped reading at line {}: {UNREADABLE_RUN} lines in a row were not ACP messages \
                         (is this a program? to start an agent, write `board -- COMMAND`)",
                        index + 1
                    )?;
                    break;
                }
            }
        }
    }
    if other_messages > 0 {
        writeln!(
            err,
            "board: {other_messages} JSON-RPC message(s) other than `session/update` ignored"
        )?;
    }
    if options.json {
        let sessions: Vec<_> = boards
            .boards()
            .map(|b| b.to_json_value(Spelling::Acp))
            .collect();
        let state = json!({ "sessions": sessions });
        serde_json::to_writer_pretty(&mut *out, &state).map_err(io::Error::from)?;
        writeln!(out)?;
    } else if !live {
        draw(&boards, out, style)?;
    }
    out.flush()?;
    Ok(invalid)
}

/// The `initialize` params the board sends. v1 (the default): the stable
/// protocol, with `clientCapabilities.plan: {}`. v2 (a draft) has no plan
/// capability (`plan_update` is baseline there); an agent that speaks only
/// v1 answers v1 and reads v1's keys, so the same request also carries them
/// (v2's schema allows extra keys, and a v2 reader ignores them). The
/// Python SDK 0.12.1 reads them; the TypeScript SDK 2.4.0 gives a v1 agent
/// `plan: {}` for any v2 offer; the Rust SDK 5.0.0 rebuilds the request from
/// v2's keys and drops them, so its v1 agents fall back to the v1 `plan`:
/// why v1 is the default.
pub fn initialize_params(options: &Options) -> Value {
    let info = json!({ "name": "plan-core-example-board", "version": env!("CARGO_PKG_VERSION") });
    let mut v1_capabilities =
        json!({ "fs": { "readTextFile": false, "writeTextFile": false }, "terminal": false });
    if options.plan_capability {
        v1_capabilities["plan"] = json!({});
    }
    match options.protocol {
        ProtocolVersion::V1 => {
            json!({ "protocolVersion": 1, "clientCapabilities": v1_capabilities, "clientInfo": info })
        }
        ProtocolVersion::V2 => json!({
            "protocolVersion": 2,
            "info": info,
            "capabilities": {},
            "clientCapabilities": v1_capabilities,
            "clientInfo": info,
        }),
    }
}

/// Starts `options.command` as an ACP agent and drives one prompt turn
/// (see [`drive`]), then closes its input and waits for it to exit.
///
/// # Errors
/// Why the turn did not end well, in one sentence.
pub fn client(
    options: &Options,
    out: &mut impl Write,
    err: &mut impl Write,
    style: TerminalStyle,
    live: bool,
) -> Result<(), String> {
    let (program, args) = options
        .command
        .split_first()
        .ok_or("no agent command to start")?;
    let (agent, agent_in, agent_out) =
        AgentProcess::start(program, args).map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let outcome = drive(
        options,
        BufReader::new(agent_out),
        agent_in,
        out,
        err,
        style,
        live,
    );
    // `drive` closed the agent's input. After a good turn the agent should
    // exit on its own; one that failed gets a moment. Then its process group
    // goes (see `agent_process.rs`).
    let grace = if outcome.is_ok() {
        Duration::from_secs(5)
    } else {
        Duration::from_millis(200)
    };
    agent.end(grace);
    outcome
}

/// What one line from the agent is.
enum FromAgent {
    Notification(String, Value),
    Request(Value, String, Value),
    Response(Value, Result<Value, Value>),
}

/// Reads one line from the agent.
fn from_agent(line: &[u8]) -> Result<FromAgent, String> {
    let text = String::from_utf8_lossy(line);
    let value: Value = serde_json::from_slice(line)
        .map_err(|e| format!("the agent broke the protocol: not JSON ({e}): {text}"))?;
    if value["jsonrpc"] != "2.0" {
        return Err(format!(
            "the agent broke the protocol: not JSON-RPC 2.0: {text}"
        ));
    }
    let (id, method) = (value.get("id").cloned(), value["method"].as_str());
    Ok(match (id, method) {
        (None, Some(method)) => FromAgent::Notification(method.to_owned(), value["params"].clone()),
        (Some(id), Some(method)) => {
            FromAgent::Request(id, method.to_owned(), value["params"].clone())
        }
        (Some(id), None) => match (value.get("result"), value.get("error")) {
            (Some(result), None) => FromAgent::Response(id, Ok(result.clone())),
            (None, Some(error)) => FromAgent::Response(id, Err(error.clone())),
            _ => {
                return Err(format!(
                    "the agent broke the protocol: a response needs `result` or `error`: {text}"
                ));
            }
        },
        (None, None) => {
            return Err(format!(
                "the agent broke the protocol: neither a request, a notification nor a response: {text}"
            ));
        }
    })
}

/// The client's side of one prompt turn with an agent that reads
/// `agent_in` and writes `agent_out`; the boards are drawn to `out` (live,
/// or once at the end, or as JSON), what happens is said on `err`.
///
/// # Errors
/// Why the turn did not end well: the agent died, broke the protocol,
/// refused a request, or did not answer within `options.timeout`.
pub fn drive<R: BufRead + Send + 'static, W: Write>(
    options: &Options,
    agent_out: R,
    agent_in: W,
    out: &mut impl Write,
    err: &mut impl Write,
    style: TerminalStyle,
    live: bool,
) -> Result<(), String> {
    let mut client = Client {
        options,
        inbox: agent_process::lines(agent_out),
        agent_in,
        boards: if options.strict {
            SessionBoards::new().strict()
        } else {
            SessionBoards::new()
        },
        protocol: None,
        accepted: false,
        auth_methods: Value::Null,
        waiting: "the answer to `initialize`",
        updates: 0,
        other_messages: 0,
    };
    client.initialize()?;
    let stop = loop {
        let bytes = client.next()?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let ended = match from_agent(&bytes)? {
            FromAgent::Response(id, result) => client.on_response(&id, result)?,
            FromAgent::Request(id, method, params) => {
                client.on_request(&id, &method, &params, err)?;
                None
            }
            FromAgent::Notification(method, params) => {
                let ended = client.on_notification(&method, &params, &bytes, err)?;
                if ended.is_none() && live && method == "session/update" {
                    write!(out, "\x1b[H\x1b[2J").map_err(write_error)?;
                    draw(&client.boards, out, style).map_err(write_error)?;
                }
                ended
            }
        };
        if let Some(stop) = ended {
            break stop;
        }
    };
    let _ = writeln!(
        err,
        "board: the turn ended ({stop}); {} session update(s), {} other message(s)",
        client.updates, client.other_messages
    );
    if options.json {
        let sessions: Vec<_> = client
            .boards
            .boards()
            .map(|b| b.to_json_value(Spelling::Acp))
            .collect();
        serde_json::to_writer_pretty(&mut *out, &json!({ "sessions": sessions }))
            .map_err(|e| format!("cannot write: {e}"))?;
        writeln!(out).map_err(write_error)?;
    } else if !live {
        draw(&client.boards, out, style).map_err(write_error)?;
    }
    out.flush().map_err(write_error)
}

#[allow(clippy::needless_pass_by_value)] // the shape `map_err` wants
fn write_error(e: io::Error) -> String {
    format!("cannot write: {e}")
}

/// The client's side of one conversation.
struct Client<'o, W> {
    options: &'o Options,
    inbox: mpsc::Receiver<Vec<u8>>,
    agent_in: W,
    boards: SessionBoards,
    /// The version the agent answered `initialize` with.
    protocol: Option<ProtocolVersion>,
    /// v2: the agent accepted the prompt; an idle state ends the turn.
    accepted: bool,
    /// The `authMethods` the agent offered in `initialize`.
    auth_methods: Value,
    /// What the client waits for, to say so if it does not come.
    waiting: &'static str,
    updates: usize,
    other_messages: usize,
}

impl<W: Write> Client<'_, W> {
    fn send(&mut self, message: &Value) -> Result<(), String> {
        let mut line = message.to_string();
        line.push('\n');
        self.agent_in
            .write_all(line.as_bytes())
            .and_then(|()| self.agent_in.flush())
            .map_err(|e| format!("the agent closed its input (it exited?): {e}"))
    }

    fn request(&mut self, id: u64, method: &str, params: &Value) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
    }

    /// The next line from the agent, within the timeout.
    fn next(&self) -> Result<Vec<u8>, String> {
        let waiting = self.waiting;
        match self.inbox.recv_timeout(self.options.timeout) {
            Ok(bytes) => Ok(bytes),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "the agent sent nothing for {} s while the client waited for {waiting}",
                self.options.timeout.as_secs()
            )),
            Err(RecvTimeoutError::Disconnected) => Err(format!(
                "the agent closed its output (it exited?) while the client waited for {waiting}"
            )),
        }
    }

    fn initialize(&mut self) -> Result<(), String> {
        self.request(0, "initialize", &initialize_params(self.options))
    }

    /// A response of the agent; `Some(stop reason)` when it ends the turn.
    fn on_response(
        &mut self,
        id: &Value,
        result: Result<Value, Value>,
    ) -> Result<Option<String>, String> {
        let result = match result {
            Ok(result) => result,
            Err(error) => return Err(self.refused(id, &error)),
        };
        match id.as_u64() {
            Some(0) => {
                let agreed = match result["protocolVersion"].as_u64() {
                    Some(1) => ProtocolVersion::V1,
                    Some(2) => ProtocolVersion::V2,
                    _ => {
                        return Err(format!(
                            "the agent answered protocol version {}, which this client does not speak",
                            result["protocolVersion"]
                        ));
                    }
                };
                self.protocol = Some(agreed);
                self.auth_methods = result["authMethods"].clone();
                match &self.options.auth {
                    Some(method) => {
                        let method = method.clone();
                        self.request(AUTHENTICATE, "authenticate", &json!({ "methodId": method }))?;
                        self.waiting = "the answer to `authenticate`";
                    }
                    None => self.new_session()?,
                }
            }
            Some(AUTHENTICATE) => self.new_session()?,
            Some(1) => {
                let session = result["sessionId"].as_str().ok_or(
                    "the agent broke the protocol: `session/new` answered without a `sessionId`",
                )?;
                let prompt = json!([{ "type": "text", "text": self.options.prompt }]);
                self.request(
                    2,
                    "session/prompt",
                    &json!({ "sessionId": session, "prompt": prompt }),
                )?;
                self.waiting = "the end of the turn";
            }
            Some(2) if self.protocol == Some(ProtocolVersion::V1) => {
                return Ok(Some(
                    result["stopReason"].as_str().unwrap_or("(none)").to_owned(),
                ));
            }
            // v2: the prompt is accepted; the turn ends with an idle state.
            Some(2) => self.accepted = true,
            _ => self.other_messages += 1,
        }
        Ok(None)
    }

    fn new_session(&mut self) -> Result<(), String> {
        let cwd = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
        self.request(1, "session/new", &json!({ "cwd": cwd, "mcpServers": [] }))?;
        self.waiting = "the answer to `session/new`";
        Ok(())
    }

    /// Why the agent refused request `id`, with what the user can do: for a
    /// refused `session/new` or `authenticate`, the authentication methods
    /// the agent offered (`--auth ID`), with their environment variables.
    fn refused(&self, id: &Value, error: &Value) -> String {
        let mut reason = format!("the agent refused request {id}: {error}");
        if !matches!(id.as_u64(), Some(1 | AUTHENTICATE)) {
            return reason;
        }
        let methods = self
            .auth_methods
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        if methods.is_empty() {
            return reason;
        }
        reason.push_str(
            "\nthe agent offers these ways to authenticate; choose one with `--auth ID`:",
        );
        for method in methods {
            let text = |key: &str| method[key].as_str().unwrap_or_default().to_owned();
            let _ = write!(reason, "\n  {}", text("id"));
            if !text("name").is_empty() {
                let _ = write!(reason, ": {}", text("name"));
            }
            if !text("description").is_empty() {
                let _ = write!(reason, " ({})", text("description"));
            }
            // An `env_var` method names the variables the agent reads.
            let vars: Vec<String> = method["vars"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .filter_map(|v| v["name"].as_str().map(str::to_owned))
                .chain(method["varName"].as_str().map(str::to_owned))
                .collect();
            if !vars.is_empty() {
                let _ = write!(reason, "; set {}", vars.join(", "));
            }
        }
        reason
    }

    /// A request of the agent: permissions are rejected (a reject option
    /// if there is one, else `cancelled`); anything else is not served.
    fn on_request(
        &mut self,
        id: &Value,
        method: &str,
        params: &Value,
        err: &mut impl Write,
    ) -> Result<(), String> {
        let answer = agent_process::answer_request(id, method, params);
        if method == "session/request_permission" {
            let outcome = &answer["result"]["outcome"];
            let _ = writeln!(
                err,
                "board: the agent asked for permission; answered {outcome}"
            );
        } else {
            let _ = writeln!(
                err,
                "board: the agent asked for `{method}`, which this client does not serve"
            );
        }
        self.send(&answer)
    }

    /// A notification of the agent: plan updates go on the board; v2's idle
    /// state after the prompt ends the turn (`Some(stop reason)`).
    fn on_notification(
        &mut self,
        method: &str,
        params: &Value,
        bytes: &[u8],
        err: &mut impl Write,
    ) -> Result<Option<String>, String> {
        if method != "session/update" {
            self.other_messages += 1;
            return Ok(None);
        }
        let update = &params["update"];
        if update["sessionUpdate"] == "state_update" {
            let after_prompt = self.accepted || self.protocol == Some(ProtocolVersion::V1);
            if update["state"] == "idle" && after_prompt {
                return Ok(Some(
                    update["stopReason"].as_str().unwrap_or("(none)").to_owned(),
                ));
            }
            return Ok(None);
        }
        match self.boards.apply_json(&String::from_utf8_lossy(bytes)) {
            Ok(read) => {
                self.updates += 1;
                for skipped in &read.skipped {
                    let _ = writeln!(err, "board: {skipped}");
                }
            }
            Err(e) if self.options.strict => {
                return Err(format!("the agent broke the protocol: {e}"));
            }
            Err(e) => {
                let _ = writeln!(err, "board: an update was not read: {e}");
            }
        }
        Ok(None)
    }
}

fn draw(boards: &SessionBoards, out: &mut impl Write, style: TerminalStyle) -> io::Result<()> {
    for board in boards.boards() {
        if boards.boards().len() > 1 {
            writeln!(out, "session {}", board.session())?;
        }
        write!(out, "{}", render_board(board, style))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_reported_with_their_number_and_skipped() {
        let input = "{\"jsonrpc\":\"2.0\"}\n\n\
            {\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"plan_removed\",\"planId\":\"x\"}}}\n\
            not json\n";
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let invalid = run(
            &Options::default(),
            input.as_bytes(),
            &mut out,
            &mut err,
            TerminalStyle::PLAIN,
            false,
        )
        .unwrap();
        assert_eq!(invalid, 2);
        let err = String::from_utf8(err).unwrap();
        assert_eq!(
            err,
            "board: line 1: in the message: missing required field `method`\n\
             board: line 4: invalid JSON at line 1, column 2: expected ident\n"
        );
    }

    #[test]
    fn raw_agent_output_reads_as_the_sdks_read_it() {
        let input = concat!(
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[42,{"content":"a","priority":"high","status":"pending"}]}}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"","uri":"file:///tmp/my plan.md"}}}}"#,
            "\n",
        );
        let run_with = |strict| {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let options = Options {
                json: true,
                strict,
                ..Options::default()
            };
            let invalid = run(
                &options,
                input.as_bytes(),
                &mut out,
                &mut err,
                TerminalStyle::PLAIN,
                false,
            )
            .unwrap();
            let state: serde_json::Value = serde_json::from_slice(&out).unwrap();
            (invalid, state, String::from_utf8(err).unwrap())
        };
        let (invalid, state, err) = run_with(false);
        assert_eq!(invalid, 0, "{err}");
        let plans = &state["sessions"][0]["plans"];
        assert_eq!(plans[0]["progress"]["total"], 1, "the good entry is kept");
        assert_eq!(plans[1]["content"]["uri"], "file:///tmp/my plan.md");
        assert_eq!(
            err,
            "board: line 3: skipped `params.update.plan.entries[0]`: expected an object, found a number\n\
             board: line 4: let through `params.update.plan.planId`: a plan id cannot be empty\n\
             board: line 4: let through `params.update.plan.uri`: ' ' cannot appear in a URI as it is; percent-encode it as UTF-8 bytes (a space is `%20`)\n\
             board: 2 JSON-RPC message(s) other than `session/update` ignored\n"
        );
        let (invalid, state, _) = run_with(true);
        assert_eq!(invalid, 2, "strict: the two plan lines are refused");
        assert_eq!(state["sessions"], serde_json::json!([]));
    }

    /// `input` read with the default options, drawn plainly: how many lines
    /// were invalid, and what was said on standard error.
    fn read_plain(input: &[u8]) -> (usize, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let invalid = run(
            &Options::default(),
            input,
            &mut out,
            &mut err,
            TerminalStyle::PLAIN,
            false,
        )
        .unwrap();
        (invalid, String::from_utf8(err).unwrap())
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_skipped() {
        let mut input = b"\xff\xfe\n".to_vec();
        input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"plan_removed\",\"planId\":\"x\"}}}\n");
        let (invalid, err) = read_plain(&input);
        assert_eq!(invalid, 1);
        assert_eq!(
            err,
            "board: line 1: in the message: the message is not UTF-8 text: invalid byte at offset 0\n"
        );
    }

    #[test]
    fn a_run_of_unreadable_lines_stops_the_reading() {
        // A binary read as NDJSON: many lines, none a message.
        let input = b"\x7fELF\x02\x01\n".repeat(1000);
        let (invalid, err) = read_plain(&input);
        assert_eq!(invalid, UNREADABLE_RUN);
        assert_eq!(err.lines().count(), UNREADABLE_RUN + 1);
        assert!(
            err.lines()
                .last()
                .unwrap()
                .contains("to start an agent, write `board -- COMMAND`"),
            "{err}"
        );
    }

    #[test]
    fn flags() {
        let parse = |args: &[&str]| parse_args(args.iter().map(|s| (*s).to_owned()));
        assert_eq!(
            parse(&["--json", "f.ndjson"]).unwrap(),
            Options {
                json: true,
                path: Some("f.ndjson".into()),
                ..Options::default()
            }
        );
        assert!(parse(&["--strict"]).unwrap().strict);
        assert!(parse(&["--live"]).is_err());
        // `--help` is the board's, before the agent's command; after it, the agent's.
        assert!(parse(&["--help"]).unwrap().help);
        assert!(parse(&["-h"]).unwrap().help);
        let auth = parse(&["--auth", "api-key", "--", "agent"]).unwrap();
        assert_eq!(auth.auth.as_deref(), Some("api-key"));
        assert!(parse(&["--auth"]).unwrap_err().contains("needs a value"));
        // A program without `--` is started, not read; a data file is read.
        let exe = std::env::current_exe()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert_eq!(parse(&[exe.as_str()]).unwrap().command, [exe.as_str()]);
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        assert_eq!(parse(&[data]).unwrap().path.as_deref(), Some(data));
        let agent_help = parse(&["--", "my-agent", "--help"]).unwrap();
        assert!(!agent_help.help);
        assert_eq!(agent_help.command, ["my-agent", "--help"]);
        // An agent to start: after `--`, or from the first word that is not a file.
        let drive = parse(&[
            "--protocol",
            "1",
            "--",
            "cargo",
            "run",
            "--example",
            "agent",
        ])
        .unwrap();
        assert_eq!(drive.command, ["cargo", "run", "--example", "agent"]);
        assert_eq!(drive.protocol, ProtocolVersion::V1);
        assert_eq!(
            parse(&["./agent", "--fast"]).unwrap().command,
            ["./agent", "--fast"]
        );
        assert_eq!(parse(&["a", "b"]).unwrap().command, ["a", "b"]);
        let custom = parse(&[
            "--prompt",
            "hi",
            "--timeout",
            "5",
            "--no-plan-capability",
            "--",
            "x",
        ])
        .unwrap();
        assert_eq!(
            (
                custom.prompt.as_str(),
                custom.timeout.as_secs(),
                custom.plan_capability
            ),
            ("hi", 5, false)
        );
        for bad in [
            &["--protocol", "3", "--", "x"][..],
            &["--timeout", "soon"],
            &["--"],
            &["--prompt"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
