//! What the user adds to how an agent is pointed at the scripted model
//! (`--model-env`, `--model-file`, `--model-port`, `--allow-network`):
//! [`ModelSetup`], the placeholders its values may hold ([`fill`]), the
//! files written into the agent's home, and the dead proxy that keeps the
//! agent off the network by default.

use std::io;
use std::path::{Path, PathBuf};

/// The key the agents are given: any value does, the model checks none.
/// It says what it is, for whoever finds it in a log (an agent that sends
/// it to a hosted API by mistake is stopped by the dead proxy first).
pub(crate) const KEY: &str = "acp-plan-scripted-model-not-a-real-key";

/// The model's name, where an agent must be told one.
pub(crate) const MODEL: &str = "scripted-model";

/// The dead proxy: a loopback port nothing listens on (9, discard), so
/// any request an agent sends past the scripted model fails at once.
const DEAD_PROXY: &str = "http://127.0.0.1:9";

/// The proxy variables that keep the agent off the network (none with
/// `--allow-network`), and the hosts that stay reachable (`NO_PROXY`).
pub(super) fn network(setup: &ModelSetup) -> Vec<(&'static str, String)> {
    let mut env = Vec::new();
    if !setup.allow_network {
        // Whatever the agent sends past the model (its hosted default,
        // telemetry) fails at once, never leaves.
        for key in [
            "HTTPS_PROXY",
            "https_proxy",
            "HTTP_PROXY",
            "http_proxy",
            "ALL_PROXY",
            "all_proxy",
        ] {
            env.push((key, DEAD_PROXY.to_owned()));
        }
    }
    // A proxy in the environment must not take the loopback requests.
    env.push(("NO_PROXY", NO_PROXY.to_owned()));
    env.push(("no_proxy", NO_PROXY.to_owned()));
    env
}

/// Hosts reached past the dead proxy: loopback (the scripted model), and
/// the package registries a launcher such as `npx` or `uvx` may ask (they
/// are the user's own choice of command, not the agent's model).
const NO_PROXY: &str = "127.0.0.1,localhost,registry.npmjs.org,pypi.org,files.pythonhosted.org";

/// How an agent is pointed at the scripted model beyond its profile: what
/// the command line's `--plan-mode`, `--model-env`, `--model-file`,
/// `--model-port` and `--allow-network` say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct ModelSetup {
    /// The agent's plan mode is played (`--plan-mode`).
    pub plan_mode: bool,
    /// `--model-env NAME=VALUE`: more variables for the agent, their
    /// values' placeholders filled (`{url}`, `{port}`, `{key}`, `{model}`).
    pub env: Vec<(String, String)>,
    /// `--model-file PATH=FILE`: files written into the agent's throwaway
    /// home at `PATH` (relative to it), from the template `FILE`.
    pub files: Vec<(PathBuf, PathBuf)>,
    /// `--model-port PORT`: the model's port, for configurations written
    /// ahead of time (else any free one).
    pub port: Option<u16>,
    /// `--allow-network`: no dead proxy (by default the agent's other
    /// requests go to a closed loopback port).
    pub allow_network: bool,
}

/// `template` with its placeholders filled for the model at `url`
/// (`http://127.0.0.1:PORT`): `{url}` that address (no path), `{port}`
/// its port, `{key}` the key, `{model}` the model's name.
pub(crate) fn fill(template: &str, url: &str) -> String {
    let port = url.rsplit(':').next().unwrap_or_default();
    template
        .replace("{url}", url)
        .replace("{port}", port)
        .replace("{key}", KEY)
        .replace("{model}", MODEL)
}

/// `--model-file PATH=FILE`: `FILE`'s text, its placeholders filled, written
/// at `PATH` under the agent's `home` (a path that would leave it is an
/// error).
pub(super) fn write_file(home: &Path, path: &Path, template: &Path, url: &str) -> io::Result<()> {
    let leaves = path.is_absolute()
        || path.components().any(|c| {
            !matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        });
    if leaves {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--model-file: `{}` must be a path inside the agent's home (relative, no `..`)",
                path.display()
            ),
        ));
    }
    let text = std::fs::read_to_string(template).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("--model-file: cannot read `{}`: {e}", template.display()),
        )
    })?;
    let target = home.join(path);
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(target, fill(&text, url))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::point::{command, get, point};

    #[test]
    fn the_users_variables_and_files_are_filled_and_the_agent_kept_off_the_network() {
        let url = "http://127.0.0.1:4243";
        let dir = std::env::temp_dir().join(format!("acp-plan-setup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let template = dir.join("config.toml");
        std::fs::write(&template, "base_url = \"{url}/v1\"\nkey = \"{key}\"\n").unwrap();
        let setup = ModelSetup {
            env: vec![
                ("MY_AGENT_URL".to_owned(), "{url}/api".to_owned()),
                ("OPENAI_MODEL".to_owned(), "m-{port}".to_owned()),
            ],
            files: vec![(PathBuf::from(".my-agent/config.toml"), template.clone())],
            ..ModelSetup::default()
        };
        let agent_env = point(url, &command("./my-agent"), &setup).unwrap();
        assert_eq!(
            get(&agent_env, "MY_AGENT_URL").unwrap(),
            "http://127.0.0.1:4243/api"
        );
        assert_eq!(
            get(&agent_env, "OPENAI_MODEL").unwrap(),
            "m-4243",
            "the user's, not the profile's"
        );
        let home = PathBuf::from(get(&agent_env, "HOME").unwrap());
        let written = std::fs::read_to_string(home.join(".my-agent/config.toml")).unwrap();
        assert_eq!(
            written,
            format!("base_url = \"{url}/v1\"\nkey = \"{KEY}\"\n")
        );
        assert_eq!(get(&agent_env, "HTTPS_PROXY").unwrap(), DEAD_PROXY);
        assert!(
            get(&agent_env, "NO_PROXY")
                .unwrap()
                .starts_with("127.0.0.1,")
        );
        let open = ModelSetup {
            allow_network: true,
            ..ModelSetup::default()
        };
        assert_eq!(
            get(
                &point(url, &command("./my-agent"), &open).unwrap(),
                "HTTPS_PROXY"
            ),
            None
        );
        // A file may not leave the home.
        let outside = ModelSetup {
            files: vec![(PathBuf::from("../x"), template)],
            ..ModelSetup::default()
        };
        let error = point(url, &command("./my-agent"), &outside).unwrap_err();
        assert!(
            error.to_string().contains("inside the agent's home"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
