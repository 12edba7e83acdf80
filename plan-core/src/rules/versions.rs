//! The version table: for each kind of client, which plan updates, plan
//! types and values it may be sent; each fallback an agent applies to what it
//! may not send, with its wording; and the rules a checker reports, by name.
//!
//! This is the protocol as stabilized on 2026-11-20 (the Plan Operations RFD
//! "Completed"): v1 `plan` to every v1 client; `plan_update` (`items`,
//! `markdown`) and `plan_removed` to a v1 client that sent
//! `clientCapabilities.plan`; under v2 (a draft) `plan_update` with `items`,
//! `markdown` and custom `_x` types, `plan_removed`, `cancelled` and custom
//! values, all without opt-in. `file` is no longer a plan type.
//!
//! Every reader of the rules takes them from here: the sender, `check`, the
//! board's report, the fixtures generator, the proptest strategies and the
//! macros. `tests/sender.rs` (`every_cell_of_the_version_table`) walks every
//! cell. How a turn ends and is cancelled, by version, is beside it in the
//! checker (`acp-plan/src/check/conformance/turns.rs`), the one reader of those rules.

// Each crate reads the part of the table it needs (plan-macros: the plan
// types and rule wordings); the tests in `rules/mod.rs` read all of it.
#![allow(dead_code)]

/// The `sessionUpdate` of the v1 plan (one plan per session, entries only).
pub(crate) const TAG_PLAN: &str = "plan";
/// The `sessionUpdate` that creates or replaces the plan with a `planId`.
pub(crate) const TAG_PLAN_UPDATE: &str = "plan_update";
/// The `sessionUpdate` that dismisses the plan with a `planId`.
pub(crate) const TAG_PLAN_REMOVED: &str = "plan_removed";

/// The plan types of the stabilized protocol, in both versions.
pub(crate) const STABLE_PLAN_TYPES: [&str; 2] = ["items", "markdown"];

/// One row of the table: one kind of client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct VersionRow {
    /// The protocol version number.
    pub(crate) protocol: u16,
    /// Whether the client opted in to plan operations (`clientCapabilities.plan`,
    /// v1 only: v2 has no such capability).
    pub(crate) opted_in: bool,
    /// How reports name the row.
    pub(crate) label: &'static str,
    /// The plan `sessionUpdate`s it may be sent.
    pub(crate) updates: &'static [&'static str],
    /// The plan types (other than custom ones) a `plan_update` may carry.
    pub(crate) plan_types: &'static [&'static str],
    /// Whether custom `_x` plan types may be sent.
    pub(crate) custom_types: bool,
    /// The statuses it knows (its priorities are always `high`, `medium`, `low`).
    pub(crate) statuses: &'static [&'static str],
    /// Whether custom `_x` priorities and statuses may be sent.
    pub(crate) custom_values: bool,
}

/// v1, no plan capability: the v1 `plan` update only.
pub(crate) const V1: VersionRow = VersionRow {
    protocol: 1,
    opted_in: false,
    label: "v1 without `plan`",
    updates: &[TAG_PLAN],
    plan_types: &[],
    custom_types: false,
    statuses: &super::names::V1_STATUSES,
    custom_values: false,
};

/// v1 with `clientCapabilities.plan`: plan operations with v1's closed values.
pub(crate) const V1_PLAN: VersionRow = VersionRow {
    protocol: 1,
    opted_in: true,
    label: "v1 with `plan`",
    updates: &[TAG_PLAN, TAG_PLAN_UPDATE, TAG_PLAN_REMOVED],
    plan_types: &STABLE_PLAN_TYPES,
    custom_types: false,
    statuses: &super::names::V1_STATUSES,
    custom_values: false,
};

/// v2 (a draft): plan operations are baseline; no v1 `plan`.
pub(crate) const V2: VersionRow = VersionRow {
    protocol: 2,
    opted_in: false,
    label: "v2 (draft)",
    updates: &[TAG_PLAN_UPDATE, TAG_PLAN_REMOVED],
    plan_types: &STABLE_PLAN_TYPES,
    custom_types: true,
    statuses: &super::names::KNOWN_STATUSES,
    custom_values: true,
};

/// Every row, in the order reports list them.
pub(crate) const ROWS: [VersionRow; 3] = [V1, V1_PLAN, V2];

impl VersionRow {
    /// Whether this client may be sent the plan update `name`.
    pub(crate) fn allows_update(&self, name: &str) -> bool {
        self.updates.contains(&name)
    }

    /// Whether a `plan_update` of this type (`items`, `markdown`, `_x`, ...)
    /// may be sent to this client.
    pub(crate) fn allows_plan_type(&self, name: &str) -> bool {
        self.plan_types.contains(&name) || (self.custom_types && name.starts_with('_'))
    }

    /// Whether this status may be sent (`_x` only where custom values are).
    pub(crate) fn allows_status(&self, name: &str) -> bool {
        self.statuses.contains(&name) || (self.custom_values && name.starts_with('_'))
    }

    /// Whether this priority may be sent.
    pub(crate) fn allows_priority(&self, name: &str) -> bool {
        super::names::KNOWN_PRIORITIES.contains(&name)
            || (self.custom_values && name.starts_with('_'))
    }
}

/// A fallback: what an agent sends instead of something a client may not be
/// sent. The sender applies each one (every one can be replaced), and its
/// wording says what happened wherever it is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FallbackRule {
    /// The fallback's name.
    pub(crate) name: &'static str,
    /// What it does, in one sentence.
    pub(crate) wording: &'static str,
}

/// What the v1 fallback appends to a cancelled entry's content.
pub(crate) const CANCELLED_MARK: &str = " (cancelled)";

