//! What `board` was asked: every input of the subcommand, from its command
//! line or from a program.

use std::time::Duration;

use plan_core::wire::ProtocolVersion;

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // command-line switches, each on its own
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct BoardOptions {
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
    /// `--auth ID`: call `authenticate` with this method before `session/new`.
    pub auth: Option<String>,
    /// `--scripted-model`: the agent's model is a script served on loopback.
    pub scripted_model: Option<crate::model::ModelChoice>,
    /// `--plan-mode`: set the session's plan mode before the prompt, and
    /// approve the agent's switch out of it (its plan).
    pub plan_mode: bool,
    /// How the agent is pointed at the scripted model beyond its profile
    /// (`--model-env`, `--model-file`, `--model-port`, `--allow-network`;
    /// its `plan_mode` is this struct's own `plan_mode`).
    pub model_setup: crate::model::ModelSetup,
}

impl Default for BoardOptions {
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
            auth: None,
            scripted_model: None,
            plan_mode: false,
            model_setup: crate::model::ModelSetup::default(),
        }
    }
}
