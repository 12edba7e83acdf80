//! `plan!` and `plan_json!`: parse (`ast`) → check (`valid`) → generate (`expand`).

mod ast;
mod editor;
mod expand;
mod valid;

pub(crate) use ast::Text;
pub(crate) use expand::word_value;
pub(crate) use valid::{
    CheckedEntry, CheckedForm, CheckedPlan, check_custom_type, check_entry_content,
    check_entry_name, check_markdown_path, check_plan_id,
};
mod entry;

pub(crate) use entry::{expand_value, plan, plan_json};
