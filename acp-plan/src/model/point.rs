//! How an agent is pointed at the scripted model: the environment it is
//! started with, and a throwaway home for its settings. claude-agent-acp
//! (Claude Code) and codex-acp (codex) need nothing more; any other agent
//! reads the model's URL from the same variables or from its own settings
//! (`docs/ci.md` lists them).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The key the agents are given: any value does, the model checks none.
pub const KEY: &str = "scripted-model";

/// An agent's environment for the scripted model at `url`, with the
/// folder it uses as its home; the folder goes when this is dropped.
#[derive(Debug)]
pub struct Pointing {
    /// Variables to set in the agent's environment.
    pub env: Vec<(String, String)>,
    home: PathBuf,
}

impl Drop for Pointing {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

/// codex's settings: a model provider at the scripted model, speaking the
/// Responses API, no retries (a request that fails fails the turn at
/// once), its plan tool on, nothing else reached for.
fn codex_config(url: &str) -> String {
    format!(
        r#"# Written by acp-plan for its scripted model; removed when the run ends.
model = "scripted-model"
model_provider = "acp-plan"
approval_policy = "never"
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.acp-plan]
name = "acp-plan scripted model"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[tools.update_plan]
enabled = true

[analytics]
enabled = false
"#
    )
}

/// Points an agent at the scripted model at `url` (`http://127.0.0.1:PORT`).
///
/// # Errors
/// The throwaway home cannot be written.
pub fn point(url: &str) -> io::Result<Pointing> {
    static RUN: AtomicU64 = AtomicU64::new(0);
    forget_stale_homes(&std::env::temp_dir());
    let home = std::env::temp_dir().join(format!(
        "acp-plan-model-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::Relaxed)
    ));
    let codex_home = home.join(".codex");
    std::fs::create_dir_all(&codex_home)?;
    std::fs::write(codex_home.join("config.toml"), codex_config(url))?;
    let text = |path: &Path| path.to_string_lossy().into_owned();
    let mut env = vec![
        // Claude Code (claude-agent-acp): the Messages API at the model,
        // its `TodoWrite` offered (not the task tools), nothing else sent.
        ("ANTHROPIC_BASE_URL", url.to_owned()),
        ("ANTHROPIC_API_KEY", KEY.to_owned()),
        // (Unless the caller chose: `CLAUDE_CODE_ENABLE_TASKS=1` in its
        // environment has the model plan with the task tools.)
        ("CLAUDE_CODE_ENABLE_TODO_TOOLS", "1".to_owned()),
        ("CLAUDE_CODE_ENABLE_TASKS", "0".to_owned()),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".to_owned()),
        ("DISABLE_TELEMETRY", "1".to_owned()),
        ("DISABLE_AUTOUPDATER", "1".to_owned()),
        // Claude Code refuses to start as root (CI containers) unless told
        // it is in a sandbox; the scripted model calls no tool but its plan
        // tool, so nothing the agent runs touches the machine.
        ("IS_SANDBOX", "1".to_owned()),
        // codex (codex-acp): its settings above, the provider's key.
        ("CODEX_HOME", text(&codex_home)),
        ("OPENAI_API_KEY", KEY.to_owned()),
        // Any other agent: the base URLs of both APIs.
        ("OPENAI_BASE_URL", format!("{url}/v1")),
        // A proxy in the environment must not take the loopback requests.
        ("NO_PROXY", "127.0.0.1,localhost".to_owned()),
        ("no_proxy", "127.0.0.1,localhost".to_owned()),
        // A home of its own: no user settings or logins read or written.
        ("HOME", text(&home)),
    ];
    // npm's cache stays the user's, so `npx AGENT` finds what is installed.
    if std::env::var_os("npm_config_cache").is_none()
        && let Some(user_home) = std::env::var_os("HOME")
    {
        env.push((
            "npm_config_cache",
            text(&Path::new(&user_home).join(".npm")),
        ));
    }
    // What the caller set for Claude Code's plan tools stays its own.
    env.retain(|(key, _)| {
        !(key.starts_with("CLAUDE_CODE_ENABLE_") && std::env::var_os(key).is_some())
    });
    Ok(Pointing {
        env: env.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
        home,
    })
}

/// Removes the homes of runs whose process is gone (one stopped by a
/// signal, which skips [`Pointing`]'s drop): no state outlives its run.
/// Where a process's liveness cannot be told (no `/proc`), nothing goes.
fn forget_stale_homes(temp: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("acp-plan-model-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_agents_are_pointed_at_the_url_and_the_home_goes_when_dropped() {
        let pointing = point("http://127.0.0.1:4242").unwrap();
        let get = |key: &str| {
            pointing
                .env
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .unwrap()
        };
        assert_eq!(get("ANTHROPIC_BASE_URL"), "http://127.0.0.1:4242");
        let config =
            std::fs::read_to_string(Path::new(&get("CODEX_HOME")).join("config.toml")).unwrap();
        assert!(
            config.contains(r#"base_url = "http://127.0.0.1:4242/v1""#),
            "{config}"
        );
        assert!(
            config.contains("[tools.update_plan]\nenabled = true"),
            "{config}"
        );
        let home = PathBuf::from(get("HOME"));
        assert!(home.is_dir());
        drop(pointing);
        assert!(!home.exists());
    }

    #[test]
    fn a_home_left_by_a_process_that_is_gone_is_removed_and_a_live_ones_kept() {
        if !Path::new("/proc/self").exists() {
            return; // liveness cannot be told here: nothing is removed
        }
        let temp = std::env::temp_dir().join(format!("acp-plan-stale-{}", std::process::id()));
        // A pid above the kernel's limit (4,194,304) is no process.
        let gone = temp.join("acp-plan-model-4194999-0");
        let live = temp.join(format!("acp-plan-model-{}-9", std::process::id()));
        let other = temp.join("someone-else");
        for dir in [&gone, &live, &other] {
            std::fs::create_dir_all(dir).unwrap();
        }
        forget_stale_homes(&temp);
        assert!(!gone.exists());
        assert!(live.exists() && other.exists());
        std::fs::remove_dir_all(&temp).unwrap();
    }
}
