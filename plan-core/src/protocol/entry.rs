//! Plan entries and their priorities and statuses.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use crate::protocol::meta::Meta;
use crate::protocol::naming::{
    self, Classified, CustomName, NameError, ParseNameError, ReservedName,
};
use crate::rules;

/// Defines an enum of known protocol names plus `Custom` and `Reserved`,
/// with its conversions, so `Priority` and `Status` share one implementation.
///
/// Why a macro: the two enums have the same shape and eight items each
/// (inherent methods users call without a trait, `Display`, `FromStr`,
/// `Serialize`, `From<CustomName>`); the logic they share is in
/// `protocol/naming.rs` (`classify`, `parse_typed`), where go-to-definition
/// lands. Written out, each would repeat about eighty lines.
macro_rules! name_enum {
    (
        $(#[$attr:meta])*
        pub enum $name:ident ($what:literal, known = $known:path) {
            $( $(#[$vattr:meta])* $variant:ident = $wire:literal, )+
        }
    ) => {
        $(#[$attr])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vattr])* $variant, )+
            /// An implementation-specific value: `_` and at least one more character.
            Custom(CustomName),
            /// A value received from a peer that is neither known nor custom
            /// (e.g. `urgent`): kept so the message round-trips, but reserved
            /// for future ACP versions, so it must not be sent.
            Reserved(ReservedName),
        }

        impl $name {
            /// The names ACP defines, in the protocol's order.
            pub const KNOWN: &'static [&'static str] = &$known;
            pub(crate) const KNOWN_VALUES: &'static [Self] = &[$(Self::$variant),+];

            /// A custom value, checked against the naming rule.
            ///
            /// # Errors
            /// [`NameError`] if `name` does not begin with `_` or is `_` alone.
            pub fn custom(name: impl Into<Cow<'static, str>>) -> Result<Self, NameError> {
                CustomName::new(name).map(Self::Custom)
            }

            /// The name on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $wire, )+
                    Self::Custom(name) => name.as_str(),
                    Self::Reserved(name) => name.as_str(),
                }
            }

            /// The name ACP defines, if this is one (for the writer: a
            /// word that needs no escaping).
            pub(crate) fn known_str(&self) -> Option<&'static str> {
                match self {
                    $( Self::$variant => Some($wire), )+
                    Self::Custom(_) | Self::Reserved(_) => None,
                }
            }

            /// Whether this is one of the names ACP defines.
            pub fn is_known(&self) -> bool {
                !matches!(self, Self::Custom(_) | Self::Reserved(_))
            }

            fn from_classified(classified: Classified) -> Self {
                match classified {
                    Classified::Known(index) => Self::KNOWN_VALUES[index].clone(),
                    Classified::Custom(name) => Self::Custom(name),
                    Classified::Reserved(name) => Self::Reserved(name),
                }
            }

            /// Parses the name of a value of another type that means the
            /// same (a model runtime's own enum, its `Debug` or serde name):
            /// `InProgress`, `inProgress`, `IN_PROGRESS`, `in-progress` and
            /// `in progress` are all `in_progress`; a `_custom` name is taken
            /// as written. Anything else is the error [`str::parse`] gives,
            /// with its suggestion.
            ///
            /// # Errors
            /// A name that, so written, is neither known nor custom.
            pub fn from_any_case(name: &str) -> Result<Self, ParseNameError> {
                if name.starts_with('_') {
                    return name.parse();
                }
                let mut snake = String::with_capacity(name.len() + 4);
                let mut previous_lower = false;
                for c in name.trim().chars() {
                    if c.is_uppercase() && previous_lower {
                        snake.push('_');
                    }
                    previous_lower = c.is_lowercase() || c.is_ascii_digit();
                    match c {
                        '-' | ' ' => snake.push('_'),
                        c => snake.extend(c.to_lowercase()),
                    }
                }
                snake.parse()
            }

            /// Reads a received name: never fails on unknown names, it keeps them.
            pub(crate) fn from_wire(name: String) -> Self {
                Self::from_classified(naming::classify(name, Self::KNOWN))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// Parses a name a person wrote: a known name or a valid custom one.
        /// Unlike reading a message, a reserved name is an error here, with a
        /// suggestion when it looks like a typo of a known name.
        impl FromStr for $name {
            type Err = ParseNameError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                naming::parse_typed(s, Self::KNOWN, $what).map(Self::from_classified)
            }
        }

        impl From<CustomName> for $name {
            fn from(name: CustomName) -> Self {
                Self::Custom(name)
            }
        }

        impl serde_core::Serialize for $name {
            fn serialize<S: ::serde_core::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
    };
}

name_enum! {
    /// How important a plan entry is.
    ///
    /// ```
    /// use plan_core::Priority;
    ///
    /// assert_eq!("high".parse::<Priority>().unwrap(), Priority::High);
    /// assert_eq!(Priority::custom("_stretch").unwrap().as_str(), "_stretch");
    /// assert!("urgent".parse::<Priority>().is_err());
    /// ```
    pub enum Priority("priority", known = rules::KNOWN_PRIORITIES) {
        /// Critical to the overall goal.
        High = "high",
        /// Important but not critical.
        Medium = "medium",
        /// Nice to have.
        Low = "low",
    }
}

name_enum! {
    /// Where a plan entry is in its lifecycle.
    ///
    /// `cancelled` exists in protocol v2 only; a v1 `plan` update cannot carry
    /// it (nor any custom value), and [`SessionUpdate::check`](crate::SessionUpdate::check)
    /// says so.
    ///
    /// ```
    /// use plan_core::Status;
    ///
    /// assert_eq!("in_progress".parse::<Status>().unwrap(), Status::InProgress);
    /// assert!(Status::Cancelled.is_known());
    /// assert!(!Status::Cancelled.is_v1());
    /// ```
    pub enum Status("status", known = rules::KNOWN_STATUSES) {
        /// Not started yet.
        Pending = "pending",
        /// Being worked on.
        InProgress = "in_progress",
        /// Done.
        Completed = "completed",
        /// Abandoned before it was done (protocol v2).
        Cancelled = "cancelled",
    }
}

impl Priority {
    /// Whether a v1 `plan` update can carry this priority (every known one).
    pub fn is_v1(&self) -> bool {
        self.is_known()
    }
}

impl Status {
    /// Whether a v1 `plan` update can carry this status: `pending`,
    /// `in_progress` or `completed`.
    pub fn is_v1(&self) -> bool {
        self.is_known() && rules::V1_STATUSES.contains(&self.as_str())
    }
}

/// One task of a plan: what it is, how important, and where it stands.
///
/// ```
/// use plan_core::{PlanEntry, Priority, Status, wire::Spelling};
///
/// let entry = PlanEntry::new("Analyze the codebase", Priority::High, Status::Pending);
/// assert_eq!(
///     entry.to_json(Spelling::Rfd),
///     r#"{"content":"Analyze the codebase","priority":"high","status":"pending"}"#
/// );
/// ```
///
/// `#[non_exhaustive]`: the protocol may give entries more fields, so an entry
/// is made with [`new`](Self::new) (and [`with_meta`](Self::with_meta)), not a
/// struct literal; its fields stay public to read and change.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlanEntry {
    /// What the task aims to accomplish, for a person to read.
    pub content: Cow<'static, str>,
    /// How important the task is.
    pub priority: Priority,
    /// Where the task stands.
    pub status: Status,
    /// Implementation-specific metadata (`_meta`).
    pub meta: Option<Meta>,
}

