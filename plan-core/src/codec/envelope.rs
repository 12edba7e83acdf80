//! One JSON-RPC message, whatever its method: read from a line into its
//! parts (method, id, params, result or error) borrowed from the text, and
//! judged by the envelope's rules (`rules::classify_rpc`), whose wording
//! every reader of messages shares. The plan messages themselves are read
//! by the codec's typed readers; this is what routes a line to them.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::error::{Error, Path};
use crate::rules::{self, EnvelopeSeen, RpcKind, RpcProblem, Seen};

/// One JSON-RPC 2.0 message, its parts borrowed from the text it was read
/// from: what every line of an ACP conversation is, before its method says
/// what its params mean.
///
/// ```
/// use plan_core::wire::Message;
///
/// let line = r#"{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}"#;
/// let message = Message::parse(line)?;
/// assert_eq!(message.method(), Some("session/prompt"));
/// assert_eq!(message.id().map(|id| id.get()), Some("3"));
/// assert!(matches!(message, Message::Request { .. }));
///
/// // What is wrong is said once, in the same words wherever a message is read.
/// let err = Message::parse(r#"{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"x"}}"#)
///     .unwrap_err();
/// assert_eq!(err.to_string(), "in the message: a response carries `result` or `error`, not both");
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Message<'a> {
    /// A request: a `method` and an `id`; it awaits a response.
    Request {
        /// The request's id, as it came (a number or a string).
        id: &'a RawValue,
        /// The method.
        method: Cow<'a, str>,
        /// The params, if any, as they came.
        params: Option<&'a RawValue>,
    },
    /// A notification: a `method` without an `id`.
    Notification {
        /// The method.
        method: Cow<'a, str>,
        /// The params, if any, as they came.
        params: Option<&'a RawValue>,
    },
    /// A response to a request.
    Response {
        /// The id of the request it answers.
        id: &'a RawValue,
        /// The `result`, or the `error` object.
        outcome: Result<&'a RawValue, &'a RawValue>,
    },
}

/// Everything one reading of a line can say: the message, if its kind can
/// be told; its `id`, even when the message is broken (a reply to an invalid
/// request carries it); and every problem of its envelope, in the order of
/// its keys. See [`Message::check`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct MessageCheck<'a> {
    /// The message, when its kind could be told (problems or not).
    pub message: Option<Message<'a>>,
    /// The `id`, if the text is an object that has one.
    pub id: Option<&'a RawValue>,
    /// What is wrong with it; empty for a well-formed message.
    pub problems: Vec<Error>,
}

impl<'a> Message<'a> {
    /// Reads one message from `text`.
    ///
    /// # Errors
    /// Text that is not JSON, JSON that is not a message (an array is a
    /// batch: see [`batch`](Self::batch)), or the first problem of its
    /// envelope, at its path. [`check`](Self::check) says them all.
    pub fn parse(text: &'a str) -> Result<Self, Error> {
        let MessageCheck {
            message,
            mut problems,
            ..
        } = Self::check(text);
        match (message, problems.is_empty()) {
            (Some(message), true) => Ok(message),
            _ => Err(problems.swap_remove(0)),
        }
    }

    /// Reads one message from `text` and says everything about it: what it
    /// is, its id, every problem. Never fails: a text that is no message has
    /// its problems and no message.
    pub fn check(text: &'a str) -> MessageCheck<'a> {
        read(text)
    }

    /// The elements of a JSON-RPC batch (the text is an array), each to be
    /// read with [`parse`](Self::parse); `None` if the text is not an array.
    ///
    /// # Errors
    /// An array that is not valid JSON.
    pub fn batch(text: &'a str) -> Option<Result<Vec<&'a RawValue>, Error>> {
        if !text.trim_start().starts_with('[') {
            return None;
        }
        Some(serde_json::from_str(text).map_err(|e| Error::syntax(&e)))
    }

    /// The method of a request or a notification.
    pub fn method(&self) -> Option<&str> {
        match self {
            Self::Request { method, .. } | Self::Notification { method, .. } => Some(method),
            Self::Response { .. } => None,
        }
    }

    /// The id of a request or a response.
    pub fn id(&self) -> Option<&'a RawValue> {
        match self {
            Self::Request { id, .. } | Self::Response { id, .. } => Some(id),
            Self::Notification { .. } => None,
        }
    }

    /// The params of a request or a notification, if it has any.
    pub fn params(&self) -> Option<&'a RawValue> {
        match self {
            Self::Request { params, .. } | Self::Notification { params, .. } => *params,
            Self::Response { .. } => None,
        }
    }

    /// Whether this is a `session/update` notification: a plan message, or
    /// another update of a session.
    pub fn is_session_update(&self) -> bool {
        matches!(self, Self::Notification { method, .. } if method == rules::SESSION_UPDATE)
    }
}

