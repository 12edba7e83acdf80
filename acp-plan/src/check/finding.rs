//! What `check` reports: one finding, in a file or in an agent's
//! transcript, as a line of text or a JSON object.

use std::fmt;

use plan_core::agent::Violation;
use serde_json::{Value, json};

/// One problem `check` found, in a file or in an agent's transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule's name: one of [`Violation::RULES`], `acp-spelling`, or one
    /// of the conversation's rules (docs/ci.md lists them all).
    pub rule: String,
    /// The line of the file or transcript (1-based; 0: the whole of it).
    pub line: usize,
    /// Where in the message, as a JSON path (empty: the whole message).
    pub path: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// What a conforming agent sends instead, where `check` knows.
    pub fix: Option<String>,
}

impl Finding {
    /// A finding of `rule`; without a `fix` of its own, the rule's usual one.
    pub fn new(
        rule: &str,
        line: usize,
        path: String,
        message: String,
        fix: Option<String>,
    ) -> Self {
        let fix = fix.or_else(|| super::rule::fix_for(rule).map(str::to_owned));
        Self {
            rule: rule.to_owned(),
            line,
            path,
            message,
            fix,
        }
    }

    /// What a sender must not send, at `line`, with the fallback the
    /// version table gives for it where there is one.
    pub fn of_violation(line: usize, violation: &Violation) -> Self {
        Self::new(
            violation.rule(),
            line,
            violation.path().to_owned(),
            violation.message().to_owned(),
            violation.fix().map(str::to_owned),
        )
    }

    /// A message that could not be read, as `rule`. Its path is the
    /// error's; a JSON syntax error keeps its line and column in the message.
    pub fn of_error(rule: &str, line: usize, error: &plan_core::Error) -> Self {
        let message = match error.kind() {
            plan_core::ErrorKind::Syntax { .. } => error.to_string(),
            kind => kind.to_string(),
        };
        Self::new(rule, line, error.path().to_owned(), message, None)
    }

    /// The finding as a JSON object: `rule`, `line`, `path`, `message`,
    /// `fix` (`null` where there is none).
    pub fn to_json(&self) -> Value {
        json!({ "rule": self.rule, "line": self.line, "path": self.path,
                "message": self.message, "fix": self.fix })
    }
}

/// `at `PATH`: WHAT [RULE]` (without the path where it is the whole message).
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "at `{}`: ", self.path)?;
        }
        write!(f, "{} [{}]", self.message, self.rule)
    }
}
