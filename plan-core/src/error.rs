//! Errors: what went wrong while reading a message, and where.

use std::fmt;

use serde_json::Value;

use crate::rules::{ExplainSpelling, SpellingProblem};

/// A message that could not be read: what was wrong and where in the message.
///
/// The location is a path in the JSON value, in the usual dotted notation,
/// relative to what was being parsed: `params.update.plan.entries[2].status`
/// for a whole notification, `plan.entries[2].status` for a bare update.
///
/// ```
/// use plan_core::SessionNotification;
///
/// let json = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s",
///   "update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":7}]}}}"#;
/// let err = SessionNotification::from_json(json).unwrap_err();
/// assert_eq!(err.path(), "params.update.entries[0].status");
/// assert_eq!(
///     err.to_string(),
///     "at `params.update.entries[0].status`: expected a string, found a number"
/// );
/// ```
///
/// # One error, and the errors of one value
/// `Error` is what reading a message gives, with the path of the mistake.
/// Making one value in code can go wrong in fewer ways, each with an error
/// of its own that says exactly which: `wire::InvalidPlanId` (from
/// `PlanId::new`), `wire::InvalidUri`, `wire::InvalidPath`,
/// `wire::NameError` and `wire::ParseNameError` (custom names, and names
/// parsed from text, with a "did you mean"), `agent::StepError` (a step a
/// run's rules forbid), `wire::UnmappedValue` and
/// `wire::CustomContentError` (the derives' conversions). They stay their
/// own types so a caller can match on the one thing that went wrong without
/// a path it does not have; each converts into `Error` (as
/// [`ErrorKind::Value`]), so `?` carries any of them into a function that
/// returns `Result<_, plan_core::Error>`:
///
/// ```
/// use plan_core::{Error, PlanContent, PlanId};
///
/// fn notes(id: &str) -> Result<PlanContent, Error> {
///     Ok(PlanContent::markdown(PlanId::new(id.to_owned())?, "# Notes"))
/// }
/// assert_eq!(notes(" ").unwrap_err().to_string(), "a plan id cannot be only white space");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    path: String,
    kind: ErrorKind,
}

/// What kind of mistake an [`Error`] reports.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text is not JSON at all (or is truncated).
    Syntax {
        /// 1-based line of the first bad character.
        line: usize,
        /// 1-based column of the first bad character.
        column: usize,
        /// What the JSON parser expected.
        message: String,
    },
    /// A required field is absent.
    Missing {
        /// The field, in the spelling the message is expected to use.
        field: &'static str,
    },
    /// A value has the wrong JSON type.
    Type {
        /// What the protocol requires here, e.g. "a string".
        expected: &'static str,
        /// What the message holds, e.g. "a number".
        found: &'static str,
    },
    /// A value has the right type but breaks a protocol rule
    /// (an empty plan id, a URI without a scheme, a wrong `jsonrpc` version, ...).
    Invalid {
        /// The rule that was broken, in one sentence.
        message: String,
    },
    /// A required field that has two spellings is absent in both.
    MissingEither {
        /// The RFD spelling.
        rfd: &'static str,
        /// The ACP spelling.
        acp: &'static str,
    },
    /// A value made in code broke a rule: the error of a checked
    /// constructor or a typed step (`PlanId::new`, `CustomName::new`,
    /// `PlanRun::begin`, ...) carried into an `Error` with `?`. It has no
    /// path: it was never in a message.
    Value {
        /// What the value's own error said.
        message: String,
    },
    /// Both spellings of one field are present (`id` and `planId`), so the
    /// message is ambiguous.
    BothSpellings {
        /// The RFD spelling.
        rfd: &'static str,
        /// The ACP spelling.
        acp: &'static str,
    },
}

impl Error {
    pub(crate) fn new(path: String, kind: ErrorKind) -> Self {
        Self { path, kind }
    }

    pub(crate) fn syntax(err: &serde_json::Error) -> Self {
        let message = err.to_string();
        // serde_json appends " at line L column C"; we report those as fields.
        let message = match message.rfind(" at line ") {
            Some(cut) => message[..cut].to_owned(),
            None => message,
        };
        Self::new(
            String::new(),
            ErrorKind::Syntax {
                line: err.line(),
                column: err.column(),
                message,
            },
        )
    }

    /// A value's own error (see [`ErrorKind::Value`]).
    pub(crate) fn of_value(error: &impl fmt::Display) -> Self {
        Self::new(
            String::new(),
            ErrorKind::Value {
                message: error.to_string(),
            },
        )
    }

    /// Where in the message the mistake is (`""` for the message as a whole).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What the mistake is.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Syntax {
                line,
                column,
                message,
            } => {
                write!(f, "invalid JSON at line {line}, column {column}: {message}")
            }
            kind @ ErrorKind::Value { .. } => kind.fmt(f),
            kind if self.path.is_empty() => write!(f, "in the message: {kind}"),
            kind => write!(f, "at `{}`: {kind}", self.path),
        }
    }
}

/// The mistake alone, without its place.
impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { message, .. } | Self::Invalid { message } | Self::Value { message } => {
                f.write_str(message)
            }
            Self::Missing { field } => write!(f, "missing required field `{field}`"),
            Self::Type { expected, found } => write!(f, "expected {expected}, found {found}"),
            Self::MissingEither { rfd, acp } => ExplainSpelling {
                problem: SpellingProblem::Missing,
                rfd,
                acp,
            }
            .fmt(f),
            Self::BothSpellings { rfd, acp } => ExplainSpelling {
                problem: SpellingProblem::Both,
                rfd,
                acp,
            }
            .fmt(f),
        }
    }
}

impl std::error::Error for Error {}

/// A position in a JSON value, built on the stack while reading and turned
/// into text only when an error or a skip needs it.
#[derive(Clone, Copy)]
pub(crate) enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    pub(crate) fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    pub(crate) fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }

    /// How many steps the path has (the containers a value at it sits in,
    /// the outermost one aside).
    pub(crate) fn depth(&self) -> usize {
        match self {
            Path::Root => 0,
            Path::Key(parent, _) | Path::Index(parent, _) => parent.depth() + 1,
        }
    }

    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.write(out);
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Path::Index(parent, index) => {
                parent.write(out);
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
            }
        }
    }

    pub(crate) fn error(&self, kind: ErrorKind) -> Error {
        Error::new(self.render(), kind)
    }

    pub(crate) fn missing(&self, field: &'static str) -> Error {
        self.error(ErrorKind::Missing { field })
    }

    pub(crate) fn invalid(&self, message: impl fmt::Display) -> Error {
        self.error(ErrorKind::Invalid {
            message: message.to_string(),
        })
    }
}

/// "a string", "an object", ...: how an error names what it found.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The error for a value of the wrong JSON type at `at`.
pub(crate) fn type_error(at: &Path<'_>, expected: &'static str, found: &Value) -> Error {
    at.error(ErrorKind::Type {
        expected,
        found: kind_of(found),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_in_dotted_notation() {
        let root = Path::Root;
        let params = root.key("params");
        let entries = params.key("entries");
        let second = entries.index(2);
        let status = second.key("status");
        assert_eq!(status.render(), "params.entries[2].status");
        assert_eq!(root.index(0).render(), "[0]");
        assert_eq!(root.render(), "");
    }

    #[test]
    fn errors_at_the_top_say_so() {
        let err = Path::Root.missing("params");
        assert_eq!(
            err.to_string(),
            "in the message: missing required field `params`"
        );
    }
}
