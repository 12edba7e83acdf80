//! What `check -- AGENT` was asked: every input of the subcommand.

use std::path::PathBuf;
use std::time::Duration;

/// What the command line asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // command-line switches, each on its own
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct CheckAgentOptions {
    /// A machine-readable report on standard output.
    pub json: bool,
    /// The prompt of each turn.
    pub prompt: String,
    /// Also run a turn that the client cancels.
    pub cancel: bool,
    /// Write each kind's transcript to this folder.
    pub record: Option<PathBuf>,
    /// Append a markdown report to this file (`--summary`, for a CI's page:
    /// GitHub's `$GITHUB_STEP_SUMMARY`).
    pub summary: Option<PathBuf>,
    /// Also print each finding as a GitHub Actions annotation line.
    pub github_annotations: bool,
    /// How long one turn (or one answer before it) may take.
    pub timeout: Duration,
    /// A kind of client that saw no plan message is a finding, not a note.
    pub expect_plans: bool,
    /// The agent's command and its arguments.
    pub command: Vec<String>,
    /// Say on standard error which kind of client and which step the run
    /// is on (the command turns it on when standard error is a terminal).
    pub progress: bool,
    /// `--scripted-model`: the agent's model is a script served on loopback.
    pub scripted_model: Option<crate::model::ModelChoice>,
    /// `--auth ID`: call `authenticate` with this method before `session/new`.
    pub auth: Option<String>,
    /// `--plan-mode`: set the session's plan mode (as the agent advertises
    /// one) before the prompt, and approve its switch out of it.
    pub plan_mode: bool,
    /// How the agent is pointed at the scripted model beyond its profile
    /// (`--model-env`, `--model-file`, `--model-port`, `--allow-network`;
    /// its `plan_mode` is this struct's own `plan_mode`).
    pub model_setup: crate::model::ModelSetup,
}

impl Default for CheckAgentOptions {
    fn default() -> Self {
        Self {
            json: false,
            prompt: "Refactor the auth module and show me your plan.".to_owned(),
            cancel: false,
            record: None,
            summary: None,
            github_annotations: false,
            timeout: Duration::from_mins(1),
            expect_plans: false,
            command: Vec::new(),
            progress: false,
            scripted_model: None,
            auth: None,
            plan_mode: false,
            model_setup: crate::model::ModelSetup::default(),
        }
    }
}

impl CheckAgentOptions {
    /// The model's setup, plan mode included.
    pub(super) fn setup(&self) -> crate::model::ModelSetup {
        crate::model::ModelSetup {
            plan_mode: self.plan_mode,
            ..self.model_setup.clone()
        }
    }
}
