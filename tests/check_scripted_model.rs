//! `check --scripted-model` on an agent nobody here has heard of
//! (`common/tool_agent.rs`): its plan tool has a name never seen and words
//! of its own, and the model plans with it; what the agent did with the
//! plans is judged, and only the plans the model made. An agent that offers
//! no plan tool is not judged at all (exit 2, its tools listed). Each run is
//! a child process bounded by the check's timeout. And the model's calls
//! of each real agent's plan tool are valid against the schema it offers.

mod common;

use std::time::Duration;

use acp_plan::CheckAgentOptions as Options;
use acp_plan::ModelChoice;
use acp_plan::harness as conformance;
use serde_json::Value;

/// `check --scripted-model --expect-plans --json -- tool-agent MODE`: the
/// exit status and the report.
fn check(mode: &str) -> (u8, Value) {
    check_with(&[mode], |_| {})
}

/// `check --scripted-model --expect-plans --json -- tool-agent ARGS...`,
/// the options changed by `set` first.
fn check_with(args: &[&str], set: impl FnOnce(&mut Options)) -> (u8, Value) {
    let mut options = Options::default();
    options.command = std::iter::once(env!("CARGO_BIN_EXE_tool-agent"))
        .chain(args.iter().copied())
        .map(str::to_owned)
        .collect();
    options.scripted_model = Some(ModelChoice::BuiltIn);
    options.expect_plans = true;
    options.json = true;
    options.timeout = Duration::from_secs(20);
    set(&mut options);
    let mut out = Vec::new();
    let status = conformance::report_agent(&options, &mut out).unwrap();
    (status, serde_json::from_slice(&out).unwrap())
}

/// A clean report (exit 0, no finding) whose every kind says the model's
/// plans with `tool` reached it whole.
fn assert_clean_with(status: u8, report: &Value, tool: &str) {
    assert_eq!(findings(report), [], "{report:#}");
    assert_eq!(status, 0, "{report:#}");
    for kind in report["kinds"].as_array().unwrap() {
        let notes = kind["notes"].to_string();
        let whole = format!("plan(s) with `{tool}` reached this client whole");
        assert!(notes.contains(&whole), "{notes}");
    }
}

