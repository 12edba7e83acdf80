//! The layout of each message: its keys in the order every writer writes
//! them, and which of them may be absent. One table per object; the writers
//! (serde's and the direct one in `plan-core`, and through them the
//! compile-time JSON of `plan_json!`) are held to it by a test
//! (`codec/layout_tests.rs`), and so are the readers (each required key missing is
//! an error naming it).
//!
//! The plan id is written `planId` here; in the RFD spelling it is `id`, in
//! the same place.
//!
//! Adding a field: its key in `json.rs` and its line here; then
//! `codec/layout_tests.rs` and `codec/macro_tests.rs` fail at each place
//! that still disagrees (docs/adding-a-field.md).

// Shared with plan-macros, which reads only some of it.
#![allow(dead_code)]

use super::json::{
    KEY_CONTENT, KEY_ENTRIES, KEY_JSONRPC, KEY_META, KEY_METHOD, KEY_PARAMS, KEY_PATH, KEY_PLAN,
    KEY_PLAN_ID, KEY_PRIORITY, KEY_SESSION_ID, KEY_SESSION_UPDATE, KEY_STATUS, KEY_TYPE,
    KEY_UPDATE, KEY_URI,
};

/// One key of an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field {
    /// The key.
    pub(crate) key: &'static str,
    /// Whether a message may leave it out.
    pub(crate) optional: bool,
}

const fn required(key: &'static str) -> Field {
    Field {
        key,
        optional: false,
    }
}

const fn optional(key: &'static str) -> Field {
    Field {
        key,
        optional: true,
    }
}

/// A plan entry.
pub(crate) const ENTRY: &[Field] = &[
    required(KEY_CONTENT),
    required(KEY_PRIORITY),
    required(KEY_STATUS),
    optional(KEY_META),
];

/// An `items` plan.
pub(crate) const ITEMS: &[Field] = &[
    required(KEY_TYPE),
    required(KEY_PLAN_ID),
    required(KEY_ENTRIES),
    optional(KEY_META),
];

/// A `markdown` plan (`path` since the stabilization of 2026-11-20).
pub(crate) const MARKDOWN: &[Field] = &[
    required(KEY_TYPE),
    required(KEY_PLAN_ID),
    required(KEY_CONTENT),
    optional(KEY_PATH),
    optional(KEY_META),
];

/// A pre-stable `file` plan.
pub(crate) const FILE: &[Field] = &[
    required(KEY_TYPE),
    required(KEY_PLAN_ID),
    required(KEY_URI),
    optional(KEY_META),
];

/// A plan of a custom type (`_name`): these keys, then the type's own
/// fields, which any key but these may name.
pub(crate) const CUSTOM: &[Field] = &[
    required(KEY_TYPE),
    required(KEY_PLAN_ID),
    optional(KEY_META),
];

/// The v1 `plan` update.
pub(crate) const UPDATE_PLAN: &[Field] = &[
    required(KEY_SESSION_UPDATE),
    required(KEY_ENTRIES),
    optional(KEY_META),
];

/// `plan_update`.
pub(crate) const UPDATE_PLAN_UPDATE: &[Field] = &[
    required(KEY_SESSION_UPDATE),
    required(KEY_PLAN),
    optional(KEY_META),
];

/// `plan_removed`.
pub(crate) const UPDATE_PLAN_REMOVED: &[Field] = &[
    required(KEY_SESSION_UPDATE),
    required(KEY_PLAN_ID),
    optional(KEY_META),
];

/// The `session/update` notification.
pub(crate) const NOTIFICATION: &[Field] = &[
    required(KEY_JSONRPC),
    required(KEY_METHOD),
    required(KEY_PARAMS),
];

/// Its `params`.
pub(crate) const PARAMS: &[Field] = &[
    required(KEY_SESSION_ID),
    required(KEY_UPDATE),
    optional(KEY_META),
];
