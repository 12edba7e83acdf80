//! `ToolDefinition`: a tool as each model API takes it.

use serde_json::{Value, json};

/// A tool to hand a model: its name, what it is for, and the JSON Schema of
/// its arguments, in the shape each API takes.
///
/// ```
/// use plan_core::tools::TodoWrite;
///
/// let tool = TodoWrite::definition();
/// let anthropic = tool.anthropic();
/// assert_eq!(anthropic["name"], "TodoWrite");
/// assert_eq!(anthropic["input_schema"]["required"][0], "todos");
/// let responses = tool.openai_responses();
/// assert_eq!((responses["type"].as_str(), responses["strict"].as_bool()), (Some("function"), Some(false)));
/// let chat = tool.openai_chat();
/// assert_eq!(chat["function"]["parameters"], tool.schema);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolDefinition {
    /// The tool's name, as the model calls it.
    pub name: String,
    /// What the tool is for and how to call it, for the model.
    pub description: String,
    /// The JSON Schema of the arguments (an `object`).
    pub schema: Value,
    /// Whether the schema meets OpenAI's strict mode (every property
    /// required, no other property allowed), so the API may enforce it.
    pub strict: bool,
}

impl ToolDefinition {
    /// A definition of your own.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        schema: Value,
        strict: bool,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            schema,
            strict,
        }
    }

    /// An Anthropic Messages API tool: `name`, `description`, `input_schema`.
    pub fn anthropic(&self) -> Value {
        json!({
            "name": self.name,
            "description": self.description,
            "input_schema": self.schema,
        })
    }

    /// An OpenAI Responses API function tool: `type`, `name`,
    /// `description`, `parameters`, `strict`.
    pub fn openai_responses(&self) -> Value {
        json!({
            "type": "function",
            "name": self.name,
            "description": self.description,
            "parameters": self.schema,
            "strict": self.strict,
        })
    }

    /// An OpenAI Chat Completions tool: `type` and the nested `function`
    /// (`name`, `description`, `parameters`, `strict`).
    pub fn openai_chat(&self) -> Value {
        json!({
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.schema,
                "strict": self.strict,
            },
        })
    }
}
