//! `update_plan`, codex's plan tool.

use serde_json::{Map, Value, json};
use std::borrow::Cow;

use super::definition::ToolDefinition;
use super::exact::{exact, exact_status};
use super::list_tool::{ListTool, list_schema};
use super::options::PlanOptions;
use super::read::{CallReader, ToolCall, ToolError};
use crate::agent::Fallback;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Status};
use crate::protocol::id::PlanId;

/// The arguments of `update_plan`: the whole plan, every call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdatePlan {
    /// Why the plan changed, if the model said.
    pub explanation: Option<String>,
    /// The steps, in order.
    pub plan: Vec<PlanStep>,
}

/// One step of [`UpdatePlan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanStep {
    /// The step, in a few words.
    pub step: String,
    /// `pending`, `in_progress` or `completed` in the schema; `cancelled`
    /// only where a model's word for it was read leniently.
    pub status: Status,
}

const EXAMPLE: &str = r#"{"explanation":"Starting with the parser","plan":[{"step":"Fix the parser","status":"in_progress"}]}"#;

impl UpdatePlan {
    /// The tool's name.
    pub const NAME: &'static str = "update_plan";

    /// The tool to hand a model: codex's schema (0.166.0), field for field,
    /// with our descriptions. Not strict: `explanation` is optional.
    pub fn definition() -> ToolDefinition {
        let item = json!({
            "status": {
                "type": "string",
                "enum": ["pending", "in_progress", "completed"],
                "description": "At most one step in_progress at a time."
            },
            "step": {
                "type": "string",
                "description": "The step, in a few words."
            }
        });
        let mut explanation = Map::new();
        explanation.insert(
            "explanation".to_owned(),
            json!({
                "type": "string",
                "description": "Why the plan changed, in a sentence (optional)."
            }),
        );
        let schema = list_schema(
            "plan",
            "The whole plan, in order. Every call replaces it.",
            (item, &["step", "status"]),
            explanation,
        );
        ToolDefinition::new(
            Self::NAME,
            "Update the plan of the current task, which the user sees. Send every step each time, in order, with its status; mark a step completed when it is done and the next in_progress.",
            schema,
            false,
        )
    }

    /// Reads a model's arguments leniently, as
    /// [`TodoWrite::read`](super::TodoWrite::read) does: status words whose
    /// meaning is plain, unknown fields ignored, a list or an item sent as
    /// a JSON string, a bare list, an `explanation` that is not text
    /// ignored. Each correction is said.
    ///
    /// # Errors
    /// For the model: every field that could not be read.
    pub fn read(arguments: &str) -> Result<ToolCall<Self>, ToolError> {
        Self::read_call(arguments)
    }

    /// The arguments as the model sends them (for replay and resume), as a
    /// JSON value (`to_json` is, on the wire types, their text).
    pub fn to_value(&self) -> Value {
        let plan: Vec<Value> = self
            .plan
            .iter()
            .map(|s| json!({ "step": s.step, "status": s.status.as_str() }))
            .collect();
        let mut object = json!({ "plan": plan });
        if let Some(explanation) = &self.explanation {
            object["explanation"] = explanation.clone().into();
        }
        object
    }

    /// The steps as an items plan with the id `id`, priorities from `options`.
    /// The explanation is not part of the plan (the protocol has no place
    /// for it); show it as a message if it matters.
    pub fn to_plan(&self, id: PlanId, options: &PlanOptions) -> PlanContent {
        self.clone().into_plan(id, options)
    }

    /// [`to_plan`](Self::to_plan), the steps' text moved into the plan.
    pub fn into_plan(self, id: impl Into<PlanId>, options: &PlanOptions) -> PlanContent {
        let id = id.into();
        let entries = self
            .plan
            .into_iter()
            .map(|s| entry(Cow::Owned(s.step), s.status, options));
        PlanContent::items(id, entries.collect::<Vec<_>>())
    }

    /// An items plan back as the tool's input (for replay and resume), with
    /// no explanation; `None` for any other plan. Statuses the tool lacks
    /// are mapped as a v1 client is sent them.
    pub fn from_plan(plan: &PlanContent) -> Option<Self> {
        let steps = plan
            .entries()?
            .iter()
            .filter_map(Fallback::default_entry)
            .map(|e| PlanStep {
                step: e.content.to_string(),
                status: e.status.clone(),
            });
        Some(Self {
            explanation: None,
            plan: steps.collect(),
        })
    }
}

/// One step, or `None` with its problems said.
impl ListTool for UpdatePlan {
    /// A call exactly as the schema has it, with nothing to correct.
    fn read_exact(arguments: &str) -> Option<ToolCall<Self>> {
        let (items, [explanation]) = exact(arguments, "plan", ["step", "status"], ["explanation"])?;
        let plan = items.into_iter().map(|[step, status]| {
            Some(PlanStep {
                step: step.into_owned(),
                status: exact_status(&status)?,
            })
        });
        Some(ToolCall {
            input: Self {
                explanation,
                plan: plan.collect::<Option<_>>()?,
            },
            corrections: Vec::new(),
        })
    }

    /// A call of any other shape: read field by field, each correction
    /// said (what [`read`](Self::read) does when the call is not exact).
    fn read_lenient(arguments: &str) -> Result<ToolCall<Self>, ToolError> {
        let mut reader = CallReader::new(Self::NAME);
        let mut input = Self {
            explanation: None,
            plan: Vec::new(),
        };
        if let Some(mut object) = reader.arguments(arguments, "plan", EXAMPLE) {
            reader.unknown_fields(&object, "", &["explanation", "plan"]);
            input.explanation = match object.get("explanation") {
                None | Some(Value::Null) => None,
                Some(Value::String(text)) => Some(text.clone()),
                Some(_) => {
                    reader.correct("explanation", "not text; ignored");
                    None
                }
            };
            input.plan = reader.items(&mut object, "plan", &["step", "status"], read_step);
        }
        reader.finish(input)
    }

    /// A call exactly as the schema has it, straight to its plan: what
    /// [`read`](Self::read) and [`into_plan`](Self::into_plan) give, with
    /// no [`PlanStep`] between; `None` for any other call.
    fn exact_plan(arguments: &str, id: PlanId, options: &PlanOptions) -> Option<PlanContent> {
        let (items, [_explanation]) =
            exact(arguments, "plan", ["step", "status"], ["explanation"])?;
        let mut entries = Vec::with_capacity(items.len());
        for [step, status] in items {
            entries.push(entry(step, exact_status(&status)?, options));
        }
        Some(PlanContent::items(id, entries))
    }

    fn plan(self, id: PlanId, options: &PlanOptions) -> PlanContent {
        self.into_plan(id, options)
    }
}

fn read_step(reader: &mut CallReader, item: &mut Map<String, Value>, at: &str) -> Option<PlanStep> {
    let step = reader.text(item, at, "step");
    let status = reader.status(item, at);
    let Some(step) = step.ok()? else {
        reader.problem(
            format!("{at}.step"),
            "missing or blank",
            "a string that is not blank: the step, in a few words",
        );
        return None;
    };
    Some(PlanStep {
        step,
        status: status?,
    })
}

/// One step's entry, its priority as `options` say.
fn entry(step: Cow<'_, str>, status: Status, options: &PlanOptions) -> PlanEntry {
    let priority = options.priority_of(&step);
    PlanEntry::new(step.into_owned(), priority, status)
}
