//! A request to the model, read: what the model needs of it whatever the
//! API (each API's module reads its own into this form). Apart from
//! [`turn`](super::turn), which decides on it, so the readers of plan tools
//! (`tasks`, `plan_tool`) need nothing of the decision.

use serde_json::Value;

use super::plan_tool::{self, PlanTool};

/// Claude Code's tool that loads a deferred tool (`TodoWrite` is one).
pub(crate) const TOOL_SEARCH: &str = "ToolSearch";
/// Claude Code's tool that ends plan mode with the plan, as markdown.
pub(crate) const EXIT_PLAN_MODE: &str = "ExitPlanMode";

/// A call already in the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PastCall {
    /// The tool called.
    pub name: String,
    /// The call's id, as the API carries it.
    pub id: String,
    /// Its arguments.
    pub arguments: Value,
    /// The text of its result, once the agent ran it.
    pub result: Option<String>,
    /// Whether that result came back marked as an error (Anthropic's
    /// `is_error`: Claude Code answers so a call it refuses, as in its
    /// side requests, and each call a cancel stopped): the agent did not
    /// carry the call out.
    pub failed: bool,
}

/// How an agent's plan mode asks its model for the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PlanMode {
    /// Claude Code: "Plan mode is active"; the plan goes to `ExitPlanMode`.
    ExitTool,
    /// codex: the plan is a `<proposed_plan>` block of the answer.
    ProposedPlan,
}

/// A request, read: what the model needs of it, whatever the API.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Request {
    /// The tools offered: name and input schema.
    pub tools: Vec<(String, Value)>,
    /// Each tool's description, by name, where it has one.
    pub descriptions: Vec<(String, String)>,
    /// Every call in the conversation, in order.
    pub calls: Vec<PastCall>,
    /// Where this turn's calls start in `calls` (after the user's last
    /// prompt).
    pub turn_start: usize,
    /// The instructions and the turn's messages, for the cues of plan mode.
    pub cue_text: String,
    /// A side request that asks for JSON: the schema of the answer (`Null`
    /// when it names none).
    pub json: Option<Value>,
}

impl Request {
    /// Whether `name` is offered.
    pub(crate) fn offers(&self, name: &str) -> bool {
        self.tools.iter().any(|(tool, _)| tool == name)
    }

    /// This turn's calls.
    pub(crate) fn turn(&self) -> &[PastCall] {
        &self.calls[self.turn_start.min(self.calls.len())..]
    }

    /// Whether `ExitPlanMode` is offered as a tool that takes the plan: a
    /// `plan` text among its properties, or (Claude Code's, whose declared
    /// properties are others, all optional) any key it does not forbid. A
    /// tool of that name that requires other arguments is an ordinary tool.
    pub(crate) fn offers_exit_plan(&self) -> bool {
        self.tools.iter().any(|(name, schema)| {
            name == EXIT_PLAN_MODE && {
                let schema = super::schema::inline(schema);
                let plan = &schema["properties"]["plan"];
                let required = schema["required"].as_array().map_or(0, Vec::len);
                if plan.is_object() {
                    plan["type"].is_null() || plan["type"] == "string"
                } else {
                    schema["additionalProperties"] != false && required == 0
                }
            }
        })
    }

    /// The plan mode the instructions ask for, if any (asked only under
    /// `--plan-mode`: [`Script::in_plan_mode`](super::script::Script::in_plan_mode)).
    pub(crate) fn plan_mode(&self) -> Option<PlanMode> {
        if self.offers_exit_plan() || self.cue_text.contains("Plan mode is active") {
            Some(PlanMode::ExitTool)
        } else if self.cue_text.contains("<proposed_plan>") {
            Some(PlanMode::ProposedPlan)
        } else {
            None
        }
    }

    /// The tools whose description speaks of a plan or a todo list but
    /// whose input is not one the model can plan with (a `sql` tool over a
    /// todos table): named in the report as plan tools `check` cannot play.
    pub(crate) fn unplayable(&self) -> Vec<&str> {
        const WORDS: [&str; 5] = ["todo", "plan", "task list", "checklist", "to-do"];
        self.descriptions
            .iter()
            .filter(|(name, text)| {
                let text = text.to_ascii_lowercase();
                name != TOOL_SEARCH
                    && name != EXIT_PLAN_MODE
                    && WORDS.iter().any(|w| text.contains(w))
            })
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// The plan tool offered, if any (the task tools are found apart).
    pub(crate) fn plan_tool(&self) -> Option<PlanTool> {
        plan_tool::find(self.tools.iter().map(|(n, s)| (n.as_str(), s)))
    }
}

#[cfg(test)]
impl PastCall {
    /// A call of `name` with no arguments, answered or not (for tests).
    pub(crate) fn of(name: &str, id: &str, answered: bool) -> Self {
        Self {
            name: name.to_owned(),
            id: id.to_owned(),
            arguments: Value::Object(serde_json::Map::new()),
            result: answered.then(|| "ok".to_owned()),
            failed: false,
        }
    }
}
