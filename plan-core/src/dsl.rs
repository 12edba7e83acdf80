//! The words of [`plan!`](crate::plan)'s grammar, one documented item each.
//!
//! `plan!` writes each priority and status you type as a path to its item
//! here, with your word as the path's last part (in a call with a
//! `{ expression }` part or `meta`; a call of literals alone is a table,
//! for compile time): an editor's hover on `high` inside `plan!` shows
//! what `high` means in the protocol, and go-to-definition lands here, as
//! they do for plain Rust. The items are the values themselves, so they
//! also read well outside the macro:
//!
//! ```
//! use plan_core::dsl::{priority, status};
//! use plan_core::{PlanEntry, Priority};
//!
//! let entry = PlanEntry::new("Fix the parser", priority::high, status::in_progress);
//! assert_eq!(entry.priority, Priority::High);
//! ```

/// The priorities an entry can have, by the words `plan!` takes (an
/// entry is `PRIORITY STATUS "content"`). A priority of your own is `_`
/// and a name (`_urgent`); any other word is reserved for the protocol.
#[allow(non_upper_case_globals)] // the words as `plan!` takes them
pub mod priority {
    use crate::Priority;

    /// Priority `high`: critical to the overall goal. Every protocol
    /// version.
    pub const high: Priority = Priority::High;
    /// Priority `medium`: important, but not critical. Every protocol
    /// version.
    pub const medium: Priority = Priority::Medium;
    /// Priority `low`: nice to have, not essential. Every protocol version.
    pub const low: Priority = Priority::Low;
}

/// The statuses an entry can have, by the words `plan!` takes (after the
/// priority). A status of your own is `_` and a name (`_blocked`, protocol
/// v2 only); any other word is reserved for the protocol.
#[allow(non_upper_case_globals)] // the words as `plan!` takes them
pub mod status {
    use crate::Status;

    /// Status `pending`: not started yet. Every protocol version.
    pub const pending: Status = Status::Pending;
    /// Status `in_progress`: being worked on now. Every protocol version.
    pub const in_progress: Status = Status::InProgress;
    /// Status `completed`: done. Every protocol version.
    pub const completed: Status = Status::Completed;
    /// Status `cancelled`: dropped, not done. Protocol v2 only: a v1 client
    /// (the stable protocol) has no `cancelled`, and is sent the entry as
    /// `completed`, its content ending in " (cancelled)" (the sender's
    /// default fallback, which you can replace).
    pub const cancelled: Status = Status::Cancelled;
}

#[cfg(test)]
mod tests {
    use crate::rules::{KNOWN_PRIORITIES, KNOWN_STATUSES};
    use crate::{Priority, Status};

    #[test]
    fn each_word_of_the_grammar_is_the_value_of_its_name() {
        let priorities = [
            super::priority::high,
            super::priority::medium,
            super::priority::low,
        ];
        let names: Vec<&str> = priorities.iter().map(Priority::as_str).collect();
        assert_eq!(names, KNOWN_PRIORITIES);
        let statuses = [
            super::status::pending,
            super::status::in_progress,
            super::status::completed,
            super::status::cancelled,
        ];
        let names: Vec<&str> = statuses.iter().map(Status::as_str).collect();
        assert_eq!(names, KNOWN_STATUSES);
    }
}
