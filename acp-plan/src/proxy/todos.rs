//! A todo list in a tool call's `rawInput`, whatever the tool is named: a
//! list of items, each with a text and a status whose word says pending,
//! in progress or done (`pending`, `todo`, `not_started`, `in_progress`,
//! `doing`, `active`, `completed`, `done`, `cancelled`, ...). opencode's
//! `todowrite` (`{todos: [{content, status, priority}]}`), codex's
//! `update_plan` (`{plan: [{step, status}]}`), Gemini CLI's `write_todos`
//! (`{todos: [{description, status}]}`) and a tool nobody here has seen are
//! read alike. Priorities come from the items (`high`, `medium`, `low`),
//! else `medium`.

#[cfg(test)]
use plan_core::Status;
use plan_core::tools::status_of_word;
use plan_core::{PlanEntry, Priority};
use serde_json::Value;

use crate::model::plan_tool::TEXT_KEYS;

/// Keys an item's status goes by.
const STATUS_KEYS: [&str; 3] = ["status", "state", "progress"];

/// Keys under which an empty list is a todo list cleared (an empty list
/// under any other key is nothing).
const LIST_KEYS: [&str; 6] = ["todos", "plan", "tasks", "steps", "items", "todo_list"];

/// The todo list `raw_input` holds, as entries, if it holds one: the first
/// list (at the top, or one object down) whose every item has a text and a
/// status word. An empty list is a list (the todos cleared) under a key
/// that names one (`todos`, `plan`, `tasks`, ...).
pub(crate) fn todo_list(raw_input: &Value) -> Option<Vec<PlanEntry>> {
    // `rawInput` may come as a JSON text (some agents stringify it).
    if let Value::String(text) = raw_input {
        let parsed: Value = serde_json::from_str(text).ok()?;
        return todo_list(&parsed);
    }
    let object = raw_input.as_object()?;
    let mut lists = object.iter().chain(
        object
            .values()
            .filter_map(Value::as_object)
            .flat_map(|inner| inner.iter()),
    );
    lists.find_map(|(key, value)| entries(key, value.as_array()?))
}

/// `items` (under `key`) as entries, if every one is a todo: at least one,
/// or none under a key that names a todo list.
fn entries(key: &str, items: &[Value]) -> Option<Vec<PlanEntry>> {
    if items.is_empty() && !LIST_KEYS.contains(&key.to_ascii_lowercase().as_str()) {
        return None;
    }
    items.iter().map(entry).collect()
}

fn entry(item: &Value) -> Option<PlanEntry> {
    let item = item.as_object()?;
    let text = TEXT_KEYS
        .iter()
        .find_map(|key| item.get(*key)?.as_str())
        .filter(|text| !text.trim().is_empty())?;
    let status = STATUS_KEYS
        .iter()
        .find_map(|key| item.get(*key)?.as_str())
        .and_then(status_of_word)?;
    let priority = item
        .get("priority")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
        .and_then(|word| match word.as_str() {
            "high" | "urgent" | "critical" => Some(Priority::High),
            "low" => Some(Priority::Low),
            "medium" | "normal" => Some(Priority::Medium),
            _ => None,
        })
        .unwrap_or(Priority::Medium);
    Some(PlanEntry::new(text.to_owned(), priority, status))
}

/// Each entry's text and status (for tests).
#[cfg(test)]
fn said(entries: &[PlanEntry]) -> Vec<(&str, &Status)> {
    entries
        .iter()
        .map(|e| (e.content.as_ref(), &e.status))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_agents_todo_list_is_read_whatever_its_tool_and_keys() {
        // opencode's `todowrite`, as its `tool_call_update` carries it.
        let opencode = json!({ "todos": [
            { "content": "Read the failing test", "status": "completed", "priority": "high" },
            { "content": "Fix the parser", "status": "in_progress", "priority": "medium" } ] });
        let read = todo_list(&opencode).unwrap();
        assert_eq!(
            said(&read),
            [
                ("Read the failing test", &Status::Completed),
                ("Fix the parser", &Status::InProgress)
            ]
        );
        assert_eq!(read[0].priority, Priority::High);
        // A tool nobody here has seen, its words its own, its list one down.
        let odd = json!({ "args": { "steps": [ { "label": "Ship", "state": "Doing" },
            { "label": "Tag", "state": "TODO" } ] } });
        let read = todo_list(&odd).unwrap();
        assert_eq!(
            said(&read),
            [("Ship", &Status::InProgress), ("Tag", &Status::Pending)]
        );
        assert_eq!(read[1].priority, Priority::Medium);
        // Stringified.
        let text = Value::from(opencode.to_string());
        assert_eq!(todo_list(&text).unwrap().len(), 2);
        // Cleared: an empty list is a list.
        assert_eq!(todo_list(&json!({ "todos": [] })), Some(Vec::new()));
    }

    #[test]
    fn input_that_is_no_todo_list_is_none() {
        for input in [
            json!({ "command": "ls" }),
            json!({ "paths": ["a", "b"] }),
            json!({ "files": [] }),
            json!({ "todos": [ { "content": "x", "status": "weird" } ] }),
            json!({ "todos": [ { "status": "pending" } ] }),
            json!("not json"),
            json!(null),
        ] {
            assert_eq!(todo_list(&input), None, "{input}");
        }
    }
}