/// The message, if its kind could be told, its id, and every problem of it.
fn read(text: &str) -> MessageCheck<'_> {
    let broken = |problem: Error| MessageCheck {
        message: None,
        id: None,
        problems: vec![problem],
    };
    let raw: &RawValue = match serde_json::from_str(text) {
        Ok(raw) => raw,
        Err(e) => return broken(Error::syntax(&e)),
    };
    let json = raw.get();
    let fields = match json.as_bytes().first() {
        Some(b'{') => match Fields::read(json) {
            Ok(fields) => fields,
            Err(e) => return broken(Error::syntax(&e)),
        },
        Some(b'[') => return broken(problem(RpcProblem::Batch)),
        _ => return broken(problem(RpcProblem::NotObject(kind(raw)))),
    };
    let version = fields.jsonrpc.map(string);
    let method = fields.method.map(string);
    let seen = EnvelopeSeen {
        jsonrpc: seen(version.as_ref()),
        method: seen(method.as_ref()),
        id: fields.id.is_some(),
        result: fields.result.is_some(),
        error: fields.error.map(error_shape),
    };
    let (kind, problems) = rules::classify_rpc(&seen);
    let problems: Vec<Error> = problems.into_iter().map(problem).collect();
    let message = match (kind, fields.id) {
        (Some(RpcKind::Request), Some(id)) => {
            method.and_then(Result::ok).map(|method| Message::Request {
                id,
                method,
                params: fields.params,
            })
        }
        (Some(RpcKind::Notification), _) => {
            method
                .and_then(Result::ok)
                .map(|method| Message::Notification {
                    method,
                    params: fields.params,
                })
        }
        (Some(RpcKind::Response), Some(id)) => fields
            .result
            .map(Ok)
            .or(fields.error.map(Err))
            .map(|outcome| Message::Response { id, outcome }),
        _ => None,
    };
    MessageCheck {
        message,
        id: fields.id,
        problems,
    }
}

/// An envelope problem as an [`Error`] at its path.
fn problem(problem: RpcProblem<'_>) -> Error {
    let key = problem.key();
    let (outer, inner) = key.split_once('.').unwrap_or((key, ""));
    let root = Path::Root;
    match (outer, inner) {
        ("", _) => root.invalid(problem),
        (outer, "") => root.key(outer).invalid(problem),
        (outer, inner) => root.key(outer).key(inner).invalid(problem),
    }
}

/// A value read as a string: borrowed when it has no escape, `Err` with the
/// name of its type when it is no string.
fn string(raw: &RawValue) -> Result<Cow<'_, str>, &'static str> {
    if let Ok(text) = serde_json::from_str::<&str>(raw.get()) {
        return Ok(Cow::Borrowed(text));
    }
    serde_json::from_str::<String>(raw.get())
        .map(Cow::Owned)
        .map_err(|_| kind(raw))
}

/// What the envelope's rules see of a key read with [`string`].
fn seen<'s>(read: Option<&'s Result<Cow<'_, str>, &'static str>>) -> Seen<'s> {
    match read {
        Some(Ok(text)) => Seen::Str(text),
        Some(Err(found)) => Seen::Other(found),
        None => Seen::Absent,
    }
}

/// Whether an `error` is an object with a whole-number `code`, and whether
/// its `message` is a string.
fn error_shape(raw: &RawValue) -> (bool, bool) {
    let Ok([code, message]) = pick(raw.get(), &["code", "message"]) else {
        return (false, false);
    };
    let code = code.is_some_and(|code| serde_json::from_str::<i64>(code.get()).is_ok());
    let message = message.is_some_and(|m| m.get().starts_with('"'));
    (code, message)
}

/// "a string", "an object", ...: a raw value's JSON type, by its first byte.
fn kind(raw: &RawValue) -> &'static str {
    match raw.get().as_bytes().first() {
        Some(b'"') => "a string",
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// The envelope's keys, in the order [`pick`] returns their values.
const ENVELOPE_KEYS: [&str; 6] = [
    rules::KEY_JSONRPC,
    rules::KEY_METHOD,
    "id",
    rules::KEY_PARAMS,
    "result",
    "error",
];

/// The envelope's keys of a message object, each as the raw JSON it holds.
struct Fields<'a> {
    jsonrpc: Option<&'a RawValue>,
    method: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
    params: Option<&'a RawValue>,
    result: Option<&'a RawValue>,
    error: Option<&'a RawValue>,
}

impl<'a> Fields<'a> {
    fn read(object: &'a str) -> Result<Self, serde_json::Error> {
        let [jsonrpc, method, id, params, result, error] = pick(object, &ENVELOPE_KEYS)?;
        Ok(Self {
            jsonrpc,
            method,
            id,
            params,
            result,
            error,
        })
    }
}

