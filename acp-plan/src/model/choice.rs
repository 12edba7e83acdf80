//! Which script a command's `--scripted-model` plays ([`ModelChoice`]),
//! and the model started for an agent.

use super::point::{self, AgentEnv, ModelSetup};
use super::script::{Script, ScriptError};
use super::server::ScriptedModel;

/// Which script a command's `--scripted-model` plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelChoice {
    /// [`Script::built_in`].
    BuiltIn,
    /// [`Script::from_file`].
    File(std::path::PathBuf),
}

impl ModelChoice {
    /// The script, read.
    ///
    /// # Errors
    /// The file's script cannot be used.
    pub fn script(&self) -> Result<Script, ScriptError> {
        match self {
            Self::BuiltIn => Ok(Script::built_in()),
            Self::File(path) => Script::from_file(path),
        }
    }

    /// Starts the model on a free loopback port and points the agent
    /// `command` starts at it: keep both for as long as the agent runs.
    ///
    /// # Errors
    /// The script cannot be used, or the model cannot be started.
    pub(crate) fn start(
        &self,
        command: &[String],
        setup: &ModelSetup,
    ) -> Result<(ScriptedModel, AgentEnv), String> {
        let script = self
            .script()
            .map_err(|e| format!("scripted model: {e}"))?
            .in_plan_mode(setup.plan_mode);
        let model = ScriptedModel::start(script, setup.port.unwrap_or(0), false)?;
        let agent_env = point::point(&model.url(), command, setup)
            .map_err(|e| format!("scripted model: cannot point the agent at it: {e}"))?;
        Ok((model, agent_env))
    }
}
