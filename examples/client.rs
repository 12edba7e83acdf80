//! A minimal ACP client that draws an agent's plans with plan-core: start
//! the agent, say `initialize` (v1, with `clientCapabilities.plan`), open a
//! session, send one prompt, and redraw the board on each plan message
//! until the prompt is answered. Copy it and grow it; `acp-plan board` is
//! the full one (timeouts, permissions, v2, `--json`).
//!
//! ```text
//! cargo run -q -p plan-examples --example client -- cargo run -q -p plan-examples --example agent -- --fast
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, ExitCode, Stdio};

use plan_core::client::{Applied, SessionBoards, TerminalStyle, render_board};
use plan_core::wire::{Line, Message, Strictness};
use serde_json::{Value, json};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((program, rest)) = args.split_first() else {
        eprintln!("usage: client AGENT [ARGS...]");
        return ExitCode::from(2);
    };
    let mut agent = match Command::new(program)
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(agent) => agent,
        Err(e) => {
            eprintln!("client: cannot start {program}: {e}");
            return ExitCode::from(2);
        }
    };
    let (Some(mut to_agent), Some(from_agent)) = (agent.stdin.take(), agent.stdout.take()) else {
        unreachable!("both pipes were asked for");
    };
    let mut send = |id: u64, method: &str, params: Value| {
        let message = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        writeln!(to_agent, "{message}").and_then(|()| to_agent.flush())
    };
    let capabilities = json!({ "protocolVersion": 1, "clientCapabilities": { "plan": {} } });
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut boards = SessionBoards::new();
    let mut result = send(0, "initialize", capabilities)
        .and_then(|()| send(1, "session/new", json!({ "cwd": cwd, "mcpServers": [] })));
    for line in BufReader::new(from_agent).lines() {
        let Ok(line) = line else { break };
        // Each line read once (`wire::Line`): the envelope reader splits it,
        // and a `session/update` goes on to the notification's reader; a
        // response is told by its id (1: the session, 2: the prompt).
        let read = Line::read_message(&line, Strictness::Lenient);
        if let Some(Ok(plan)) = read.plan {
            let Some(notification) = plan.into_notification() else {
                continue;
            };
            let applied = boards.apply(notification.value);
            if matches!(applied, Applied::Updated { .. } | Applied::Removed { .. }) {
                for board in boards.boards() {
                    print!("{}", render_board(board, TerminalStyle::PLAIN));
                }
            }
        } else if let Some(Message::Response { id, outcome, .. }) = read.envelope.message {
            let answer: Value = outcome
                .ok()
                .and_then(|result| serde_json::from_str(result.get()).ok())
                .unwrap_or_default();
            let id = id.get();
            if id == "1"
                && let Some(session) = answer["sessionId"].as_str()
            {
                let prompt = [json!({ "type": "text", "text": "Show me your plan." })];
                result = send(
                    2,
                    "session/prompt",
                    json!({ "sessionId": session, "prompt": prompt }),
                );
            } else if id == "2" {
                println!("turn ended: {}", answer["stopReason"]);
                break;
            }
        }
    }
    drop(agent.kill());
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("client: the agent stopped reading: {e}");
            ExitCode::FAILURE
        }
    }
}
