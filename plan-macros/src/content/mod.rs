//! `#[derive(PlanContent)]`: a custom plan type as a struct.
//! Stages: `ast` (read, unjudged) → `valid` (checked) → `expand` (generated).

mod ast;
mod entry;
mod expand;
mod valid;

pub(crate) use entry::derive;
