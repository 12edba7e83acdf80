//! Reading and writing JSON: the two spellings, strict and lenient reading.
//! This file only routes: the files below hold the work.
//!
//! Each wire type implements [`Members`] once (the one writer, `writer.rs`:
//! its members, with the [`Spelling`] as a parameter, put out as text or
//! through serde) and [`WireType`] (`wire_type.rs`: its reading, which
//! accepts both spellings); `wire_methods!` then gives every type the same
//! public surface (`from_json`, `to_json`, `Serialize`, `Deserialize`, ...).

pub(crate) use crate::protocol::spelling::Spelling;
pub use strictness::{Parsed, PlanIdKey, Skipped, Strictness};

// First: the reading engine's macros (the seed shape) are for the message
// files after it.
#[macro_use]
pub(crate) mod read;

pub(crate) mod capabilities;
pub(crate) mod content;
pub(crate) mod custom;
pub(crate) mod entry;
pub(crate) mod envelope;
pub(crate) mod fields;
pub(crate) mod initialize;
#[cfg(test)]
pub(crate) mod layout_tests;
pub(crate) mod line;
#[cfg(all(test, feature = "macros"))]
mod macro_tests;
pub(crate) mod notification;
pub(crate) mod sorted;
pub(crate) mod strictness;
pub(crate) mod text_sink;
pub(crate) mod update;
pub(crate) mod wire_type;
pub(crate) mod writer;
