//! Whether a kind of client was driven at all, with `--scripted-model`:
//! a verdict needs a turn that really ran. A kind whose turn never reached
//! the model, and that sent no plan of its own, was not driven (exit 2,
//! with the agent's own last words and what it was given); nor was one
//! whose model was offered no plan tool it can play (the tools it was
//! offered named, and a tool that speaks of a plan but takes something
//! else named as such). Never a finding: nothing the agent did is known.

use super::client_run::ClientRun;
use super::mapping::listed;
use crate::model::Log;

/// Why `run` was not driven, if it was not, judged by the model's `log`;
/// `given` is the environment the agent was given to reach the model.
pub(super) fn not_driven(run: &ClientRun, log: &Log, given: &[(String, String)]) -> Option<String> {
    if log.requests == 0 {
        // An agent that plans without a model said so by its own plans.
        return (run.plans == 0).then(|| never_asked(run, given));
    }
    if !log.plan_tools.is_empty() {
        return None;
    }
    Some(if log.unplayable.is_empty() {
        format!(
            "the agent offered its model no plan tool, so the model could make no plan and nothing could be held to one; it offered: {}\n(`check` plans with a tool named `TodoWrite`, `update_plan`, `todo_write`, `todowrite` or `write_todos`, with Claude Code's task tools, or with any tool whose input is a list of items each with a text and a status from an enum that has pending and completed; if your agent's plan tool is off by default, switch it on in its environment)",
            listed(log.offered.iter())
        )
    } else {
        format!(
            "could not play the agent's plan tool {}: its description speaks of a plan or todos, but its input is not a list of items (a text and a status from an enum with pending and completed each), so the scripted model cannot plan with it and nothing could be held to a plan; the agent may well plan, `check` cannot drive it to\n(the agent offered: {})",
            listed(log.unplayable.iter()),
            listed(log.offered.iter())
        )
    })
}

/// Why a kind whose turn never reached the scripted model was not driven:
/// the agent's own last words, what it was given, and the options that
/// point it at the model some other way.
fn never_asked(run: &ClientRun, given: &[(String, String)]) -> String {
    let words = match last_words(run) {
        Some(words) => format!("its last words: \"{words}\""),
        None => "it said nothing (no message text in its turn)".to_owned(),
    };
    let ended = match run.stop_reasons.last() {
        Some(stop) => format!(" (its turn ended `{stop}`)"),
        None => String::new(),
    };
    let names: Vec<&str> = given
        .iter()
        .map(|(key, _)| key.as_str())
        .filter(|key| {
            !key.to_ascii_lowercase().ends_with("_proxy")
                && *key != "HOME"
                && *key != "npm_config_cache"
        })
        .collect();
    let offline = if given.iter().any(|(key, _)| key == "HTTPS_PROXY") {
        "; its proxy variables point at a closed local port, so nothing past the model is reached (`--allow-network` lifts that)"
    } else {
        ""
    };
    format!(
        "the agent never asked the scripted model: its turn ran without a model, so it was not driven and nothing is judged\n{words}{ended}\nit was given {} in a throwaway HOME{offline}\nif it reads its model from elsewhere, point it there: `--model-env NAME={{url}}/v1` (a variable of its own), `--model-file PATH=FILE` (a configuration file in its home), `--model-port PORT` (a configuration written ahead of time); docs/ci.md, \"An agent we have no profile for\"",
        names.join(", ")
    )
}

/// The text the agent said in its last turn (its `agent_message_chunk`s
/// after the last prompt), trimmed to a few hundred characters.
fn last_words(run: &ClientRun) -> Option<String> {
    // The last prompt's line (1-based), or 0: our own lines, searched.
    let start = run
        .transcript
        .iter()
        .rposition(|line| line.contains("\"session/prompt\""))
        .map_or(0, |i| i + 1);
    let mut said = String::new();
    for (_, update) in run.updates.iter().filter(|(line, _)| *line > start) {
        if let plan_core::SessionUpdate::Other(other) = update
            && other.kind() == "agent_message_chunk"
            && let Some(text) = other
                .as_object()
                .get("content")
                .and_then(|content| content.get("text"))
                .and_then(serde_json::Value::as_str)
        {
            said.push_str(text);
        }
    }
    let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
    if said.is_empty() {
        return None;
    }
    Some(match said.char_indices().nth(400) {
        Some((at, _)) => format!("{}...", &said[..at]),
        None => said,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::wire::ClientKind;

    fn offered(requests: usize, tools: &[&str]) -> Log {
        let mut log = Log {
            requests,
            ..Log::default()
        };
        log.offered.extend(tools.iter().map(|t| (*t).to_owned()));
        log
    }

    #[test]
    fn an_agent_that_offered_no_plan_tool_is_not_driven_and_its_tools_are_listed() {
        let failure = not_driven(
            &ClientRun::of_lines(ClientKind::V1Plan, &[] as &[&str]),
            &offered(2, &["read_file", "shell"]),
            &[],
        )
        .unwrap();
        assert!(
            failure.starts_with(
                "the agent offered its model no plan tool, so the model could make no plan and nothing could be held to one; it offered: `read_file`, `shell`"
            ),
            "{failure}"
        );
        // A tool that speaks of todos but takes SQL is named as such.
        let mut log = offered(2, &["read_file", "sql"]);
        log.unplayable.insert("sql".to_owned());
        let failure = not_driven(
            &ClientRun::of_lines(ClientKind::V1Plan, &[] as &[&str]),
            &log,
            &[],
        )
        .unwrap();
        assert!(
            failure.starts_with("could not play the agent's plan tool `sql`: "),
            "{failure}"
        );
        log.plan_tools.insert("todo".to_owned());
        assert_eq!(
            not_driven(
                &ClientRun::of_lines(ClientKind::V1Plan, &[] as &[&str]),
                &log,
                &[]
            ),
            None
        );
    }

    #[test]
    fn a_turn_that_never_reached_the_model_is_not_driven_and_says_the_agents_words() {
        let mut run = ClientRun::of_lines(
            ClientKind::V1Plan,
            &[
                r#"{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{}}"#,
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"API call failed after 3 retries: "}}}}"#,
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Connection error."}}}}"#,
                r#"{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}"#,
            ],
        );
        run.stop_reasons.push("end_turn".to_owned());
        let given = [
            (
                "OPENAI_BASE_URL".to_owned(),
                "http://127.0.0.1:1/v1".to_owned(),
            ),
            ("HTTPS_PROXY".to_owned(), "http://127.0.0.1:9".to_owned()),
            ("HOME".to_owned(), "/tmp/x".to_owned()),
        ];
        let failure = not_driven(&run, &offered(0, &[]), &given).unwrap();
        assert!(
            failure.contains(
                "its last words: \"API call failed after 3 retries: Connection error.\" (its turn ended `end_turn`)"
            ),
            "{failure}"
        );
        assert!(failure.contains("it was given OPENAI_BASE_URL in a throwaway HOME; its proxy variables point at a closed local port"), "{failure}");
        assert!(failure.contains("`--model-env NAME={url}/v1`"), "{failure}");
        // One that sent plans of its own without a model is judged on them.
        run.plans = 1;
        assert_eq!(not_driven(&run, &offered(0, &[]), &given), None);
    }
}
