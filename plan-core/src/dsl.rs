//! The words of [`plan!`](crate::plan)'s grammar, one documented item each.
//!
//! `plan!` writes each word you type as a path to its item here, with your
//! word as the path's last part, where you wrote it: an editor's hover on
//! `high` inside `plan!` shows what `high` means in the protocol,
//! go-to-definition lands here, and completion offers the words that fit,
//! as they do for plain Rust.
//!
//! The words are variants of small enums, so they cost the compiler next
//! to nothing, and they convert into the values they name:
//!
//! ```
//! use plan_core::dsl::{priority, status};
//! use plan_core::{PlanEntry, Priority, Status};
//!
//! let entry = PlanEntry::new("Fix the parser", priority::high.value(), status::in_progress.value());
//! assert_eq!(entry.priority, Priority::High);
//! assert_eq!(Status::from(status::cancelled), Status::Cancelled);
//! ```

use crate::{Priority, Status};
// Each word also under `dsl` itself (`dsl::high`): `plan!` names the
// words by these shorter paths in the common call, which costs the
// compiler less than `dsl::priority::high` (compile time is a feature).
#[doc(hidden)]
pub use self::{key::*, priority::*, status::*};

/// What the key `id` means: on the variant, and on the method the
/// all-literal call names it by (`key::rows`).
macro_rules! id_doc {
    () => {
        "Key `id`: the plan's id, `planId` on the wire (`id` in the v2 draft). \
         A client keeps one plan per id and replaces it whole with each \
         update; `\"main\"` is the v1 plan's. A string literal or \
         `{ expression }`."
    };
}

/// The keys of a `plan!` call (`key: value`, separated by commas). A call
/// has one key that says what the plan is (`items`, `markdown`, `type`, or
/// the v1 `entries`), an `id` unless it is a v1 plan, and may add `meta`.
#[allow(non_camel_case_types)] // the words as `plan!` takes them
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum key {
    #[doc = id_doc!()]
    id,
    /// Key `items`: a plan of entries, `[PRIORITY STATUS "content", ...]`,
    /// separated by commas; each entry may end in `meta: { ... }`. Every
    /// protocol version; a v1 client without `clientCapabilities.plan` is
    /// sent the entries as the v1 `plan` update.
    items,
    /// Key `entries`: the v1 `plan` update itself (no `id`), for code that
    /// speaks only v1: the same entries as `items`.
    entries,
    /// Key `markdown`: the complete plan as markdown text (not a diff),
    /// which a client shows whole: a string literal or `{ expression }`.
    /// Stable since 2026-11-20.
    markdown,
    /// Key `path`: the absolute path of the file a markdown plan is kept
    /// in, so a client can open it. Only with `markdown`.
    path,
    /// Key `file`: a pre-stable `file` plan. The stable protocol has none:
    /// `plan!` refuses it and asks for `markdown` with `path`.
    file,
    /// Key `type`: a plan type of your own, `_` and a name (`_timeline`),
    /// its fields in `fields: { ... }`. Protocol v2 only.
    r#type,
    /// Key `fields`: a custom plan's fields, a JSON object, beside `type`.
    fields,
    /// Key `meta`: the `_meta` object, JSON, sent as written, on the plan
    /// or after an entry.
    meta,
}

/// The priorities an entry can have, by the words `plan!` takes (an
/// entry is `PRIORITY STATUS "content"`). A priority of your own is `_`
/// and a name (`_urgent`); any other word is reserved for the protocol.
#[allow(non_camel_case_types)] // the words as `plan!` takes them
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum priority {
    /// Priority `high`: critical to the overall goal. Every protocol
    /// version.
    high,
    /// Priority `medium`: important, but not critical. Every protocol
    /// version.
    medium,
    /// Priority `low`: nice to have, not essential. Every protocol version.
    low,
}

