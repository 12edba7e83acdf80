//! `#[derive(Steps)]`: a plan whose steps are the variants of an enum.
//! Read (`ast`) → check (`valid`) → generate (`expand`).

mod ast;
mod entry;
mod expand;
mod valid;

pub(crate) use entry::derive;