/// The raw values of `keys` in a JSON object, in the order of `keys`; every
/// other key is skipped unread. A key given twice keeps its last value, as
/// `serde_json`'s own map does.
fn pick<'a, const N: usize>(
    object: &'a str,
    keys: &[&str; N],
) -> Result<[Option<&'a RawValue>; N], serde_json::Error> {
    let mut reader = serde_json::Deserializer::from_str(object);
    let picked = de::DeserializeSeed::deserialize(Pick(keys), &mut reader)?;
    reader.end()?;
    Ok(picked)
}

/// The seed [`pick`] reads an object with.
struct Pick<'k, const N: usize>(&'k [&'k str; N]);

impl<'de, const N: usize> de::DeserializeSeed<'de> for Pick<'_, N> {
    type Value = [Option<&'de RawValue>; N];

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for Pick<'_, N> {
    type Value = [Option<&'de RawValue>; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut slots = [None; N];
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            match self.0.iter().position(|k| *k == key) {
                Some(i) => slots[i] = Some(map.next_value()?),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(slots)
    }
}

/// A key as it came: borrowed from the text unless it had an escape.
struct Key<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(text: &str) -> Vec<String> {
        Message::check(text)
            .problems
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn each_kind_of_message_is_told_with_its_parts() {
        let request = Message::parse(
            r#"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":1}}"#,
        )
        .unwrap();
        assert_eq!(request.method(), Some("initialize"));
        assert_eq!(request.id().unwrap().get(), r#""a""#);
        assert_eq!(request.params().unwrap().get(), r#"{"protocolVersion":1}"#);
        let update = Message::parse(
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}"#,
        )
        .unwrap();
        assert!(update.is_session_update() && update.id().is_none());
        let ok = Message::parse(r#"{"jsonrpc":"2.0","id":1,"result":null}"#).unwrap();
        assert!(matches!(ok, Message::Response { outcome: Ok(r), .. } if r.get() == "null"));
        let refused =
            Message::parse(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"x"}}"#)
                .unwrap();
        assert!(matches!(
            refused,
            Message::Response {
                outcome: Err(_),
                ..
            }
        ));
        // An escaped method is read as it means; other keys are skipped.
        let escaped =
            Message::parse(r#"{"x":[1,{"y":2}],"jsonrpc":"2.0","method":"session\/cancel"}"#)
                .unwrap();
        assert_eq!(escaped.method(), Some("session/cancel"));
    }

    #[test]
    fn each_problem_is_said_at_its_path() {
        assert_eq!(
            said(r#"{"jsonrpc":"1.0","id":3,"result":null}"#),
            [r#"at `jsonrpc`: expected JSON-RPC version "2.0", found "1.0""#]
        );
        assert_eq!(
            said(r#"{"jsonrpc":"2.0","id":2,"error":{"code":"bad","message":7}}"#),
            [
                "at `error.code`: expected a whole number",
                "at `error.message`: expected a string"
            ]
        );
        assert_eq!(
            said(r#"{"jsonrpc":"2.0","result":{}}"#),
            ["at `id`: a response carries the `id` of its request"]
        );
        assert_eq!(
            said(r#"{"jsonrpc":"2.0","id":4,"method":"session/update","params":{}}"#),
            [
                "at `id`: a `session/update` is a notification and carries no `id`; this is a request"
            ]
        );
        assert_eq!(
            said(r#"{"jsonrpc":"2.0","id":5}"#),
            [
                "in the message: neither a request (`method`), a notification nor a response (`result`/`error`)"
            ]
        );
        assert_eq!(
            said(r#"{"jsonrpc":"2.0","method":7}"#),
            ["at `method`: expected a string, found a number"]
        );
        assert_eq!(
            said(r#"{"method":"x"}"#),
            [r#"in the message: not a JSON-RPC message: no `"jsonrpc": "2.0"`"#]
        );
        assert_eq!(
            said("42"),
            ["in the message: expected a JSON-RPC message (an object), found a number"]
        );
        assert_eq!(said("not json").len(), 1);
        assert!(said("[1]")[0].contains("batch"));
        // A problem found, the kind still told where it can be: `parse` refuses.
        assert!(Message::parse(r#"{"jsonrpc":"1.0","id":3,"result":null}"#).is_err());
    }

    #[test]
    fn a_batch_is_its_elements() {
        let items = Message::batch(r#" [{"jsonrpc":"2.0","method":"a"}, 1]"#)
            .unwrap()
            .unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!(Message::parse(items[0].get()).unwrap().method(), Some("a"));
        assert!(Message::parse(items[1].get()).is_err());
        assert!(Message::batch("{}").is_none());
        assert!(Message::batch("[1,").unwrap().is_err());
    }
}
