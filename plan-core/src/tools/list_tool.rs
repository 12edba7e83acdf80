//! What the list tools share ([`TodoWrite`](super::TodoWrite),
//! [`UpdatePlan`](super::UpdatePlan): the whole list in every call): the
//! exact reader first and the lenient one after it, a call straight to its
//! plan the same way, and the shape of their schemas.

use serde_json::{Map, Value, json};

use super::options::PlanOptions;
use super::read::{Correction, ToolCall, ToolError};
use crate::protocol::content::PlanContent;
use crate::protocol::id::PlanId;

/// A list tool's input: its two readers and its plan. The defaults are what
/// every list tool does with them.
pub(crate) trait ListTool: Sized {
    /// A call exactly as the schema has it, with nothing to correct; `None`
    /// for any other call.
    fn read_exact(arguments: &str) -> Option<ToolCall<Self>>;

    /// A call of any other shape: read field by field, each correction said.
    fn read_lenient(arguments: &str) -> Result<ToolCall<Self>, ToolError>;

    /// A call exactly as the schema has it, straight to its plan, with no
    /// input between; `None` for any other call.
    fn exact_plan(arguments: &str, id: PlanId, options: &PlanOptions) -> Option<PlanContent>;

    /// The input as an items plan with the id `id`, its text moved in.
    fn plan(self, id: PlanId, options: &PlanOptions) -> PlanContent;

    /// Reads a call: exactly if it can be, else leniently.
    fn read_call(arguments: &str) -> Result<ToolCall<Self>, ToolError> {
        match Self::read_exact(arguments) {
            Some(read) => Ok(read),
            None => Self::read_lenient(arguments),
        }
    }

    /// A call's plan and what reading it corrected: the exact shape
    /// straight to its plan; anything else read leniently (the exact reader
    /// is not run again).
    fn call_plan(
        arguments: &str,
        id: PlanId,
        options: &PlanOptions,
    ) -> Result<(PlanContent, Vec<Correction>), ToolError> {
        if let Some(plan) = Self::exact_plan(arguments, id.clone(), options) {
            return Ok((plan, Vec::new()));
        }
        let call = Self::read_lenient(arguments)?;
        Ok((call.input.plan(id, options), call.corrections))
    }
}

/// A list tool's schema: an object whose `list` key holds the whole list
/// (`description`), each item an object of `item` properties, `required`
/// of them required; `more` are the object's other properties (optional).
/// No other key is allowed, at either level.
pub(crate) fn list_schema(
    list: &str,
    description: &str,
    (item, required): (Value, &[&str]),
    more: Map<String, Value>,
) -> Value {
    let mut properties = more;
    properties.insert(
        list.to_owned(),
        json!({
            "type": "array",
            "description": description,
            "items": {
                "type": "object",
                "properties": item,
                "required": required,
                "additionalProperties": false
            }
        }),
    );
    json!({
        "type": "object",
        "properties": properties,
        "required": [list],
        "additionalProperties": false
    })
}
