//! How an agent is pointed at the scripted model: one profile per known
//! agent, matched by its command ([`PROFILES`]), each the environment and
//! settings files it needs to reach the model offline with no key, in a
//! throwaway home; an agent nobody here knows gets every profile's
//! variables at once (`docs/ci.md` prints the table).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::setup::{KEY, MODEL, fill, network, write_file};

pub use super::setup::ModelSetup;

/// An agent's environment for the scripted model at `url`, with the
/// folder it uses as its home; the folder goes when this is dropped.
#[derive(Debug)]
pub struct AgentEnv {
    /// Variables to set in the agent's environment.
    pub env: Vec<(String, String)>,
    home: PathBuf,
    /// The agent's profile, if it is a known one.
    pub profile: Option<&'static Profile>,
}

impl Drop for AgentEnv {
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

/// How an agent is wired to the scripted model, by what it runs on: the
/// variables and files that point it there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wiring {
    /// Claude Code: the Messages API, its `TodoWrite` on, nothing else sent.
    Claude,
    /// codex: a model provider in `$CODEX_HOME/config.toml`.
    Codex,
    /// qwen-code: Chat Completions by its `OPENAI_*` variables, a model
    /// name, and its `todo_write` switched on in `$QWEN_HOME/settings.json`.
    Qwen,
    /// Gemini CLI: its API at `GOOGLE_GEMINI_BASE_URL`, a key, a gemini-2.x
    /// model (the only ones it offers `write_todos`).
    Gemini,
    /// opencode: its OpenAI provider (Responses) and a model of it, the
    /// hosted model list not fetched.
    Opencode,
}

impl Wiring {
    /// Every wiring: what an agent nobody here knows is given.
    pub const ALL: [Self; 5] = [
        Self::Claude,
        Self::Codex,
        Self::Qwen,
        Self::Gemini,
        Self::Opencode,
    ];
}

/// One agent's profile: the words of its command that name it, and what
/// it needs. `docs/ci.md` prints this table; a test holds them together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// The agent, as its package names it.
    pub agent: &'static str,
    /// A word of the command (the program's file name, or an argument, as
    /// in `npx @google/gemini-cli --acp`) that contains one of these.
    pub words: &'static [&'static str],
    /// How it is wired to the model.
    pub wirings: &'static [Wiring],
    /// The model API it speaks, for the report.
    pub api: &'static str,
}

/// The agents known here, one profile each.
pub const PROFILES: [Profile; 5] = [
    Profile {
        agent: "claude-agent-acp",
        words: &["claude-agent-acp", "claude-code-acp"],
        wirings: &[Wiring::Claude],
        api: "Anthropic Messages",
    },
    Profile {
        agent: "codex-acp",
        words: &["codex-acp", "codex"],
        wirings: &[Wiring::Codex],
        api: "OpenAI Responses",
    },
    Profile {
        agent: "qwen-code",
        words: &["qwen"],
        wirings: &[Wiring::Qwen],
        api: "OpenAI Chat Completions",
    },
    Profile {
        agent: "gemini-cli",
        words: &["gemini"],
        wirings: &[Wiring::Gemini],
        api: "Gemini",
    },
    Profile {
        agent: "opencode",
        words: &["opencode"],
        wirings: &[Wiring::Opencode],
        api: "OpenAI Responses",
    },
];

/// The profile of the agent `command` starts, if it is a known one.
pub(crate) fn profile_of(command: &[String]) -> Option<&'static Profile> {
    let names = |word: &String| {
        let file = Path::new(word)
            .file_name()
            .map_or_else(|| word.clone(), |f| f.to_string_lossy().into_owned());
        file.to_ascii_lowercase()
    };
    let words: Vec<String> = command.iter().map(names).collect();
    PROFILES.iter().find(|p| {
        words
            .iter()
            .any(|w| p.words.iter().any(|name| w.contains(name)))
    })
}

