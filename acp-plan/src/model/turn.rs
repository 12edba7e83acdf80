//! What the model does next, whatever API it is asked through: each API's
//! module reads its request into a [`Request`] (the tools offered, the
//! calls already made and answered, the cues of plan mode) and says the
//! [`Decision`] in its own stream. The script is one; only how it is said
//! changes with the tool ([`super::plan_tool`]).
//! What it did goes into the [`Log`](super::log::Log).

use plan_core::tools::{Todo, TodoWrite};
use serde_json::{Map, Value, json};

use super::request::{EXIT_PLAN_MODE, PlanMode, Request, TOOL_SEARCH};
use super::script::Script;
use super::tasks;

/// The text the model says when it has nothing to plan, or after its plan.
pub(crate) const DONE: &str = "Done: the plan is complete.";
/// Its answer to a request that offers no plan tool (a title, a suggestion).
pub(crate) const SIDE_ANSWER: &str = "Scripted plan";

/// What the model says next.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Reply {
    /// A tool call; its id is the API's, numbered by `Decision::number`.
    Call {
        /// The tool.
        tool: String,
        /// Its arguments.
        arguments: Value,
    },
    /// Text.
    Text(String),
}

/// A plan the model made: the whole plan once a call has run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PlanMade {
    /// A list of steps, as the tool said them.
    Steps(Vec<Todo>),
    /// A markdown plan (plan mode).
    Markdown(String),
}

/// The model's next answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decision {
    /// What it says.
    pub reply: Reply,
    /// In a few words, for `acp-plan model`'s log.
    pub summary: String,
    /// Whether it pauses first (every answer of a planning turn but its
    /// first, so a `session/cancel` after the first plan lands mid-turn).
    pub pause: bool,
    /// The number of its call in the conversation (ids are unique in it).
    pub number: usize,
    /// The plan it makes with this answer, if it is one: the tool, and the
    /// plan as the client should come to show it once the call has run.
    pub made: Option<(String, PlanMade)>,
}

impl Decision {
    fn text(text: impl Into<String>, summary: &str, request: &Request) -> Self {
        Self {
            reply: Reply::Text(text.into()),
            summary: summary.to_owned(),
            pause: false,
            number: request.calls.len(),
            made: None,
        }
    }

    fn call(tool: &str, arguments: Value, summary: String, request: &Request) -> Self {
        Self {
            reply: Reply::Call {
                tool: tool.to_owned(),
                arguments,
            },
            summary,
            pause: false,
            number: request.calls.len(),
            made: None,
        }
    }
}

/// What the model answers `request`.
pub(crate) fn decide(script: &Script, request: &Request) -> Decision {
    if let Some(schema) = &request.json {
        return Decision::text(
            instance(schema).to_string(),
            "answers a side request with JSON",
            request,
        );
    }
    let turn = request.turn();
    let planning = !turn.is_empty();
    let plan_mode = request.plan_mode().filter(|_| script.plays_plan_mode());
    let mut decision = match plan_mode {
        Some(PlanMode::ExitTool) => plan_mode_exit(script, request),
        Some(PlanMode::ProposedPlan) => {
            let markdown = script.markdown();
            let mut d = Decision::text(
                format!("Here is my plan.\n\n<proposed_plan>\n{markdown}</proposed_plan>\n"),
                "proposes its plan (plan mode)",
                request,
            );
            d.made = Some(("<proposed_plan>".to_owned(), PlanMade::Markdown(markdown)));
            Some(d)
        }
        None => None,
    }
    .unwrap_or_else(|| plan_call(script, request));
    // A side request (no tools) is answered at once.
    decision.pause = planning && !request.tools.is_empty();
    decision
}

