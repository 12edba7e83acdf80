//! The one reader of plan messages: serde visitors that read JSON text
//! straight into our types (`from_json`, without building a
//! `serde_json::Value` of the message) and read an already-parsed `Value`
//! alike (`from_value`, `Deserialize`, the SDK's untyped messages: `Value`
//! is a serde `Deserializer` too, as `serde_json`'s own `Value` reading is).
//!
//! The visitors need each object's tag (`sessionUpdate`, `type`) to be its
//! first key, as every writer we know puts it; when it is not, the object is
//! collected into a `Value` and handed to the same visitors again with its
//! tag first (as serde's internally tagged enums buffer and replay a late
//! tag). `tests/roundtrip.rs` holds reading a text and reading its `Value`
//! to the same results.
//!
//! Errors: a rule broken inside a visitor is recorded in [`ReadState`] as our
//! [`Error`] (with its path) and parsing stops; `serde_json`'s own error is
//! then ignored. Anything `serde_json` reports by itself is a syntax error.
//!
//! This folder is the engine alone: the reading state ([`ReadState`]), in `engine.rs`
//! [`run`] over text, [`from_value`] over a `Value`, [`from_members`] over
//! an object a router has split into its members (a line read once), and in `shared.rs` what
//! every visitor shares (the keys, the seed shape, the "found X" errors,
//! `_meta`, the plan id and an object whose tag comes late, read again). Each message's visitors
//! sit beside its writer, in `codec/notification.rs`, `codec/update.rs`,
//! `codec/content.rs` and `codec/entry.rs`; they reach the engine only
//! through what is `pub(in crate::codec)` here.

// First: its macros (the seed shape) are for the visitors in `codec/`.
#[macro_use]
pub(in crate::codec) mod shared;
mod engine;

pub(in crate::codec) use engine::{from_members, from_value, run};
