//! `#[derive(PlanStatus)]` and `#[derive(PlanPriority)]`: an agent's own enum
//! mapped onto ACP statuses or priorities. One implementation for both,
//! configured by [`MappingKind`] (`kind.rs`). Stages: `ast` (read, unjudged) → `valid`
//! (checked) → `expand` (generated).

mod ast;
mod expand;
pub(crate) mod kind;
mod valid;

pub(crate) use kind::{PRIORITY, STATUS};
mod entry;

pub(crate) use entry::derive;
