//! What the scripted model plans: a list that changes over the turn, one
//! plan tool call per state, in each tool's own words (`TodoWrite`'s
//! todos, `update_plan`'s steps).

use std::fmt::{self, Write as _};
use std::path::Path;

use plan_core::tools::{Todo, TodoWrite};
use plan_core::wire::{Line, PlanMessage, Strictness};
use plan_core::{PlanContent, SessionNotification, SessionUpdate, Status};
use serde_json::value::RawValue;

/// The plans the model makes in one turn, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    states: Vec<TodoWrite>,
    /// Whether the agent's plan mode is played (`--plan-mode`): only then
    /// is a markdown plan made, through a tool that takes one.
    plan_mode: bool,
}

/// A script that cannot be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError(String);

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScriptError {}

impl Script {
    /// The script a user runs first: three steps planned, worked through
    /// one at a time, a fourth added on the way, all completed.
    pub fn built_in() -> Self {
        let todo = |content: &str, active: &str, status: Status| Todo {
            content: content.to_owned(),
            status,
            active_form: active.to_owned(),
        };
        let states = [
            [
                Status::InProgress,
                Status::Pending,
                Status::Pending,
                Status::Pending,
            ],
            [
                Status::Completed,
                Status::InProgress,
                Status::Pending,
                Status::Pending,
            ],
            [
                Status::Completed,
                Status::Completed,
                Status::Completed,
                Status::Completed,
            ],
        ];
        let states = states
            .iter()
            .enumerate()
            .map(|(turn, statuses)| {
                let mut todos = vec![
                    todo(
                        "Read the failing test",
                        "Reading the failing test",
                        statuses[0].clone(),
                    ),
                    todo("Fix the parser", "Fixing the parser", statuses[1].clone()),
                    todo(
                        "Run the test suite",
                        "Running the test suite",
                        statuses[2].clone(),
                    ),
                ];
                // A step the model adds once it has looked.
                if turn > 0 {
                    todos.push(todo(
                        "Update the changelog",
                        "Updating the changelog",
                        statuses[3].clone(),
                    ));
                }
                TodoWrite { todos }
            })
            .collect();
        Self {
            states,
            plan_mode: false,
        }
    }

    /// The same script, its plan mode played or not (`--plan-mode`): in
    /// plan mode the model plans the agent's plan-mode way (a markdown
    /// plan); out of it, never, whatever the agent offers.
    #[must_use]
    pub fn in_plan_mode(mut self, on: bool) -> Self {
        self.plan_mode = on;
        self
    }

    /// Whether plan mode is played.
    pub(crate) fn plays_plan_mode(&self) -> bool {
        self.plan_mode
    }

