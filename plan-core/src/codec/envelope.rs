//! One JSON-RPC message, whatever its method: read from a line into its
//! parts (method, id, params, result or error) borrowed from the text, and
//! judged by the envelope's rules (`rules::classify_rpc`), whose wording
//! every reader of messages shares. The plan messages themselves are read
//! by the codec's typed readers; this is what routes a line to them.

use std::borrow::Cow;
use std::fmt;

use serde_core::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
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
/// its keys. See [`Message::read`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct MessageRead<'a> {
    /// The message, when its kind could be told (problems or not).
    pub message: Option<Message<'a>>,
    /// The `id`, if the text is an object that has one.
    pub id: Option<&'a RawValue>,
    /// What is wrong with it; empty for a well-formed message.
    pub problems: Vec<Error>,
    /// What the text is by its keys: which reader it goes to.
    pub shape: Shape,
}

/// What a line is by its keys, whatever else is right or wrong with it: the
/// reader it goes to. A recording or a fixture may hold a session update or
/// plan content on its own, outside any message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shape {
    /// An object with `jsonrpc`: a JSON-RPC message, well-formed or not.
    JsonRpc,
    /// An object with `sessionUpdate` and no `jsonrpc`: an update alone.
    Update,
    /// An object with `type`, and neither of the keys above: plan content alone.
    Content,
    /// Anything else: an object with none of those keys, another JSON value,
    /// or text that is not JSON.
    Unknown,
}

impl<'a> Message<'a> {
    /// Reads one message from `text`.
    ///
    /// # Errors
    /// Text that is not JSON, JSON that is not a message (an array is a
    /// batch: see [`batch`](Self::batch)), or the first problem of its
    /// envelope, at its path. [`read`](Self::read) says them all.
    pub fn parse(text: &'a str) -> Result<Self, Error> {
        let MessageRead {
            message,
            mut problems,
            ..
        } = Self::read(text);
        match (message, problems.is_empty()) {
            (Some(message), true) => Ok(message),
            _ => Err(problems.swap_remove(0)),
        }
    }

