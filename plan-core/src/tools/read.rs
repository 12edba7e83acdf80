//! Reading a model's tool arguments: leniently where the meaning is plain
//! (each correction said), else an error written for the model.

use std::fmt;

use serde_json::{Map, Value};

use crate::protocol::entry::Status;

/// A tool call read: its typed input, and what was corrected to read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall<T> {
    /// The input, as the tool's schema types it.
    pub input: T,
    /// What the model sent that the schema does not allow, and how it was
    /// read; empty for a call that kept to the schema.
    pub corrections: Vec<Correction>,
}

/// Something a model sent outside the tool's schema whose meaning was
/// plain, and how it was read (`"in-progress"` as `in_progress`, an
/// unknown field ignored, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    field: String,
    note: String,
}

impl Correction {
    /// Where, as a path in the arguments (`todos[1].status`).
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What was sent and how it was read.
    pub fn note(&self) -> &str {
        &self.note
    }
}

/// `field: note`.
impl fmt::Display for Correction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.note)
    }
}

/// A tool call that could not be read, written for the model: its
/// [`Display`](fmt::Display) is the text to return as the tool's result
/// (with the API's error flag), so the model can call again. Every problem
/// of the call is listed; nothing of the call was applied or sent.
///
/// ```
/// use plan_core::tools::TodoWrite;
///
/// let err = TodoWrite::read(r#"{"todos":[{"content":"Fix it","status":"maybe","activeForm":"Fixing it"}]}"#)
///     .unwrap_err();
/// assert_eq!(err.problems()[0].field(), "todos[0].status");
/// assert_eq!(
///     err.to_string(),
///     "TodoWrite was not applied, and nothing changed. Fix these and call it again:\n\
///      - todos[0].status: \"maybe\" is not a status. Allowed: \"pending\", \"in_progress\", \"completed\"."
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    tool: String,
    problems: Vec<ToolProblem>,
}

impl ToolError {
    /// The tool that was called.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// Every problem of the call, in the order of the arguments.
    pub fn problems(&self) -> &[ToolProblem] {
        &self.problems
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} was not applied, and nothing changed. Fix these and call it again:",
            self.tool
        )?;
        for problem in &self.problems {
            write!(f, "\n- {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ToolError {}

/// One problem of a tool call: the field, what was wrong, what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolProblem {
    field: String,
    wrong: String,
    allowed: String,
}

impl ToolProblem {
    /// Where, as a path in the arguments (`todos[1].status`; `arguments`
    /// for the call as a whole).
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What was wrong.
    pub fn wrong(&self) -> &str {
        &self.wrong
    }

    /// What is allowed there.
    pub fn allowed(&self) -> &str {
        &self.allowed
    }
}

/// `field: wrong. Allowed: allowed.`
impl fmt::Display for ToolProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}. Allowed: {}.",
            self.field, self.wrong, self.allowed
        )
    }
}

/// The statuses of the tools' schemas, as a model is told them.
pub(crate) const STATUSES: &str = "\"pending\", \"in_progress\", \"completed\"";

/// Reads one call's arguments, gathering its problems and corrections.
pub(crate) struct CallReader {
    tool: String,
    problems: Vec<ToolProblem>,
    corrections: Vec<Correction>,
}

impl CallReader {
    pub(crate) fn new(tool: impl Into<String>) -> Self {
        Self {
            tool: tool.into(),
            problems: Vec::new(),
            corrections: Vec::new(),
        }
    }

    pub(crate) fn problem(
        &mut self,
        field: impl Into<String>,
        wrong: impl Into<String>,
        allowed: impl Into<String>,
    ) {
        self.problems.push(ToolProblem {
            field: field.into(),
            wrong: wrong.into(),
            allowed: allowed.into(),
        });
    }

    pub(crate) fn correct(&mut self, field: impl Into<String>, note: impl Into<String>) {
        self.corrections.push(Correction {
            field: field.into(),
            note: note.into(),
        });
    }

    /// The input, if nothing was wrong; else every problem, for the model.
    pub(crate) fn finish<T>(self, input: T) -> Result<ToolCall<T>, ToolError> {
        if self.problems.is_empty() {
            Ok(ToolCall {
                input,
                corrections: self.corrections,
            })
        } else {
            Err(ToolError {
                tool: self.tool,
                problems: self.problems,
            })
        }
    }

    /// The arguments as an object, `example` showing the model its shape.
    /// A JSON string holding the object is read as the object; a bare array
    /// as the value of `list_key`, the tool's one list.
    pub(crate) fn arguments(
        &mut self,
        text: &str,
        list_key: &str,
        example: &str,
    ) -> Option<Map<String, Value>> {
        let value = match serde_json::from_str::<Value>(text) {
            Ok(value) => value,
            Err(e) => {
                self.problem("arguments", format!("not JSON ({e})"), example);
                return None;
            }
        };
        let value = self.unwrap_string(value, "arguments");
        match value {
            Value::Object(object) => Some(object),
            Value::Array(items) => {
                self.correct("arguments", format!("a bare list, read as `{list_key}`"));
                Some(Map::from_iter([(list_key.to_owned(), Value::Array(items))]))
            }
            other => {
                self.problem(
                    "arguments",
                    format!("{} instead of an object", kind(&other)),
                    example,
                );
                None
            }
        }
    }

    /// A JSON string that holds an object or an array, read as what it holds.
    fn unwrap_string(&mut self, value: Value, field: &str) -> Value {
        if let Value::String(text) = &value
            && let Ok(inner @ (Value::Object(_) | Value::Array(_))) =
                serde_json::from_str::<Value>(text)
        {
            self.correct(field, "a JSON string holding the value, read as the value");
            return inner;
        }
        value
    }

