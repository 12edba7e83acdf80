//! A scripted model: a loopback HTTP server that stands in for a model API,
//! so that a real agent runs a whole turn offline, with no key, and makes
//! the plans of a script with its own plan tool.
//!
//! It speaks the APIs the agents people use call, as they call them
//! (`docs/ci.md` says how each agent is pointed at it):
//! - the Anthropic Messages API (`POST /v1/messages` or `/messages`, and
//!   `count_tokens`): Claude Code ([`anthropic`]);
//! - the OpenAI Responses API (`POST /v1/responses`, and `GET /v1/models`):
//!   codex, opencode ([`openai`]);
//! - the OpenAI Chat Completions API (`POST /v1/chat/completions`):
//!   qwen-code ([`chat`]);
//! - the Gemini API (`POST /v1beta/models/M:streamGenerateContent?alt=sse`
//!   and `:generateContent`): Gemini CLI ([`gemini`]).
//!
//! Each request is read into one form ([`request::Request`]) and answered by
//! one script ([`turn::decide`]), with the agent's own plan tool
//! ([`plan_tool`]): the next plan of the script, counted from the plan
//! calls already in the conversation since the user's prompt; after the
//! last, a short text that ends the turn. A request that offers no plan
//! tool (a title, a suggestion) gets a short text, or JSON where it asks
//! for JSON. The server binds 127.0.0.1 only, keeps no state between
//! requests but a [`Log`] of what it did (for `check`), and stops
//! when dropped.

pub(crate) mod anthropic;
mod api;
pub(crate) mod chat;
pub(crate) mod gemini;
pub(crate) mod log;
pub(crate) mod openai;
pub mod plan_tool;
pub(crate) mod point;
pub(crate) mod request;
mod route;
mod schema;
mod script;
mod server;
mod setup;
pub(crate) mod tasks;
pub(crate) mod turn;

pub(crate) use log::Log;
pub use point::ModelSetup;
pub use script::{Script, ScriptError};
pub(crate) use server::ScriptedModel;

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
    ) -> Result<(ScriptedModel, point::AgentEnv), String> {
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

/// What `acp-plan model` serves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct ModelOptions {
    /// The port (0: any free one).
    pub port: u16,
    /// The script.
    pub script: ModelChoice,
    /// `--plan-mode`: play the agent's plan mode (a markdown plan through
    /// `ExitPlanMode` or a `<proposed_plan>` block) where it asks for one.
    pub plan_mode: bool,
}

/// `acp-plan model`: serves until the process is stopped, after printing
/// where, and the environment that points an agent at it; stopped
/// (`Ctrl-C`, `SIGTERM`, `SIGHUP`), it removes the home it made and ends
/// with the signal's status. 2 when it cannot start (said on standard
/// error).
pub fn serve(options: &ModelOptions) -> u8 {
    let started = options
        .script
        .script()
        .map_err(|e| format!("model: {e}"))
        .and_then(|script| {
            ScriptedModel::start(script.in_plan_mode(options.plan_mode), options.port, true)
        });
    let model = match started {
        Ok(model) => model,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    // No agent named: every agent's variables.
    // Printed for the user's shell: no dead proxy in it.
    let setup = ModelSetup {
        plan_mode: options.plan_mode,
        allow_network: true,
        ..ModelSetup::default()
    };
    let agent_env = match point::point(&model.url(), &[], &setup) {
        Ok(agent_env) => agent_env,
        Err(e) => {
            eprintln!("model: cannot write the agent's settings: {e}");
            return 2;
        }
    };
    println!(
        "# the scripted model serves on {}; point an agent at it with:",
        model.url()
    );
    for line in exports(&agent_env.env) {
        println!("{line}");
    }
    let _ = std::io::Write::flush(&mut std::io::stdout());
    // Until stopped: then the throwaway home goes with `pointing`, and the
    // status is the signal's.
    let status = crate::process::until_stopped();
    drop(agent_env);
    drop(model);
    status
}

/// The `export` lines `acp-plan model` prints: what an agent needs to reach
/// the model, and nothing that would move the user's own shell if they
/// `eval` them (`HOME`, npm's cache: `check` and `board` set those for the
/// agent alone). A value's single quotes are escaped for the shell.
fn exports(env: &[(String, String)]) -> Vec<String> {
    env.iter()
        .filter(|(key, _)| key != "HOME" && key != "npm_config_cache")
        .map(|(key, value)| format!("export {key}='{}'", value.replace('\'', r"'\''")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_prints_what_an_agent_needs_and_never_moves_the_users_home() {
        let env = vec![
            (
                "ANTHROPIC_BASE_URL".to_owned(),
                "http://127.0.0.1:1".to_owned(),
            ),
            (
                "OPENCODE_CONFIG_CONTENT".to_owned(),
                "{\"a\":\"it's\"}".to_owned(),
            ),
            ("HOME".to_owned(), "/tmp/x".to_owned()),
            ("npm_config_cache".to_owned(), "/root/.npm".to_owned()),
        ];
        assert_eq!(
            exports(&env),
            [
                "export ANTHROPIC_BASE_URL='http://127.0.0.1:1'",
                r#"export OPENCODE_CONFIG_CONTENT='{"a":"it'\''s"}'"#
            ]
        );
    }
}
