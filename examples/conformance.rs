//! `check -- AGENT`: a plan conformance check for any ACP agent. The agent
//! is started once per kind of client (v1 without `plan`, v1 with `plan`,
//! the v2 draft), runs a turn (and with `--cancel` a cancelled one), and
//! every line it writes is judged: the JSON-RPC envelope, the version table
//! (what that client may be sent), the turn's end, and what a lenient
//! client would drop without a word. Findings name their rule, the line of
//! the kind's transcript, the JSON path and a fix, in the words of `check`.
//!
//! Exit status: 0 clean, 1 findings, 2 the agent could not be driven (it
//! could not be started, died, or never answered `initialize` or
//! `session/new`), with the reason.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use plan_core::{ClientKind, SessionNotification};
use serde_json::{Value, json};

use super::agent_process::{self, AgentProcess};

/// The rules of a conversation, beside `check`'s rules of a message.
pub mod rule {
    /// A line that is not JSON-RPC 2.0, or an envelope that is malformed.
    pub const JSON_RPC: &str = "json-rpc";
    /// A request of the client that the agent never answered.
    pub const UNANSWERED: &str = "unanswered-request";
    /// A turn that does not end as its version requires, or not in time.
    pub const TURN_END: &str = "turn-end";
    /// An answer to `initialize` with a version the client did not offer
    /// and cannot speak.
    pub const NEGOTIATION: &str = "version-negotiation";
    /// A `session/update` that no client can read (no usable plan).
    pub const UNREADABLE: &str = "unreadable-update";
    /// Part of a message a lenient client drops without a word (and a strict
    /// one refuses the message for).
    pub const LENIENT_DROPS: &str = "lenient-drops";
}

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// A machine-readable report on standard output.
    pub json: bool,
    /// The prompt of each turn.
    pub prompt: String,
    /// Also run a turn that the client cancels.
    pub cancel: bool,
    /// Write each kind's transcript to this folder.
    pub record: Option<PathBuf>,
    /// How long one turn (or one answer before it) may take.
    pub timeout: Duration,
    /// The agent's command and its arguments.
    pub command: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            json: false,
            prompt: "Refactor the auth module and show me your plan.".to_owned(),
            cancel: false,
            record: None,
            timeout: Duration::from_mins(1),
            command: Vec::new(),
        }
    }
}

/// One problem the run found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's name (`check`'s, or one of [`rule`]).
    pub rule: String,
    /// The line of the kind's transcript (1-based; 0: the run as a whole).
    pub line: usize,
    /// Where in the message, as a JSON path (empty: the whole line).
    pub path: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What a conforming agent sends instead, where there is a fallback.
    pub fix: Option<String>,
}

/// What one kind of client saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindRun {
    /// The client the agent was offered.
    pub kind: ClientKind,
    /// The client it was judged as: the same, or v1 with `plan` when the
    /// agent answered a v2 offer (which carries v1's keys too) with v1.
    pub judged_as: ClientKind,
    /// The protocol version the agent answered.
    pub answered: Option<u64>,
    /// How each turn ended (`stopReason`).
    pub stop_reasons: Vec<String>,
    /// What was found, in transcript order.
    pub findings: Vec<Finding>,
    /// Why the agent could not be driven, if it could not.
    pub failure: Option<String>,
    /// Every line, both ways, in order.
    pub transcript: Vec<String>,
}

/// The name of a kind in reports and recordings.
pub fn slug(kind: ClientKind) -> &'static str {
    match kind {
        ClientKind::V1 => "v1",
        ClientKind::V1Plan => "v1-plan",
        ClientKind::V2 => "v2",
    }
}

/// The exit status of a run: 2 if a kind could not be driven, else 1 if
/// anything was found, else 0.
pub fn exit_code(runs: &[KindRun]) -> u8 {
    if runs.iter().any(|r| r.failure.is_some()) {
        2
    } else {
        u8::from(runs.iter().any(|r| !r.findings.is_empty()))
    }
}

/// Runs the whole check: `options.command` started once per kind. Writes
/// the report to `out` and the transcripts to `options.record`.
///
/// # Errors
/// Only an error writing the report or a transcript.
pub fn run(options: &Options, out: &mut impl Write) -> io::Result<u8> {
    let mut runs = Vec::new();
    for kind in ClientKind::ALL {
        let run = match options.command.split_first() {
            None => failed(kind, "no agent command to start".to_owned()),
            Some((program, args)) => match AgentProcess::start(program, args) {
                Err(e) => failed(kind, format!("cannot start `{program}`: {e}")),
                Ok((agent, input, output)) => {
                    let run = run_kind(kind, options, io::BufReader::new(output), input);
                    agent.end(Duration::from_millis(500));
                    run
                }
            },
        };
        runs.push(run);
    }
    finish(options, &runs, out)?;
    Ok(exit_code(&runs))
}

