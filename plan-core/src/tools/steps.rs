//! `StepsTool`: a [`Steps`] type's plan offered to a model, which may only
//! report progress on the declared steps.

use std::marker::PhantomData;

use serde_json::{Value, json};

use super::definition::ToolDefinition;
use super::read::{CallReader, Correction, ToolCall, ToolError};
use crate::agent::{PlanRun, Steps};
use crate::protocol::entry::Status;

/// The tool of a `#[derive(Steps)]` type: its `step` field is a JSON Schema
/// `enum` of the declared steps' contents, so the model reports progress on
/// those steps and names no other; the call becomes the typed run.
///
/// ```
/// use plan_core::{Status, Steps, tools::StepsTool};
///
/// #[derive(Steps)]
/// #[plan(id = "release")]
/// enum Release {
///     /// Run the tests
///     Test,
///     /// Tag the release
///     Tag,
/// }
///
/// let tool = StepsTool::<Release>::definition();
/// assert_eq!(tool.name, "plan_release");
/// assert_eq!(tool.schema["properties"]["plan"]["items"]["properties"]["step"]["enum"][1], "Tag the release");
///
/// let mut run = Release::start().one_at_a_time();
/// StepsTool::apply(&mut run, r#"{"plan":[{"step":"Run the tests","status":"completed"},{"step":"Tag the release","status":"in_progress"}]}"#)?;
/// assert_eq!(run.status(Release::Tag), &Status::InProgress);
///
/// let err = StepsTool::apply(&mut run, r#"{"plan":[{"step":"Deploy","status":"pending"}]}"#).unwrap_err();
/// assert_eq!(
///     err.problems()[0].to_string(),
///     "plan[0].step: \"Deploy\" is not a step of this plan. Allowed: \"Run the tests\", \"Tag the release\"."
/// );
/// # Ok::<(), plan_core::tools::ToolError>(())
/// ```
#[derive(Debug)]
pub struct StepsTool<S>(PhantomData<S>);

impl<S: Steps> StepsTool<S> {
    /// The tool's name: `plan_` and the plan id, with any character an API
    /// does not take in a tool name (`[A-Za-z0-9_-]`, 64 at most) as `_`.
    pub fn name() -> String {
        let id: String = S::ID
            .as_str()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let mut name = format!("plan_{id}");
        name.truncate(64);
        name
    }

    /// The tool to hand a model. Strict: every property is required, so
    /// OpenAI's strict mode may enforce the `enum` of steps.
    pub fn definition() -> ToolDefinition {
        let steps: Vec<&str> = S::STEPS.iter().map(|s| s.content).collect();
        let schema = json!({
            "type": "object",
            "properties": {
                "plan": {
                    "type": "array",
                    "description": "The steps whose status changed (or all of them), each once.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "step": {
                                "type": "string",
                                "enum": steps,
                                "description": "One of the plan's steps, exactly as written."
                            },
                            "status": {
                                "type": "string",
                                "enum": ["pending", "in_progress", "completed"],
                                "description": "Mark a step in_progress as you start it and completed when it is done."
                            }
                        },
                        "required": ["step", "status"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["plan"],
            "additionalProperties": false
        });
        let list = steps
            .iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ");
        ToolDefinition::new(
            Self::name(),
            format!(
                "Report your progress on the plan \"{}\", which the user sees. Its steps are fixed: {list}. Send the steps whose status changed; the others keep theirs.",
                S::ID.as_str()
            ),
            schema,
            true,
        )
    }

    /// Reads a model's arguments: each named step (its content exactly, or
    /// differing only in case and surrounding space, with a note) with its
    /// status, read as leniently as the other tools read theirs.
    ///
    /// # Errors
    /// For the model: an unknown step (listing the allowed ones), or any
    /// field that could not be read.
    pub fn read(arguments: &str) -> Result<ToolCall<Vec<(&'static S, Status)>>, ToolError> {
        let mut reader = CallReader::new(Self::name());
        let mut moves = Vec::new();
        let example = S::STEPS.first().map_or(String::new(), |s| {
            format!(
                r#"{{"plan":[{{"step":"{}","status":"in_progress"}}]}}"#,
                s.content
            )
        });
        if let Some(mut object) = reader.arguments(arguments, "plan", &example) {
            reader.unknown_fields(&object, "", &["plan"]);
            moves = reader.items(
                &mut object,
                "plan",
                &["step", "status"],
                |reader, item, at| {
                    let step = Self::step(reader, item.get("step"), at);
                    Some((step?, reader.status(item, at)?))
                },
            );
        }
        reader.finish(moves)
    }

    /// The declared step named by `value`, or `None` with the problem said.
    fn step(reader: &mut CallReader, value: Option<&Value>, at: &str) -> Option<&'static S> {
        let allowed = S::STEPS
            .iter()
            .map(|s| format!("\"{}\"", s.content))
            .collect::<Vec<_>>()
            .join(", ");
        let field = format!("{at}.step");
        let Some(Value::String(text)) = value else {
            reader.problem(field, "missing, or not text", allowed);
            return None;
        };
        let index = S::STEPS.iter().position(|s| s.content == text).or_else(|| {
            let found = S::STEPS
                .iter()
                .position(|s| s.content.eq_ignore_ascii_case(text.trim()))?;
            let note = format!("{text:?} read as \"{}\"", S::STEPS[found].content);
            reader.correct(field.clone(), note);
            Some(found)
        });
        match index {
            Some(index) => S::ALL.get(index),
            None => {
                reader.problem(
                    field,
                    format!("{text:?} is not a step of this plan"),
                    allowed,
                );
                None
            }
        }
    }

    /// Reads the call and moves the run's steps, under the run's rules
    /// (`one_at_a_time`, `forward_only`): settled and pending steps first,
    /// then the steps begun, so a call that finishes one step and begins
    /// the next keeps a one-at-a-time run's rule. Steps the call does not
    /// name keep their status. All or nothing: on an error the run is as it
    /// was.
    ///
    /// # Errors
    /// For the model: what [`read`](Self::read) finds, or a move the run's
    /// rules forbid.
    pub fn apply(run: &mut PlanRun<S>, arguments: &str) -> Result<Vec<Correction>, ToolError> {
        let call = Self::read(arguments)?;
        let mut next = run.clone();
        let mut reader = CallReader::new(Self::name());
        let (begun, others): (Vec<_>, Vec<_>) = call
            .input
            .into_iter()
            .enumerate()
            .partition(|(_, (_, status))| *status == Status::InProgress);
        for (i, (step, status)) in others.into_iter().chain(begun) {
            if let Err(e) = next.move_at(step.index(), status) {
                reader.problem(
                    format!("plan[{i}].status"),
                    e.to_string(),
                    "a move this plan's rules allow",
                );
            }
        }
        reader.finish(())?;
        *run = next;
        Ok(call.corrections)
    }
}
