//! `_meta`: the protocol's extension point, kept exactly as it came.

use serde::Serialize;
use serde_json::{Map, Value};

/// The `_meta` field: an object (or `null`) of implementation-specific
/// metadata. ACP reserves it for extensions; this crate never interprets it
/// and writes back exactly what it read.
///
/// ```
/// use plan_core::Meta;
/// use serde_json::json;
///
/// let meta = Meta::from_value(json!({"traceId": "abc"})).unwrap();
/// assert_eq!(meta.get("traceId"), Some(&json!("abc")));
/// assert!(Meta::from_value(json!(42)).is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta(Option<Map<String, Value>>);

impl Meta {
    /// The field's key.
    pub const KEY: &'static str = "_meta";

    /// An object of metadata.
    pub fn new(fields: Map<String, Value>) -> Self {
        Self(Some(fields))
    }

    /// `_meta: null`, as some peers send it.
    pub const fn null() -> Self {
        Self(None)
    }

    /// Wraps a JSON object or `null`.
    ///
    /// # Errors
    /// Gives back the value if it is neither an object nor `null`.
    #[allow(clippy::result_large_err)]
    pub fn from_value(value: Value) -> Result<Self, Value> {
        match value {
            Value::Object(map) => Ok(Self(Some(map))),
            Value::Null => Ok(Self(None)),
            other => Err(other),
        }
    }

    /// The metadata object, or `None` for `_meta: null`.
    pub fn as_object(&self) -> Option<&Map<String, Value>> {
        self.0.as_ref()
    }

    /// The metadata object to change (a `null` becomes an empty object).
    pub fn as_object_mut(&mut self) -> &mut Map<String, Value> {
        self.0.get_or_insert_with(Map::new)
    }

    /// One metadata value.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.as_ref().and_then(|map| map.get(key))
    }
}

impl From<Map<String, Value>> for Meta {
    fn from(fields: Map<String, Value>) -> Self {
        Self::new(fields)
    }
}

/// Writes the object with its keys in sorted order, in every build.
impl Serialize for Meta {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Some(map) => crate::wire::SortedMap(map).serialize(s),
            None => s.serialize_unit(),
        }
    }
}