/// Writes the transcripts (with `--record`) and the report.
///
/// # Errors
/// An error writing either.
pub fn finish(options: &Options, runs: &[KindRun], out: &mut impl Write) -> io::Result<()> {
    if let Some(dir) = &options.record {
        std::fs::create_dir_all(dir)?;
        for run in runs {
            let mut text = run.transcript.join("\n");
            text.push('\n');
            std::fs::write(dir.join(format!("{}.ndjson", slug(run.kind))), text)?;
        }
    }
    if options.json {
        serde_json::to_writer_pretty(&mut *out, &report_json(options, runs))?;
        writeln!(out)
    } else {
        write!(out, "{}", report_text(options, runs))
    }
}

fn failed(kind: ClientKind, reason: String) -> KindRun {
    KindRun {
        kind,
        judged_as: kind,
        answered: None,
        stop_reasons: Vec::new(),
        findings: Vec::new(),
        failure: Some(reason),
        transcript: Vec::new(),
    }
}

/// The report for people: per kind, how the run went and each finding as
/// `FILE:LINE: at PATH: WHAT [RULE]` (FILE is the kind's recording).
pub fn report_text(options: &Options, runs: &[KindRun]) -> String {
    let mut text = format!(
        "check: `{}`, as each kind of client\n",
        options.command.join(" ")
    );
    let mut total = 0;
    for run in runs {
        let file = format!("{}.ndjson", slug(run.kind));
        let _ = write!(text, "{} ({file}): ", run.kind);
        if let Some(failure) = &run.failure {
            let _ = writeln!(text, "could not be driven: {failure}");
            continue;
        }
        if let Some(answered) = run.answered {
            let _ = write!(text, "answered v{answered}");
            if run.judged_as != run.kind {
                let _ = write!(text, " (judged as {})", run.judged_as);
            }
            text.push_str("; ");
        }
        if !run.stop_reasons.is_empty() {
            let _ = write!(text, "turns ended: {}; ", run.stop_reasons.join(", "));
        }
        match run.findings.len() {
            0 => text.push_str("clean\n"),
            n => {
                total += n;
                let _ = writeln!(text, "{n} finding(s)");
            }
        }
        for finding in &run.findings {
            let _ = write!(text, "  {file}:{}: ", finding.line);
            if !finding.path.is_empty() {
                let _ = write!(text, "at `{}`: ", finding.path);
            }
            let _ = write!(text, "{} [{}]", finding.message, finding.rule);
            if let Some(fix) = &finding.fix {
                let _ = write!(text, "; fix: {fix}");
            }
            text.push('\n');
        }
    }
    let _ = writeln!(text, "check: {total} finding(s); exit {}", exit_code(runs));
    text
}

/// The report as JSON.
pub fn report_json(options: &Options, runs: &[KindRun]) -> Value {
    let kinds: Vec<Value> = runs
        .iter()
        .map(|run| {
            let findings: Vec<Value> = run
                .findings
                .iter()
                .map(|f| {
                    json!({ "rule": f.rule, "line": f.line, "path": f.path,
                            "message": f.message, "fix": f.fix })
                })
                .collect();
            json!({
                "kind": slug(run.kind),
                "label": run.kind.to_string(),
                "judgedAs": slug(run.judged_as),
                "record": format!("{}.ndjson", slug(run.kind)),
                "answered": run.answered,
                "stopReasons": run.stop_reasons,
                "failure": run.failure,
                "findings": findings,
            })
        })
        .collect();
    let total: usize = runs.iter().map(|r| r.findings.len()).sum();
    json!({ "command": options.command, "kinds": kinds, "findings": total, "exit": exit_code(runs) })
}

/// What the client offers in `initialize` as `kind`: v1 without or with
/// `clientCapabilities.plan`; v2 with v1's keys too (with `plan`), so an
/// agent that answers v1 still knows what the client reads.
pub fn offer(kind: ClientKind) -> Value {
    let info = json!({ "name": "plan-core-example-check", "version": env!("CARGO_PKG_VERSION") });
    let mut v1 =
        json!({ "fs": { "readTextFile": false, "writeTextFile": false }, "terminal": false });
    if kind != ClientKind::V1 {
        v1["plan"] = json!({});
    }
    match kind {
        ClientKind::V1 | ClientKind::V1Plan => {
            json!({ "protocolVersion": 1, "clientCapabilities": v1, "clientInfo": info })
        }
        ClientKind::V2 => json!({ "protocolVersion": 2, "info": info, "capabilities": {},
                                  "clientCapabilities": v1, "clientInfo": info }),
    }
}

