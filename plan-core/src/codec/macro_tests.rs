//! The macros held to the layout table (`rules/layout.rs`) by plan-core's
//! own tests, so a field the macros forget fails `cargo test -p plan-core`:
//!
//! - `plan!`'s maximal calls write every key of the table that `plan!` has
//!   syntax for; the keys it has none for are listed, each with its reason;
//! - `plan_json!` writes, byte for byte, what `plan!` builds from the same
//!   tokens, in both spellings;
//! - `include_plan!` reads each file of `codec/samples/` as the runtime
//!   reader reads it, and the files hold every key of the table.

use std::path::Path;

use serde_json::Value;

use crate::codec::layout_tests::{keys_not_written, keys_written};
use crate::protocol::notification::SessionNotification;
use crate::protocol::spelling::Spelling;
use crate::protocol::update::SessionUpdate;
use crate::rules::layout::{self, Field};
use crate::rules::{KEY_PLAN_ID, KEY_PLAN_ID_RFD};

/// Keys of the table no `plan!` call writes, and why. A key the table
/// gains fails the first test below until `plan!` writes it or it is
/// listed here (an entry is a layout's name, for all its keys, or
/// `layout.key`).
const NOT_PLAN_SYNTAX: &[(&str, &str)] = &[
    (
        "file",
        "`plan!` refuses the pre-stable `file` type (`PlanContent::file` builds one)",
    ),
    (
        "plan_removed",
        "`plan!` builds plans; a removal is `SessionUpdate::plan_removed`",
    ),
    (
        "plan_update._meta",
        "the update's own `_meta` is not the plan's (`SessionUpdate::PlanUpdate`)",
    ),
    (
        "params._meta",
        "a notification's `_meta` is not the plan's (`SessionNotification::meta`)",
    ),
];

/// Keys of the table the sample files need not hold, and why.
const NOT_IN_A_PLAN_FILE: &[(&str, &str)] = &[(
    "plan_removed",
    "`include_plan!` reads a plan; a removal has none",
)];

/// The same tokens, a call each: every key `plan!` has syntax for, in each
/// kind of plan. `$call` is `built` or `written`.
macro_rules! each_maximal_call {
    ($call:ident) => {
        [
            $call! {
                id: "p",
                items: [
                    high completed "Analyze",
                    _urgent _blocked "Ship" meta: { "trace": "t-1" },
                ],
                meta: { "trace": "t-1" },
            },
            $call! {
                id: "p",
                markdown: "# Plan\n- [ ] Ship",
                path: "/tmp/PLAN.md",
                meta: { "trace": "t-1" },
            },
            $call! {
                id: "p",
                type: _timeline,
                fields: { "events": [1, "two", { "b": 1, "a": 2 }] },
                meta: { "trace": "t-1" },
            },
            $call! {
                entries: [ high in_progress "Analyze" meta: { "trace": "t-1" } ],
                meta: { "trace": "t-1" },
            },
        ]
    };
}

/// What `plan!` builds, as an update.
macro_rules! built {
    ($($call:tt)*) => {
        SessionUpdate::from(crate::plan! { $($call)* })
    };
}

/// What `plan_json!` writes.
macro_rules! written {
    ($($call:tt)*) => {
        crate::plan_json! { $($call)* }
    };
}