/// Points the agent `command` starts at the scripted model at `url`
/// (`http://127.0.0.1:PORT`): its profile's wirings, or every wiring for an
/// agent nobody here knows, in a throwaway home.
///
/// # Errors
/// The throwaway home cannot be written.
pub fn point(url: &str, command: &[String], setup: &ModelSetup) -> io::Result<AgentEnv> {
    static RUN: AtomicU64 = AtomicU64::new(0);
    forget_stale_homes(&std::env::temp_dir());
    let home = std::env::temp_dir().join(format!(
        "acp-plan-model-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&home)?;
    let mut agent_env = AgentEnv {
        env: Vec::new(),
        home,
        profile: profile_of(command),
    };
    let wirings = agent_env.profile.map_or(&Wiring::ALL[..], |p| p.wirings);
    let text = |path: &Path| path.to_string_lossy().into_owned();
    let mut env: Vec<(&str, String)> = Vec::new();
    for wiring in wirings {
        env.extend(wiring_env(*wiring, url, &agent_env.home)?);
    }
    env.extend(network(setup));
    env.extend([
        // A home of its own: no user settings or logins read or written.
        ("HOME", text(&agent_env.home)),
    ]);
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
    // The user's own variables last, each taking the place of a profile's.
    let mut all: Vec<(String, String)> = setup
        .env
        .iter()
        .map(|(key, value)| (key.clone(), fill(value, url)))
        .collect();
    all.extend(env.into_iter().map(|(k, v)| (k.to_owned(), v)));
    let mut seen = std::collections::BTreeSet::new();
    all.retain(|(key, _)| seen.insert(key.clone()));
    agent_env.env = all;
    for (path, template) in &setup.files {
        write_file(&agent_env.home, path, template, url)?;
    }
    Ok(agent_env)
}

/// The variables (and files in `home`) one wiring of an agent's sets, to
/// reach the model at `url`.
fn wiring_env(wiring: Wiring, url: &str, home: &Path) -> io::Result<Vec<(&'static str, String)>> {
    let text = |path: &Path| path.to_string_lossy().into_owned();
    Ok(match wiring {
        Wiring::Claude => vec![
            // The Messages API at the model, its `TodoWrite` offered
            // (not the task tools), nothing else sent. (Unless the
            // caller chose: `CLAUDE_CODE_ENABLE_TASKS=1` in its
            // environment has the model plan with the task tools.)
            ("ANTHROPIC_BASE_URL", url.to_owned()),
            ("ANTHROPIC_API_KEY", KEY.to_owned()),
            ("CLAUDE_CODE_ENABLE_TODO_TOOLS", "1".to_owned()),
            ("CLAUDE_CODE_ENABLE_TASKS", "0".to_owned()),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".to_owned()),
            ("DISABLE_TELEMETRY", "1".to_owned()),
            ("DISABLE_AUTOUPDATER", "1".to_owned()),
            // Claude Code refuses to start as root (CI containers)
            // unless told it is in a sandbox; the scripted model calls
            // no tool but plan tools, so nothing the agent runs touches
            // the machine.
            ("IS_SANDBOX", "1".to_owned()),
        ],
        Wiring::Codex => {
            let codex_home = home.join(".codex");
            std::fs::create_dir_all(&codex_home)?;
            std::fs::write(codex_home.join("config.toml"), codex_config(url))?;
            vec![
                ("CODEX_HOME", text(&codex_home)),
                ("OPENAI_API_KEY", KEY.to_owned()),
            ]
        }
        Wiring::Qwen => {
            let qwen_home = home.join(".qwen");
            std::fs::create_dir_all(&qwen_home)?;
            std::fs::write(qwen_home.join("settings.json"), QWEN_SETTINGS)?;
            vec![
                ("QWEN_HOME", text(&qwen_home)),
                ("OPENAI_BASE_URL", format!("{url}/v1")),
                ("OPENAI_API_KEY", KEY.to_owned()),
                ("OPENAI_MODEL", MODEL.to_owned()),
            ]
        }
        Wiring::Gemini => vec![
            ("GOOGLE_GEMINI_BASE_URL", url.to_owned()),
            ("GEMINI_API_KEY", KEY.to_owned()),
            ("GEMINI_MODEL", "gemini-2.5-pro".to_owned()),
        ],
        Wiring::Opencode => vec![
            ("OPENAI_BASE_URL", format!("{url}/v1")),
            ("OPENAI_API_KEY", KEY.to_owned()),
            ("OPENCODE_CONFIG_CONTENT", OPENCODE_CONFIG.to_owned()),
            ("OPENCODE_DISABLE_MODELS_FETCH", "1".to_owned()),
        ],
    })
}

/// qwen-code's settings: its `todo_write` on (it is off by default).
const QWEN_SETTINGS: &str = r#"{"tools":{"todoWrite":{"enabled":true}},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}"#;

/// opencode's: a model of its OpenAI provider for both its models (its
/// default is a hosted one it would retry for minutes).
const OPENCODE_CONFIG: &str = r#"{"model":"openai/gpt-5.1","small_model":"openai/gpt-5.1"}"#;

/// Removes the homes of runs whose process is gone (one stopped by a
/// signal, which skips [`AgentEnv`]'s drop): no state outlives its run.
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

/// A command line of words (for tests).
#[cfg(test)]
pub(crate) fn command(words: &str) -> Vec<String> {
    words.split(' ').map(str::to_owned).collect()
}

/// The value `pointing` gives `key` (for tests).
#[cfg(test)]
pub(crate) fn get(agent_env: &AgentEnv, key: &str) -> Option<String> {
    agent_env
        .env
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_gets_its_profile_and_an_unknown_one_every_variable() {
        let url = "http://127.0.0.1:4242";
        let codex = point(url, &command("/usr/bin/codex-acp"), &ModelSetup::default()).unwrap();
        assert_eq!(codex.profile.unwrap().agent, "codex-acp");
        let config = std::fs::read_to_string(
            Path::new(&get(&codex, "CODEX_HOME").unwrap()).join("config.toml"),
        )
        .unwrap();
        assert!(
            config.contains(r#"base_url = "http://127.0.0.1:4242/v1""#),
            "{config}"
        );
        assert!(
            config.contains("[tools.update_plan]\nenabled = true"),
            "{config}"
        );
        assert_eq!(
            get(&codex, "ANTHROPIC_BASE_URL"),
            None,
            "only its own wirings"
        );
        let qwen = point(
            url,
            &command("node /x/qwen-code/cli.js --acp"),
            &ModelSetup::default(),
        )
        .unwrap();
        let settings = std::fs::read_to_string(
            Path::new(&get(&qwen, "QWEN_HOME").unwrap()).join("settings.json"),
        )
        .unwrap();
        let settings: serde_json::Value = serde_json::from_str(&settings).unwrap();
        assert_eq!(settings["tools"]["todoWrite"]["enabled"], true);
        assert_eq!(
            get(&qwen, "OPENAI_BASE_URL").unwrap(),
            "http://127.0.0.1:4242/v1"
        );
        let gemini = point(
            url,
            &command("npx @google/gemini-cli --acp"),
            &ModelSetup::default(),
        )
        .unwrap();
        assert_eq!(get(&gemini, "GOOGLE_GEMINI_BASE_URL").unwrap(), url);
        assert!(
            get(&gemini, "GEMINI_MODEL")
                .unwrap()
                .starts_with("gemini-2")
        );
        let unknown = point(url, &command("./my-agent --stdio"), &ModelSetup::default()).unwrap();
        assert_eq!(unknown.profile, None);
        for key in [
            "ANTHROPIC_BASE_URL",
            "OPENAI_BASE_URL",
            "CODEX_HOME",
            "QWEN_HOME",
            "GOOGLE_GEMINI_BASE_URL",
            "OPENCODE_CONFIG_CONTENT",
        ] {
            assert!(get(&unknown, key).is_some(), "{key}");
        }
        let keys: Vec<&String> = unknown.env.iter().map(|(k, _)| k).collect();
        let mut once = keys.clone();
        once.dedup();
        assert_eq!(keys.len(), once.len(), "each variable once");
        let home = PathBuf::from(get(&unknown, "HOME").unwrap());
        assert!(home.is_dir());
        drop(unknown);
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