/// Drives one kind of client over `agent_out`/`agent_in` and judges what
/// the agent writes.
pub fn run_kind<R: BufRead + Send + 'static, W: Write>(
    kind: ClientKind,
    options: &Options,
    agent_out: R,
    agent_in: W,
) -> KindRun {
    let mut talk = Conversation {
        options,
        inbox: agent_process::lines(agent_out),
        agent_in,
        run: failed(kind, String::new()),
        pending: BTreeMap::new(),
        prompt: None,
    };
    talk.run.failure = None;
    if let Err(reason) = talk.drive() {
        talk.run.failure = Some(reason);
    }
    for (id, (method, line)) in std::mem::take(&mut talk.pending) {
        let message = format!(
            "the client's `{method}` request (id {id}) was never answered; every JSON-RPC request gets a response"
        );
        talk.find(rule::UNANSWERED, line, String::new(), message, None);
    }
    talk.run
}

/// What reading the next line gave.
enum Next {
    Line(Event),
    Timeout,
    Closed,
}

/// What a line of the agent's was, for the driver.
enum Event {
    Response(u64, Result<Value, Value>),
    /// v2: a `state_update` to `idle`, with its stop reason.
    Idle(String),
    /// Another `session/update`.
    Update,
    Other,
}

struct Conversation<'o, W> {
    options: &'o Options,
    inbox: mpsc::Receiver<Vec<u8>>,
    agent_in: W,
    run: KindRun,
    /// The client's requests not answered yet: id, method, transcript line.
    pending: BTreeMap<u64, (&'static str, usize)>,
    /// The prompt of the turn under way.
    prompt: Option<u64>,
}

