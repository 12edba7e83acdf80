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
mod lines;
mod relay;
mod stdio;
mod todos;

pub use relay::Relay;

#[cfg(test)]
use lines::relayed;

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

/// Runs the proxy on this process's standard streams: in front of the
/// agent its command names (`stdio.rs`), or with none as a link of the
/// SDK conductor's chain (`chain.rs`); the exit status.
pub fn proxy(options: &ProxyOptions) -> u8 {
    match options.command.split_first() {
        Some((program, args)) => stdio::front(program, args, options.plan_opt_in),
        None => chain::link(options.plan_opt_in),
    }
}

#[cfg(test)]
mod tests;