    /// A script of `plans`, one tool call each: items plans, whose entries
    /// become the todos (a todo's two labels from its `_meta`, as
    /// `TodoWrite::to_plan` keeps them).
    ///
    /// # Errors
    /// No plans, or a plan that is not an items plan.
    pub fn from_plans(plans: &[PlanContent]) -> Result<Self, ScriptError> {
        let states = plans
            .iter()
            .map(|plan| {
                TodoWrite::from_plan(plan).ok_or_else(|| {
                    ScriptError(format!(
                        "the plan `{}` is a `{}` plan: a model's plan tool makes items plans only",
                        plan.id(),
                        plan.type_name()
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if states.is_empty() {
            return Err(ScriptError("the script has no plan".to_owned()));
        }
        Ok(Self {
            states,
            plan_mode: false,
        })
    }

    /// A script from a file: one plan as JSON (an `include_plan!` file), or
    /// a stream of `session/update` lines (an `include_plan_stream!` file,
    /// what `acp-plan fixtures` prints, a recorded transcript), whose items
    /// plans and v1 plans are the script, in order.
    ///
    /// # Errors
    /// The file cannot be read, holds no plan, or a line is not JSON-RPC.
    pub fn from_file(path: &Path) -> Result<Self, ScriptError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ScriptError(format!("cannot read {}: {e}", path.display())))?;
        // Each JSON value of the file (one plan over many lines, or a line
        // each) split off by serde_json's stream and read once by
        // plan-core's reader of lines, where plan content may stand alone:
        // the other side of a transcript and other messages are no plans.
        let mut plans = Vec::new();
        let mut counted = (0, 1); // bytes looked at, and their lines
        let mut values = serde_json::Deserializer::from_str(&text).into_iter::<&RawValue>();
        while let Some(value) = values.next() {
            let start = value.as_ref().map_or(values.byte_offset(), |raw| {
                raw.get().as_ptr().addr() - text.as_ptr().addr()
            });
            counted.1 += text[counted.0..start].matches('\n').count();
            counted.0 = start;
            let at = |e: &dyn std::fmt::Display| {
                ScriptError(format!("{}:{}: {e}", path.display(), counted.1))
            };
            let read = Line::read(value.map_err(|e| at(&e))?.get(), Strictness::Strict);
            // A plan message's error is its own; another message must be
            // a well-formed one.
            let Some(plan) = read.plan else {
                match read.envelope.problems.first() {
                    Some(problem) => return Err(at(problem)),
                    None => continue,
                }
            };
            match plan.map_err(|e| at(&e))?.value {
                PlanMessage::Content(plan) => plans.push(plan),
                PlanMessage::Notification(SessionNotification { update, .. })
                | PlanMessage::Update(update) => match update {
                    SessionUpdate::PlanUpdate { plan, .. } if plan.entries().is_some() => {
                        plans.push(plan);
                    }
                    SessionUpdate::Plan(plan) => {
                        plans.push(PlanContent::items(plan_core::PlanId::V1_PLAN, plan.entries));
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        if plans.is_empty() {
            return Err(ScriptError(format!(
                "{} holds no items plan to script",
                path.display()
            )));
        }
        Self::from_plans(&plans)
    }

    /// How many plan tool calls the model makes.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether it makes none (never: every constructor refuses that).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Call `i` as `TodoWrite`'s arguments.
    pub fn todo_write(&self, i: usize) -> Option<&TodoWrite> {
        self.states.get(i)
    }

    /// The plan as plan mode asks for it, markdown as models write it in
    /// plan mode (Claude Code's `ExitPlanMode` plans): a title, a line of
    /// context, the last state's steps numbered under `## Steps`, and a
    /// bulleted list of checks. Not a checklist: a v1 client without
    /// `plan` is sent the numbered steps (plan-core's `MarkdownSteps`),
    /// and `check` holds the agent or the proxy to that.
    pub fn markdown(&self) -> String {
        let mut text = String::from(
            "# Plan: fix the failing parser test\n\n## Context\nThe tokenizer drops the last character of a quoted string.\n\n## Steps\n",
        );
        let todos = self.states.last().map_or(&[][..], |s| &s.todos[..]);
        for (number, todo) in todos.iter().enumerate() {
            let _ = writeln!(text, "{}. {}", number + 1, todo.content);
        }
        text.push_str("\n## Verification\n- `cargo test` passes\n- The changelog names the fix\n");
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_script_adds_a_step_and_works_through_every_status_the_tools_have() {
        let script = Script::built_in();
        assert_eq!(script.len(), 3);
        let first = script.todo_write(0).unwrap();
        assert_eq!(first.todos.len(), 3);
        assert_eq!(first.todos[0].status, Status::InProgress);
        let last = script.todo_write(2).unwrap();
        assert_eq!(last.todos.len(), 4);
        assert!(last.todos.iter().all(|t| t.status == Status::Completed));
        assert!(script.todo_write(3).is_none());
        let markdown = script.markdown();
        assert!(
            markdown.contains("## Steps\n1. Read the failing test\n2. Fix the parser\n3. Run the test suite\n4. Update the changelog\n\n## Verification\n"),
            "{markdown}"
        );
        // Its steps, as a v1 client without `plan` is sent them.
        let steps = plan_core::client::markdown_to_entries(&markdown);
        let texts: Vec<&str> = steps.iter().map(|e| &*e.content).collect();
        assert_eq!(
            texts,
            [
                "Read the failing test",
                "Fix the parser",
                "Run the test suite",
                "Update the changelog"
            ]
        );
    }

    #[test]
    fn a_script_is_a_plan_file_or_a_stream_of_plans_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("acp-plan-script-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let one = dir.join("plan.json");
        std::fs::write(
            &one,
            r#"{"type":"items","planId":"p","entries":[{"content":"A","priority":"high","status":"pending"}]}"#,
        )
        .unwrap();
        assert_eq!(Script::from_file(&one).unwrap().len(), 1);
        let stream = dir.join("stream.ndjson");
        std::fs::write(
            &stream,
            concat!(
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"A","priority":"high","status":"in_progress"}]}}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"A","priority":"high","status":"completed"}]}}}"#,
                "\n"
            ),
        )
        .unwrap();
        let script = Script::from_file(&stream).unwrap();
        assert_eq!(script.len(), 2);
        assert_eq!(
            script.todo_write(1).unwrap().todos[0].status,
            Status::Completed
        );
        let markdown = dir.join("md.json");
        std::fs::write(
            &markdown,
            r##"{"type":"markdown","planId":"p","content":"# x"}"##,
        )
        .unwrap();
        let err = Script::from_file(&markdown).unwrap_err();
        assert!(err.to_string().contains("items plans only"), "{err}");
        // One plan written over many lines, as `include_plan!` files are.
        let pretty = dir.join("pretty.json");
        std::fs::write(
            &pretty,
            "{\n  \"type\": \"items\",\n  \"planId\": \"p\",\n  \"entries\": [\n    {\"content\": \"A\", \"priority\": \"low\", \"status\": \"pending\"}\n  ]\n}\n",
        )
        .unwrap();
        assert_eq!(Script::from_file(&pretty).unwrap().len(), 1);
        // What is not JSON is an error at its line.
        let broken = dir.join("broken.ndjson");
        let first = std::fs::read_to_string(&stream).unwrap();
        std::fs::write(&broken, format!("{first}\nnot json\n")).unwrap();
        let err = Script::from_file(&broken).unwrap_err();
        assert!(err.to_string().contains("broken.ndjson:5:"), "{err}");
        let err = Script::from_file(&dir.join("missing")).unwrap_err();
        assert!(err.to_string().starts_with("cannot read"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
