//! Which of the tools a request offers is the agent's plan tool, and how
//! the script's plans are said in it.
//!
//! Known by name: Claude Code's `TodoWrite` (and its task tools, `model/tasks.rs`),
//! codex's `update_plan`, qwen-code's `todo_write`, opencode's `todowrite`,
//! Gemini CLI's `write_todos`. Known by shape, whatever its name: a tool
//! whose input holds a list of items, each with a text and a status from an
//! enum whose words say at least "pending" and "completed" (in any of the
//! usual spellings). The script's statuses are said in that enum's words;
//! the other fields an item requires (an id, a priority, an `activeForm`)
//! are filled from the schema, so the arguments are valid against it.

use plan_core::Status;
use plan_core::tools::{Todo, TodoWrite, UpdatePlan, status_of_word};
use serde_json::{Map, Value};

use super::schema::{enum_words, fill, is_id, is_priority, plain, properties, required, type_of};

/// Plan tools known by name, in the order they are preferred when a
/// request offers several (the task tools are found apart: two tools).
pub(crate) const KNOWN: [&str; 5] = [
    TodoWrite::NAME,
    UpdatePlan::NAME,
    "todo_write",
    "todowrite",
    "write_todos",
];

/// How a plan tool takes a list of steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanTool {
    /// Claude Code's `TodoWrite` (`todos`: `content`, `status`, `activeForm`).
    TodoWrite,
    /// codex's `update_plan` (`plan`: `step`, `status`; `explanation`).
    UpdatePlan,
    /// Any other: read off its schema.
    List(ListToolShape),
}

/// A plan tool read off its input schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListToolShape {
    /// The tool's name.
    pub name: String,
    /// The key of the list of items.
    list: String,
    /// The key of an item's text.
    text: String,
    /// The key of an item's status.
    status: String,
    /// The enum's word for each status the tool can say, as (status, word).
    words: Vec<(Status, String)>,
    /// The other fields an item requires, with their schemas.
    item_fields: Vec<(String, Value)>,
    /// The other fields the input requires, with their schemas.
    top_fields: Vec<(String, Value)>,
}

/// The plan tool among `tools` (name, input schema), if one is: a known
/// name first, when its schema is a list of items (a tool that only bears
/// a known name is an ordinary tool), then any tool of that shape. Claude
/// Code's and codex's tools are said their own way only when their schema
/// is theirs (`todos` of `content`, `plan` of `step`).
pub fn find<'a>(mut tools: impl Iterator<Item = (&'a str, &'a Value)> + Clone) -> Option<PlanTool> {
    for known in KNOWN {
        let Some((name, schema)) = tools.clone().find(|(name, _)| *name == known) else {
            continue;
        };
        let Some(tool) = ListToolShape::read(name, schema) else {
            continue;
        };
        return Some(match name {
            TodoWrite::NAME if tool.is("todos", "content") => PlanTool::TodoWrite,
            UpdatePlan::NAME if tool.is("plan", "step") => PlanTool::UpdatePlan,
            _ => PlanTool::List(tool),
        });
    }
    tools
        .find_map(|(name, schema)| ListToolShape::read(name, schema))
        .map(PlanTool::List)
}

impl PlanTool {
    /// The tool's name.
    pub fn name(&self) -> &str {
        match self {
            Self::TodoWrite => TodoWrite::NAME,
            Self::UpdatePlan => UpdatePlan::NAME,
            Self::List(tool) => &tool.name,
        }
    }

    /// `state` said in this tool: its arguments, and the plan as the model
    /// said it (a status the tool has no word for said as the nearest one
    /// it has).
    pub fn say(&self, state: &TodoWrite, call: usize) -> (Value, Vec<Todo>) {
        match self {
            Self::TodoWrite => (state.to_value(), state.todos.clone()),
            Self::UpdatePlan => {
                let steps = UpdatePlan {
                    explanation: (call > 0).then(|| "Updated as the work went on".to_owned()),
                    plan: state
                        .todos
                        .iter()
                        .map(|todo| plan_core::tools::PlanStep {
                            step: todo.content.clone(),
                            status: todo.status.clone(),
                        })
                        .collect(),
                };
                (steps.to_value(), state.todos.clone())
            }
            Self::List(tool) => tool.say(state),
        }
    }
}

