//! The proxy in front of an agent it starts (`acp-plan proxy -- AGENT`),
//! on this process's standard streams: each direction a line relay on a
//! thread of its own, and once the agent is gone, every request the client
//! sent answered with an error, whatever the timing.

use std::borrow::Cow;
use std::io::{self, BufReader, Read, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::lines::{BUFFER, relay_lines};
use super::relay::{self, Relay};
use crate::process::{AgentProcess, Stderr};

/// How long the agent's last lines have to arrive once it has exited, and
/// how long the client's lines still on their way are waited for.
const DRAIN: Duration = Duration::from_millis(500);

/// In front of the agent `program` `args`, on this process's standard
/// streams, until the agent's output ends; the exit status (see the
/// folder's documentation).
pub(super) fn front(program: &str, args: &[String], plan_opt_in: bool) -> u8 {
    let (mut agent, agent_in, agent_out) =
        match AgentProcess::start(program, args, &[], Stderr::Inherit) {
            Ok(started) => started,
            Err(e) => {
                eprintln!("proxy: cannot start `{program}`: {e}");
                return 2;
            }
        };
    let relay = Arc::new(Mutex::new(Relay::new(plan_opt_in)));
    let (relaying, upstream) = relay_both_ways(&relay, &mut agent, agent_in, agent_out);
    let status = agent.wait_status(Duration::from_secs(5));
    // Its whole group goes now: what it started no longer holds its output.
    agent.end(Duration::ZERO);
    let ended = relaying.finish();
    let why = match (status, &ended) {
        (_, Err(e)) => format!("acp-plan proxy: the client's output failed: {e}"),
        (Some(0), Ok(())) => "the agent exited before answering (acp-plan proxy)".to_owned(),
        (Some(code), Ok(())) => {
            format!("the agent exited with status {code} before answering (acp-plan proxy)")
        }
        (None, Ok(())) => {
            "the agent closed its output before answering (acp-plan proxy)".to_owned()
        }
    };
    let lock = || relay.lock().unwrap_or_else(PoisonError::into_inner);
    write_lines(&lock().agent_gone(&why));
    // The client's lines still on their way (sent before it could know the
    // agent was gone) are each answered as they come; the proxy ends once
    // the client has sent nothing for a moment, or has closed its output.
    while !upstream.is_finished() && lock().since_last_line() < DRAIN {
        std::thread::sleep(Duration::from_millis(20));
    }
    let answered = lock().answered_gone();
    if answered > 0 || status != Some(0) {
        let ended = match status {
            Some(code) => format!("exited with status {code}"),
            None => "closed its output".to_owned(),
        };
        eprintln!(
            "acp-plan proxy: the agent `{program}` {ended}; {answered} request(s) of the client answered with error {} (see `acp-plan proxy --help`)",
            relay::AGENT_GONE
        );
    }
    match status {
        _ if answered > 0 => 1,
        Some(code) => u8::try_from(code).unwrap_or(1),
        None => 1,
    }
}

/// Lines to the client (this process's standard output), flushed.
fn write_lines(lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let mut out = io::stdout().lock();
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}

/// The agent's input, where a write to an agent that is gone is dropped
/// (its error kept), so the client's lines are still read and each of its
/// requests answered.
struct AgentInput<W> {
    inner: W,
    failed: bool,
}

impl<W: Write> Write for AgentInput<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.failed && self.inner.write_all(buf).is_err() {
            self.failed = true;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.failed && self.inner.flush().is_err() {
            self.failed = true;
        }
        Ok(())
    }
}

/// The two relays under way, once the agent's output ended or the agent
/// exited.
struct Relaying {
    /// How the agent-to-client side ended, if it did (`None`: the agent
    /// exited and its output stayed open).
    ended: Option<io::Result<()>>,
    /// The agent-to-client thread.
    reader: std::thread::JoinHandle<()>,
    /// What that thread says when it ends.
    downstream: std::sync::mpsc::Receiver<io::Result<()>>,
}

impl Relaying {
    /// Gives the agent-to-client side a moment to end (the agent's group
    /// is gone by now), and says how the client's output fared.
    fn finish(self) -> io::Result<()> {
        let _ = self.downstream.recv_timeout(DRAIN);
        let _ = self.reader.join();
        self.ended.unwrap_or(Ok(()))
    }
}

/// Relays the client's lines to the agent and the agent's to the client,
/// each way on a thread of its own, until the agent's output ends or the
/// agent exits.
fn relay_both_ways(
    relay: &Arc<Mutex<Relay>>,
    agent: &mut AgentProcess,
    agent_in: impl Write + Send + 'static,
    agent_out: impl Read + Send + 'static,
) -> (Relaying, std::thread::JoinHandle<()>) {
    let upstream = Arc::clone(relay);
    // The client's lines to the agent, on a thread of their own; the
    // agent's input closes when the client's does. Once the agent is gone,
    // each request is answered here (the reading goes on).
    let agent_in = AgentInput {
        inner: agent_in,
        failed: false,
    };
    let upstream = std::thread::spawn(move || {
        let stdin = BufReader::with_capacity(BUFFER, io::stdin());
        let _ = relay_lines(stdin, agent_in, |line| {
            let sent = upstream
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .upstream_or_answer(line);
            match sent {
                Ok(Cow::Borrowed(_)) => None,
                Ok(changed @ Cow::Owned(_)) => Some(vec![changed]),
                Err(answers) => {
                    write_lines(&answers);
                    Some(Vec::new())
                }
            }
        });
    });
    // The agent's lines to the client, on a thread of their own too: the
    // agent may exit while a child of its holds its output open.
    let downstream_relay = Arc::clone(relay);
    let (done, downstream) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let agent_out = BufReader::with_capacity(BUFFER, agent_out);
        let result = relay_lines(agent_out, io::stdout().lock(), |line| {
            downstream_relay
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .changed(line)
        });
        let _ = done.send(result);
    });
    // Until the agent's output ends, or the agent exits (then what it
    // wrote has a moment to arrive).
    let mut ended = None;
    while ended.is_none() {
        match downstream.recv_timeout(Duration::from_millis(50)) {
            Ok(result) => ended = Some(result),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => ended = Some(Ok(())),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if agent.exited() => {
                ended = downstream.recv_timeout(DRAIN).ok().or(Some(Ok(())));
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
    let relaying = Relaying {
        ended,
        reader,
        downstream,
    };
    (relaying, upstream)
}
