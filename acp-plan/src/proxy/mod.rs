//! `acp-plan proxy -- AGENT`: between any ACP client and any ACP agent. To
//! the client it is the agent (stdio, one JSON-RPC message per line); it
//! starts the agent as `board` and `check` do (its own process group,
//! ended with its children on every way out) and passes every line both
//! ways, byte for byte and in order, but for what [`relay`] changes or
//! adds so the client sees the agent's plans. The agent's standard error
//! is the proxy's. When the client closes its input, the agent's closes;
//! when the agent's output ends, each request the client still waits on is
//! answered with a JSON-RPC error that says so. The exit status is the
//! agent's (1 when it ended by a signal, 2 when it could not be started).
//!
//! With no agent command it is a link of the ACP SDK's conductor chain
//! ([`chain`]): the conductor starts it and the agent, and carries the
//! messages between them.

mod chain;
mod derived;
mod relay;
mod todos;

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

pub use relay::Relay;

use crate::process::{AgentProcess, Stderr};

/// How long the agent's last lines have to arrive once it has exited.
const DRAIN: Duration = Duration::from_millis(500);

/// The size of each direction's read and write buffers.
const BUFFER: usize = 128 * 1024;

/// What `acp-plan proxy` is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct ProxyOptions {
    /// The agent's command and its arguments.
    pub command: Vec<String>,
    /// Add `clientCapabilities.plan` to a v1 `initialize` that lacks it, so
    /// the agent sends its richest plan (`--no-plan-opt-in` turns it off).
    pub plan_opt_in: bool,
}

impl Default for ProxyOptions {
    fn default() -> Self {
        Self {
            command: Vec::new(),
            plan_opt_in: true,
        }
    }
}

/// Runs the proxy on this process's standard streams until the agent's
/// output ends; the exit status (see the module's documentation).
pub fn proxy(options: &ProxyOptions) -> u8 {
    let Some((program, args)) = options.command.split_first() else {
        return link(options);
    };
    let (mut agent, agent_in, agent_out) =
        match AgentProcess::start(program, args, &[], Stderr::Inherit) {
            Ok(started) => started,
            Err(e) => {
                eprintln!("proxy: cannot start `{program}`: {e}");
                return 2;
            }
        };
    let relay = Arc::new(Mutex::new(Relay::new(options.plan_opt_in)));
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
        let program = &options.command[0];
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

/// No agent command: a link of the SDK's conductor chain, the conductor on
/// standard input and output ([`chain`]). Ends when its input does.
fn link(options: &ProxyOptions) -> u8 {
    if io::IsTerminal::is_terminal(&io::stdin()) {
        eprintln!(
            "acp-plan proxy: no agent given, so this is a link of the ACP SDK's conductor chain, waiting for the conductor's messages on standard input.\n\
             To put the proxy in front of an agent, give its command after `--`: acp-plan proxy -- opencode acp\n\
             (Ctrl-D ends it; `acp-plan proxy --help` has examples.)"
        );
    }
    let mut link = chain::Link::new(Relay::new(options.plan_opt_in));
    let input = BufReader::with_capacity(BUFFER, io::stdin());
    let relayed = relay_lines(input, io::stdout().lock(), |line| {
        Some(link.line(line).into_iter().map(Cow::Owned).collect())
    });
    match relayed {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("proxy: the conductor's input failed: {e}");
            1
        }
    }
}

/// Reads `input` line by line and writes what `relay` makes of each to
/// `output`, each with the line's own ending (a last line without one stays
/// without); flushed whenever no more input is waiting, so an interactive
/// peer sees each line at once and a stream is written in large blocks.
/// Lines are judged where they lie in the read buffer, and a run of lines
/// the relay passes unchanged is written as the one slice it was read as.
///
/// # Errors
/// Writing to `output` failed (a read error ends the input).
pub(crate) fn relay_lines<R: Read, W: Write>(
    mut input: BufReader<R>,
    output: W,
    mut relay: impl for<'l> FnMut(&'l [u8]) -> Option<Vec<Cow<'l, [u8]>>>,
) -> io::Result<()> {
    let mut output = BufWriter::with_capacity(BUFFER, output);
    let mut long = Vec::new();
    loop {
        let buffer = match input.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buffer) => buffer,
        };
        // Whole lines in the buffer: judged in place.
        let (mut unchanged, mut at) = (0, 0);
        while let Some(end) = memchr::memchr(b'\n', &buffer[at..]).map(|n| at + n) {
            if let Some(made) = relay(&buffer[at..end]) {
                output.write_all(&buffer[unchanged..at])?;
                for out in &made {
                    output.write_all(out)?;
                    output.write_all(b"\n")?;
                }
                unchanged = end + 1;
            }
            at = end + 1;
        }
        // The run of unchanged lines at the buffer's end: written as it was
        // read, past the write buffer (after what is already in it).
        let run = &buffer[unchanged..at];
        if run.len() >= BUFFER / 4 {
            output.flush()?;
            output.get_mut().write_all(run)?;
        } else {
            output.write_all(run)?;
        }
        if at > 0 {
            input.consume(at);
        } else {
            // A line longer than the buffer, or the last one without an
            // ending: read whole, judged as it comes.
            long.clear();
            if input.read_until(b'\n', &mut long).is_err() {
                break;
            }
            let ended = long.last() == Some(&b'\n');
            let body = if ended {
                &long[..long.len() - 1]
            } else {
                &long[..]
            };
            let made = relay(body).unwrap_or_else(|| vec![Cow::Borrowed(body)]);
            for (i, out) in made.iter().enumerate() {
                output.write_all(out)?;
                // The line's own ending; a line the relay adds gets one.
                if ended || i + 1 < made.len() {
                    output.write_all(b"\n")?;
                }
            }
        }
        // Nothing more read ahead: the peer may be waiting for these lines.
        if input.buffer().is_empty() {
            output.flush()?;
        }
    }
    output.flush()
}

/// Reads all of `input`, for tests that feed the relay a whole stream.
#[cfg(test)]
fn relayed(input: &[u8], relay: &mut Relay, downstream: bool) -> Vec<u8> {
    let mut out = Vec::new();
    relay_lines(BufReader::new(input), &mut out, |line| {
        if downstream {
            relay.changed(line)
        } else {
            match relay.upstream(line) {
                Cow::Borrowed(_) => None,
                changed @ Cow::Owned(_) => Some(vec![changed]),
            }
        }
    })
    .unwrap();
    out
}

#[cfg(test)]
mod tests;
