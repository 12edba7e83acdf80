//! Plans from models (`plan_core::tools`): the tools' schemas held to the
//! ones the real agents offer, the quirks real models send read leniently
//! or refused with an error for the model, the plans every kind of client
//! reads (our checker, the public schema and the SDK's reader judge them),
//! the relabel kept one entry on the board, resends skipped, the reverse
//! mapping, the tool of a `Steps` type, and a model's plan file.
//!
//! Why one file over 500 lines: an integration test file is a binary of its
//! own, and these tests share the model's recorded calls and the judges;
//! split, each part would build and link the SDK's types again.

mod common;

use common::real_agents::transcript;
use common::sdk::Judges;
use plan_core::client::{Changes, PlanBoard};
use plan_core::fixtures::ClientProfile;
use plan_core::tools::{
    ActiveForm, ModelPlans, PlanOptions, Scope, StepsTool, TodoWrite, ToolDefinition, UpdatePlan,
};
use plan_core::{PlanContent, PlanId, Priority, SessionUpdate, Status, Steps};
use serde_json::Value;

fn id(text: &'static str) -> PlanId {
    PlanId::new(text).unwrap()
}

/// A schema without its `description`s (the shared files have none).
fn without_descriptions(value: &Value) -> Value {
    match value {
        Value::Object(object) => Value::Object(
            object
                .iter()
                .filter(|(k, _)| *k != "description")
                .map(|(k, v)| (k.clone(), without_descriptions(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_descriptions).collect()),
        other => other.clone(),
    }
}

fn shared_tool(name: &str) -> Value {
    let path = format!(
        "{}/data/real-agents/tools/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

#[test]
fn our_schemas_are_the_ones_the_agents_offer_field_for_field() {
    let todo = shared_tool("TodoWrite");
    let ours = TodoWrite::definition();
    assert_eq!(ours.name, todo["tool"]);
    assert_eq!(without_descriptions(&ours.schema), todo["input_schema"]);
    let update = shared_tool("update_plan");
    let ours = UpdatePlan::definition();
    assert_eq!(ours.name, update["tool"]);
    assert_eq!(without_descriptions(&ours.schema), update["parameters"]);
    assert_eq!(Value::Bool(ours.strict), update["strict"]);
    // Every field of ours is described for the model.
    let todo = TodoWrite::definition().schema;
    let update = UpdatePlan::definition().schema;
    let fields = [
        &todo["properties"],
        &todo["properties"]["todos"]["items"]["properties"],
        &update["properties"],
        &update["properties"]["plan"]["items"]["properties"],
    ];
    for field in fields.iter().flat_map(|p| p.as_object().unwrap().iter()) {
        assert!(field.1["description"].is_string(), "{field:?}");
    }
}

#[test]
fn each_api_gets_the_shape_it_takes() {
    let tool = ToolDefinition::new("t", "d", serde_json::json!({"type": "object"}), true);
    assert_eq!(
        tool.anthropic(),
        serde_json::json!({"name": "t", "description": "d", "input_schema": {"type": "object"}})
    );
    assert_eq!(
        tool.openai_responses(),
        serde_json::json!({"type": "function", "name": "t", "description": "d",
                           "parameters": {"type": "object"}, "strict": true})
    );
    assert_eq!(
        tool.openai_chat(),
        serde_json::json!({"type": "function", "function": {"name": "t", "description": "d",
                           "parameters": {"type": "object"}, "strict": true}})
    );
}

/// The `plan` updates claude-agent-acp sent for the three `TodoWrite` calls
/// of its recorded run, as (content, status, priority).
fn claudes_plans() -> Vec<Vec<(String, String, String)>> {
    transcript("claude-v1caps")
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|m| m["params"]["update"]["sessionUpdate"] == "plan")
        .map(|m| {
            let entries = m["params"]["update"]["entries"].as_array().unwrap().clone();
            entries
                .iter()
                .map(|e| {
                    let text = |k: &str| e[k].as_str().unwrap().to_owned();
                    (text("content"), text("status"), text("priority"))
                })
                .collect()
        })
        .collect()
}

/// The `TodoWrite` calls the scripted model made in that run (the calls are
/// not in the transcript: claude-agent-acp sends no `tool_call` for them;
/// these are the model's three lists).
const CLAUDE_CALLS: [&str; 3] = [
    r#"{"todos":[{"content":"Read the failing test","status":"pending","activeForm":"Reading the failing test"},{"content":"Fix the parser","status":"pending","activeForm":"Fixing the parser"},{"content":"Run the test suite","status":"pending","activeForm":"Running the test suite"}]}"#,
    r#"{"todos":[{"content":"Read the failing test","status":"completed","activeForm":"Reading the failing test"},{"content":"Fix the parser","status":"in_progress","activeForm":"Fixing the parser"},{"content":"Run the test suite","status":"pending","activeForm":"Running the test suite"}]}"#,
    r#"{"todos":[{"content":"Read the failing test","status":"completed","activeForm":"Reading the failing test"},{"content":"Fix the parser","status":"completed","activeForm":"Fixing the parser"},{"content":"Run the test suite","status":"completed","activeForm":"Running the test suite"}]}"#,
];

fn entries_of(update: &SessionUpdate) -> Vec<(String, String, String)> {
    let entries = match update {
        SessionUpdate::Plan(plan) => plan.entries.clone(),
        SessionUpdate::PlanUpdate { plan, .. } => plan.entries().unwrap().to_vec(),
        other => panic!("not a plan: {other:?}"),
    };
    entries
        .iter()
        .map(|e| {
            (
                e.content.to_string(),
                e.status.as_str().to_owned(),
                e.priority.as_str().to_owned(),
            )
        })
        .collect()
}

#[test]
fn claudes_calls_give_what_claude_agent_acp_sends_and_the_board_keeps_the_relabel() {
    let expected = claudes_plans();
    assert_eq!(expected.len(), 3);
    // claude-agent-acp sends v1 `plan` updates; so do we, to a v1 client
    // without the plan capability.
    let mut plans = ModelPlans::new(ClientProfile::v1().plan_capability(None).sender("s"));
    let mut board = PlanBoard::new("s");
    for (call, expected) in CLAUDE_CALLS.iter().zip(&expected) {
        let outcome = plans.todo_write(&Scope::MAIN, call).unwrap();
        assert_eq!(outcome.corrections, []);
        let sent = outcome.notification.unwrap();
        assert_eq!(&entries_of(&sent.update), expected);
        board.apply(sent);
    }
    // The relabels ("Fix the parser" → "Fixing the parser" → "Fix the parser")
    // were one entry throughout: nothing was added or removed on the way.
    let plan = board.v1_plan().unwrap();
    let changes = plan.changes();
    assert!(
        changes.added.is_empty() && changes.removed.is_empty(),
        "{changes:?}"
    );
    assert_eq!(changes.relabelled, [(1, "Fixing the parser".into())]);
}

#[test]
fn an_entry_in_progress_keeps_its_identity_with_either_label() {
    let calls: Vec<PlanContent> = CLAUDE_CALLS
        .iter()
        .map(|c| TodoWrite::read(c).unwrap().input)
        .flat_map(|t| {
            [ActiveForm::WhileInProgress, ActiveForm::Never]
                .map(|a| t.to_plan(id("p"), &PlanOptions::default().active_form(a)))
        })
        .collect();
    for pair in [(0, 2), (2, 4), (1, 3), (3, 5)] {
        let (a, b) = (&calls[pair.0], &calls[pair.1]);
        let changes = Changes::between(a.entries().unwrap(), b.entries().unwrap());
        assert!(
            changes.added.is_empty() && changes.removed.is_empty(),
            "{pair:?}: {changes:?}"
        );
    }
    // Never: the label is the content always; the activeForm is in `_meta`.
    let never = calls[3].entries().unwrap();
    assert_eq!(never[1].content, "Fix the parser");
    let meta = never[1].meta.as_ref().unwrap().get("todo").unwrap();
    assert_eq!(meta["activeForm"], "Fixing the parser");
}

#[test]
fn the_quirks_of_real_models_are_read_and_each_is_said() {
    let call = r#"{"todos":"[{\"content\":\"Read it\",\"status\":\"done\",\"activeForm\":\"Reading it\"},{\"content\":\"Fix it\",\"status\":\"in-progress\",\"priority\":\"high\"},{\"activeForm\":\"Testing\",\"status\":\"Pending\"},{\"content\":\"Polish\",\"status\":\"cancelled\",\"activeForm\":\" \"}]","reason":"x"}"#;
    let read = TodoWrite::read(call).unwrap();
    let todos: Vec<(&str, &Status, &str)> = read
        .input
        .todos
        .iter()
        .map(|t| (t.content.as_str(), &t.status, t.active_form.as_str()))
        .collect();
    assert_eq!(
        todos,
        [
            ("Read it", &Status::Completed, "Reading it"),
            ("Fix it", &Status::InProgress, "Fix it"),
            ("Testing", &Status::Pending, "Testing"),
            ("Polish", &Status::Cancelled, "Polish"),
        ]
    );
    let said: Vec<String> = read.corrections.iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "reason: not a field of this tool; ignored",
            "todos: a JSON string holding the value, read as the value",
            "todos[0].status: \"done\" read as \"completed\"",
            "todos[1].priority: not a field of this tool; ignored",
            "todos[1].status: \"in-progress\" read as \"in_progress\"",
            "todos[1].activeForm: missing; the content is used",
            "todos[2].status: \"Pending\" read as \"pending\"",
            "todos[2].content: missing; the activeForm is used",
            "todos[3].status: \"cancelled\" is not one of this tool's statuses; read as cancelled (clients that cannot show it see it completed, marked \"(cancelled)\")",
            "todos[3].activeForm: missing; the content is used",
        ]
    );
    // Arguments sent as a JSON string, and a bare list.
    let twice = serde_json::to_string(CLAUDE_CALLS[0]).unwrap();
    assert_eq!(TodoWrite::read(&twice).unwrap().input.todos.len(), 3);
    let bare = r#"[{"step":"A","status":"completed"}]"#;
    let read = UpdatePlan::read(bare).unwrap();
    assert_eq!(read.input.plan[0].step, "A");
    assert_eq!(
        read.corrections[0].to_string(),
        "arguments: a bare list, read as `plan`"
    );
}

#[test]
fn the_exact_path_and_the_lenient_path_read_a_call_alike() {
    // A call exactly as the schema has it is read without a `Value` tree;
    // one field more sends it through the lenient reader, which must give
    // the same input and say only the extra field.
    let update = r#"{"explanation":"Why","plan":[{"step":"A \u00e9\"q\"","status":"in_progress"},{"status":"pending","step":"B"}]}"#;
    for call in CLAUDE_CALLS {
        let exact = TodoWrite::read(call).unwrap();
        let lenient = TodoWrite::read(&call.replacen('{', r#"{"x":1,"#, 1)).unwrap();
        assert_eq!(exact.corrections, []);
        assert_eq!(lenient.corrections.len(), 1);
        assert_eq!(exact.input, lenient.input);
    }
    let exact = UpdatePlan::read(update).unwrap();
    let lenient = UpdatePlan::read(&update.replacen('{', r#"{"x":1,"#, 1)).unwrap();
    assert_eq!((exact.corrections.len(), lenient.corrections.len()), (0, 1));
    assert_eq!(exact.input, lenient.input);
    assert_eq!(exact.input.plan[0].step, "A é\"q\"");
    // Not exact, each in its own way: read leniently, with what was corrected.
    for call in [
        r#"{"todos":[{"content":"A","status":"done","activeForm":"A"}]}"#,
        r#"{"todos":[{"content":"A","status":"pending","activeForm":" "}]}"#,
        r#"{"todos":[{"content":"A","status":"pending"}]}"#,
        r#"{"todos":[{"content":"A","status":"pending","activeForm":"A","activeForm":"B"}]}"#,
    ] {
        let read = TodoWrite::read(call).unwrap();
        assert_eq!(
            read.corrections.len(),
            usize::from(!call.contains("\"activeForm\":\"B")),
            "{call}"
        );
    }
}

#[test]
fn a_call_that_cannot_be_read_is_an_error_for_the_model_naming_every_field() {
    let err = TodoWrite::read(
        r#"{"todos":[{"content":"A","status":"blocked","activeForm":"A"},{"content":7.5,"status":3},{"content":[1],"status":"done"},"B"]}"#,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "TodoWrite was not applied, and nothing changed. Fix these and call it again:\n\
         - todos[0].status: \"blocked\" is not a status. Allowed: \"pending\", \"in_progress\", \"completed\".\n\
         - todos[1].content: a number where text belongs. Allowed: a string that is not blank.\n\
         - todos[1].status: a number where a status belongs. Allowed: \"pending\", \"in_progress\", \"completed\".\n\
         - todos[2].content: a list where text belongs. Allowed: a string that is not blank.\n\
         - todos[3]: a string instead of an object. Allowed: an object with \"content\", \"status\" and \"activeForm\"."
    );
    for (arguments, field, wrong) in [
        ("", "arguments", "not JSON"),
        ("{}", "todos", "missing"),
        (
            r#"{"todos":{"content":"A"}}"#,
            "todos",
            "an object where a list belongs",
        ),
        ("42", "arguments", "a number instead of an object"),
        (
            r#"{"todos":[{"status":"pending"}]}"#,
            "todos[0].content",
            "missing or blank",
        ),
    ] {
        let err = TodoWrite::read(arguments).unwrap_err();
        let problem = &err.problems()[0];
        assert_eq!(problem.field(), field, "{arguments}");
        assert!(
            problem.wrong().starts_with(wrong),
            "{arguments}: {}",
            problem.wrong()
        );
        assert!(!problem.allowed().is_empty());
    }
    let err = UpdatePlan::read(r#"{"plan":[{"step":"","status":"pending"}]}"#).unwrap_err();
    assert_eq!(err.problems()[0].field(), "plan[0].step");
    // A number is no step: the schema says string, and `42` means nothing.
    let err = UpdatePlan::read(r#"{"plan":[{"step":42,"status":"pending"}]}"#).unwrap_err();
    assert_eq!(err.problems()[0].field(), "plan[0].step");
    assert_eq!(err.problems()[0].wrong(), "a number where text belongs");
}

#[test]
fn no_input_makes_the_readers_panic() {
    // An answer for every input: a call, or an error that names a problem.
    fn answers(text: &str) {
        if let Err(e) = TodoWrite::read(text) {
            assert!(!e.problems().is_empty(), "{text}");
        }
        if let Err(e) = UpdatePlan::read(text) {
            assert!(!e.problems().is_empty(), "{text}");
        }
    }
    // Every prefix and every one-byte change of real calls: an answer, never a panic.
    let calls = [
        CLAUDE_CALLS[1],
        r#"{"explanation":"x","plan":[{"step":"A","status":"in_progress"}]}"#,
    ];
    for call in calls {
        for cut in 0..=call.len() {
            let text = &call[..cut];
            answers(text);
        }
        for (i, b) in call.bytes().enumerate() {
            for replacement in [b'"', b'{', b'[', b'0', b' '] {
                if b != replacement {
                    let mut bytes = call.as_bytes().to_vec();
                    bytes[i] = replacement;
                    let text = String::from_utf8_lossy(&bytes);
                    answers(&text);
                }
            }
        }
    }
}

#[test]
fn plans_from_both_tools_are_read_by_every_kind_of_client() {
    let judges = Judges::new();
    let update_calls = [
        r#"{"explanation":"First","plan":[{"step":"Read the failing test","status":"pending"},{"step":"Fix the parser","status":"pending"}]}"#,
        r#"{"plan":[{"step":"Read the failing test","status":"completed"},{"step":"Fix the parser","status":"in_progress"}]}"#,
        r#"{"plan":[{"step":"Read the failing test","status":"completed"},{"step":"Fix the parser","status":"canceled"}]}"#,
    ];
    for client in ClientProfile::every_kind() {
        let mut plans = ModelPlans::new(client.sender("s"))
            .with_options(PlanOptions::default().priority(Priority::High));
        let mut sent = Vec::new();
        for call in CLAUDE_CALLS {
            sent.extend(plans.todo_write(&Scope::MAIN, call).unwrap().notification);
        }
        let sub = Scope::subagent("toolu_1").unwrap();
        for call in update_calls {
            sent.extend(plans.update_plan(&sub, call).unwrap().notification);
        }
        assert_eq!(sent.len(), 6, "{client:?}");
        // Our checker, on the conversation as the client would record it
        // (its `initialize` first, so each plan is judged for its kind; in
        // the ACP spelling, which is what `check` asks of a sender).
        let protocol = client.protocol().number();
        let capabilities = client.capabilities().to_json(client.spelling());
        let mut stream = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{{\"protocolVersion\":{protocol},\"clientCapabilities\":{capabilities}}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{{\"protocolVersion\":{protocol}}}}}\n"
        );
        for (i, message) in sent.iter().enumerate() {
            judges.may_send(message, client, &format!("{client:?} #{i}"));
            stream.push_str(&message.to_json(plan_core::wire::Spelling::Acp));
            stream.push('\n');
        }
        let report = acp_plan::harness::check_file(stream.as_bytes(), None);
        assert_eq!(report.recorded_client, Some(client.kind()), "{stream}");
        assert_eq!(report.findings, [], "{client:?}");
        assert_eq!(report.plans, 6);
    }
}

#[test]
fn an_unchanged_plan_is_not_sent_again_unless_asked() {
    let mut plans = ModelPlans::new(ClientProfile::v2().sender("s"));
    let first = plans.todo_write(&Scope::MAIN, CLAUDE_CALLS[0]).unwrap();
    assert!(first.notification.is_some());
    // The same list, spelled differently: the same plan, so nothing is sent.
    let again = CLAUDE_CALLS[0].replace("\"pending\"", "\"Pending\"");
    let outcome = plans.todo_write(&Scope::MAIN, &again).unwrap();
    assert!(outcome.notification.is_none());
    assert_eq!(outcome.corrections.len(), 3);
    assert!(
        outcome
            .tool_result()
            .contains("\"Pending\" read as \"pending\"")
    );
    // Another scope is another plan; a change is sent.
    assert!(
        plans
            .todo_write(&Scope::PLAN_MODE, CLAUDE_CALLS[0])
            .unwrap()
            .notification
            .is_some()
    );
    assert!(
        plans
            .todo_write(&Scope::MAIN, CLAUDE_CALLS[1])
            .unwrap()
            .notification
            .is_some()
    );
    // Opted out: every call is sent.
    let mut plans = ModelPlans::new(ClientProfile::v2().sender("s")).resend_unchanged(true);
    for _ in 0..2 {
        assert!(
            plans
                .todo_write(&Scope::MAIN, CLAUDE_CALLS[0])
                .unwrap()
                .notification
                .is_some()
        );
    }
    // A call that cannot be read sends nothing and leaves the plan as it was.
    let mut plans = ModelPlans::new(ClientProfile::v2().sender("s"));
    plans.todo_write(&Scope::MAIN, CLAUDE_CALLS[0]).unwrap();
    assert!(
        plans
            .todo_write(&Scope::MAIN, r#"{"todos":[{"content":"A","status":"?"}]}"#)
            .is_err()
    );
    assert_eq!(plans.sender().live_plans()[0].entries().unwrap().len(), 3);
}

/// A call written to its line (`todo_write_to`, `update_plan_to`: the plan
/// moved through the line, no copy) writes what the returned notification
/// holds, says the same, and leaves the same live plan; and the fast path
/// (a call of the exact shape, straight to its plan) makes the plan the
/// lenient reader and `into_plan` make.
#[test]
fn a_call_written_to_its_line_is_the_notification_a_call_returns() {
    let updates = [
        r#"{"explanation":"Why","plan":[{"step":"A \u00e9\"q\"","status":"in_progress"},{"status":"pending","step":"B"}]}"#,
        r#"{"plan":[{"step":"A","status":"done"}]}"#,
    ];
    for profile in ClientProfile::every_kind() {
        let (mut returning, mut writing) = (
            ModelPlans::new(profile.sender("s")),
            ModelPlans::new(profile.sender("s")),
        );
        let calls = CLAUDE_CALLS
            .iter()
            .map(|c| (true, *c))
            .chain(CLAUDE_CALLS.iter().map(|c| (true, *c)));
        for (todo, call) in calls.chain(updates.iter().map(|c| (false, *c))) {
            let mut line = Vec::new();
            let (returned, written) = if todo {
                (
                    returning.todo_write(&Scope::MAIN, call),
                    writing
                        .todo_write_to(&mut line, &Scope::MAIN, call)
                        .unwrap(),
                )
            } else {
                (
                    returning.update_plan(&Scope::MAIN, call),
                    writing
                        .update_plan_to(&mut line, &Scope::MAIN, call)
                        .unwrap(),
                )
            };
            let (returned, written) = (returned.unwrap(), written.unwrap());
            let mut expected = Vec::new();
            if let Some(notification) = &returned.notification {
                notification
                    .write_line(&mut expected, profile.spelling())
                    .unwrap();
            }
            assert_eq!(
                String::from_utf8(line).unwrap(),
                String::from_utf8(expected).unwrap(),
                "{profile:?} {call}"
            );
            assert_eq!(
                (returned.sent, &returned.corrections),
                (written.sent, &written.corrections)
            );
            assert!(written.notification.is_none());
            assert_eq!(
                returning.sender().live_plans(),
                writing.sender().live_plans()
            );
        }
        // The fast path and the lenient one make the same plan.
        let options = PlanOptions::default();
        for call in CLAUDE_CALLS {
            let by_reading = TodoWrite::read(call)
                .unwrap()
                .input
                .into_plan(Scope::MAIN.plan_id().clone(), &options);
            let mut plans = ModelPlans::new(profile.sender("s")).with_options(options.clone());
            plans.todo_write(&Scope::MAIN, call).unwrap();
            assert_eq!(
                plans.plan(Scope::MAIN.plan_id()),
                Some(&by_reading),
                "{call}"
            );
        }
        let by_reading = UpdatePlan::read(updates[0])
            .unwrap()
            .input
            .into_plan(Scope::MAIN.plan_id().clone(), &options);
        let mut plans = ModelPlans::new(profile.sender("s"));
        plans.update_plan(&Scope::MAIN, updates[0]).unwrap();
        assert_eq!(plans.plan(Scope::MAIN.plan_id()), Some(&by_reading));
    }
}

#[test]
fn a_plan_gives_back_the_tools_input() {
    for call in CLAUDE_CALLS {
        let input = TodoWrite::read(call).unwrap().input;
        for active_form in [ActiveForm::WhileInProgress, ActiveForm::Never] {
            let options = PlanOptions::default().active_form(active_form);
            let plan = input.to_plan(id("p"), &options);
            assert_eq!(TodoWrite::from_plan(&plan).as_ref(), Some(&input));
            // Through the wire and back.
            let sent = plan.to_json(plan_core::wire::Spelling::Acp);
            let read = PlanContent::from_json(&sent).unwrap();
            assert_eq!(TodoWrite::from_plan(&read).as_ref(), Some(&input));
            assert_eq!(
                serde_json::to_string(&input.to_value()).unwrap(),
                serde_json::to_string(&serde_json::from_str::<Value>(call).unwrap()).unwrap()
            );
        }
    }
    let input = UpdatePlan::read(
        r#"{"plan":[{"step":"A","status":"completed"},{"step":"B","status":"cancelled"}]}"#,
    )
    .unwrap()
    .input;
    let plan = input.to_plan(id("p"), &PlanOptions::default());
    let back = UpdatePlan::from_plan(&plan).unwrap();
    assert_eq!(back.plan[0], input.plan[0]);
    // The tool has no `cancelled`: what a v1 client is sent.
    assert_eq!(
        (back.plan[1].step.as_str(), &back.plan[1].status),
        ("B (cancelled)", &Status::Completed)
    );
    assert_eq!(
        UpdatePlan::from_plan(&PlanContent::markdown(id("m"), "# M")),
        None
    );
    // Priorities from the caller, by the todo's content.
    let options = PlanOptions::default().priority_by(|text| {
        if text.starts_with("Fix") {
            Priority::High
        } else {
            Priority::Low
        }
    });
    let input = TodoWrite::read(CLAUDE_CALLS[1]).unwrap().input;
    let plan = input.to_plan(id("p"), &options);
    let priorities: Vec<&Priority> = plan
        .entries()
        .unwrap()
        .iter()
        .map(|e| &e.priority)
        .collect();
    assert_eq!(
        priorities,
        [&Priority::Low, &Priority::High, &Priority::Low]
    );
}

#[derive(Debug, PartialEq, Eq, Steps)]
#[plan(id = "fix the bug")]
enum FixTheBug {
    /// Reproduce the bug
    Reproduce,
    /// Fix the parser
    #[step(priority = high)]
    Fix,
    /// Run the test suite
    Test,
}

#[test]
fn the_tool_of_a_steps_type_takes_only_its_steps() {
    let tool = StepsTool::<FixTheBug>::definition();
    assert_eq!(tool.name, "plan_fix_the_bug");
    assert!(tool.strict);
    let step = &tool.schema["properties"]["plan"]["items"]["properties"]["step"];
    assert_eq!(
        step["enum"],
        serde_json::json!(["Reproduce the bug", "Fix the parser", "Run the test suite"])
    );
    let mut run = FixTheBug::start().one_at_a_time().forward_only();
    let mut plans = ModelPlans::new(ClientProfile::v1().plan_capability(None).sender("s"));
    // Finishing one step and beginning the next, in either order, keeps the
    // one-at-a-time rule.
    plans
        .steps(
            &mut run,
            r#"{"plan":[{"step":"Reproduce the bug","status":"in_progress"}]}"#,
        )
        .unwrap();
    let outcome = plans
        .steps(
            &mut run,
            r#"{"plan":[{"step":"fix the parser ","status":"in_progress"},{"step":"Reproduce the bug","status":"completed"}]}"#,
        )
        .unwrap();
    assert_eq!(run.status(FixTheBug::Fix), &Status::InProgress);
    assert_eq!(
        outcome.corrections[0].to_string(),
        "plan[0].step: \"fix the parser \" read as \"Fix the parser\""
    );
    let sent = outcome.notification.unwrap();
    assert_eq!(
        entries_of(&sent.update)[1],
        ("Fix the parser".into(), "in_progress".into(), "high".into())
    );
    // A step that is not declared, and a move the rules forbid: an error for
    // the model, and the run as it was.
    let before = run.clone();
    let err = plans
        .steps(&mut run, r#"{"plan":[{"step":"Deploy","status":"pending"},{"step":"Reproduce the bug","status":"pending"}]}"#)
        .unwrap_err();
    assert_eq!(err.problems().len(), 1, "{err}");
    assert!(
        err.to_string()
            .contains("Allowed: \"Reproduce the bug\", \"Fix the parser\", \"Run the test suite\"")
    );
    let err = plans
        .steps(
            &mut run,
            r#"{"plan":[{"step":"Reproduce the bug","status":"pending"}]}"#,
        )
        .unwrap_err();
    assert!(err.to_string().contains("only moves forward"), "{err}");
    assert_eq!(run, before);
}

#[test]
fn a_plan_file_becomes_markdown_with_its_absolute_path() {
    let dir = std::env::temp_dir().join(format!("plan-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("PLAN.md");
    std::fs::write(
        &file,
        "# Fix the parser\n\n- [x] Read the test\n- [ ] Fix it\n",
    )
    .unwrap();
    let judges = Judges::new();
    for client in ClientProfile::every_kind() {
        let mut plans = ModelPlans::new(client.sender("s"));
        let outcome = plans.plan_file(&Scope::PLAN_MODE, &file).unwrap();
        assert_eq!(
            plans
                .plan(Scope::PLAN_MODE.plan_id())
                .unwrap()
                .path()
                .map(plan_core::AbsolutePath::as_str),
            file.to_str()
        );
        let sent = outcome.notification.unwrap();
        judges.may_send(&sent, client, &format!("{client:?}"));
        let line = sent.to_json(client.spelling());
        if client.kind() == plan_core::wire::ClientKind::V1 {
            // No plan operations: the checklist as a v1 plan.
            assert!(line.contains(r#""content":"Read the test""#), "{line}");
        } else {
            assert!(
                line.contains(&format!(r#""path":"{}""#, file.display())),
                "{line}"
            );
        }
    }
    let mut plans = ModelPlans::new(ClientProfile::v2().sender("s"));
    let err = plans
        .plan_file(&Scope::PLAN_MODE, "PLAN.md".as_ref())
        .unwrap_err();
    assert!(err.to_string().contains("not an absolute"), "{err}");
    let err = plans
        .plan_file(&Scope::PLAN_MODE, &dir.join("nope.md"))
        .unwrap_err();
    assert!(
        err.to_string().starts_with("cannot read the plan file"),
        "{err}"
    );
    assert!(plans.sender().live_plans().is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