/// Claude Code's plan mode: `ExitPlanMode` (loaded through `ToolSearch`
/// where deferred) with the script's plan as markdown, once a turn; `None`
/// where neither is offered (then the model plans as in any mode).
fn plan_mode_exit(script: &Script, request: &Request) -> Option<Decision> {
    let turn = request.turn();
    if turn.iter().any(|c| c.name == EXIT_PLAN_MODE) {
        return Some(Decision::text(DONE, "ends the turn", request));
    }
    if request.offers_exit_plan() {
        let markdown = script.markdown();
        let mut d = Decision::call(
            EXIT_PLAN_MODE,
            json!({ "plan": markdown }),
            format!("calls {EXIT_PLAN_MODE} (plan mode)"),
            request,
        );
        d.made = Some((EXIT_PLAN_MODE.to_owned(), PlanMade::Markdown(markdown)));
        return Some(d);
    }
    let query = format!("select:{EXIT_PLAN_MODE}");
    let searched = turn
        .iter()
        .any(|c| c.name == TOOL_SEARCH && c.arguments["query"] == query.as_str());
    (request.offers(TOOL_SEARCH) && !searched).then(|| {
        Decision::call(
            TOOL_SEARCH,
            json!({ "query": query, "max_results": 5 }),
            format!("calls {TOOL_SEARCH} (to load {EXIT_PLAN_MODE})"),
            request,
        )
    })
}

/// The script's next plan call with the plan tool offered, or the search
/// that loads one, or the turn's end; a side request (no plan tool, no
/// search) gets a short text.
fn plan_call(script: &Script, request: &Request) -> Decision {
    let turn = request.turn();
    let plan_calls = |names: &[&str]| {
        turn.iter()
            .filter(|c| names.contains(&c.name.as_str()))
            .count()
    };
    if let Some(tool) = request.plan_tool() {
        let made = plan_calls(&[tool.name()]);
        return match script.todo_write(made) {
            Some(state) => {
                let (arguments, said) = tool.say(state, made);
                let mut d = Decision::call(
                    tool.name(),
                    arguments,
                    format!("calls {} ({} of {})", tool.name(), made + 1, script.len()),
                    request,
                );
                d.made = Some((tool.name().to_owned(), PlanMade::Steps(said)));
                d
            }
            None => Decision::text(DONE, "ends the turn", request),
        };
    }
    if tasks::offered(request) {
        let made = plan_calls(&[tasks::CREATE, tasks::UPDATE]);
        return match tasks::call(script, made, &request.calls) {
            Some((tool, arguments, state)) => {
                let mut d = Decision::call(
                    tool,
                    arguments,
                    format!("calls {tool} ({} of {})", made + 1, tasks::len(script)),
                    request,
                );
                d.made = state.map(|s| (tasks::BOTH.to_owned(), PlanMade::Steps(s.todos.clone())));
                d
            }
            None => Decision::text(DONE, "ends the turn", request),
        };
    }
    // Claude Code defers its plan tools behind `ToolSearch` (as it does for
    // its default model): `TodoWrite` first, then the task tools (`select:`
    // finds nothing if one name is missing).
    if request.offers(TOOL_SEARCH) {
        let searched = |name: &str| {
            request.calls.iter().any(|c| {
                c.name == TOOL_SEARCH
                    && c.arguments["query"]
                        .as_str()
                        .is_some_and(|q| q.contains(name))
            })
        };
        let query = if !searched(TodoWrite::NAME) {
            Some(format!("select:{}", TodoWrite::NAME))
        } else if !searched(tasks::CREATE) {
            Some(format!("select:{},{}", tasks::CREATE, tasks::UPDATE))
        } else {
            None
        };
        return match query {
            Some(query) => Decision::call(
                TOOL_SEARCH,
                json!({ "query": query, "max_results": 5 }),
                format!("calls {TOOL_SEARCH} (to load a plan tool)"),
                request,
            ),
            None => Decision::text(DONE, "ends the turn", request),
        };
    }
    if request.tools.is_empty() || turn.is_empty() {
        Decision::text(SIDE_ANSWER, "answers a side request with text", request)
    } else {
        Decision::text(DONE, "ends the turn (no plan tool offered)", request)
    }
}