impl<W: Write> Conversation<'_, W> {
    fn drive(&mut self) -> Result<(), String> {
        let kind = self.run.kind;
        let init = self.call(0, "initialize", &offer(kind), "`initialize`")?;
        let answered = init["protocolVersion"].as_u64();
        self.run.answered = answered;
        self.run.judged_as = match (kind, answered) {
            // A v2 offer carries v1's keys with `plan`: a v1 answer reads them.
            (ClientKind::V2, Some(1)) => ClientKind::V1Plan,
            (ClientKind::V2, Some(2)) | (ClientKind::V1 | ClientKind::V1Plan, Some(1)) => kind,
            _ => {
                let offered = kind.protocol().number();
                let message = format!(
                    "the client offered v{offered} and the agent answered {}; an agent answers the client's version when it speaks it (every agent speaks v1)",
                    init["protocolVersion"]
                );
                let line = self.run.transcript.len();
                self.find(
                    rule::NEGOTIATION,
                    line,
                    "result.protocolVersion".to_owned(),
                    message,
                    None,
                );
                return Ok(());
            }
        };
        let cwd = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
        let new = self.call(
            1,
            "session/new",
            &json!({ "cwd": cwd, "mcpServers": [] }),
            "`session/new`",
        )?;
        let Some(session) = new["sessionId"].as_str().map(str::to_owned) else {
            return Err("the agent answered `session/new` without a `sessionId`".to_owned());
        };
        if self.turn(2, &session, false)? && self.options.cancel {
            self.turn(3, &session, true)?;
        }
        Ok(())
    }

    /// Sends request `id` and waits for its answer; the agent could not be
    /// driven if none comes.
    fn call(
        &mut self,
        id: u64,
        method: &'static str,
        params: &Value,
        what: &str,
    ) -> Result<Value, String> {
        self.request(id, method, params)?;
        let deadline = Instant::now() + self.options.timeout;
        loop {
            match self.next(deadline) {
                Next::Line(Event::Response(answered, result)) if answered == id => {
                    return result.map_err(|error| format!("the agent refused {what}: {error}"));
                }
                Next::Line(_) => {}
                Next::Timeout => {
                    return Err(format!(
                        "the agent never answered {what} within {} s",
                        self.options.timeout.as_secs_f32()
                    ));
                }
                Next::Closed => {
                    return Err(format!(
                        "the agent exited (closed its output) before answering {what}"
                    ));
                }
            }
        }
    }

    /// One turn; whether it ended (so another may follow).
    fn turn(&mut self, id: u64, session: &str, cancel: bool) -> Result<bool, String> {
        let prompt = json!([{ "type": "text", "text": self.options.prompt }]);
        self.request(
            id,
            "session/prompt",
            &json!({ "sessionId": session, "prompt": prompt }),
        )?;
        self.prompt = Some(id);
        let v1 = self.run.judged_as != ClientKind::V2;
        let deadline = Instant::now() + self.options.timeout;
        let mut cancel_sent = false;
        let mut idle = None;
        loop {
            let next = self.next(deadline);
            // Cancelled once the agent is under way: after its first update.
            if cancel && !cancel_sent && matches!(next, Next::Line(Event::Update)) {
                self.send(&json!({ "jsonrpc": "2.0", "method": "session/cancel", "params": { "sessionId": session } }))?;
                cancel_sent = true;
            }
            match next {
                Next::Line(Event::Response(answered, result)) if answered == id => match result {
                    Err(error) => {
                        self.turn_problem(format!("the agent refused the prompt: {error}"));
                        return Ok(false);
                    }
                    Ok(result) if v1 => {
                        self.ended(
                            result["stopReason"].as_str(),
                            cancel_sent,
                            "the prompt's response",
                        );
                        return Ok(true);
                    }
                    // v2: the prompt is accepted; the turn ends with `idle`.
                    Ok(_) if idle.is_some() => return Ok(true),
                    Ok(_) => {}
                },
                Next::Line(Event::Idle(stop)) if !v1 && idle.is_none() => {
                    self.ended(
                        Some(&stop).filter(|s| !s.is_empty()).map(String::as_str),
                        cancel_sent,
                        "the `idle` state update",
                    );
                    idle = Some(stop);
                    if !self.pending.contains_key(&id) {
                        return Ok(true);
                    }
                }
                Next::Line(_) => {}
                Next::Timeout if idle.is_some() => return Ok(true), // the prompt stays unanswered
                Next::Timeout => {
                    // The prompt's missing answer is this finding, not a second one.
                    self.pending.remove(&id);
                    let how = if v1 {
                        "the prompt's response with a `stopReason`"
                    } else {
                        "a `state_update` to `idle`"
                    };
                    self.turn_problem(format!(
                        "the turn did not end within {} s; under v{} it ends with {how}",
                        self.options.timeout.as_secs_f32(),
                        self.run.judged_as.protocol().number()
                    ));
                    return Ok(false);
                }
                Next::Closed => {
                    return Err("the agent exited (closed its output) during the turn".to_owned());
                }
            }
        }
    }

    /// The turn ended with `stop` (from `source`): a stop reason is there,
    /// and a cancelled turn says `cancelled`.
    fn ended(&mut self, stop: Option<&str>, cancelled: bool, source: &str) {
        match stop {
            None => self.turn_problem(format!("{source} has no `stopReason`")),
            Some(stop) => {
                if cancelled && stop != "cancelled" {
                    self.turn_problem(format!(
                        "a turn the client cancelled ends with `stopReason: \"cancelled\"`; {source} says `{stop}`"
                    ));
                }
                self.run.stop_reasons.push(stop.to_owned());
            }
        }
    }

    fn turn_problem(&mut self, message: String) {
        let line = self.run.transcript.len();
        self.find(rule::TURN_END, line, String::new(), message, None);
    }

    fn find(
        &mut self,
        rule: &str,
        line: usize,
        path: String,
        message: String,
        fix: Option<String>,
    ) {
        let fix = fix.or_else(|| fix_for(rule).map(str::to_owned));
        self.run.findings.push(Finding {
            rule: rule.to_owned(),
            line,
            path,
            message,
            fix,
        });
    }

    fn request(&mut self, id: u64, method: &'static str, params: &Value) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        self.pending.insert(id, (method, self.run.transcript.len()));
        Ok(())
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let line = message.to_string();
        self.run.transcript.push(line.clone());
        writeln!(self.agent_in, "{line}")
            .and_then(|()| self.agent_in.flush())
            .map_err(|e| format!("the agent closed its input (it exited?): {e}"))
    }

    /// The next line of the agent, judged, before `deadline`.
    fn next(&mut self, deadline: Instant) -> Next {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.inbox.recv_timeout(wait) {
            Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => self.next(deadline),
            Ok(bytes) => Next::Line(self.judge(&bytes)),
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        }
    }

    /// Records a line of the agent's and judges it.
    fn judge(&mut self, bytes: &[u8]) -> Event {
        let text = String::from_utf8_lossy(bytes).trim_end().to_owned();
        self.run.transcript.push(text.clone());
        let line = self.run.transcript.len();
        let value = match serde_json::from_str::<Value>(&text) {
            Ok(value) => value,
            Err(e) => {
                self.find(
                    rule::JSON_RPC,
                    line,
                    String::new(),
                    format!("not a JSON-RPC message: not JSON ({e})"),
                    None,
                );
                return Event::Other;
            }
        };
        if let Some(problems) = super::other_json_rpc(&value) {
            for problem in problems {
                let (path, message) = split_path(&problem);
                self.find(rule::JSON_RPC, line, path, message, None);
            }
            return self.envelope(&value);
        }
        // A `session/update` notification: the plan rules, for this client.
        for v in super::rfd_spelling(&value) {
            self.find(
                v.rule(),
                line,
                v.path().to_owned(),
                v.message().to_owned(),
                None,
            );
        }
        let update = &value["params"]["update"];
        if update["sessionUpdate"] == "state_update"
            && update["state"] == "idle"
            && self.prompt.is_some()
        {
            return Event::Idle(update["stopReason"].as_str().unwrap_or_default().to_owned());
        }
        match SessionNotification::from_json_lenient(&text) {
            Err(e) => self.find(
                rule::UNREADABLE,
                line,
                String::new(),
                format!("no client can read this update: {e}"),
                None,
            ),
            Ok(read) => {
                for skipped in read.skipped.iter().filter(|s| !s.kept()) {
                    self.find(rule::LENIENT_DROPS, line, skipped.path().to_owned(), format!(
                        "a lenient client (every published SDK) drops this without a word, and a strict one refuses the message: {}",
                        skipped.reason()
                    ), None);
                }
                for v in read
                    .value
                    .check_for_client(self.run.judged_as)
                    .err()
                    .unwrap_or_default()
                {
                    self.find(
                        v.rule(),
                        line,
                        v.path().to_owned(),
                        v.message().to_owned(),
                        v.fix().map(str::to_owned),
                    );
                }
            }
        }
        Event::Update
    }

    /// A message other than a `session/update`: responses are matched with
    /// the client's requests, requests of the agent are answered.
    fn envelope(&mut self, value: &Value) -> Event {
        let line = self.run.transcript.len();
        match (value.get("id"), value["method"].as_str()) {
            (Some(id), Some(method)) => {
                let answer = agent_process::answer_request(id, method, &value["params"]);
                let _ = self.send(&answer);
                Event::Other
            }
            (Some(id), None) => {
                let known = id.as_u64().and_then(|n| self.pending.remove(&n).map(|_| n));
                let Some(n) = known else {
                    self.find(rule::JSON_RPC, line, "id".to_owned(), format!("a response to {id}, which is no request of this client's that awaits an answer"), None);
                    return Event::Other;
                };
                match (value.get("result"), value.get("error")) {
                    (Some(result), None) => Event::Response(n, Ok(result.clone())),
                    (_, Some(error)) => Event::Response(n, Err(error.clone())),
                    (None, None) => Event::Other,
                }
            }
            _ => Event::Other,
        }
    }
}

