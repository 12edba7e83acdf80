//! `TodoWrite`, Claude Code's todo list tool.

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use super::definition::ToolDefinition;
use super::exact::{exact, exact_status};
use super::list_tool::{ListTool, list_schema};
use super::options::{ActiveForm, PlanOptions};
use super::read::{CallReader, ToolCall, ToolError, join};
use crate::agent::Fallback;
use crate::codec::text_sink::json_string_contents;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Status};
use crate::protocol::id::PlanId;
use crate::protocol::meta::Meta;

/// The arguments of `TodoWrite`: the whole todo list, every call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TodoWrite {
    /// The list, in order.
    pub todos: Vec<Todo>,
}

/// One todo of [`TodoWrite`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Todo {
    /// What to do, in the imperative ("Fix the parser").
    pub content: String,
    /// `pending`, `in_progress` or `completed` in the schema; `cancelled`
    /// only where a model's word for it was read leniently.
    pub status: Status,
    /// The same task while it is being done ("Fixing the parser").
    pub active_form: String,
}

/// The key under an entry's `_meta` that keeps a todo's two labels.
pub(crate) const META_KEY: &str = "todo";

const EXAMPLE: &str = r#"{"todos":[{"content":"Fix the parser","status":"in_progress","activeForm":"Fixing the parser"}]}"#;

impl TodoWrite {
    /// The tool's name.
    pub const NAME: &'static str = "TodoWrite";

    /// The tool to hand a model: Claude Code's schema (2.1.318), field for
    /// field, with our descriptions.
    pub fn definition() -> ToolDefinition {
        let item = json!({
            "content": {
                "type": "string",
                "minLength": 1,
                "description": "The task, in the imperative: \"Fix the parser\"."
            },
            "status": {
                "type": "string",
                "enum": ["pending", "in_progress", "completed"],
                "description": "Mark a task in_progress as you start it and completed as soon as it is done."
            },
            "activeForm": {
                "type": "string",
                "minLength": 1,
                "description": "The task while it is being done: \"Fixing the parser\"."
            }
        });
        let mut schema = list_schema(
            "todos",
            "The whole todo list, in order. Every call replaces the list.",
            (item, &["content", "status", "activeForm"]),
            Map::new(),
        );
        schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        ToolDefinition::new(
            Self::NAME,
            "Write the todo list of the current work, which the user sees as your plan. Send the whole list every time: the tasks, in order, each with its status. Keep one task in_progress while you work on it.",
            schema,
            false,
        )
    }

    /// Reads a model's arguments (the JSON text of the call) leniently:
    /// status words whose meaning is plain (`"in-progress"`, `"done"`,
    /// `"cancelled"`), a missing or blank `activeForm` (the content is
    /// used), a missing `content` beside an `activeForm` (it is used),
    /// unknown fields (ignored), a list or an item sent as a JSON string,
    /// and a bare list. Each correction is said.
    ///
    /// # Errors
    /// For the model: every field that could not be read, what was wrong and
    /// what is allowed. Nothing is half read.
    pub fn read(arguments: &str) -> Result<ToolCall<Self>, ToolError> {
        Self::read_call(arguments)
    }

    /// The arguments as the model sends them (for replay and resume), as a
    /// JSON value (`to_json` is, on the wire types, their text).
    pub fn to_value(&self) -> Value {
        let todos: Vec<Value> = self
            .todos
            .iter()
            .map(|t| json!({ "content": t.content, "status": t.status.as_str(), "activeForm": t.active_form }))
            .collect();
        json!({ "todos": todos })
    }

    /// The list as an items plan with the id `id`: priorities from
    /// `options` (by each todo's `content`, so a relabel keeps its
    /// priority), labels as [`ActiveForm`] says, and each entry's `_meta`
    /// keeping both labels under `"todo"` (`{"content", "activeForm"}`), so
    /// [`from_plan`](Self::from_plan) gives the list back.
    pub fn to_plan(&self, id: PlanId, options: &PlanOptions) -> PlanContent {
        self.clone().into_plan(id, options)
    }

    /// [`to_plan`](Self::to_plan), the list's text moved into the plan.
    pub fn into_plan(self, id: impl Into<PlanId>, options: &PlanOptions) -> PlanContent {
        let id = id.into();
        let entries = self.todos.into_iter().map(|todo| {
            entry(
                Cow::Owned(todo.content),
                todo.status,
                Cow::Owned(todo.active_form),
                options,
            )
        });
        PlanContent::items(id, entries.collect::<Vec<_>>())
    }

    /// An items plan back as the list (for replay and resume); `None` for
    /// any other plan. Each entry's labels come from its `_meta` where
    /// [`to_plan`](Self::to_plan) kept them, else its content is both.
    /// Statuses the tool lacks are mapped as a v1 client is sent them
    /// (`cancelled`: completed, with " (cancelled)" after the content).
    pub fn from_plan(plan: &PlanContent) -> Option<Self> {
        let todos = plan.entries()?.iter().map(|entry| {
            let kept = entry.meta.as_ref().and_then(|m| m.get(META_KEY));
            let text = |key: &str| {
                kept.as_ref()
                    .and_then(|k| k[key].as_str())
                    .map(str::to_owned)
            };
            let mut content = text("content").unwrap_or_else(|| entry.content.to_string());
            let mut status = entry.status.clone();
            if let Some(mapped) = Fallback::default_entry(&PlanEntry::new(
                content.clone(),
                entry.priority.clone(),
                status.clone(),
            )) {
                let mapped = mapped.into_owned();
                content = mapped.content.into_owned();
                status = mapped.status;
            }
            let active_form = text("activeForm").unwrap_or_else(|| content.clone());
            Todo {
                content,
                status,
                active_form,
            }
        });
        Some(Self {
            todos: todos.collect(),
        })
    }
}

