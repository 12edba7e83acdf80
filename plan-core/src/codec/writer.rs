//! The one writer. Each message type says once which members it has, in
//! which order, with which values ([`Members`]); two sinks put that out:
//! JSON text (`text_sink.rs`: `to_json`, `write_json`, `write_line`) and
//! any serde serializer ([`Spelled`]'s `Serialize`: `to_value`, the SDK's
//! path, and every other format). A third sink counts the members, so a
//! serializer that sizes its map is told the exact length.
//!
//! Nothing else writes a message's keys: `StaticUpdate`'s envelope text is
//! this writer's output, checked by a test in `text_sink.rs`.

use std::convert::Infallible;

use serde_core::Serialize;
use serde_core::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::codec::sorted::Sorted;
use crate::protocol::meta::Meta;
use crate::protocol::spelling::Spelling;

/// One object's members, in order, in a spelling: the whole of a type's writer.
pub(crate) trait Members {
    /// Puts out each member of `self` in `spelling`.
    fn members<O: Sink>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error>;
}

/// Where a [`Members`] puts its members.
pub(crate) trait Sink {
    /// What can go wrong (I/O for text, the serializer's error for serde).
    type Error;
    /// A member whose value is a string. The fixed keys (`&'static str`)
    /// are the table's and need no escaping; `value`'s come from data.
    fn str(&mut self, key: &'static str, value: &str) -> Result<(), Self::Error>;
    /// A member whose value is one of the protocol's own words (a known
    /// name, a tag, the envelope's values), which need no escaping
    /// (`the_protocols_words_need_no_escaping`).
    fn word(&mut self, key: &'static str, value: &'static str) -> Result<(), Self::Error> {
        self.str(key, value)
    }
    /// A member whose value is an object with its own layout.
    fn object<T: Members>(
        &mut self,
        key: &'static str,
        value: &T,
        spelling: Spelling,
    ) -> Result<(), Self::Error>;
    /// A member whose value is an array of objects.
    fn list<T: Members>(
        &mut self,
        key: &'static str,
        items: &[T],
        spelling: Spelling,
    ) -> Result<(), Self::Error>;
    /// A member whose value is any JSON value, written with sorted keys.
    fn value(&mut self, key: &str, value: &Value) -> Result<(), Self::Error>;
    /// The `_meta` member, if there is one, exactly as it came.
    fn meta(&mut self, meta: Option<&Meta>) -> Result<(), Self::Error>;
}

/// Counts members (a serde map's length).
struct Count(usize);

impl Sink for Count {
    type Error = Infallible;
    fn str(&mut self, _: &'static str, _: &str) -> Result<(), Infallible> {
        self.0 += 1;
        Ok(())
    }
    fn object<T: Members>(
        &mut self,
        _: &'static str,
        _: &T,
        _: Spelling,
    ) -> Result<(), Infallible> {
        self.0 += 1;
        Ok(())
    }
    fn list<T: Members>(
        &mut self,
        _: &'static str,
        _: &[T],
        _: Spelling,
    ) -> Result<(), Infallible> {
        self.0 += 1;
        Ok(())
    }
    fn value(&mut self, _: &str, _: &Value) -> Result<(), Infallible> {
        self.0 += 1;
        Ok(())
    }
    fn meta(&mut self, meta: Option<&Meta>) -> Result<(), Infallible> {
        self.0 += usize::from(meta.is_some());
        Ok(())
    }
}

/// The number of members `value` has in `spelling`.
fn count<T: Members + ?Sized>(value: &T, spelling: Spelling) -> usize {
    let mut count = Count(0);
    match value.members(spelling, &mut count) {
        Ok(()) => count.0,
        Err(never) => match never {},
    }
}

/// A value together with the spelling to write it in: serializes through its
/// [`Members`] with any serde serializer.
pub(crate) struct Spelled<'a, T: ?Sized>(pub(crate) &'a T, pub(crate) Spelling);

impl<T: Members + ?Sized> Serialize for Spelled<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Spelled(value, spelling) = *self;
        let mut map = s.serialize_map(Some(count(value, spelling)))?;
        value.members(spelling, &mut SerdeMap(&mut map))?;
        map.end()
    }
}

/// A list of objects, each through its layout.
struct List<'a, T>(&'a [T], Spelling);

impl<T: Members> Serialize for List<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|item| Spelled(item, self.1)))
    }
}

/// The serde sink: each member is one map entry.
struct SerdeMap<'a, M>(&'a mut M);

impl<M: SerializeMap> Sink for SerdeMap<'_, M> {
    type Error = M::Error;
    fn str(&mut self, key: &'static str, value: &str) -> Result<(), M::Error> {
        self.0.serialize_entry(key, value)
    }
    fn object<T: Members>(
        &mut self,
        key: &'static str,
        value: &T,
        spelling: Spelling,
    ) -> Result<(), M::Error> {
        self.0.serialize_entry(key, &Spelled(value, spelling))
    }
    fn list<T: Members>(
        &mut self,
        key: &'static str,
        items: &[T],
        spelling: Spelling,
    ) -> Result<(), M::Error> {
        self.0.serialize_entry(key, &List(items, spelling))
    }
    fn value(&mut self, key: &str, value: &Value) -> Result<(), M::Error> {
        self.0.serialize_entry(key, &Sorted(value))
    }
    fn meta(&mut self, meta: Option<&Meta>) -> Result<(), M::Error> {
        match meta {
            Some(meta) => self.0.serialize_entry(crate::rules::KEY_META, meta),
            None => Ok(()),
        }
    }
}