/// What a conforming agent does instead, for a rule whose finding carries no
/// fix of its own (the version table's fallbacks carry theirs).
pub fn fix_for(rule: &str) -> Option<&'static str> {
    Some(match rule {
        rule::JSON_RPC => {
            "write one JSON-RPC 2.0 message per line, and answer only requests that await an answer"
        }
        rule::UNANSWERED => "answer every request, with a `result` or an `error`",
        rule::TURN_END => {
            "v1: answer `session/prompt` with a `stopReason` (`cancelled` after `session/cancel`); v2: send a `state_update` to `idle` with one"
        }
        rule::NEGOTIATION => {
            "answer `initialize` with the client's `protocolVersion` when you speak it, else with the newest you speak"
        }
        rule::UNREADABLE | rule::LENIENT_DROPS => {
            "send what the schema of the client's version allows (`PlanSender` writes nothing else)"
        }
        "acp-spelling" => "write the plan id as `planId`",
        "reserved-name" => "prefix a name of your own with `_` (`_blocked`)",
        "blank-content" | "blank-plan-id" => {
            "say something: content and plan ids need a character that is not white space"
        }
        "absolute-path" => {
            "send an absolute path (`/home/dev/PLAN.md`, `C:\\dev\\PLAN.md`), or none"
        }
        "v2-no-v1-plan" => "send `plan_update` with an `items` plan (`PlanSender` does)",
        _ => return None,
    })
}

/// `at `PATH`: WHAT` as (PATH, WHAT); anything else has no path.
fn split_path(problem: &str) -> (String, String) {
    problem
        .strip_prefix("at `")
        .and_then(|rest| rest.split_once("`: "))
        .map_or_else(
            || (String::new(), problem.to_owned()),
            |(path, what)| (path.to_owned(), what.to_owned()),
        )
}