/// The statuses an entry can have, by the words `plan!` takes (after the
/// priority). A status of your own is `_` and a name (`_blocked`, protocol
/// v2 only); any other word is reserved for the protocol.
#[allow(non_camel_case_types)] // the words as `plan!` takes them
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum status {
    /// Status `pending`: not started yet. Every protocol version.
    pending,
    /// Status `in_progress`: being worked on now. Every protocol version.
    in_progress,
    /// Status `completed`: done. Every protocol version.
    completed,
    /// Status `cancelled`: dropped, not done. Protocol v2 only: a v1 client
    /// (the stable protocol) has no `cancelled`, and is sent the entry as
    /// `completed`, its content ending in " (cancelled)" (the sender's
    /// default fallback, which you can replace).
    cancelled,
}

/// The keys of a `#[derive(Steps)]` step's attribute,
/// `#[step("content", priority = high)]`. An editor offers them while the
/// attribute is being typed.
#[allow(non_camel_case_types)] // the words as the attribute takes them
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum step_attr {
    /// Key `priority`: the step's priority, a word of
    /// [`priority`](enum@priority) (`high`, `medium`, `low`) or `_custom`
    /// (`medium` when the attribute gives none).
    priority,
}

/// The keys of a `#[derive(Steps)]` enum's attribute, `#[plan(id = "...")]`.
/// An editor offers them while the attribute is being typed.
#[allow(non_camel_case_types)] // the words as the attribute takes them
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum plan_attr {
    /// Key `id`: the plan's id, a string literal (the enum's name in
    /// kebab case when the attribute gives none).
    id,
}

impl key {
    #[doc = id_doc!()]
    ///
    /// (What `plan!` expands to for an items plan whose entries are all
    /// literal rows: `dsl::items.rows(...)`, the user's `items` the
    /// receiver and their `id` this method's name, so both keys reach the
    /// editor at no cost to the compiler.)
    #[doc(hidden)]
    pub fn rows(
        self,
        plan_id: &'static str,
        rows: &'static [crate::__private::Row],
    ) -> crate::PlanContent {
        crate::__private::items_rows(plan_id, rows)
    }

    /// A v1 plan whose entries are all literal rows (`dsl::entries.v1_rows(...)`).
    #[doc(hidden)]
    pub fn v1_rows(self, rows: &'static [crate::__private::Row]) -> crate::Plan {
        crate::__private::v1_rows(rows)
    }
}

impl priority {
    /// The protocol's value of this word.
    pub const fn value(self) -> Priority {
        match self {
            Self::high => Priority::High,
            Self::medium => Priority::Medium,
            Self::low => Priority::Low,
        }
    }
}

impl status {
    /// The protocol's value of this word.
    pub const fn value(self) -> Status {
        match self {
            Self::pending => Status::Pending,
            Self::in_progress => Status::InProgress,
            Self::completed => Status::Completed,
            Self::cancelled => Status::Cancelled,
        }
    }
}

impl From<priority> for Priority {
    fn from(word: priority) -> Self {
        word.value()
    }
}

impl From<status> for Status {
    fn from(word: status) -> Self {
        word.value()
    }
}

#[cfg(test)]
mod tests {
    use super::{priority, status};
    use crate::rules::{KNOWN_PRIORITIES, KNOWN_STATUSES};
    use crate::{Priority, Status};

    #[test]
    fn each_word_of_the_grammar_is_the_value_of_its_name() {
        let priorities = [priority::high, priority::medium, priority::low];
        let names: Vec<String> = priorities
            .iter()
            .map(|p| p.value().as_str().to_owned())
            .collect();
        assert_eq!(names, KNOWN_PRIORITIES);
        let statuses = [
            status::pending,
            status::in_progress,
            status::completed,
            status::cancelled,
        ];
        let names: Vec<String> = statuses
            .iter()
            .map(|s| s.value().as_str().to_owned())
            .collect();
        assert_eq!(names, KNOWN_STATUSES);
        // The debug form is the word, as `plan!` takes it.
        assert_eq!(format!("{:?}", status::in_progress), "in_progress");
        assert_eq!(Priority::from(priority::low), Priority::Low);
        assert_eq!(Status::from(status::completed), Status::Completed);
    }
}
