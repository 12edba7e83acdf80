//! The agent a client starts, how the client reads it and answers its
//! requests, and how the client ends it: a client ends what it started,
//! children included, on every way out.
//!
//! On Unix the agent runs in a process group of its own (it and everything
//! it starts, unless they leave the group). When the client is done it
//! closes the agent's input, waits briefly for it to exit, then sends
//! `SIGTERM` to the whole group, and `SIGKILL` to what is left a second
//! later. Done on drop, so the turn's end, an error, a timeout and a panic
//! all take this path; `Ctrl-C` (`SIGINT`), `SIGTERM` and `SIGHUP` to the
//! client terminate the group from a signal handler, then end the client as
//! the signal would have. (An agent left running would also hold the
//! client's standard error open, so `out=$(board -- agent 2>&1)` would never
//! return.) Elsewhere the agent alone is killed.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The agent's output as a channel of lines, read on a thread of its own
/// (not scoped: an agent that never closes its output must not keep the
/// client waiting; the thread ends when the output does).
pub(crate) fn lines(agent_out: impl BufRead + Send + 'static) -> mpsc::Receiver<Vec<u8>> {
    let (sender, inbox) = mpsc::channel();
    std::thread::spawn(move || {
        for read in agent_out.split(b'\n') {
            let Ok(bytes) = read else { break };
            if sender.send(bytes).is_err() {
                break;
            }
        }
    });
    inbox
}

/// The ways to authenticate an agent offered in `initialize` (its
/// `authMethods`), as lines of help: each method's id (for `--auth ID`),
/// name, description and the environment variables it reads. Empty when it
/// offered none.
pub(crate) fn auth_help(methods: &Value) -> String {
    use std::fmt::Write as _;
    let methods = methods.as_array().map(Vec::as_slice).unwrap_or_default();
    let mut help = String::new();
    if methods.is_empty() {
        return help;
    }
    help.push_str("\nthe agent offers these ways to authenticate; choose one with `--auth ID`:");
    for method in methods {
        let text = |key: &str| method[key].as_str().unwrap_or_default().to_owned();
        // v1 spells the method's id `id`, v2 `methodId`.
        let id = match text("id") {
            id if id.is_empty() => text("methodId"),
            id => id,
        };
        let _ = write!(help, "\n  {id}");
        if !text("name").is_empty() {
            let _ = write!(help, ": {}", text("name"));
        }
        if !text("description").is_empty() {
            let _ = write!(help, " ({})", text("description"));
        }
        // An `env_var` method names the variables the agent reads.
        let vars: Vec<String> = method["vars"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v["name"].as_str().map(str::to_owned))
            .chain(method["varName"].as_str().map(str::to_owned))
            .collect();
        if !vars.is_empty() {
            let _ = write!(help, "; set {}", vars.join(", "));
        }
    }
    help
}

/// What the user can do about an agent's refusal, told from its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hint {
    /// It wants a login or a key: the ways it offers, a key, or the
    /// scripted model.
    Auth,
    /// Its turn got nowhere, as when its model cannot be reached.
    Model,
    /// Something else, said here.
    Say(&'static str),
}

/// The hint that matches `error` (an agent's refusal, or why a turn got
/// nowhere), if one does.
pub(crate) fn hint_for(error: &str) -> Option<Hint> {
    let lower = error.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if has(&["method not found", "-32601"]) {
        Some(Hint::Say(
            "the agent does not serve that method: is the command an ACP agent started in its ACP mode (`gemini --acp`, `qwen --acp`, `opencode acp`)?",
        ))
    } else if has(&["root", "sudo"]) && has(&["permission", "bypass", "dangerously"]) {
        Some(Hint::Say(
            "the agent refuses to run as root with its permissions bypassed: run it as another user, or tell it it is in a sandbox (`IS_SANDBOX=1` for Claude Code; `--scripted-model` sets it)",
        ))
    } else if has(&[
        "auth",
        "api key",
        "api_key",
        "credential",
        "login",
        "log in",
        "unauthorized",
    ]) {
        Some(Hint::Auth)
    } else if has(&["made no progress", "reach", "network", "connect"]) {
        Some(Hint::Model)
    } else {
        None
    }
}

