//! `_meta`: the protocol's extension point, kept exactly as it came.

use std::borrow::Cow;
use std::fmt;

use serde_core::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The `_meta` field: an object (or `null`) of implementation-specific
/// metadata. ACP reserves it for extensions; this crate never interprets it.
///
/// It is kept as the JSON text it arrived in, so it is written back byte for
/// byte: keys in their order, numbers of any size and form
/// (`123456789012345678901234567890` stays so, it does not become
/// `1.2345678901234568e+29`). A `_meta` declared in `plan!` keeps its
/// source order. Two values are equal when they hold the same JSON.
///
/// ```
/// use plan_core::Meta;
/// use serde_json::json;
///
/// let meta = Meta::from_json(r#"{"z":1,"a":123456789012345678901234567890}"#)?;
/// assert_eq!(meta.as_json(), r#"{"z":1,"a":123456789012345678901234567890}"#);
/// assert_eq!(meta.get("z"), Some(json!(1)));
/// assert!(Meta::from_json("42").is_err());
/// assert_eq!(Meta::from_value(json!({"traceId": "abc"})).unwrap().as_json(), r#"{"traceId":"abc"}"#);
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Clone)]
pub struct Meta(Cow<'static, str>);

impl Meta {
    /// An object of metadata.
    pub fn new(fields: Map<String, Value>) -> Self {
        Self(Cow::Owned(Value::Object(fields).to_string()))
    }

    /// `_meta: null`, as some peers send it.
    pub const fn null() -> Self {
        Self(Cow::Borrowed("null"))
    }

    /// Wraps a JSON object or `null`.
    ///
    /// # Errors
    /// Gives back the value if it is neither an object nor `null`.
    #[allow(clippy::result_large_err)]
    pub fn from_value(value: Value) -> Result<Self, Value> {
        match value {
            Value::Object(map) => Ok(Self::new(map)),
            Value::Null => Ok(Self::null()),
            other => Err(other),
        }
    }

    /// Keeps JSON text that is an object or `null`, as it is.
    ///
    /// # Errors
    /// [`Error`](crate::Error) if the text is not JSON, or not an object or `null`.
    pub fn from_json(json: &str) -> Result<Self, crate::error::Error> {
        let raw: &RawValue =
            serde_json::from_str(json).map_err(|e| crate::error::Error::syntax(&e))?;
        let root = crate::error::Path::Root;
        match Self::from_raw(raw, MAX_DEPTH) {
            Some(Ok(meta)) => Ok(meta),
            Some(Err(found)) => Err(crate::error::type_error(&root, "an object or null", &found)),
            None => Err(root.invalid(TOO_DEEP)),
        }
    }

    /// Keeps a raw JSON value if it is an object or `null`; else gives back
    /// the value it holds (for the error message). `None` if it nests more
    /// than `max_depth` arrays and objects (`serde_json`'s recursion limit,
    /// which capturing raw text does not apply).
    pub(crate) fn from_raw(raw: &RawValue, max_depth: usize) -> Option<Result<Self, Value>> {
        let text = raw.get();
        Some(match text.as_bytes().first() {
            Some(b'{' | b'n') => Ok(Self(Cow::Owned(compact(text, max_depth)?))),
            _ => Err(serde_json::from_str(text).unwrap_or(Value::Null)),
        })
    }

    /// JSON text of an object the caller has checked (the macros check at
    /// compile time).
    pub(crate) const fn from_json_unchecked(json: &'static str) -> Self {
        Self(Cow::Borrowed(json))
    }

    /// JSON text of an object the caller wrote itself (made at run time,
    /// each string escaped).
    #[cfg(feature = "tools")]
    pub(crate) fn from_owned_unchecked(json: String) -> Self {
        Self(Cow::Owned(json))
    }

    /// The JSON text, as it came.
    pub fn as_json(&self) -> &str {
        &self.0
    }

    /// Whether it is `_meta: null`.
    pub fn is_null(&self) -> bool {
        self.0.trim() == "null"
    }

    /// The metadata object, parsed (`None` for `_meta: null`).
    pub fn to_object(&self) -> Option<Map<String, Value>> {
        match self.to_value() {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The metadata as a JSON value.
    pub fn to_value(&self) -> Value {
        // The text was checked to be a JSON object or `null` when kept.
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }

    /// One metadata value, parsed.
    pub fn get(&self, key: &str) -> Option<Value> {
        self.to_object()?.remove(key)
    }
}

impl Default for Meta {
    /// `_meta: null`.
    fn default() -> Self {
        Self::null()
    }
}

impl fmt::Debug for Meta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Meta").field(&self.as_json()).finish()
    }
}

/// Equal when they hold the same JSON (key order and spacing aside).
impl PartialEq for Meta {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0 || self.to_value() == other.to_value()
    }
}

impl Eq for Meta {}

impl From<Map<String, Value>> for Meta {
    fn from(fields: Map<String, Value>) -> Self {
        Self::new(fields)
    }
}

/// Writes the text as it came with `serde_json` (as a raw value; other
/// serializers see it as `serde_json` hands raw values to them).
impl Serialize for Meta {
    fn serialize<S: serde_core::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let raw: &RawValue =
            serde_json::from_str(&self.0).map_err(serde_core::ser::Error::custom)?;
        raw.serialize(s)
    }
}

/// How deep `serde_json` nests arrays and objects in one document.
pub(crate) const MAX_DEPTH: usize = 127;

/// Why a `_meta` nested too deep is refused (`serde_json`'s words).
pub(crate) const TOO_DEEP: &str =
    "recursion limit exceeded: `_meta` nests arrays and objects deeper than a JSON reader follows";

/// The JSON text without white space between tokens (so a `_meta` that came
/// pretty-printed cannot break a line of NDJSON); everything else, key order
/// and the spelling of numbers included, as it is. `None` if it nests more
/// than `max_depth` arrays and objects.
fn compact(text: &str, max_depth: usize) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped, mut depth) = (false, false, 0_usize);
    for c in text.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            match c {
                '"' => in_string = true,
                '[' | '{' => {
                    depth += 1;
                    if depth > max_depth {
                        return None;
                    }
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            out.push(c);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_drops_only_the_space_between_tokens() {
        assert_eq!(
            compact("{ \"a b\" : [1 , 2e10],\n \"q\\\" x\": \"\\\\\" }", 2).unwrap(),
            "{\"a b\":[1,2e10],\"q\\\" x\":\"\\\\\"}"
        );
        assert_eq!(compact("{\"a\":[[]]}", 2), None);
        assert_eq!(
            compact("{\"a\":\"[[[\"}", 1).as_deref(),
            Some("{\"a\":\"[[[\"}")
        );
    }

    #[test]
    fn text_is_kept_and_equality_is_by_json() {
        let a = Meta::from_json(r#"{"b":1,"a":[1.50]}"#).unwrap();
        let b = Meta::from_json(r#"{"a":[1.5],"b":1}"#).unwrap();
        assert_eq!(a.as_json(), r#"{"b":1,"a":[1.50]}"#);
        assert_eq!(a, b);
        assert_ne!(a, Meta::null());
        assert!(Meta::from_json("null").unwrap().is_null());
        for bad in ["42", "\"x\"", "[]", "{"] {
            assert!(Meta::from_json(bad).is_err(), "{bad}");
        }
    }
}
