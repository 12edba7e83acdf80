//! The wire: the keys a plan writes, the plan id's two spellings, the JSON
//! string escapes, the JSON-RPC envelope of a `session/update`.

use core::fmt;

/// The plan id's key in the source documents' spelling and in the ACP one.
pub(crate) const PLAN_ID_KEYS: [&str; 2] = ["id", "planId"];
/// The keys a plan object writes itself (its type, its id in either spelling,
/// `_meta`): a custom plan's own fields cannot hold them.
pub(crate) const OWN_KEYS: [&str; 4] = ["type", PLAN_ID_KEYS[0], PLAN_ID_KEYS[1], "_meta"];

/// What is wrong with a field that has two spellings (the plan id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SpellingProblem {
    /// Neither spelling is there.
    Missing,
    /// Both are there: ambiguous.
    Both,
}

/// A [`SpellingProblem`] with the field's two keys, as one sentence.
pub(crate) struct ExplainSpelling<'a> {
    pub(crate) problem: SpellingProblem,
    /// The source documents' spelling, e.g. `id`.
    pub(crate) rfd: &'a str,
    /// The ACP spelling, e.g. `planId`.
    pub(crate) acp: &'a str,
}

impl fmt::Display for ExplainSpelling<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { rfd, acp, .. } = self;
        match self.problem {
            SpellingProblem::Missing => {
                write!(
                    f,
                    "missing required field `{acp}` (or `{rfd}`, its RFD spelling)"
                )
            }
            SpellingProblem::Both => write!(
                f,
                "both `{rfd}` and `{acp}` are present; they are two spellings of one field, keep one"
            ),
        }
    }
}

/// What each byte turns into inside a JSON string, as `serde_json` writes it:
/// 0 for itself, else the letter after the backslash (`u` for `\u00XX`). The
/// writer at run time and `plan_json!` at compile time both escape with it.
pub(crate) const JSON_ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// The JSON-RPC version every ACP message carries.
pub(crate) const JSONRPC_VERSION: &str = "2.0";
/// The JSON-RPC method of every session update.
pub(crate) const SESSION_UPDATE: &str = "session/update";

/// What is wrong with the JSON-RPC envelope of a `session/update`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EnvelopeProblem<'a> {
    /// `jsonrpc` is not `"2.0"`.
    Version(&'a str),
    /// `method` is not `session/update`.
    Method(&'a str),
    /// The message has an `id`: it is a request.
    HasId,
}

/// Checks the `jsonrpc` and `method` of a `session/update`.
pub(crate) fn check_envelope<'a>(
    version: &'a str,
    method: &'a str,
) -> Result<(), EnvelopeProblem<'a>> {
    if version != JSONRPC_VERSION {
        Err(EnvelopeProblem::Version(version))
    } else if method != SESSION_UPDATE {
        Err(EnvelopeProblem::Method(method))
    } else {
        Ok(())
    }
}

impl fmt::Display for EnvelopeProblem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Version(found) => {
                write!(
                    f,
                    "expected JSON-RPC version \"{JSONRPC_VERSION}\", found {found:?}"
                )
            }
            Self::Method(found) => write!(f, "expected method `{SESSION_UPDATE}`, found `{found}`"),
            Self::HasId => write!(
                f,
                "a `{SESSION_UPDATE}` is a notification and carries no `id`; this is a request"
            ),
        }
    }
}