/// The client's answer to a request of the agent: a permission request is
/// rejected (a reject option if offered, else `cancelled`), but for the
/// switch out of plan mode (`kind: "switch_mode"`) when `approve_switch`:
/// then an allow option is chosen (once, where offered). Any other method
/// is not served.
pub(crate) fn answer_request(
    id: &Value,
    method: &str,
    params: &Value,
    approve_switch: bool,
) -> Value {
    if method == "session/request_permission" {
        let offered = params["options"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        let kind = |prefix: &str| {
            offered
                .iter()
                .find(|o| o["kind"].as_str().is_some_and(|k| k.starts_with(prefix)))
        };
        // v1 names the tool call at `toolCall`, v2 at `subject.toolCall`.
        let switch = [&params["toolCall"], &params["subject"]["toolCall"]]
            .iter()
            .any(|call| call["kind"] == "switch_mode");
        let choice = if approve_switch && switch {
            kind("allow_once").or_else(|| kind("allow"))
        } else {
            kind("reject")
        };
        let outcome = match choice {
            Some(option) => json!({ "outcome": "selected", "optionId": option["optionId"] }),
            None => json!({ "outcome": "cancelled" }),
        };
        json!({ "jsonrpc": "2.0", "id": id, "result": { "outcome": outcome } })
    } else {
        let message = format!("`{method}` is not served by this client");
        json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": message } })
    }
}

/// The request that puts `session` in its plan mode, as the agent's answer
/// to `session/new` advertises one: `session/set_mode` with a mode whose id
/// or name is "plan" (Claude Code), else `session/set_config_option` with
/// a select option that offers the value "plan" (codex's
/// `collaboration_mode`; under `v2` the option's id is `configId` and the
/// value says its `type`). `None` when it advertises none.
pub(crate) fn plan_mode_request(
    session: &str,
    new_session: &Value,
    v2: bool,
) -> Option<(&'static str, Value)> {
    let is_plan = |v: &Value| v.as_str().is_some_and(|s| s.eq_ignore_ascii_case("plan"));
    let modes = new_session["modes"]["availableModes"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if let Some(mode) = modes
        .iter()
        .find(|m| is_plan(&m["id"]) || is_plan(&m["name"]))
    {
        return Some((
            "session/set_mode",
            json!({ "sessionId": session, "modeId": mode["id"] }),
        ));
    }
    let options = new_session["configOptions"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    options
        .iter()
        .find_map(|option| {
            let values = option["options"].as_array()?;
            let value = values.iter().find(|v| is_plan(&v["value"]))?;
            let id = if v2 {
                &option["configId"]
            } else {
                &option["id"]
            };
            Some((id.clone(), value["value"].clone()))
        })
        .map(|(config, value)| {
            let mut params = json!({ "sessionId": session, "configId": config, "value": value });
            if v2 {
                params["type"] = json!("id");
            }
            ("session/set_config_option", params)
        })
}

/// How long the group has between `SIGTERM` and `SIGKILL`.
const TERMINATE_GRACE: Duration = Duration::from_secs(1);

/// How many of the agent's last standard error lines are kept.
const STDERR_TAIL: usize = 12;

/// Where the agent's standard error goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stderr {
    /// To the client's, as it comes (the board: a person watches).
    Inherit,
    /// Kept, its last lines quoted when the agent could not be driven
    /// (`check`: a report, not the agent's log).
    Keep,
}

/// A running agent, ended (with its process group) when dropped.
#[derive(Debug)]
pub(crate) struct AgentProcess {
    child: Child,
    /// How long [`Drop`] waits for the agent to exit on its own after its
    /// input closed.
    grace: Duration,
    /// Its last lines on standard error, with [`Stderr::Keep`].
    stderr: Option<Arc<Mutex<VecDeque<String>>>>,
}

impl AgentProcess {
    /// Starts `program` with `args` and `env` added to this process's
    /// environment, its standard input and output piped,
    /// its standard error the client's, in a process group of its own.
    ///
    /// # Errors
    /// Why it could not be started.
    pub(crate) fn start(
        program: &str,
        args: &[String],
        env: &[(String, String)],
        stderr: Stderr,
    ) -> io::Result<(Self, ChildStdin, ChildStdout)> {
        let mut command = Command::new(program);
        command
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                Stderr::Inherit => Stdio::inherit(),
                Stderr::Keep => Stdio::piped(),
            });
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        #[cfg(unix)]
        group::watch(child.id());
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            unreachable!("both were piped")
        };
        let kept = child.stderr.take().map(|pipe| {
            let tail = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
            let keep = Arc::clone(&tail);
            // Read to its end on a thread of its own, so a full pipe never
            // stalls the agent.
            std::thread::spawn(move || {
                for line in io::BufReader::new(pipe).split(b'\n') {
                    let Ok(line) = line else { break };
                    let mut tail = keep.lock().unwrap_or_else(PoisonError::into_inner);
                    if tail.len() == STDERR_TAIL {
                        tail.pop_front();
                    }
                    tail.push_back(String::from_utf8_lossy(&line).trim_end().to_owned());
                }
            });
            tail
        });
        let agent = Self {
            child,
            grace: Duration::ZERO,
            stderr: kept,
        };
        Ok((agent, input, output))
    }

    /// The agent's last lines on standard error (with [`Stderr::Keep`]),
    /// blank ones left out.
    pub(crate) fn stderr_tail(&self) -> Vec<String> {
        self.stderr.as_ref().map_or_else(Vec::new, |tail| {
            let tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
            tail.iter()
                .filter(|l| !l.trim().is_empty())
                .cloned()
                .collect()
        })
    }

    /// Ends the agent, giving it `grace` to exit on its own first (its input
    /// must be closed by then: the caller drops the [`ChildStdin`]).
    pub(crate) fn end(mut self, grace: Duration) {
        self.grace = grace;
        // Drop does the work.
    }

    /// Waits at most `within` for the agent to exit.
    fn wait_exit(&mut self, within: Duration) {
        let deadline = Instant::now() + within;
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        self.wait_exit(self.grace);
        #[cfg(unix)]
        {
            let pgid = self.child.id();
            // What the agent started may outlive it: the group goes too.
            if group::signal(pgid, group::Signal::Terminate) {
                let deadline = Instant::now() + TERMINATE_GRACE;
                while Instant::now() < deadline {
                    let _ = self.child.try_wait();
                    if !group::signal(pgid, group::Signal::Probe) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                group::signal(pgid, group::Signal::Kill);
            }
            group::forget(pgid);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The process-group calls std lacks: signalling a group, and a handler
/// that ends the agent's group when the client is interrupted.
#[cfg(unix)]
#[allow(unsafe_code)] // FFI to kill(2), signal(2), raise(3); each call is commented.
mod group {
    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// The agent's process group, for the signal handler (0: none).
    static AGENT_GROUP: AtomicI32 = AtomicI32::new(0);
    static INSTALL: Once = Once::new();

    /// What to send a group.
    #[derive(Debug, Clone, Copy)]
    pub(super) enum Signal {
        /// Nothing: whether the group still has a member.
        Probe,
        /// `SIGTERM`.
        Terminate,
        /// `SIGKILL`.
        Kill,
    }

    /// Sends `signal` to every process of group `pgid`; whether one got it
    /// (false once the group is empty).
    pub(super) fn signal(pgid: u32, signal: Signal) -> bool {
        let Ok(pgid) = i32::try_from(pgid) else {
            return false;
        };
        if pgid <= 1 {
            return false; // never the caller's own group or every process
        }
        let number = match signal {
            Signal::Probe => 0,
            Signal::Terminate => libc::SIGTERM,
            Signal::Kill => libc::SIGKILL,
        };
        // SAFETY: kill(2) with a negative pid signals that process group;
        // it touches no memory of ours.
        unsafe { libc::kill(-pgid, number) == 0 }
    }

    /// Remembers `pgid` as the agent's group, and installs the handlers
    /// (once per process).
    pub(super) fn watch(pgid: u32) {
        AGENT_GROUP.store(i32::try_from(pgid).unwrap_or(0), Ordering::SeqCst);
        INSTALL.call_once(|| {
            for number in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                let handler = on_signal as extern "C" fn(libc::c_int);
                // SAFETY: the handler only makes async-signal-safe calls
                // (kill, signal, raise) and reads an atomic. A signal the
                // client was started ignoring (`nohup`, a background job)
                // stays ignored.
                unsafe {
                    if libc::signal(number, handler as libc::sighandler_t) == libc::SIG_IGN {
                        libc::signal(number, libc::SIG_IGN);
                    }
                }
            }
        });
    }

    /// The agent is gone: the handler has nothing to end.
    pub(super) fn forget(pgid: u32) {
        let _ = AGENT_GROUP.compare_exchange(
            i32::try_from(pgid).unwrap_or(0),
            0,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
    }

    /// Ends the agent's group, then the client, as `number` would have.
    extern "C" fn on_signal(number: libc::c_int) {
        let pgid = AGENT_GROUP.swap(0, Ordering::SeqCst);
        // SAFETY: kill, signal and raise are async-signal-safe. Restoring the
        // default action and raising again ends the process with the
        // signal's own status (130 for Ctrl-C in a shell).
        unsafe {
            if pgid > 1 {
                libc::kill(-pgid, libc::SIGTERM);
            }
            libc::signal(number, libc::SIG_DFL);
            libc::raise(number);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_gets_the_hint_that_matches_it() {
        let hint = |e: &str| hint_for(e);
        assert!(matches!(
            hint(r#"the agent refused `session/new`: {"code":-32601,"message":"Method not found"}"#),
            Some(Hint::Say(s)) if s.contains("ACP mode")
        ));
        assert!(matches!(
            hint("--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons"),
            Some(Hint::Say(s)) if s.contains("IS_SANDBOX")
        ));
        assert_eq!(hint("Authentication required"), Some(Hint::Auth));
        assert_eq!(hint("Gemini API key is missing"), Some(Hint::Auth));
        assert_eq!(
            hint("the turn made no progress within 60 s"),
            Some(Hint::Model)
        );
        assert_eq!(hint("Invalid params"), None);
    }

    #[test]
    fn auth_methods_are_listed_by_their_id_in_either_versions_spelling() {
        let v1 = auth_help(&json!([{ "id": "api-key", "name": "API Key" }]));
        let v2 = auth_help(&json!([{ "methodId": "chatgpt", "name": "ChatGPT" }]));
        assert!(v1.contains("\n  api-key: API Key"), "{v1}");
        assert!(v2.contains("\n  chatgpt: ChatGPT"), "{v2}");
    }

    #[test]
    fn plan_mode_is_a_mode_or_a_config_option_in_each_versions_words() {
        let claude_v1 = json!({ "modes": { "availableModes": [{ "id": "default" }, { "id": "plan", "name": "Plan" }] } });
        assert_eq!(
            plan_mode_request("s", &claude_v1, false),
            Some((
                "session/set_mode",
                json!({ "sessionId": "s", "modeId": "plan" })
            ))
        );
        let codex_v1 = json!({ "configOptions": [
            { "id": "mode", "options": [{ "value": "agent" }] },
            { "id": "collaboration_mode", "options": [{ "value": "default" }, { "value": "plan" }] }] });
        assert_eq!(
            plan_mode_request("s", &codex_v1, false).unwrap().1,
            json!({ "sessionId": "s", "configId": "collaboration_mode", "value": "plan" })
        );
        let claude_v2 =
            json!({ "configOptions": [{ "configId": "mode", "options": [{ "value": "plan" }] }] });
        assert_eq!(
            plan_mode_request("s", &claude_v2, true).unwrap().1,
            json!({ "sessionId": "s", "configId": "mode", "type": "id", "value": "plan" })
        );
        assert_eq!(plan_mode_request("s", &json!({}), false), None);
    }

    #[test]
    fn only_the_switch_out_of_plan_mode_is_approved_and_only_when_asked() {
        let options = json!([{ "optionId": "yes", "kind": "allow_always" },
            { "optionId": "once", "kind": "allow_once" }, { "optionId": "no", "kind": "reject_once" }]);
        let switch = json!({ "toolCall": { "kind": "switch_mode" }, "options": options });
        let edit = json!({ "toolCall": { "kind": "edit" }, "options": options });
        let switch_v2 = json!({ "subject": { "type": "tool_call", "toolCall": { "kind": "switch_mode" } },
            "options": options });
        let chosen = |params: &Value, approve: bool| {
            answer_request(&json!(1), "session/request_permission", params, approve)["result"]
                ["outcome"]["optionId"]
                .clone()
        };
        assert_eq!(chosen(&switch, true), "once");
        assert_eq!(chosen(&switch_v2, true), "once");
        assert_eq!(chosen(&switch, false), "no");
        assert_eq!(chosen(&edit, true), "no");
    }
}
