//! Custom and reserved names: the protocol's naming rule as types.

use std::borrow::Cow;
use std::fmt;

use crate::rules::{self, ExplainName, NameProblem};

/// A custom priority, status or plan type: `_` followed by at least one character.
///
/// [`CustomName::new`] is the only way to make one, so a custom value that
/// breaks the protocol's naming rule cannot be built.
///
/// ```
/// use plan_core::wire::CustomName;
///
/// assert_eq!(CustomName::new("_blocked").unwrap().as_str(), "_blocked");
/// let err = CustomName::new("blocked").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "custom names must begin with `_`; `blocked` is reserved for future ACP versions (write `_blocked`)"
/// );
/// assert!(CustomName::new("_").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CustomName(Cow<'static, str>);

impl CustomName {
    /// Checks `name` against the naming rule.
    ///
    /// # Errors
    /// [`NameError`] if `name` is empty, is `_` alone, or does not begin with `_`.
    pub fn new(name: impl Into<Cow<'static, str>>) -> Result<Self, NameError> {
        let name = name.into();
        match rules::check_custom_name(&name) {
            Ok(()) => Ok(Self(name)),
            Err(problem) => Err(NameError {
                name: name.into_owned(),
                problem,
            }),
        }
    }

    /// Wraps a name the caller has already checked (the macros check at compile time).
    pub(crate) const fn new_unchecked(name: Cow<'static, str>) -> Self {
        Self(name)
    }

    /// The name, `_` included.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CustomName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A name received from a peer that is neither known nor custom, such as
/// `urgent` (no leading `_`): reserved for future ACP versions.
///
/// Readers keep such values so a message round-trips unchanged; there is no
/// public constructor, because sending one breaks the protocol
/// ([`SessionUpdate::check`](crate::SessionUpdate::check) reports it).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReservedName(String);

impl ReservedName {
    /// The name exactly as it was received.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ReservedName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A name that is not a valid custom value, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameError {
    name: String,
    problem: NameProblem,
}

impl NameError {
    /// The rejected name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        ExplainName {
            problem: self.problem,
            name: &self.name,
        }
        .fmt(f)
    }
}

impl std::error::Error for NameError {}

/// Carried into an [`Error`](crate::Error) by `?` (as
/// [`ErrorKind::Value`](crate::ErrorKind::Value)).
impl From<NameError> for crate::error::Error {
    fn from(error: NameError) -> Self {
        Self::of_value(&error)
    }
}

/// How a name classifies: the index of a known name, or custom, or reserved.
pub(crate) enum Classified {
    Known(usize),
    Custom(CustomName),
    Reserved(ReservedName),
}

/// Classifies a received name: one of `known`, else custom if it follows the
/// rule, else reserved. Never fails: unknown names are kept, not rejected.
pub(crate) fn classify(name: String, known: &[&str]) -> Classified {
    if let Some(index) = known.iter().position(|k| *k == name) {
        return Classified::Known(index);
    }
    match rules::check_custom_name(&name) {
        Ok(()) => Classified::Custom(CustomName(Cow::Owned(name))),
        Err(_) => Classified::Reserved(ReservedName(name)),
    }
}

/// How a plan type classifies: one the protocol defines, or custom, or reserved.
pub(crate) enum TypeName {
    Known(rules::PlanType),
    Custom(CustomName),
    Reserved(ReservedName),
}

impl TypeName {
    /// The plan type, if the protocol defines it.
    pub(crate) fn known(&self) -> Option<rules::PlanType> {
        match self {
            Self::Known(known) => Some(*known),
            Self::Custom(_) | Self::Reserved(_) => None,
        }
    }
}

/// Classifies a received plan type; never fails, as [`classify`].
pub(crate) fn classify_plan_type(name: String) -> TypeName {
    if let Some(known) = rules::PlanType::from_name(&name) {
        return TypeName::Known(known);
    }
    match rules::check_custom_name(&name) {
        Ok(()) => TypeName::Custom(CustomName(Cow::Owned(name))),
        Err(_) => TypeName::Reserved(ReservedName(name)),
    }
}

/// Parses a name a person typed (not the wire): known, or a valid custom name.
/// A typo of a known name gets a suggestion.
pub(crate) fn parse_typed(
    name: &str,
    known: &[&'static str],
    what: &'static str,
) -> Result<Classified, ParseNameError> {
    if let Some(index) = known.iter().position(|k| *k == name) {
        return Ok(Classified::Known(index));
    }
    match CustomName::new(name.to_owned()) {
        Ok(custom) => Ok(Classified::Custom(custom)),
        Err(error) => Err(ParseNameError {
            what,
            suggestion: rules::suggest(name, known),
            error,
        }),
    }
}

/// A priority, status or plan type that could not be parsed from text.
///
/// ```
/// use plan_core::Status;
///
/// let err = "in_progess".parse::<Status>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "unknown status `in_progess`; did you mean `in_progress`?"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseNameError {
    what: &'static str,
    suggestion: Option<&'static str>,
    error: NameError,
}

impl ParseNameError {
    /// The known name the input most likely meant, if any.
    pub fn suggestion(&self) -> Option<&'static str> {
        self.suggestion
    }
}

impl fmt::Display for ParseNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::rules::UnknownName {
            what: self.what,
            name: &self.error.name,
            problem: self.error.problem,
            suggestion: self.suggestion,
        }
        .fmt(f)
    }
}

impl std::error::Error for ParseNameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Carried into an [`Error`](crate::Error) by `?` (as
/// [`ErrorKind::Value`](crate::ErrorKind::Value)).
impl From<ParseNameError> for crate::error::Error {
    fn from(error: ParseNameError) -> Self {
        Self::of_value(&error)
    }
}