fn findings(report: &Value) -> Vec<(String, String)> {
    report["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|k| k["findings"].as_array().unwrap().clone())
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_plan_tool_of_a_name_never_seen_is_planned_with_and_judged_clean() {
    let (status, report) = check("plans");
    assert!(report["profile"].is_null(), "no profile matches it");
    assert_clean_with(status, &report, "track_steps");
    let notes = report["kinds"][0]["notes"].to_string();
    assert!(notes.contains("the model's 3 plan(s)"), "{notes}");
}

#[test]
fn plans_the_model_made_that_reach_no_client_are_one_finding_a_kind_naming_the_tool() {
    let (status, report) = check("silent");
    assert_eq!(status, 1, "{report:#}");
    let found = findings(&report);
    assert_eq!(found.len(), 3, "{found:#?}");
    for (rule, message) in found {
        assert_eq!(rule, "model-plan");
        assert!(
            message.starts_with(
                "the model made 3 plan(s) with `track_steps`; this client was sent none"
            ),
            "{message}"
        );
    }
}

#[test]
fn an_agent_that_offers_no_plan_tool_is_exit_2_with_its_tools_listed_never_a_finding() {
    let (status, report) = check("no-plan-tool");
    assert_eq!(status, 2, "{report:#}");
    assert_eq!(findings(&report), []);
    assert_eq!(report["notDriven"], 3);
    for kind in report["kinds"].as_array().unwrap() {
        let failure = kind["failure"].as_str().unwrap();
        assert!(
            failure.contains("offered its model no plan tool") && failure.contains("`read_file`"),
            "{failure}"
        );
    }
}

/// Each kind's failure, or a panic naming the report.
fn failures(report: &Value) -> Vec<String> {
    report["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            k["failure"]
                .as_str()
                .unwrap_or_else(|| panic!("driven: {report:#}"))
                .to_owned()
        })
        .collect()
}

#[test]
fn an_agent_that_never_asks_the_model_is_exit_2_with_its_own_words_with_or_without_expect_plans() {
    for expect_plans in [true, false] {
        let (status, report) = check_with(&["plans", "hosted"], |o| o.expect_plans = expect_plans);
        assert_eq!(status, 2, "{report:#}");
        assert_eq!(findings(&report), []);
        for failure in failures(&report) {
            assert!(
                failure.starts_with("the agent never asked the scripted model"),
                "{failure}"
            );
            assert!(
                failure.contains(
                    "its last words: \"API call failed after 3 retries: Connection error.\""
                ),
                "{failure}"
            );
            assert!(
                failure.contains("OPENAI_BASE_URL"),
                "the variables it was given: {failure}"
            );
            assert!(failure.contains("--model-env"), "{failure}");
        }
    }
}

#[test]
fn a_pydantic_plan_tool_is_played_through_its_references_and_judged_clean() {
    let (status, report) = check("pydantic");
    assert_clean_with(status, &report, "todos");
}

#[test]
fn an_exit_plan_mode_of_other_arguments_is_an_ordinary_tool_and_the_real_plan_tool_is_judged() {
    let (status, report) = check("exit-plan-mode");
    assert_clean_with(status, &report, "track_steps");
}

#[test]
fn a_plan_tool_that_is_not_a_list_is_named_as_one_check_could_not_play() {
    let (status, report) = check("sql");
    assert_eq!(status, 2, "{report:#}");
    assert_eq!(findings(&report), []);
    for failure in failures(&report) {
        assert!(
            failure.starts_with("could not play the agent's plan tool `sql`"),
            "{failure}"
        );
    }
}

#[test]
fn an_agent_reading_a_variable_of_its_own_is_driven_with_model_env_alone() {
    let (status, report) = check_with(&["plans", "custom-env"], |o| {
        o.model_setup.env = vec![("TOOL_AGENT_ENDPOINT".to_owned(), "{url}/v1".to_owned())];
    });
    assert_eq!(findings(&report), [], "{report:#}");
    assert_eq!(status, 0, "{report:#}");
    // Without it, it never reaches the model: not driven.
    let (status, _) = check_with(&["plans", "custom-env"], |_| {});
    assert_eq!(status, 2);
}

#[test]
fn an_agent_reading_a_toml_file_in_its_home_is_driven_with_model_file_alone() {
    let template = std::env::temp_dir().join(format!("tool-agent-{}.toml", std::process::id()));
    std::fs::write(
        &template,
        "# tool-agent's settings\nbase_url = \"{url}/v1\"\n",
    )
    .unwrap();
    let (status, report) = check_with(&["plans", "toml"], |o| {
        o.model_setup.files = vec![(".tool-agent/config.toml".into(), template.clone())];
    });
    std::fs::remove_file(&template).unwrap();
    assert_eq!(findings(&report), [], "{report:#}");
    assert_eq!(status, 0, "{report:#}");
}

#[test]
fn a_todo_tool_seen_only_as_tool_calls_reaches_every_client_through_the_proxy() {
    // Direct: the model's plans reach no client (only tool calls go out).
    let (status, report) = check("tool-calls");
    assert_eq!(status, 1, "{report:#}");
    assert!(
        findings(&report)
            .iter()
            .all(|(rule, _)| rule == "model-plan"),
        "{report:#}"
    );
    // Through `acp-plan proxy`: each kind of client gets them whole.
    let proxied = [
        env!("CARGO_BIN_EXE_acp-plan-harness"),
        "proxy",
        "--",
        env!("CARGO_BIN_EXE_tool-agent"),
        "tool-calls",
    ];
    let (status, report) = check_with(&[], |o| {
        o.command = proxied.iter().map(|s| (*s).to_owned()).collect();
    });
    assert_clean_with(status, &report, "track_steps");
}

/// Plan messages per kind of client, in a report.
fn plans_per_kind(report: &Value) -> Vec<u64> {
    report["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["plans"].as_u64().unwrap())
        .collect()
}

/// An agent that sends its todo tool calls and a plan of its own, in each
/// order (kimi-code's and mistral-vibe's is `own-after`): through the proxy
/// each kind of client gets no more plan messages than direct (but for the
/// one derived plan an `own-later` agent makes the proxy show, and its
/// removal), and is left holding one plan (`stale-plan` would say
/// otherwise), clean.
#[test]
fn through_the_proxy_an_agent_with_plans_of_its_own_gets_no_plan_added() {
    for mode in ["own-before", "own-after", "own-later"] {
        let (status, direct) = check(mode);
        assert_clean_with(status, &direct, "track_steps");
        let proxied = [
            env!("CARGO_BIN_EXE_acp-plan-harness"),
            "proxy",
            "--",
            env!("CARGO_BIN_EXE_tool-agent"),
            mode,
        ];
        let (status, report) = check_with(&[], |o| {
            o.command = proxied.iter().map(|s| (*s).to_owned()).collect();
        });
        assert_clean_with(status, &report, "track_steps");
        // Where the agent's own plan comes only after another line, the
        // proxy has already shown the derived plan: it costs that plan and,
        // for a client of plan operations, its removal, once a session.
        let (direct, through) = (plans_per_kind(&direct), plans_per_kind(&report));
        let extra = if mode == "own-later" {
            [1, 2, 2]
        } else {
            [0, 0, 0]
        };
        assert!(
            through
                .iter()
                .zip(&direct)
                .zip(extra)
                .all(|((t, d), e)| *t <= d + e),
            "{mode}: direct {direct:?}, through the proxy {through:?}"
        );
    }
}

/// docs/ci.md's table of profiles, as (agent, the word that matches it, the
/// variables its row names).
fn documented_profiles() -> Vec<(String, String, Vec<String>)> {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ci.md")).unwrap();
    let start = page
        .find("| agent (matched by) | API | what it is given |")
        .expect("docs/ci.md has the profile table");
    page[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .map(|row| {
            let cells: Vec<&str> = row.split(" | ").collect();
            let (agent, matched) = cells[0]
                .trim_start_matches("| ")
                .split_once(" (")
                .unwrap_or((cells[0].trim_start_matches("| "), ""));
            let word = matched.split('`').nth(1).unwrap_or("my-agent").to_owned();
            // `NAME` or `NAME=...` in backticks, an environment variable.
            let vars = cells[2]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(|code| code.split('=').next().unwrap_or(code))
                .filter(|name| {
                    name.len() > 3 && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                })
                .map(str::to_owned)
                .collect();
            (agent.to_owned(), word, vars)
        })
        .collect()
}

#[test]
fn each_row_of_the_documented_profile_table_is_what_its_agent_is_given() {
    use acp_plan::harness::{PROFILES, point};
    let rows = documented_profiles();
    assert_eq!(
        rows.len(),
        PROFILES.len() + 1,
        "a row per profile and one for any other agent"
    );
    let every: Vec<String> = rows.iter().flat_map(|(_, _, vars)| vars.clone()).collect();
    for (agent, word, vars) in &rows {
        // "every variable above at once"
        let vars = if agent == "any other agent" {
            &every
        } else {
            vars
        };
        let pointing = point(
            "http://127.0.0.1:9",
            std::slice::from_ref(word),
            &acp_plan::ModelSetup::default(),
        )
        .unwrap();
        let known = PROFILES.iter().find(|p| p.agent == agent.as_str());
        assert_eq!(
            pointing.profile.map(|p| p.agent),
            known.map(|p| p.agent),
            "{agent}: matched by `{word}`"
        );
        assert!(!vars.is_empty(), "{agent}: its row names its variables");
        for var in vars {
            assert!(
                pointing.env.iter().any(|(k, _)| k == var),
                "{agent}: docs/ci.md says it is given {var}; it is not"
            );
        }
    }
}

/// What `schema`, as offered, finds wrong with `arguments` (nothing, for a
/// call the model may make).
fn invalid(schema: &Value, arguments: &Value) -> Vec<String> {
    jsonschema::validator_for(schema)
        .unwrap()
        .iter_errors(arguments)
        .map(|e| e.to_string())
        .collect()
}

/// The schemas real agents offer their models for their plan tools
/// (`data/real-agents/tools/`): the tool's name and its input schema.
fn real_plan_tools() -> Vec<(String, Value)> {
    let dir = common::data::data_dir().join("real-agents/tools");
    let mut tools: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| {
            let file: Value =
                serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap())
                    .unwrap();
            let schema = ["input_schema", "parameters", "parametersJsonSchema"]
                .iter()
                .map(|key| file[*key].clone())
                .find(|s| !s.is_null())
                .unwrap();
            (file["tool"].as_str().unwrap().to_owned(), schema)
        })
        .collect();
    tools.sort_by(|a, b| a.0.cmp(&b.0));
    tools
}

#[test]
fn the_models_calls_of_each_real_agents_plan_tool_are_valid_against_its_schema() {
    use acp_plan::Script;
    use acp_plan::harness::find_plan_tool;
    let tools = real_plan_tools();
    let names: Vec<&str> = tools.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "TodoWrite",
            "todo_write",
            "todowrite",
            "update_plan",
            "write_todos"
        ]
    );
    let script = Script::built_in();
    for (name, schema) in &tools {
        // Each offered alone, among other tools, as an agent offers it.
        let offered = [
            (
                "read_file".to_owned(),
                serde_json::json!({ "type": "object" }),
            ),
            (name.clone(), schema.clone()),
        ];
        let tool = find_plan_tool(offered.iter().map(|(n, s)| (n.as_str(), s)))
            .unwrap_or_else(|| panic!("{name} is found as the plan tool"));
        assert_eq!(tool.name(), name);
        for call in 0..script.len() {
            let (arguments, said) = tool.say(script.todo_write(call).unwrap(), call);
            assert_eq!(
                invalid(schema, &arguments),
                Vec::<String>::new(),
                "{name}, call {call}: {arguments}"
            );
            let statuses: Vec<_> = said.iter().map(|t| t.status.clone()).collect();
            let scripted: Vec<_> = script
                .todo_write(call)
                .unwrap()
                .todos
                .iter()
                .map(|t| t.status.clone())
                .collect();
            assert_eq!(
                statuses, scripted,
                "{name}: every status said as the script has it"
            );
        }
    }
}