    /// Reads one message from `text` and says everything about it: what it
    /// is, its id, every problem. Never fails: a text that is no message has
    /// its problems and no message.
    pub fn read(text: &'a str) -> MessageRead<'a> {
        read_keeping(text, None)
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

/// A member of an object as it came: its key, and its value's text.
pub(in crate::codec) type Member<'a> = (Cow<'a, str>, &'a RawValue);

/// The message, if its kind could be told, its id, every problem of it, and
/// its shape ([`Message::read`]). When `members` is given, every member of
/// the object is kept there in the text's order: the parts a typed reader
/// reads next, so the line is not read again.
pub(in crate::codec) fn read_keeping<'a>(
    text: &'a str,
    members: Option<&mut Vec<Member<'a>>>,
) -> MessageRead<'a> {
    let broken = |problem: Error| MessageRead {
        message: None,
        id: None,
        problems: vec![problem],
        shape: Shape::Unknown,
    };
    let fields = match Fields::read(text, members) {
        Ok(fields) => fields,
        // An object that is not JSON: what the one reading said.
        Err(e) if text.trim_start().starts_with('{') => return broken(Error::syntax(&e)),
        // Not an object: a second look says what it is.
        Err(_) => {
            return match serde_json::from_str::<&RawValue>(text) {
                Err(e) => broken(Error::syntax(&e)),
                Ok(raw) if raw.get().starts_with('[') => broken(problem(RpcProblem::Batch)),
                Ok(raw) => broken(problem(RpcProblem::NotObject(kind(raw)))),
            };
        }
    };
    let shape = match (fields.jsonrpc, fields.update_tag, fields.type_tag) {
        (Some(_), _, _) => Shape::JsonRpc,
        (None, Some(_), _) => Shape::Update,
        (None, None, Some(_)) => Shape::Content,
        (None, None, None) => Shape::Unknown,
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
    MessageRead {
        message,
        id: fields.id,
        problems,
        shape,
    }
}

/// The envelope of a message already parsed into a JSON object, judged by
/// the same rules as [`Message::parse`]: its method, or its first problem.
/// A response has no method (`Ok(None)`).
pub(crate) fn method_of_object(
    object: &serde_json::Map<String, serde_json::Value>,
) -> Result<Option<&str>, Error> {
    use serde_json::Value;
    let seen_value = |key: &str| match object.get(key) {
        None => Seen::Absent,
        Some(Value::String(text)) => Seen::Str(text),
        Some(other) => Seen::Other(crate::error::kind_of(other)),
    };
    let error = object.get("error").map(|error| {
        let code = error.get("code").is_some_and(Value::is_i64);
        let message = error.get("message").is_some_and(Value::is_string);
        (code, message)
    });
    let seen = EnvelopeSeen {
        jsonrpc: seen_value(rules::KEY_JSONRPC),
        method: seen_value(rules::KEY_METHOD),
        id: object.contains_key("id"),
        result: object.contains_key("result"),
        error,
    };
    let (_, problems) = rules::classify_rpc(&seen);
    if let Some(first) = problems.into_iter().next() {
        return Err(problem(first));
    }
    Ok(object.get(rules::KEY_METHOD).and_then(Value::as_str))
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
    let Ok([code, message]) = pick(raw.get(), &["code", "message"], None) else {
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

/// The envelope's keys, and the two that tell a plan message outside one,
/// in the order [`pick`] returns their values.
const ENVELOPE_KEYS: [&str; 8] = [
    rules::KEY_JSONRPC,
    rules::KEY_METHOD,
    "id",
    rules::KEY_PARAMS,
    "result",
    "error",
    rules::KEY_SESSION_UPDATE,
    rules::KEY_TYPE,
];

/// The envelope's keys of a message object, each as the raw JSON it holds.
struct Fields<'a> {
    jsonrpc: Option<&'a RawValue>,
    method: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
    params: Option<&'a RawValue>,
    result: Option<&'a RawValue>,
    error: Option<&'a RawValue>,
    /// `sessionUpdate`: an update's tag.
    update_tag: Option<&'a RawValue>,
    /// `type`: plan content's tag.
    type_tag: Option<&'a RawValue>,
}

impl<'a> Fields<'a> {
    fn read(
        object: &'a str,
        members: Option<&mut Vec<Member<'a>>>,
    ) -> Result<Self, serde_json::Error> {
        // In the order of `ENVELOPE_KEYS`.
        let picked = pick(object, &ENVELOPE_KEYS, members)?;
        Ok(Self {
            jsonrpc: picked[0],
            method: picked[1],
            id: picked[2],
            params: picked[3],
            result: picked[4],
            error: picked[5],
            update_tag: picked[6],
            type_tag: picked[7],
        })
    }
}

/// The raw values of `keys` in a JSON object, in the order of `keys`; every
/// other key is skipped unread, or kept in `members` with the rest when
/// given. A key given twice keeps its last value, as `serde_json`'s own map
/// does.
fn pick<'a, const N: usize>(
    object: &'a str,
    keys: &[&str; N],
    members: Option<&mut Vec<Member<'a>>>,
) -> Result<[Option<&'a RawValue>; N], serde_json::Error> {
    let mut reader = serde_json::Deserializer::from_str(object);
    let picked = de::DeserializeSeed::deserialize(Pick(keys, members), &mut reader)?;
    reader.end()?;
    Ok(picked)
}

/// The seed [`pick`] reads an object with: the keys it picks, and where it
/// keeps every member, if anywhere.
struct Pick<'k, 'm, 'de, const N: usize>(&'k [&'k str; N], Option<&'m mut Vec<Member<'de>>>);

impl<'de, const N: usize> de::DeserializeSeed<'de> for Pick<'_, '_, 'de, N> {
    type Value = [Option<&'de RawValue>; N];

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for Pick<'_, '_, 'de, N> {
    type Value = [Option<&'de RawValue>; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let Pick(keys, mut members) = self;
        let mut slots = [None; N];
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            let slot = keys.iter().position(|k| *k == key);
            match (slot, members.as_deref_mut()) {
                (slot, Some(members)) => {
                    let value: &'de RawValue = map.next_value()?;
                    if let Some(i) = slot {
                        slots[i] = Some(value);
                    }
                    members.push((key, value));
                }
                (Some(i), None) => slots[i] = Some(map.next_value()?),
                (None, None) => {
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
#[path = "envelope_tests.rs"]
mod tests;
