//! The transcripts of real agents (`data/real-agents/`), and an agent that
//! plays one back to a live client.

use std::io::{BufRead, Write};

use plan_core::wire::ClientKind;
use serde_json::Value;

/// Every transcript, with the kind of client that recorded it.
pub const TRANSCRIPTS: [(&str, ClientKind); 6] = [
    ("claude-v1caps", ClientKind::V1Plan),
    ("claude-tasks-v1caps", ClientKind::V1Plan),
    ("claude-planmode-v1caps", ClientKind::V1Plan),
    ("codex-v2", ClientKind::V2),
    ("codex-planmode-v1caps", ClientKind::V1Plan),
    ("codex-check-cancel-v2-32800", ClientKind::V2),
];

/// The text of a transcript, by its file name without `.ndjson`.
pub fn transcript(name: &str) -> String {
    let path = format!(
        "{}/data/real-agents/transcripts/{name}.ndjson",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// A transcript without the lines that contain `needle`.
pub fn without(name: &str, needle: &str) -> String {
    transcript(name)
        .lines()
        .filter(|l| !l.contains(needle))
        .fold(String::new(), |text, l| text + l + "\n")
}

/// The kind of client a transcript's `initialize` and its answer make.
pub fn recorded_kind(name: &str) -> ClientKind {
    let lines: Vec<Value> = transcript(name)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let answered = lines[1]["result"]["protocolVersion"].as_u64().unwrap();
    let plan = !lines[0]["params"]["clientCapabilities"]["plan"].is_null();
    match (answered, plan) {
        (2, _) => ClientKind::V2,
        (_, true) => ClientKind::V1Plan,
        _ => ClientKind::V1,
    }
}

/// Plays a transcript's agent side to a client that reads `from_agent` and
/// writes `to_agent`: each line of the client's in the transcript waits for
/// the client's next line (its request ids mapped onto the client's), each
/// of the agent's is written (a response under the client's id). A request
/// the live client does not send (`session/set_mode`) is left out, with its
/// answer.
pub fn replay_agent(transcript: &str, from_client: impl BufRead, mut to_client: impl Write) {
    let mut from_client = from_client.lines();
    let mut ids: Vec<(Value, Value)> = Vec::new(); // transcript id → client's id
    let mut skipped: Vec<Value> = Vec::new();
    let mut agent_requests: Vec<Value> = Vec::new();
    for line in transcript.lines() {
        let message: Value = serde_json::from_str(line).unwrap();
        let method = message["method"].as_str().map(str::to_owned);
        let method = method.as_deref();
        let id = message.get("id").cloned();
        let from_the_client = match (method, &id) {
            (Some(m), _) => CLIENT_METHODS.contains(&m),
            (None, Some(id)) => agent_requests.contains(id),
            (None, None) => false,
        };
        if from_the_client {
            if matches!(
                method,
                Some("session/set_mode" | "session/set_config_option")
            ) {
                skipped.extend(id);
                continue;
            }
            let Some(Ok(sent)) = from_client.next() else {
                return;
            };
            let sent: Value = serde_json::from_str(&sent).unwrap();
            if let (Some(id), Some(theirs)) = (id, sent.get("id")) {
                ids.push((id, theirs.clone()));
            }
            continue;
        }
        let mut message = message;
        match (method, id) {
            (Some(_), Some(id)) => agent_requests.push(id),
            (None, Some(id)) if skipped.contains(&id) => continue,
            (None, Some(id)) => {
                let theirs = ids.iter().find(|(ours, _)| *ours == id).map(|(_, t)| t);
                message["id"] = theirs.cloned().unwrap_or(id);
            }
            _ => {}
        }
        if writeln!(to_client, "{message}")
            .and_then(|()| to_client.flush())
            .is_err()
        {
            return;
        }
    }
    // Then silence until the client hangs up, as an agent waiting for work.
    for _ in from_client {}
}

/// What a client sends an agent (the rest of the transcripts' methods are the agent's).
pub const CLIENT_METHODS: [&str; 6] = [
    "initialize",
    "session/new",
    "session/prompt",
    "session/cancel",
    "session/set_mode",
    "session/set_config_option",
];
