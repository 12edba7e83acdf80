//! The proc macros behind [`plan-core`](https://docs.rs/plan-core): depend on
//! `plan-core` (its default `macros` feature re-exports them), not on this crate.
//!
//! Generated code names only absolute paths under `::plan_core::__private`.

// The naming rules, shared with plan-core: `src/rules.rs` is a link to
// `plan-core/src/rules.rs`. The macros that use them come with `plan!`.
#[allow(dead_code)]
mod rules;