    /// Fields of `object` other than `known`, each ignored with a note.
    pub(crate) fn unknown_fields(&mut self, object: &Map<String, Value>, at: &str, known: &[&str]) {
        for key in object.keys().filter(|k| !known.contains(&k.as_str())) {
            self.correct(join(at, key), "not a field of this tool; ignored");
        }
    }

    /// Each item of the tool's list under `key` (required), read by `read`
    /// with its path (`key[i]`) once its fields other than `fields` are
    /// noted as ignored. The list or an item sent as a JSON string is read
    /// as what it holds; anything else that is not a list of objects is a
    /// problem. The items `read` gives up on (having said why) are left out.
    pub(crate) fn items<T>(
        &mut self,
        object: &mut Map<String, Value>,
        key: &str,
        fields: &[&str],
        mut read: impl FnMut(&mut Self, &mut Map<String, Value>, &str) -> Option<T>,
    ) -> Vec<T> {
        let quoted: Vec<String> = fields.iter().map(|f| format!("\"{f}\"")).collect();
        let shape = match quoted.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        let list = match object.remove(key).map(|v| self.unwrap_string(v, key)) {
            Some(Value::Array(list)) => list,
            found => {
                let wrong = found.map_or_else(
                    || "missing".to_owned(),
                    |other| format!("{} where a list belongs", kind(&other)),
                );
                self.problem(key, wrong, format!("a list of objects with {shape}"));
                return Vec::new();
            }
        };
        let mut read_items = Vec::with_capacity(list.len());
        for (i, item) in list.into_iter().enumerate() {
            let at = format!("{key}[{i}]");
            match self.unwrap_string(item, &at) {
                Value::Object(mut item) => {
                    self.unknown_fields(&item, &at, fields);
                    read_items.extend(read(self, &mut item, &at));
                }
                other => {
                    let wrong = format!("{} instead of an object", kind(&other));
                    self.problem(at, wrong, format!("an object with {shape}"));
                }
            }
        }
        read_items
    }

    /// A text field, taken out of `object`: `Ok(None)` if it is absent,
    /// null or blank (the caller decides whether that is allowed), `Err` (a
    /// problem said) for anything but a string. A number is refused too:
    /// the schema says string, and `42` has no meaning as a step or a todo.
    pub(crate) fn text(
        &mut self,
        object: &mut Map<String, Value>,
        at: &str,
        key: &str,
    ) -> Result<Option<String>, ()> {
        // Taken out of the object: the text is moved, not copied.
        match object.remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => {
                let wrong = format!("{} where text belongs", kind(&other));
                self.problem(join(at, key), wrong, "a string that is not blank");
                Err(())
            }
        }
    }

    /// A status: one of the schema's, or a word whose meaning is plain
    /// (`"in-progress"`, `"done"`, `"cancelled"`), read with a note.
    pub(crate) fn status(&mut self, object: &Map<String, Value>, at: &str) -> Option<Status> {
        let field = join(at, "status");
        let text = match object.get("status") {
            Some(Value::String(text)) => text,
            None | Some(Value::Null) => {
                self.problem(field, "missing", STATUSES);
                return None;
            }
            Some(other) => {
                self.problem(
                    field,
                    format!("{} where a status belongs", kind(other)),
                    STATUSES,
                );
                return None;
            }
        };
        let Some((status, outside)) = read_status(text) else {
            self.problem(field, format!("{text:?} is not a status"), STATUSES);
            return None;
        };
        if outside {
            self.correct(
                field,
                "\"cancelled\" is not one of this tool's statuses; read as cancelled (clients that cannot show it see it completed, marked \"(cancelled)\")",
            );
        } else if text != status.as_str() {
            self.correct(field, format!("{text:?} read as \"{}\"", status.as_str()));
        }
        Some(status)
    }
}

/// A status word: the status and whether it is outside the tools' schemas
/// (`cancelled`, which the protocol has and the tools lack). The words are
/// the rules' one table (`rules::STATUS_WORDS`).
fn read_status(text: &str) -> Option<(Status, bool)> {
    Some(match crate::rules::status_word(text)? {
        "pending" => (Status::Pending, false),
        "in_progress" => (Status::InProgress, false),
        "completed" => (Status::Completed, false),
        _ => (Status::Cancelled, true),
    })
}

/// The status a plan tool's status word means, as the `tools` reader reads
/// it: one of the protocol's (`in_progress`), or a word whose meaning is
/// plain (`"in-progress"`, `"Doing"`, `"done"`, `"TODO"`, `"canceled"`).
///
/// ```
/// use plan_core::Status;
/// use plan_core::tools::status_of_word;
///
/// assert_eq!(status_of_word("Done"), Some(Status::Completed));
/// assert_eq!(status_of_word("in progress"), Some(Status::InProgress));
/// assert_eq!(status_of_word("blocked"), None);
/// ```
pub fn status_of_word(word: &str) -> Option<Status> {
    read_status(word).map(|(status, _)| status)
}

/// `at.key`, or `key` at the top.
pub(crate) fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_owned()
    } else {
        format!("{at}.{key}")
    }
}

/// What a JSON value is, in words.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_words_whose_meaning_is_plain_are_read() {
        for (word, status) in [
            ("pending", Status::Pending),
            ("In Progress", Status::InProgress),
            ("in-progress", Status::InProgress),
            ("DONE", Status::Completed),
            ("canceled", Status::Cancelled),
        ] {
            assert_eq!(read_status(word).map(|r| r.0), Some(status), "{word}");
        }
        for word in ["", "maybe", "blocked", "in_progress_maybe"] {
            assert_eq!(read_status(word), None, "{word}");
        }
    }
}
