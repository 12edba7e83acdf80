//! What a message's JSON says: the keys a plan writes, the plan id's two
//! spellings, the JSON string escapes, the JSON-RPC envelope of a
//! `session/update`.

use core::fmt;

/// The plan id's key in the source documents' spelling and in the ACP one.
pub(crate) const PLAN_ID_KEYS: [&str; 2] = [KEY_PLAN_ID_RFD, KEY_PLAN_ID];
/// The plan id's key in the source documents' (RFD) spelling.
pub(crate) const KEY_PLAN_ID_RFD: &str = "id";
/// The plan id's key in the ACP spelling, the one written by default.
pub(crate) const KEY_PLAN_ID: &str = "planId";
/// A JSON-RPC request's id (the same word as the RFD plan id, another key:
/// a notification has none).
#[allow(dead_code)] // plan-core's reader only; plan-macros shares this file
pub(crate) const KEY_ID: &str = "id";
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

/// A key of a JSON-RPC message's envelope, as a reader saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen<'a> {
    /// The key is not there.
    Absent,
    /// A string, as it reads.
    Str(&'a str),
    /// A value of another JSON type, by name ("a number", "null", ...).
    Other(&'static str),
}

/// What a reader saw of one message's envelope: enough to say what the
/// message is and what is wrong with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EnvelopeSeen<'a> {
    /// `jsonrpc`.
    pub(crate) jsonrpc: Seen<'a>,
    /// `method`.
    pub(crate) method: Seen<'a>,
    /// Whether `id` is there.
    pub(crate) id: bool,
    /// Whether `result` is there.
    pub(crate) result: bool,
    /// `error`, if there: whether it is an object whose `code` is a whole
    /// number, and whether its `message` is a string.
    pub(crate) error: Option<(bool, bool)>,
}

/// What a JSON-RPC message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RpcKind {
    /// A `method` and an `id`: it awaits a response.
    Request,
    /// A `method` without an `id`.
    Notification,
    /// A `result` or an `error`, with the `id` of its request.
    Response,
}

/// What is wrong with a JSON-RPC message's envelope: the one wording of
/// each problem, for every reader of messages (`wire::Message`, the board,
/// `include_plan_stream!`, `check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RpcProblem<'a> {
    /// The text is JSON but not an object (an array is a batch: see
    /// [`RpcProblem::Batch`]).
    NotObject(&'static str),
    /// An array: a batch of messages, each read on its own.
    #[allow(dead_code)] // plan-macros reads no batch: a fixture stream holds none
    Batch,
    /// No `jsonrpc` at all.
    NoVersion,
    /// `jsonrpc` is a string other than `"2.0"`.
    Version(&'a str),
    /// `jsonrpc` is not a string.
    VersionType(&'static str),
    /// `method` is not a string.
    MethodType(&'static str),
    /// A response with both `result` and `error`.
    ResultAndError,
    /// Neither `method` nor `result` nor `error`.
    Neither,
    /// A response without the `id` of its request.
    ResponseWithoutId,
    /// An `error` that is not an object with a whole-number `code`.
    ErrorCode,
    /// An `error` whose `message` is not a string.
    ErrorMessage,
    /// A `session/update` with an `id`: a request, where the protocol has a
    /// notification.
    UpdateWithId,
}

impl RpcProblem<'_> {
    /// Where in the message the problem is, as a JSON path (`""`: the whole).
    pub(crate) const fn key(&self) -> &'static str {
        match self {
            Self::NotObject(_)
            | Self::Batch
            | Self::NoVersion
            | Self::ResultAndError
            | Self::Neither => "",
            Self::Version(_) | Self::VersionType(_) => KEY_JSONRPC,
            Self::MethodType(_) => KEY_METHOD,
            Self::ResponseWithoutId | Self::UpdateWithId => "id",
            Self::ErrorCode => "error.code",
            Self::ErrorMessage => "error.message",
        }
    }
}

impl fmt::Display for RpcProblem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotObject(found) => {
                write!(f, "expected a JSON-RPC message (an object), found {found}")
            }
            Self::Batch => f.write_str(
                "a JSON-RPC batch (an array of messages): each element is a message of its own",
            ),
            Self::NoVersion => write!(
                f,
                "not a JSON-RPC message: no `\"{KEY_JSONRPC}\": \"{JSONRPC_VERSION}\"`"
            ),
            Self::Version(found) => fmt::Display::fmt(&EnvelopeProblem::Version(found), f),
            Self::VersionType(found) => write!(
                f,
                "expected JSON-RPC version \"{JSONRPC_VERSION}\", found {found}"
            ),
            Self::MethodType(found) => write!(f, "expected a string, found {found}"),
            Self::ResultAndError => f.write_str("a response carries `result` or `error`, not both"),
            Self::Neither => f.write_str(
                "neither a request (`method`), a notification nor a response (`result`/`error`)",
            ),
            Self::ResponseWithoutId => f.write_str("a response carries the `id` of its request"),
            Self::ErrorCode => f.write_str("expected a whole number"),
            Self::ErrorMessage => f.write_str("expected a string"),
            Self::UpdateWithId => fmt::Display::fmt(&EnvelopeProblem::HasId, f),
        }
    }
}

/// What a message is, from what a reader saw of its envelope, and every
/// problem of it in the order of its keys (`jsonrpc`, `method`/`id`,
/// `result`/`error`). A kind is given whenever one can be told, problems or
/// not, so a reader can still route a message it reports.
pub(crate) fn classify_rpc<'a>(seen: &EnvelopeSeen<'a>) -> (Option<RpcKind>, Vec<RpcProblem<'a>>) {
    let mut problems = Vec::new();
    match seen.jsonrpc {
        Seen::Absent => problems.push(RpcProblem::NoVersion),
        Seen::Str(version) if version != JSONRPC_VERSION => {
            problems.push(RpcProblem::Version(version));
        }
        Seen::Str(_) => {}
        Seen::Other(found) => problems.push(RpcProblem::VersionType(found)),
    }
    let kind = match (seen.method, seen.result, seen.error) {
        (Seen::Str(method), ..) => {
            if method == SESSION_UPDATE && seen.id {
                problems.push(RpcProblem::UpdateWithId);
            }
            Some(if seen.id {
                RpcKind::Request
            } else {
                RpcKind::Notification
            })
        }
        (Seen::Other(found), ..) => {
            problems.push(RpcProblem::MethodType(found));
            None
        }
        (Seen::Absent, true, Some(_)) => {
            problems.push(RpcProblem::ResultAndError);
            None
        }
        (Seen::Absent, false, None) => {
            problems.push(RpcProblem::Neither);
            None
        }
        (Seen::Absent, result, error) => {
            if !seen.id {
                problems.push(RpcProblem::ResponseWithoutId);
            }
            if let (false, Some((code, message))) = (result, error) {
                if !code {
                    problems.push(RpcProblem::ErrorCode);
                }
                if !message {
                    problems.push(RpcProblem::ErrorMessage);
                }
            }
            Some(RpcKind::Response)
        }
    };
    (kind, problems)
}
