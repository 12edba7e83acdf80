//! The proc macros behind [`plan-core`](https://docs.rs/plan-core): depend on
//! `plan-core` (its default `macros` feature re-exports them), not on this
//! crate. The grammar, with runnable examples, is documented on the
//! re-exports in `plan-core`.
//!
//! Each macro runs in three stages, one file each: `ast.rs` parses without
//! judging, `valid.rs` applies every protocol rule and collects every error
//! on its exact token, `expand.rs` generates code. Generated code names only
//! absolute paths under `::plan_core::__private`.

#![forbid(unsafe_code)]

use proc_macro::TokenStream;

mod attr_editor;
mod attrs;
mod content;
mod dummy;
mod errors;
mod include;
mod json_reader;
mod json_tokens;
mod mapping;
mod name_check;
mod on_error;
mod plan;
// Every rule and its wording, shared with plan-core: `src/rules` is a link to
// the folder `plan-core/src/rules` (see docs/design.md).
mod rules;
// The macros' references (`src/docs` is a link to `plan-core/src/docs`, as
// `src/rules` is): an editor shows the docs of the macro itself, not of
// plan-core's re-export, so each macro carries its grammar too. Not for
// rustdoc (`doc`, `doctest`): plan-core documents and tests them, and the
// links in them name plan-core's items.
mod steps;
mod symbol;
#[cfg(test)]
mod test_support;

/// Declares an ACP plan, checked at compile time. See `plan_core::plan!`.
#[cfg_attr(not(any(doc, doctest)), doc = include_str!("docs/plan.md"))]
#[proc_macro]
pub fn plan(input: TokenStream) -> TokenStream {
    plan::plan(input.into()).into()
}

/// A plan's wire JSON in both spellings, written at compile time.
/// See `plan_core::plan_json!`.
#[cfg_attr(not(any(doc, doctest)), doc = include_str!("docs/plan_json.md"))]
#[proc_macro]
pub fn plan_json(input: TokenStream) -> TokenStream {
    plan::plan_json(input.into()).into()
}

// The attribute lists below spell the names of `symbol.rs` again (the
// attribute takes identifiers only); a test there holds them together.

/// A plan whose steps are the variants of an enum. See `plan_core::Steps`.
#[cfg_attr(not(any(doc, doctest)), doc = include_str!("docs/derive_steps.md"))]
#[proc_macro_derive(Steps, attributes(plan, step))]
pub fn derive_steps(input: TokenStream) -> TokenStream {
    steps::derive(input.into()).into()
}

/// An enum of the agent's own mapped onto ACP statuses. See `plan_core::PlanStatus`.
#[cfg_attr(not(any(doc, doctest)), doc = include_str!("docs/derive_status.md"))]
#[proc_macro_derive(PlanStatus, attributes(status, plan_status))]
pub fn derive_plan_status(input: TokenStream) -> TokenStream {
    mapping::derive(input.into(), &mapping::STATUS).into()
}

/// An enum of the agent's own mapped onto ACP priorities. See `plan_core::PlanPriority`.
#[cfg_attr(not(any(doc, doctest)), doc = include_str!("docs/derive_status.md"))]
#[proc_macro_derive(PlanPriority, attributes(priority, plan_priority))]
pub fn derive_plan_priority(input: TokenStream) -> TokenStream {
    mapping::derive(input.into(), &mapping::PRIORITY).into()
}

/// A custom plan type as a struct. See `plan_core::PlanContent`.
#[cfg_attr(not(any(doc, doctest)), doc = include_str!("docs/derive_content.md"))]
#[proc_macro_derive(PlanContent, attributes(plan_content))]
pub fn derive_plan_content(input: TokenStream) -> TokenStream {
    content::derive(input.into()).into()
}

/// A JSON plan fixture read and checked at compile time. See `plan_core::include_plan!`.
#[cfg_attr(not(any(doc, doctest)), doc = include_str!("docs/include_plan.md"))]
#[proc_macro]
pub fn include_plan(input: TokenStream) -> TokenStream {
    include::include_plan(input.into()).into()
}

/// A recorded NDJSON stream read and checked at compile time, line by line.
/// See `plan_core::include_plan_stream!`.
#[cfg_attr(not(any(doc, doctest)), doc = include_str!("docs/include_plan_stream.md"))]
#[proc_macro]
pub fn include_plan_stream(input: TokenStream) -> TokenStream {
    include::include_plan_stream(input.into()).into()
}
