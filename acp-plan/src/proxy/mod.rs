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
mod options;
mod relay;
mod run;
mod stdio;
mod todos;

pub use options::ProxyOptions;
pub use relay::Relay;
pub use run::proxy;

#[cfg(test)]
use lines::relayed;

#[cfg(test)]
mod tests;