/// `{"todo":{"content":...,"activeForm":...}}`, written as text: a map,
/// its value and its serialization per entry cost more than the rest of a
/// call together (measured: `cargo bench -p plan-harness --bench versus --
/// "7 a model"`).
/// One todo's entry: its label (`content`, or `activeForm` while in
/// progress, as `options` say), its priority, and both labels in `_meta`.
impl ListTool for TodoWrite {
    /// A call exactly as the schema has it, with nothing to correct.
    fn read_exact(arguments: &str) -> Option<ToolCall<Self>> {
        let (items, []) = exact(arguments, "todos", ["content", "status", "activeForm"], [])?;
        let todos = items.into_iter().map(|[content, status, active_form]| {
            Some(Todo {
                content: content.into_owned(),
                status: exact_status(&status)?,
                active_form: active_form.into_owned(),
            })
        });
        Some(ToolCall {
            input: Self {
                todos: todos.collect::<Option<_>>()?,
            },
            corrections: Vec::new(),
        })
    }

    /// A call of any other shape: read field by field, each correction
    /// said (what [`read`](Self::read) does when the call is not exact).
    fn read_lenient(arguments: &str) -> Result<ToolCall<Self>, ToolError> {
        let mut reader = CallReader::new(Self::NAME);
        let mut todos = Vec::new();
        if let Some(mut object) = reader.arguments(arguments, "todos", EXAMPLE) {
            reader.unknown_fields(&object, "", &["todos"]);
            let fields = ["content", "status", "activeForm"];
            todos = reader.items(&mut object, "todos", &fields, read_todo);
        }
        reader.finish(Self { todos })
    }

    /// A call exactly as the schema has it, straight to its plan: what
    /// [`read`](Self::read) and [`into_plan`](Self::into_plan) give, with
    /// no [`Todo`] between and each label copied once from the text;
    /// `None` for any other call (`read` says what it corrects).
    fn exact_plan(arguments: &str, id: PlanId, options: &PlanOptions) -> Option<PlanContent> {
        let (items, []) = exact(arguments, "todos", ["content", "status", "activeForm"], [])?;
        let mut entries = Vec::with_capacity(items.len());
        for [content, status, active_form] in items {
            entries.push(entry(content, exact_status(&status)?, active_form, options));
        }
        Some(PlanContent::items(id, entries))
    }

    fn plan(self, id: PlanId, options: &PlanOptions) -> PlanContent {
        self.into_plan(id, options)
    }
}

fn entry(
    content: Cow<'_, str>,
    status: Status,
    active_form: Cow<'_, str>,
    options: &PlanOptions,
) -> PlanEntry {
    let meta = labels_meta(&content, &active_form);
    let priority = options.priority_of(&content);
    let label = match options.active_form {
        ActiveForm::WhileInProgress if status == Status::InProgress => active_form,
        _ => content,
    };
    PlanEntry::new(label.into_owned(), priority, status).with_meta(meta)
}

fn labels_meta(content: &str, active_form: &str) -> Meta {
    let mut text = Vec::with_capacity(40 + content.len() + active_form.len());
    text.extend_from_slice(b"{\"todo\":{\"content\":\"");
    // Writing to a Vec cannot fail.
    let _ = json_string_contents(&mut text, content);
    text.extend_from_slice(b"\",\"activeForm\":\"");
    let _ = json_string_contents(&mut text, active_form);
    text.extend_from_slice(b"\"}}");
    // Escaped UTF-8 text and ASCII: still UTF-8.
    Meta::from_owned_unchecked(String::from_utf8(text).unwrap_or_default())
}

/// One todo, or `None` with its problems said.
fn read_todo(reader: &mut CallReader, item: &mut Map<String, Value>, at: &str) -> Option<Todo> {
    let content = reader.text(item, at, "content");
    let active_form = reader.text(item, at, "activeForm");
    let status = reader.status(item, at);
    let (content, active_form) = match (content.ok()?, active_form.ok()?) {
        (Some(content), Some(active)) => (content, active),
        (Some(content), None) => {
            reader.correct(join(at, "activeForm"), "missing; the content is used");
            (content.clone(), content)
        }
        (None, Some(active)) => {
            reader.correct(join(at, "content"), "missing; the activeForm is used");
            (active.clone(), active)
        }
        (None, None) => {
            reader.problem(
                join(at, "content"),
                "missing or blank",
                "a string that is not blank: the task, in the imperative",
            );
            return None;
        }
    };
    Some(Todo {
        content,
        status: status?,
        active_form,
    })
}
