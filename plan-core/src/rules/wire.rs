//! The wire: the keys a plan writes, the plan id's two spellings, the JSON
//! string escapes, the JSON-RPC envelope of a `session/update`.

use core::fmt;

/// The plan id's key in the source documents' spelling and in the ACP one.
pub(crate) const PLAN_ID_KEYS: [&str; 2] = [KEY_PLAN_ID_RFD, KEY_PLAN_ID];
/// The plan id's key in the source documents' (RFD) spelling.
pub(crate) const KEY_PLAN_ID_RFD: &str = "id";
/// The plan id's key in the ACP spelling, the one written by default.
pub(crate) const KEY_PLAN_ID: &str = "planId";
/// The keys a plan object writes itself (its type, its id in either spelling,
/// `_meta`): a custom plan's own fields cannot hold them.
pub(crate) const OWN_KEYS: [&str; 4] = [KEY_TYPE, PLAN_ID_KEYS[0], PLAN_ID_KEYS[1], KEY_META];

// The JSON keys of plan messages, each written once.
/// A plan's type tag.
pub(crate) const KEY_TYPE: &str = "type";
/// An items plan's (or a v1 `plan`'s) entries.
pub(crate) const KEY_ENTRIES: &str = "entries";
/// An entry's text, or a markdown plan's markdown.
pub(crate) const KEY_CONTENT: &str = "content";
/// An entry's priority.
pub(crate) const KEY_PRIORITY: &str = "priority";
/// An entry's status.
pub(crate) const KEY_STATUS: &str = "status";
/// A markdown plan's absolute file path (stabilized protocol, optional).
pub(crate) const KEY_PATH: &str = "path";
/// A (pre-stable) file plan's URI.
pub(crate) const KEY_URI: &str = "uri";
/// Extension data on any object.
pub(crate) const KEY_META: &str = "_meta";
/// The plan object of a `plan_update`.
pub(crate) const KEY_PLAN: &str = "plan";
/// An update's tag.
pub(crate) const KEY_SESSION_UPDATE: &str = "sessionUpdate";
/// The session of a notification.
pub(crate) const KEY_SESSION_ID: &str = "sessionId";
/// The update of a notification.
pub(crate) const KEY_UPDATE: &str = "update";
/// A JSON-RPC message's params.
pub(crate) const KEY_PARAMS: &str = "params";
/// A JSON-RPC message's version.
pub(crate) const KEY_JSONRPC: &str = "jsonrpc";
/// A JSON-RPC message's method.
pub(crate) const KEY_METHOD: &str = "method";

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