/// Each key of the table `written` leaves out that `listed` does not
/// excuse, and each excuse no longer needed.
fn unexcused(
    written: &[(&'static [Field], String)],
    listed: &[(&str, &str)],
) -> (Vec<String>, Vec<String>) {
    let missing = keys_not_written(written);
    let excused = |key: &str, entry: &str| key == entry || key.starts_with(&format!("{entry}."));
    let unexcused = missing
        .iter()
        .filter(|key| !listed.iter().any(|(entry, _)| excused(key, entry)))
        .cloned()
        .collect();
    let stale = listed
        .iter()
        .filter(|(entry, _)| !missing.iter().any(|key| excused(key, entry)))
        .map(|(entry, _)| (*entry).to_owned())
        .collect();
    (unexcused, stale)
}

fn keys_of(updates: &[SessionUpdate]) -> Vec<(&'static [Field], String)> {
    let mut written = Vec::new();
    for update in updates {
        let text = SessionNotification::new("s", update.clone()).to_json(Spelling::Acp);
        let value: Value = serde_json::from_str(&text).unwrap();
        keys_written(&value, "", &mut written);
    }
    written
}

#[test]
fn the_maximal_calls_write_every_key_plan_has_syntax_for() {
    let built = each_maximal_call!(built);
    let (missing, stale) = unexcused(&keys_of(&built), NOT_PLAN_SYNTAX);
    assert!(
        missing.is_empty(),
        "no `plan!` call here writes {missing:?}: give `plan!` its syntax (plan-macros' plan/ast.rs, \
         valid.rs, expand.rs) and a maximal call here, or say in `NOT_PLAN_SYNTAX` why it has none"
    );
    assert!(
        stale.is_empty(),
        "`plan!` writes {stale:?} now: take them out of `NOT_PLAN_SYNTAX`"
    );
}

#[test]
fn plan_json_writes_what_plan_builds_from_the_same_tokens() {
    let built = each_maximal_call!(built);
    let written = each_maximal_call!(written);
    for (built, written) in built.iter().zip(written) {
        for spelling in [Spelling::Acp, Spelling::Rfd] {
            assert_eq!(
                written.json(spelling),
                built.to_json(spelling),
                "`plan_json!` (plan-macros' plan/expand.rs) and `plan!` disagree, {spelling:?}"
            );
        }
    }
}

/// The files of `codec/samples/`, each with what `include_plan!` made of it.
fn included() -> [(&'static str, SessionUpdate); 5] {
    [
        (
            "items.json",
            crate::include_plan!("src/codec/samples/items.json").into(),
        ),
        (
            "markdown.json",
            crate::include_plan!("src/codec/samples/markdown.json").into(),
        ),
        (
            "file.json",
            crate::include_plan!("src/codec/samples/file.json").into(),
        ),
        (
            "custom.json",
            crate::include_plan!("src/codec/samples/custom.json").into(),
        ),
        (
            "v1.json",
            crate::include_plan!("src/codec/samples/v1.json").into(),
        ),
    ]
}

fn sample_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/codec/samples")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn include_plan_reads_each_sample_file_as_the_runtime_reader_does() {
    for (name, included) in included() {
        let read = SessionNotification::from_json(&sample_file(name))
            .unwrap()
            .update;
        // `include_plan!` gives the plan; the update's own `_meta` is left
        // out, as its reference says.
        let expected = match read {
            SessionUpdate::PlanUpdate { plan, .. } => SessionUpdate::plan_update(plan),
            other => other,
        };
        assert_eq!(
            included, expected,
            "{name}: `include_plan!` (plan-macros' include/ast.rs, valid.rs) and the runtime reader disagree"
        );
    }
}

#[test]
fn the_sample_files_hold_every_key_of_the_table() {
    let mut written = Vec::new();
    for (name, _) in included() {
        let value: Value = serde_json::from_str(&sample_file(name)).unwrap();
        keys_written(&value, "", &mut written);
    }
    // A plan in the RFD spelling names its id `id` (an entry's `id` would be its own).
    for (layout, key) in &mut written {
        if key == KEY_PLAN_ID_RFD && *layout != layout::ENTRY {
            *key = KEY_PLAN_ID.to_owned();
        }
    }
    let (missing, stale) = unexcused(&written, NOT_IN_A_PLAN_FILE);
    assert!(
        missing.is_empty(),
        "no file of src/codec/samples/ holds {missing:?}: add it to one, so `include_plan!` is held to it"
    );
    assert!(
        stale.is_empty(),
        "the sample files hold {stale:?} now: take them out of `NOT_IN_A_PLAN_FILE`"
    );
}
