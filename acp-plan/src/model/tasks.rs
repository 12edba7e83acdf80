//! Claude Code's task tools, the other way its model plans: `TaskCreate`
//! (`subject`, `description`, `activeForm`) adds a task, pending, and
//! `TaskUpdate` (`taskId`, `status`) moves one. Claude Code offers them
//! instead of `TodoWrite` when its task tools are on
//! (`CLAUDE_CODE_ENABLE_TASKS=1`). The script's states become a sequence
//! of such calls, one per answer: each state's new steps created, then each
//! step whose status changed updated, so after a state's last call the
//! task list is that state.

use plan_core::Status;
use serde_json::{Value, json};

use super::Script;

/// The tool that adds a task.
pub const CREATE: &str = "TaskCreate";
/// The tool that moves a task.
pub const UPDATE: &str = "TaskUpdate";

/// One call of the sequence: a task added, or a task's new status.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Op {
    Create {
        subject: String,
        active_form: String,
    },
    Update {
        subject: String,
        status: Status,
    },
}

/// The calls that play `script`, in order.
fn ops(script: &Script) -> Vec<Op> {
    let mut ops = Vec::new();
    let mut known: Vec<(String, Status)> = Vec::new();
    for state in (0..script.len()).filter_map(|i| script.todo_write(i)) {
        for todo in &state.todos {
            if !known.iter().any(|(subject, _)| *subject == todo.content) {
                ops.push(Op::Create {
                    subject: todo.content.clone(),
                    active_form: todo.active_form.clone(),
                });
                known.push((todo.content.clone(), Status::Pending));
            }
        }
        for todo in &state.todos {
            if let Some((_, status)) = known.iter_mut().find(|(s, _)| *s == todo.content)
                && *status != todo.status
            {
                ops.push(Op::Update {
                    subject: todo.content.clone(),
                    status: todo.status.clone(),
                });
                *status = todo.status.clone();
            }
        }
    }
    ops
}

/// How many calls of the sequence `script` makes.
pub fn len(script: &Script) -> usize {
    ops(script).len()
}

/// The task id Claude Code gave the task `subject`: from the result of the
/// latest `TaskCreate` of it ("Task #N created successfully: ..."); without
/// that result, its place among the tasks created, counted from 1, as
/// Claude Code numbers them; "1" if no call created it (the sequence always
/// creates a task before it moves it).
fn task_id(messages: &[Value], subject: &str) -> String {
    let blocks: Vec<&Value> = messages
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .collect();
    let creates: Vec<(&str, &str)> = blocks
        .iter()
        .filter(|b| b["type"] == "tool_use" && b["name"] == CREATE)
        .filter_map(|b| Some((b["id"].as_str()?, b["input"]["subject"].as_str()?)))
        .collect();
    let Some(place) = creates.iter().rposition(|(_, s)| *s == subject) else {
        return "1".to_owned();
    };
    let use_id = creates[place].0;
    let result = blocks
        .iter()
        .find(|b| b["type"] == "tool_result" && b["tool_use_id"] == use_id)
        .map(|b| match &b["content"] {
            Value::String(text) => text.clone(),
            Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join(" "),
            _ => String::new(),
        })
        .unwrap_or_default();
    result
        .split("Task #")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .map_or_else(|| (place + 1).to_string(), str::to_owned)
}

/// Call `made` of the sequence, as (tool, arguments), with the ids the
/// conversation `messages` gave the tasks; `None` after the last.
pub fn call(script: &Script, made: usize, messages: &[Value]) -> Option<(&'static str, Value)> {
    Some(match ops(script).into_iter().nth(made)? {
        Op::Create {
            subject,
            active_form,
        } => (
            CREATE,
            json!({ "subject": subject, "description": subject, "activeForm": active_form }),
        ),
        Op::Update { subject, status } => (
            UPDATE,
            json!({ "taskId": task_id(messages, &subject), "status": status.as_str() }),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_script_is_created_then_moved_state_by_state() {
        let script = Script::built_in();
        let calls: Vec<(&str, Value)> = (0..len(&script))
            .map(|i| call(&script, i, &[]).unwrap())
            .collect();
        let tools: Vec<&str> = calls.iter().map(|(tool, _)| *tool).collect();
        // State 1: three created, the first in progress; state 2: a fourth
        // created, the first completed, the second in progress; state 3:
        // the rest completed.
        assert_eq!(
            tools,
            [
                CREATE, CREATE, CREATE, UPDATE, CREATE, UPDATE, UPDATE, UPDATE, UPDATE, UPDATE
            ]
        );
        assert_eq!(
            calls[3].1,
            json!({ "taskId": "1", "status": "in_progress" })
        );
        assert_eq!(calls[0].1["activeForm"], "Reading the failing test");
        assert!(call(&script, len(&script), &[]).is_none());
    }

    #[test]
    fn a_task_id_is_the_one_claude_code_gave() {
        let messages = vec![
            json!({ "role": "assistant", "content": [{ "type": "tool_use", "id": "t1",
                "name": "TaskCreate", "input": { "subject": "Fix the parser" } }] }),
            json!({ "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "t1",
                "content": "Task #7 created successfully: Fix the parser" }] }),
        ];
        assert_eq!(task_id(&messages, "Fix the parser"), "7");
        assert_eq!(task_id(&messages, "Something else"), "1");
    }
}
