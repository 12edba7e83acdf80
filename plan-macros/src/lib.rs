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

mod json;
mod plan;
// The naming rules, shared with plan-core: `src/rules.rs` is a link to
// `plan-core/src/rules.rs` (see docs/design.md).
mod rules;

/// Declares an ACP plan, checked at compile time. See `plan_core::plan!`.
#[proc_macro]
pub fn plan(input: TokenStream) -> TokenStream {
    plan::plan(input.into()).into()
}

/// A plan's wire JSON in both spellings, written at compile time.
/// See `plan_core::plan_json!`.
#[proc_macro]
pub fn plan_json(input: TokenStream) -> TokenStream {
    plan::plan_json(input.into()).into()
}
