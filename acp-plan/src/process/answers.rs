//! The client's side of what an agent asks and says: its permission
//! requests answered (the switch out of plan mode approved where asked),
//! the request that sets a session's plan mode, the ways it offers to
//! authenticate, and the hint that matches a refusal.

use serde_json::{Value, json};

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
        if vars.is_empty() {
            // A browser, a device code, a `login` command: a person's way
            // in, never CI's.
            help.push_str(" [interactive: for a person at a terminal, not for CI]");
        } else {
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
        // A login is a person's way in, never offered as CI's.
        assert!(
            v2.contains("ChatGPT [interactive: for a person at a terminal, not for CI]"),
            "{v2}"
        );
        let key = auth_help(&json!([{ "id": "key", "name": "Key", "type": "env_var",
            "vars": [{ "name": "MY_KEY" }] }]));
        assert!(key.ends_with("key: Key; set MY_KEY"), "{key}");
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