/// A small value `schema` accepts: every property of an object filled,
/// each enum's first word, a short text for a string, an empty list.
pub(crate) fn instance(schema: &Value) -> Value {
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    let ty = match &schema["type"] {
        Value::Array(types) => types.first().cloned().unwrap_or(Value::Null),
        other => other.clone(),
    };
    match ty.as_str().map(str::to_ascii_lowercase).as_deref() {
        Some("object") | None if schema.get("properties").is_some() => {
            let mut object = Map::new();
            if let Some(properties) = schema["properties"].as_object() {
                for (key, property) in properties {
                    object.insert(key.clone(), instance(property));
                }
            }
            Value::Object(object)
        }
        Some("array") => json!([]),
        Some("boolean") => json!(false),
        Some("integer" | "number") => json!(0),
        Some("string") => Value::from(SIDE_ANSWER),
        _ => json!({}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::request::PastCall;

    #[test]
    fn a_request_with_no_plan_tool_gets_text_and_the_log_has_no_plan_tool() {
        let script = Script::built_in();
        let mut log = crate::model::log::Log::default();
        let request = Request {
            tools: vec![("read_file".to_owned(), json!({}))],
            calls: vec![PastCall::of("read_file", "x", true)],
            ..Request::default()
        };
        let decision = decide(&script, &request);
        assert!(matches!(decision.reply, Reply::Text(_)));
        log.record(&request, &decision, "c1");
        assert!(log.plan_tools.is_empty() && log.made.is_empty());
        assert!(log.offered.contains("read_file"));
    }

    #[test]
    fn plan_mode_loads_exit_plan_mode_then_calls_it_once_with_the_markdown() {
        let script = Script::built_in().in_plan_mode(true);
        let mut request = Request {
            tools: vec![(TOOL_SEARCH.to_owned(), json!({}))],
            cue_text: "Plan mode is active.".to_owned(),
            ..Request::default()
        };
        let search = decide(&script, &request);
        assert_eq!(
            search.reply,
            Reply::Call {
                tool: TOOL_SEARCH.to_owned(),
                arguments: json!({ "query": "select:ExitPlanMode", "max_results": 5 })
            }
        );
        let mut searched = PastCall::of(TOOL_SEARCH, "s", true);
        searched.arguments = json!({ "query": "select:ExitPlanMode" });
        request.calls.push(searched);
        request.tools.push((EXIT_PLAN_MODE.to_owned(), json!({})));
        let exit = decide(&script, &request);
        assert_eq!(
            exit.made,
            Some((
                EXIT_PLAN_MODE.to_owned(),
                PlanMade::Markdown(script.markdown())
            ))
        );
        request.calls.push(PastCall::of(EXIT_PLAN_MODE, "e", true));
        assert_eq!(decide(&script, &request).summary, "ends the turn");
    }

    #[test]
    fn an_exit_plan_mode_is_played_only_in_plan_mode_and_only_when_it_takes_the_plan() {
        let todo = plan_core::tools::TodoWrite::definition().schema;
        // Claude Code's: its declared keys are others, none required.
        let claude =
            json!({ "type": "object", "properties": { "allowedPrompts": { "type": "array" } } });
        // Another agent's, of the same name: it takes `options`, required.
        let other = json!({ "type": "object", "required": ["options"], "additionalProperties": false,
            "properties": { "options": { "type": "array", "items": { "type": "string" } } } });
        let request = |exit: &Value| Request {
            tools: vec![
                (EXIT_PLAN_MODE.to_owned(), exit.clone()),
                ("TodoWrite".to_owned(), todo.clone()),
            ],
            ..Request::default()
        };
        let plain = Script::built_in();
        let planning = Script::built_in().in_plan_mode(true);
        // Out of plan mode, never: the plan tool is used.
        assert_eq!(
            decide(&plain, &request(&claude)).summary,
            "calls TodoWrite (1 of 3)"
        );
        assert_eq!(
            decide(&planning, &request(&claude)).summary,
            "calls ExitPlanMode (plan mode)"
        );
        // A tool of that name shaped otherwise is an ordinary tool, in plan mode too.
        assert_eq!(
            decide(&planning, &request(&other)).summary,
            "calls TodoWrite (1 of 3)"
        );
        let mut log = crate::model::log::Log::default();
        log.record(&request(&other), &decide(&planning, &request(&other)), "c0");
        assert!(
            !log.plan_tools.contains(EXIT_PLAN_MODE),
            "{:?}",
            log.plan_tools
        );
    }

    #[test]
    fn a_side_request_for_json_gets_a_value_of_its_schema() {
        let request = Request {
            json: Some(json!({ "type": "object", "properties": {
                "reasoning": { "type": "string" }, "next_speaker": { "type": "string", "enum": ["user", "model"] } } })),
            ..Request::default()
        };
        let Reply::Text(text) = decide(&Script::built_in(), &request).reply else {
            panic!()
        };
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["next_speaker"], "user");
        assert!(value["reasoning"].is_string());
    }
}