/// The words a field takes: its enum's; or, for a field named for a
/// status with no enum (opencode's `todowrite`), the words its description
/// lists (`pending, in_progress, completed, cancelled`).
fn said_words<'a>(key: &str, field: &'a Value) -> Vec<&'a str> {
    let words = enum_words(field);
    let named = ["status", "state"].iter().any(|s| plain(key).contains(s));
    if !words.is_empty() || !named || type_of(field) != "string" {
        return words;
    }
    field["description"]
        .as_str()
        .unwrap_or_default()
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Keys an item's text goes by, most likely first (the proxy reads a todo
/// list in a tool call's input by the same keys).
pub(crate) const TEXT_KEYS: [&str; 10] = [
    "content",
    "description",
    "step",
    "title",
    "text",
    "task",
    "subject",
    "summary",
    "name",
    "label",
];

impl ListToolShape {
    /// `name`'s input `schema` read as a plan tool, if it is one.
    pub fn read(name: &str, schema: &Value) -> Option<Self> {
        let schema = &super::schema::inline(schema);
        let top_required = required(schema);
        for (list, array) in properties(schema) {
            if type_of(array) != "array" || type_of(&array["items"]) != "object" {
                continue;
            }
            let item = &array["items"];
            let fields = properties(item);
            let Some((status, words)) = fields.iter().find_map(|(key, field)| {
                let words = status_words(&said_words(key, field))?;
                Some(((*key).to_owned(), words))
            }) else {
                continue;
            };
            let strings: Vec<&str> = fields
                .iter()
                .filter(|(key, field)| {
                    *key != status
                        && type_of(field) == "string"
                        && enum_words(field).is_empty()
                        && !is_priority(key)
                })
                .map(|(key, _)| *key)
                .collect();
            let Some(text) = TEXT_KEYS
                .iter()
                .find(|key| strings.contains(key))
                .copied()
                .or_else(|| strings.iter().find(|key| !is_id(key)).copied())
            else {
                continue;
            };
            let item_required = required(item);
            let item_fields = fields
                .iter()
                .filter(|(key, _)| *key != text && *key != status && item_required.contains(key))
                .map(|(key, field)| ((*key).to_owned(), (*field).clone()))
                .collect();
            let top_fields = properties(schema)
                .into_iter()
                .filter(|(key, _)| *key != list && top_required.contains(key))
                .map(|(key, field)| (key.to_owned(), field.clone()))
                .collect();
            return Some(Self {
                name: name.to_owned(),
                list: list.to_owned(),
                text: text.to_owned(),
                status,
                words,
                item_fields,
                top_fields,
            });
        }
        None
    }

    /// Whether its list and its items' text go by these keys.
    fn is(&self, list: &str, text: &str) -> bool {
        self.list == list && self.text == text
    }

    /// The word for `status`, or for the nearest status the tool has.
    fn word(&self, status: &Status) -> (Status, &str) {
        let nearest = match status {
            Status::InProgress | Status::Pending => [status.clone(), Status::Pending],
            Status::Cancelled | Status::Completed => [status.clone(), Status::Completed],
            _ => [Status::Pending, Status::Pending],
        };
        for want in nearest {
            if let Some((said, word)) = self.words.iter().find(|(s, _)| *s == want) {
                return (said.clone(), word);
            }
        }
        // Never: `read` requires pending and completed.
        (self.words[0].0.clone(), &self.words[0].1)
    }

    fn say(&self, state: &TodoWrite) -> (Value, Vec<Todo>) {
        let mut said = Vec::with_capacity(state.todos.len());
        let items: Vec<Value> = state
            .todos
            .iter()
            .enumerate()
            .map(|(i, todo)| {
                let (status, word) = self.word(&todo.status);
                let mut item = Map::new();
                item.insert(self.text.clone(), Value::from(todo.content.as_str()));
                item.insert(self.status.clone(), Value::from(word));
                for (key, field) in &self.item_fields {
                    item.insert(key.clone(), fill(key, field, i, todo));
                }
                said.push(Todo {
                    content: todo.content.clone(),
                    status,
                    active_form: todo.active_form.clone(),
                });
                Value::Object(item)
            })
            .collect();
        let mut input = Map::new();
        input.insert(self.list.clone(), Value::Array(items));
        let first = state.todos.first().cloned().unwrap_or_else(|| Todo {
            content: "Plan".to_owned(),
            status: Status::Pending,
            active_form: "Planning".to_owned(),
        });
        for (key, field) in &self.top_fields {
            input.insert(key.clone(), fill(key, field, 0, &first));
        }
        (Value::Object(input), said)
    }
}

