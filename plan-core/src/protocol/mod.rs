//! The protocol's types: what a plan message is, and what can be said of
//! one without its JSON (progress, a markdown checklist's entries). JSON
//! appears here only as data: what a type keeps as it came (`_meta`, a
//! custom plan's fields, capabilities this crate does not know) and the
//! serde impls of the checked strings, which delegate to their checks.
//! Reading and writing messages is the codec's job (`crate::codec`), one
//! layer up; nothing here calls it. The one file that handles JSON text is
//! `meta.rs`: `_meta` is kept as the text it came in, so `Meta` parses,
//! compacts and writes its own (`tests/map.rs` holds the rest of the folder
//! to that).

pub(crate) mod capabilities;
pub(crate) mod checklist;
pub(crate) mod content;
pub(crate) mod entry;
pub(crate) mod id;
pub(crate) mod markdown_events;
pub(crate) mod meta;
pub(crate) mod naming;
pub(crate) mod notification;
pub(crate) mod progress;
pub(crate) mod spelling;
pub(crate) mod steps;
pub(crate) mod update;
pub(crate) mod version;
