//! What `acp-plan proxy` is asked: [`ProxyOptions`].

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