impl PlanEntry {
    /// An entry without metadata.
    pub fn new(content: impl Into<Cow<'static, str>>, priority: Priority, status: Status) -> Self {
        Self {
            content: content.into(),
            priority,
            status,
            meta: None,
        }
    }

    /// The same entry with `_meta` set.
    #[must_use]
    pub fn with_meta(mut self, meta: impl Into<Meta>) -> Self {
        self.meta = Some(meta.into());
        self
    }

    /// The same entry with another status.
    #[must_use]
    pub fn with_status(mut self, status: Status) -> Self {
        self.status = status;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_are_in_the_order_of_the_shared_rules() {
        // `from_wire` maps the index of a name in the shared table to a
        // variant; this proves the two lists line up.
        let priorities: Vec<&str> = Priority::KNOWN_VALUES
            .iter()
            .map(Priority::as_str)
            .collect();
        assert_eq!(priorities, rules::KNOWN_PRIORITIES);
        let statuses: Vec<&str> = Status::KNOWN_VALUES.iter().map(Status::as_str).collect();
        assert_eq!(statuses, rules::KNOWN_STATUSES);
        for name in rules::KNOWN_STATUSES {
            assert_eq!(Status::from_wire(name.to_owned()).as_str(), name);
        }
    }

    #[test]
    fn received_names_are_classified_never_rejected() {
        assert_eq!(Status::from_wire("cancelled".into()), Status::Cancelled);
        assert!(
            matches!(Status::from_wire("_blocked".into()), Status::Custom(n) if n.as_str() == "_blocked")
        );
        assert!(
            matches!(Status::from_wire("blocked".into()), Status::Reserved(n) if n.as_str() == "blocked")
        );
        assert!(matches!(
            Priority::from_wire("_".into()),
            Priority::Reserved(_)
        ));
        assert!(matches!(
            Priority::from_wire(String::new()),
            Priority::Reserved(_)
        ));
    }

    #[test]
    fn typed_names_are_checked_with_hints() {
        assert_eq!("_blocked".parse::<Status>().unwrap().as_str(), "_blocked");
        let err = "meduim".parse::<Priority>().unwrap_err();
        assert_eq!(err.suggestion(), Some("medium"));
        let err = "urgent".parse::<Priority>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown priority `urgent`: custom names must begin with `_`; `urgent` is reserved for future ACP versions (write `_urgent`)"
        );
    }
}