/// `cancelled` to a v1 client.
pub(crate) const FALLBACK_CANCELLED: FallbackRule = FallbackRule {
    name: "cancelled-as-completed",
    wording: "a `cancelled` entry is sent to a v1 client as `completed`, its content ending in \" (cancelled)\"",
};
/// Custom values to a v1 client.
pub(crate) const FALLBACK_CUSTOM_VALUE: FallbackRule = FallbackRule {
    name: "custom-value-as-known",
    wording: "a custom priority is sent to a v1 client as `medium`, a custom status as `pending`",
};
/// Custom plan types to a v1 client.
pub(crate) const FALLBACK_CUSTOM_TYPE: FallbackRule = FallbackRule {
    name: "custom-type-as-items",
    wording: "a custom plan type is sent to a v1 client as an `items` plan of the same `planId`, one entry naming the type",
};
/// `file` plans, to every client not known to read them.
pub(crate) const FALLBACK_FILE: FallbackRule = FallbackRule {
    name: "file-as-markdown",
    wording: "a `file` plan is sent as a `markdown` plan of the same `planId`: a `file://` URI's absolute path becomes its `path`, and its content names the file",
};
/// Plans to a v1 client without the plan capability.
pub(crate) const FALLBACK_V1_PLAN_VIEW: FallbackRule = FallbackRule {
    name: "v1-plan-view",
    wording: "a v1 client without `plan` is sent, after every change, one v1 `plan` of the most recently updated live plan's entries (markdown: its checklist)",
};

/// Every fallback, in the order the documentation lists them.
pub(crate) const FALLBACKS: [FallbackRule; 5] = [
    FALLBACK_CANCELLED,
    FALLBACK_CUSTOM_VALUE,
    FALLBACK_CUSTOM_TYPE,
    FALLBACK_FILE,
    FALLBACK_V1_PLAN_VIEW,
];

/// A rule a checker reports, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CheckRule {
    /// The rule's name, as reports print it.
    pub(crate) name: &'static str,
    /// What it forbids, in one sentence.
    pub(crate) forbids: &'static str,
    /// What `PlanSender` sends instead, where it maps the value.
    pub(crate) fallback: Option<FallbackRule>,
}

/// An entry whose content is blank.
pub(crate) const RULE_BLANK_CONTENT: CheckRule = CheckRule {
    name: "blank-content",
    forbids: "an entry whose content is empty or white space (readers keep it; it tells the user nothing)",
    fallback: None,
};
/// A non-`_` name that is not known.
pub(crate) const RULE_RESERVED_NAME: CheckRule = CheckRule {
    name: "reserved-name",
    forbids: "a priority, status or plan type that is neither known nor `_`-prefixed (reserved for future ACP versions)",
    fallback: None,
};
/// `plan_update`/`plan_removed` to a v1 client that did not send `plan`.
pub(crate) const RULE_NO_OPT_IN: CheckRule = CheckRule {
    name: "v1-no-opt-in",
    forbids: "`plan_update` or `plan_removed` to a v1 client that did not send `clientCapabilities.plan`",
    fallback: Some(FALLBACK_V1_PLAN_VIEW),
};
/// `cancelled` or custom values to a v1 client.
pub(crate) const RULE_V1_VALUES: CheckRule = CheckRule {
    name: "v1-values",
    forbids: "`cancelled` or a custom `_x` priority or status to a v1 client (its reader drops the entry)",
    fallback: Some(FALLBACK_CANCELLED),
};
/// A custom plan type to a v1 client.
pub(crate) const RULE_V1_PLAN_TYPES: CheckRule = CheckRule {
    name: "v1-plan-types",
    forbids: "a custom plan type to a v1 client (v1 has only `items` and `markdown`)",
    fallback: Some(FALLBACK_CUSTOM_TYPE),
};
/// A v1 `plan` to a v2 client.
pub(crate) const RULE_V2_NO_V1_PLAN: CheckRule = CheckRule {
    name: "v2-no-v1-plan",
    forbids: "the v1 `plan` update to a v2 client (an unknown update there)",
    fallback: None,
};
/// A `file` plan.
pub(crate) const RULE_FILE_PLAN: CheckRule = CheckRule {
    name: "pre-stable-file",
    forbids: "a `file` plan: removed from the protocol when plan operations were stabilized (2026-11-20)",
    fallback: Some(FALLBACK_FILE),
};
/// A markdown `path` that is not absolute.
pub(crate) const RULE_PATH: CheckRule = CheckRule {
    name: "absolute-path",
    forbids: "a markdown plan's `path` that is not an absolute file-system path",
    fallback: None,
};

/// A plan id that is empty or white space.
pub(crate) const RULE_BLANK_ID: CheckRule = CheckRule {
    name: "blank-plan-id",
    forbids: "a plan id that is empty or only white space (the SDKs keep it; a strict reader refuses the message, and no client can tell such plans apart)",
    fallback: None,
};

/// Every rule a checker applies, in the order the documentation lists them.
pub(crate) const CHECK_RULES: [CheckRule; 9] = [
    RULE_BLANK_CONTENT,
    RULE_RESERVED_NAME,
    RULE_NO_OPT_IN,
    RULE_V1_VALUES,
    RULE_V1_PLAN_TYPES,
    RULE_V2_NO_V1_PLAN,
    RULE_FILE_PLAN,
    RULE_PATH,
    RULE_BLANK_ID,
];

/// The one wording for a `file` plan where one is being written (`plan!`,
/// `plan_json!`): the fix is a markdown plan with a `path`.
pub(crate) struct FileNoLonger;

impl core::fmt::Display for FileNoLonger {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(
            "`file` plans are no longer part of ACP (plan operations were stabilized on 2026-11-20 without them); \
             for a plan that lives in a file, write `markdown: \"...\"` (the plan's text) with `path: \"/absolute/path/PLAN.md\"`",
        )
    }
}
