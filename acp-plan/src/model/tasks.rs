//! Claude Code's task tools, the other way its model plans: `TaskCreate`
//! (`subject`, `description`, `activeForm`) adds a task, pending, and
//! `TaskUpdate` (`taskId`, `status`) moves one. Claude Code offers them
//! instead of `TodoWrite` when its task tools are on
//! (`CLAUDE_CODE_ENABLE_TASKS=1`). The script's states become a sequence
//! of such calls, one per answer: each state's new steps created, then each
//! step whose status changed updated, so after a state's last call the
//! task list is that state.

use plan_core::Status;
use plan_core::tools::TodoWrite;
use serde_json::{Value, json};

use super::request::{PastCall, Request};
use super::script::Script;

/// The tool that adds a task.
pub(crate) const CREATE: &str = "TaskCreate";
/// The tool that moves a task.
pub(crate) const UPDATE: &str = "TaskUpdate";
/// The two, as the report names them as one plan tool.
pub(crate) const BOTH: &str = "TaskCreate/TaskUpdate";

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

/// The calls that play `script`, in order, each with the state it
/// completes (a state's last call).
fn ops(script: &Script) -> Vec<(Op, Option<usize>)> {
    let mut ops = Vec::new();
    let mut known: Vec<(String, Status)> = Vec::new();
    for (i, state) in (0..script.len()).filter_map(|i| Some((i, script.todo_write(i)?))) {
        let first = ops.len();
        for todo in &state.todos {
            if !known.iter().any(|(subject, _)| *subject == todo.content) {
                ops.push((
                    Op::Create {
                        subject: todo.content.clone(),
                        active_form: todo.active_form.clone(),
                    },
                    None,
                ));
                known.push((todo.content.clone(), Status::Pending));
            }
        }
        for todo in &state.todos {
            if let Some((_, status)) = known.iter_mut().find(|(s, _)| *s == todo.content)
                && *status != todo.status
            {
                ops.push((
                    Op::Update {
                        subject: todo.content.clone(),
                        status: todo.status.clone(),
                    },
                    None,
                ));
                *status = todo.status.clone();
            }
        }
        if ops.len() > first
            && let Some(last) = ops.last_mut()
        {
            last.1 = Some(i);
        }
    }
    ops
}

/// Whether `request` offers both task tools.
pub(crate) fn offered(request: &Request) -> bool {
    request.offers(CREATE) && request.offers(UPDATE)
}

/// How many calls of the sequence `script` makes.
pub(crate) fn len(script: &Script) -> usize {
    ops(script).len()
}

/// The task id Claude Code gave the task `subject`: from the result of the
/// latest `TaskCreate` of it ("Task #N created successfully: ..."); without
/// that result, its place among the tasks created, counted from 1, as
/// Claude Code numbers them; "1" if no call created it (the sequence always
/// creates a task before it moves it).
fn task_id(calls: &[PastCall], subject: &str) -> String {
    let creates: Vec<&PastCall> = calls.iter().filter(|c| c.name == CREATE).collect();
    let Some(place) = creates
        .iter()
        .rposition(|c| c.arguments["subject"] == subject)
    else {
        return "1".to_owned();
    };
    creates[place]
        .result
        .as_deref()
        .unwrap_or_default()
        .split("Task #")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .map_or_else(|| (place + 1).to_string(), str::to_owned)
}

/// Call `made` of the sequence, as (tool, arguments, the script's state
/// once it has run, where it is a state's last call), with the ids the
/// conversation's `calls` gave the tasks; `None` after the last.
pub(crate) fn call<'s>(
    script: &'s Script,
    made: usize,
    calls: &[PastCall],
) -> Option<(&'static str, Value, Option<&'s TodoWrite>)> {
    let ops = ops(script);
    let (op, state) = ops.into_iter().nth(made)?;
    let state = state.and_then(|i| script.todo_write(i));
    Some(match op {
        Op::Create {
            subject,
            active_form,
        } => (
            CREATE,
            json!({ "subject": subject, "description": subject, "activeForm": active_form }),
            state,
        ),
        Op::Update { subject, status } => (
            UPDATE,
            json!({ "taskId": task_id(calls, &subject), "status": status.as_str() }),
            state,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_script_is_created_then_moved_state_by_state() {
        let script = Script::built_in();
        let calls: Vec<(&str, Value, Option<&TodoWrite>)> = (0..len(&script))
            .map(|i| call(&script, i, &[]).unwrap())
            .collect();
        let tools: Vec<&str> = calls.iter().map(|(tool, ..)| *tool).collect();
        // A state is complete after its last call: the 4th, 7th and 10th.
        let completes: Vec<usize> = calls
            .iter()
            .enumerate()
            .filter(|(_, c)| c.2.is_some())
            .map(|(i, _)| i)
            .collect();
        assert_eq!(completes, [3, 6, 9]);
        assert_eq!(calls[9].2, script.todo_write(2));
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
        let calls = vec![PastCall {
            name: CREATE.to_owned(),
            id: "t1".to_owned(),
            arguments: json!({ "subject": "Fix the parser" }),
            result: Some("Task #7 created successfully: Fix the parser".to_owned()),
            failed: false,
        }];
        assert_eq!(task_id(&calls, "Fix the parser"), "7");
        assert_eq!(task_id(&calls, "Something else"), "1");
    }
}