/// The tool's word for each status, if its enum says at least pending and
/// completed (the words read as `plan_core`'s `tools` reader reads them:
/// `TODO`, `Doing`, `done`, `canceled`, ...): the protocol's own word where
/// the enum has it, else the first that means the status.
fn status_words(words: &[&str]) -> Option<Vec<(Status, String)>> {
    let mut found: Vec<(Status, String)> = Vec::new();
    // The protocol's own words first (a description's "Current status: ..."
    // must not say in progress where `in_progress` is listed).
    let exact = |word: &str, status: &Status| plain(word) == plain(status.as_str());
    for own in [true, false] {
        for word in words {
            if let Some(status) = status_of_word(word)
                && exact(word, &status) == own
                && !found.iter().any(|(s, _)| *s == status)
            {
                found.push((status, (*word).to_owned()));
            }
        }
    }
    let has = |s: Status| found.iter().any(|(f, _)| *f == s);
    (has(Status::Pending) && has(Status::Completed)).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Script;
    use serde_json::json;

    fn tools(list: &[(&str, Value)]) -> Option<PlanTool> {
        find(list.iter().map(|(n, s)| (*n, s)))
    }

    fn todos_schema(item: &Value) -> Value {
        json!({ "type": "object", "required": ["todos"],
            "properties": { "todos": { "type": "array", "items": item } } })
    }

    #[test]
    fn each_known_tool_and_an_unknown_one_of_the_same_shape_is_found() {
        let qwen = todos_schema(
            &json!({ "type": "object", "required": ["id", "content", "status"],
            "additionalProperties": false,
            "properties": { "id": { "type": "string" }, "content": { "type": "string" },
                "status": { "type": "string", "enum": ["pending", "in_progress", "completed"] } } }),
        );
        let Some(PlanTool::List(tool)) = tools(&[("bash", json!({})), ("todo_write", qwen)]) else {
            panic!("todo_write not found")
        };
        let (arguments, said) = tool.say(Script::built_in().todo_write(0).unwrap());
        assert_eq!(
            arguments["todos"][0],
            json!({ "id": "1", "content": "Read the failing test", "status": "in_progress" })
        );
        assert_eq!(said[0].status, Status::InProgress);
        // Gemini's upper-case types, its own words, a name never seen.
        let odd = json!({ "type": "OBJECT", "required": ["items"], "properties": {
            "items": { "type": "ARRAY", "items": { "type": "OBJECT",
                "required": ["label", "state", "rank"],
                "properties": { "label": { "type": "STRING" },
                    "state": { "type": "STRING", "enum": ["TODO", "Doing", "Done", "blocked"] },
                    "rank": { "type": "STRING", "enum": ["high", "medium", "low"] } } } } } });
        let Some(PlanTool::List(tool)) = tools(&[("track_steps", odd)]) else {
            panic!("a tool of that shape is a plan tool")
        };
        let (arguments, _) = tool.say(Script::built_in().todo_write(1).unwrap());
        assert_eq!(
            arguments["items"][1],
            json!({ "label": "Fix the parser", "state": "Doing", "rank": "medium" })
        );
        assert_eq!(arguments["items"][0]["state"], "Done");
    }

    #[test]
    fn a_status_whose_words_only_its_description_lists_is_read_from_it() {
        // opencode 1.18.33's `todowrite`, as it offers it.
        let opencode = todos_schema(&json!({ "type": "object",
            "required": ["content", "status", "priority"],
            "properties": {
                "content": { "type": "string", "description": "Brief description of the task" },
                "status": { "type": "string",
                    "description": "Current status of the task: pending, in_progress, completed, cancelled" },
                "priority": { "type": "string", "description": "Priority level of the task: high, medium, low" } } }));
        let Some(PlanTool::List(tool)) = tools(&[("todowrite", opencode)]) else {
            panic!("todowrite not found")
        };
        let (arguments, _) = tool.say(Script::built_in().todo_write(1).unwrap());
        assert_eq!(
            arguments["todos"][1],
            json!({ "content": "Fix the parser", "status": "in_progress", "priority": "medium" })
        );
    }

    #[test]
    fn a_tool_without_pending_and_completed_words_or_a_text_is_no_plan_tool() {
        let no_done = todos_schema(&json!({ "type": "object", "properties": {
            "content": { "type": "string" },
            "status": { "type": "string", "enum": ["open", "closed"] } } }));
        assert_eq!(tools(&[("issues", no_done)]), None);
        let no_text = todos_schema(&json!({ "type": "object", "properties": {
            "status": { "type": "string", "enum": ["pending", "completed"] } } }));
        assert_eq!(tools(&[("x", no_text)]), None);
        assert_eq!(tools(&[("Bash", json!({ "type": "object" }))]), None);
    }

    #[test]
    fn a_status_the_tool_cannot_say_is_said_as_the_nearest_and_recorded_so() {
        let two = todos_schema(&json!({ "type": "object", "properties": {
            "content": { "type": "string" },
            "status": { "type": "string", "enum": ["pending", "completed"] } } }));
        let Some(PlanTool::List(tool)) = tools(&[("todo", two)]) else {
            panic!()
        };
        let (arguments, said) = tool.say(Script::built_in().todo_write(0).unwrap());
        assert_eq!(arguments["todos"][0]["status"], "pending");
        assert_eq!(said[0].status, Status::Pending);
    }

    /// A plan tool as pydantic writes it (a test agent of ours offers it:
    /// `tests/common/tool_agent.rs`, `pydantic`).
    pub(crate) fn pydantic_schema() -> Value {
        json!({
            "$defs": {
                "TodoStatus": { "enum": ["pending", "in_progress", "completed", "cancelled"],
                    "title": "TodoStatus", "type": "string" },
                "TodoItem": { "type": "object", "title": "TodoItem", "required": ["content", "status"],
                    "properties": { "content": { "type": "string", "title": "Content" },
                        "status": { "$ref": "#/$defs/TodoStatus" } } }
            },
            "type": "object", "title": "TodosArgs", "required": ["action"],
            "properties": {
                "action": { "enum": ["read", "write"], "title": "Action", "type": "string" },
                "todos": { "anyOf": [ { "type": "array", "items": { "$ref": "#/$defs/TodoItem" } },
                    { "type": "null" } ], "default": null, "title": "Todos" }
            }
        })
    }

    #[test]
    fn a_pydantic_plan_tool_is_found_and_its_action_filled_to_write() {
        let Some(PlanTool::List(tool)) = tools(&[("todos", pydantic_schema())]) else {
            panic!("a pydantic plan tool is a plan tool")
        };
        let (arguments, _) = tool.say(Script::built_in().todo_write(1).unwrap());
        assert_eq!(arguments["action"], "write", "never the first word, `read`");
        assert_eq!(
            arguments["todos"][1],
            json!({ "content": "Fix the parser", "status": "in_progress" })
        );
    }

    #[test]
    fn a_tool_named_like_a_known_one_but_shaped_otherwise_is_read_by_its_shape() {
        // Named `TodoWrite`, but its list is `items` of `title`: said its own way.
        let other = json!({ "type": "object", "properties": { "items": { "type": "array",
            "items": { "type": "object", "properties": { "title": { "type": "string" },
                "status": { "type": "string", "enum": ["pending", "completed"] } } } } } });
        let Some(PlanTool::List(tool)) = tools(&[("TodoWrite", other)]) else {
            panic!("read by its shape")
        };
        let (arguments, _) = tool.say(Script::built_in().todo_write(0).unwrap());
        assert_eq!(arguments["items"][0]["title"], "Read the failing test");
        // Named `update_plan` and taking no list at all: no plan tool.
        assert_eq!(
            tools(&[(
                "update_plan",
                json!({ "type": "object", "properties": { "sql": { "type": "string" } } })
            )]),
            None
        );
        // The real ones are theirs.
        let claude = plan_core::tools::TodoWrite::definition().schema;
        assert_eq!(tools(&[("TodoWrite", claude)]), Some(PlanTool::TodoWrite));
        let codex = plan_core::tools::UpdatePlan::definition().schema;
        assert_eq!(tools(&[("update_plan", codex)]), Some(PlanTool::UpdatePlan));
    }
}
