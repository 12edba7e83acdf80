//! The fast path of reading a model's arguments: a call of exactly the
//! tool's shape, read straight from its text by a serde visitor, with no
//! `serde_json::Value` tree. Anything else goes to the lenient reader
//! (`read.rs`), which says what it corrected.

use std::borrow::Cow;
use std::fmt;

use serde_core::de::{self as serde_de, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::protocol::entry::Status;

/// Each item's `N` fields (borrowed from the text where they hold no
/// escape), and the `M` optional fields of the call.
pub(crate) type ExactCall<'t, const N: usize, const M: usize> =
    (Vec<[Cow<'t, str>; N]>, [Option<String>; M]);

/// The fast path: arguments exactly as a tool's schema has them (an
/// object whose only keys are `list_key`, required, and the `optional`
/// text fields; the list's items objects of exactly the `fields`, each
/// text), read straight from the text without a `serde_json::Value`. Gives
/// each item's fields in the order of `fields`, and the optional fields;
/// `None` for anything else, which the lenient reader then reads (and says
/// why). Building the `Value` tree cost more than the rest of a call
/// (measured: `cargo bench -p plan-harness --bench versus -- "7 a model"`).
pub(crate) fn exact<'t, const N: usize, const M: usize>(
    text: &'t str,
    list_key: &str,
    fields: [&str; N],
    optional: [&str; M],
) -> Option<ExactCall<'t, N, M>> {
    let mut de = serde_json::Deserializer::from_str(text);
    let read = Exact {
        list_key,
        fields,
        optional,
    }
    .deserialize(&mut de)
    .ok()?;
    de.end().ok()?;
    Some(read)
}

struct Exact<'a, const N: usize, const M: usize> {
    list_key: &'a str,
    fields: [&'a str; N],
    optional: [&'a str; M],
}

/// Any departure from the exact shape: the lenient reader takes over.
fn departs<E: serde_de::Error>() -> E {
    E::custom("not the exact shape")
}

impl<'de, const N: usize, const M: usize> DeserializeSeed<'de> for Exact<'_, N, M> {
    type Value = ExactCall<'de, N, M>;

    fn deserialize<D: serde_de::Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de, const N: usize, const M: usize> Visitor<'de> for Exact<'_, N, M> {
    type Value = ExactCall<'de, N, M>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the tool's arguments")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut list = None;
        let mut optional: [Option<String>; M] = std::array::from_fn(|_| None);
        while let Some(key) = map.next_key::<&str>()? {
            if key == self.list_key && list.is_none() {
                list = Some(map.next_value_seed(Items(self.fields))?);
            } else if let Some(i) = self.optional.iter().position(|k| *k == key)
                && optional[i].is_none()
            {
                optional[i] = Some(map.next_value::<String>()?);
            } else {
                return Err(departs());
            }
        }
        Ok((list.ok_or_else(departs)?, optional))
    }
}

struct Items<'a, const N: usize>([&'a str; N]);

impl<'de, const N: usize> DeserializeSeed<'de> for Items<'_, N> {
    type Value = Vec<[Cow<'de, str>; N]>;

    fn deserialize<D: serde_de::Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for Items<'_, N> {
    type Value = Vec<[Cow<'de, str>; N]>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element_seed(Item(self.0))? {
            items.push(item);
        }
        Ok(items)
    }
}

struct Item<'a, const N: usize>([&'a str; N]);

impl<'de, const N: usize> DeserializeSeed<'de> for Item<'_, N> {
    type Value = [Cow<'de, str>; N];

    fn deserialize<D: serde_de::Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for Item<'_, N> {
    type Value = [Cow<'de, str>; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an item")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut values: [Option<Cow<'de, str>>; N] = std::array::from_fn(|_| None);
        while let Some(key) = map.next_key::<&str>()? {
            let i = self.0.iter().position(|k| *k == key).ok_or_else(departs)?;
            if values[i].is_some() {
                return Err(departs());
            }
            let value = map.next_value_seed(TextSeed)?;
            if value.trim().is_empty() {
                return Err(departs());
            }
            values[i] = Some(value);
        }
        if values.iter().any(Option::is_none) {
            return Err(departs());
        }
        Ok(values.map(Option::unwrap_or_default))
    }
}

/// A string, borrowed from the text where it holds no escape.
struct TextSeed;

impl<'de> DeserializeSeed<'de> for TextSeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: serde_de::Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for TextSeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: serde_de::Error>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(text))
    }

    fn visit_str<E: serde_de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(text.to_owned()))
    }

    fn visit_string<E: serde_de::Error>(self, text: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(text))
    }
}

/// A status exactly as the tools' schemas spell it.
pub(crate) fn exact_status(text: &str) -> Option<Status> {
    match text {
        "pending" => Some(Status::Pending),
        "in_progress" => Some(Status::InProgress),
        "completed" => Some(Status::Completed),
        _ => None,
    }
}