#[test]
fn a_plan_tool_written_any_legal_way_is_found_and_called_validly_against_the_schema_as_offered() {
    use acp_plan::Script;
    use acp_plan::harness::find_plan_tool;
    let pydantic: Value =
        serde_json::from_str(include_str!("common/schemas/pydantic-todos.json")).unwrap();
    // The same list behind `allOf`, its status a union of constants, its
    // item under `definitions`.
    let wrapped = serde_json::json!({ "allOf": [ { "type": "object", "required": ["steps", "mode"],
        "properties": { "mode": { "type": "string", "enum": ["get", "replace"] },
            "steps": { "type": ["array", "null"], "items": { "$ref": "#/definitions/Step" } } } } ],
        "definitions": { "Step": { "type": "object", "required": ["title", "state"],
            "additionalProperties": false, "properties": { "title": { "type": "string" },
            "state": { "oneOf": [ { "const": "todo" }, { "const": "doing" }, { "const": "done" } ] } } } } });
    let script = Script::built_in();
    for (name, schema, write) in [
        ("todos", pydantic, ("action", "write")),
        ("steps", wrapped, ("mode", "replace")),
    ] {
        let offered = [(name.to_owned(), schema.clone())];
        let tool = find_plan_tool(offered.iter().map(|(n, s)| (n.as_str(), s)))
            .unwrap_or_else(|| panic!("{name} is found as the plan tool"));
        for call in 0..script.len() {
            let (arguments, _) = tool.say(script.todo_write(call).unwrap(), call);
            assert_eq!(
                invalid(&schema, &arguments),
                Vec::<String>::new(),
                "{name}, call {call}: {arguments}"
            );
            assert_eq!(arguments[write.0], write.1, "{name}: the write-like word");
        }
    }
}

#[test]
fn the_report_says_which_profile_pointed_the_agent_at_the_model() {
    let mut options = Options::default();
    options.scripted_model = Some(ModelChoice::BuiltIn);
    for (command, says) in [
        (
            "qwen --acp",
            "scripted model: qwen-code's profile (OpenAI Chat Completions;",
        ),
        (
            "./my-agent",
            "scripted model: no profile matches the command",
        ),
    ] {
        options.command = command.split(' ').map(str::to_owned).collect();
        let text = conformance::report_text(&options, &[]);
        assert!(text.contains(says), "{text}");
    }
    options.scripted_model = None;
    assert!(!conformance::report_text(&options, &[]).contains("scripted model:"));
}
