//! `acp-plan model`: the scripted model served on its own, with the
//! environment that points an agent at it.

use super::choice::ModelChoice;
use super::point::{self, ModelSetup};
use super::server::ScriptedModel;

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
