//! A wire type's one shape: the [`WireType`] trait (written through its
//! [`Members`], read in either spelling), and [`wire_methods!`], which gives
//! every wire type the same public surface (`from_json`, `to_json`,
//! `Serialize`, `Deserialize`, ...) from it.

use serde_json::Value;

use super::strictness::ReadNotes;
use super::text_sink;
use super::writer::Members;
use crate::error::{Error, Path};
use crate::protocol::spelling::Spelling;

/// One wire type: written in a chosen spelling through its [`Members`] (the
/// one writer, `writer.rs`), read in either.
pub(crate) trait WireType: Members + Sized {
    /// Reads a value; `at` is where `value` sits in the whole message.
    fn read(value: Value, reading: &mut ReadNotes, at: &Path<'_>) -> Result<Self, Error>;

    /// Reads JSON text. By default through a `Value`; the message types
    /// override it with the one reader (their visitors, `codec/read/`'s engine).
    fn read_str(json: &str, reading: &mut ReadNotes) -> Result<Self, Error> {
        let value: Value = serde_json::from_str(json).map_err(|e| Error::syntax(&e))?;
        Self::read(value, reading, &Path::Root)
    }
}

/// The bytes as text, or an error saying where they stop being UTF-8.
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(bytes).map_err(|e| {
        Path::Root.invalid(format_args!(
            "the message is not UTF-8 text: invalid byte at offset {}",
            e.valid_up_to()
        ))
    })
}

/// Writes `value` as compact JSON, into a buffer sized up front
/// (`text_sink::size`: one allocation unless a string needs escapes). Our
/// types hold only strings, numbers and JSON values with string keys, which
/// `serde_json` always serializes.
pub(crate) fn to_json<T: Members>(value: &T, spelling: Spelling) -> String {
    let mut out = Vec::with_capacity(text_sink::size(value, spelling));
    text_sink::object(value, spelling, &mut out)
        .unwrap_or_else(|e| unreachable!("writing to a Vec cannot fail: {e}"));
    String::from_utf8(out).unwrap_or_else(|e| unreachable!("the writers write UTF-8: {e}"))
}

/// Gives a [`WireType`] type its public reading and writing methods and its serde impls.
///
/// Why a macro (and the only one that writes public methods): ten methods
/// and two serde impls on each of five wire types, which must be inherent
/// (users call `SessionUpdate::from_json(..)` with no trait to import) and
/// documented per type. A generic impl cannot add inherent methods to
/// several types, and serde's traits cannot be implemented for every
/// `T: WireType` (the orphan rule). Each method is one line calling a generic
/// function of this module, where go-to-definition lands for the logic.
macro_rules! wire_methods {
    ($ty:ty, $what:literal) => {
        impl $ty {
            #[doc = concat!("Reads ", $what, " from JSON text, in either spelling.")]
            ///
            /// # Errors
            /// [`Error`](crate::Error) if the text is not JSON or breaks the
            /// protocol; the error says where.
            pub fn from_json(json: &str) -> Result<Self, $crate::error::Error> {
                <Self as $crate::codec::wire_type::WireType>::read_str(json, &mut $crate::codec::strictness::ReadNotes::strict())
            }

            #[doc = concat!("Reads ", $what, " from bytes of JSON text (what a transport hands over).")]
            ///
            /// # Errors
            /// [`Error`](crate::Error) if the bytes are not UTF-8 (saying where),
            /// not JSON, or break the protocol.
            pub fn from_slice(json: &[u8]) -> Result<Self, $crate::error::Error> {
                Self::from_json($crate::codec::wire_type::utf8(json)?)
            }

            #[doc = concat!("Reads ", $what, " from JSON text, dropping malformed parts")]
            /// where the protocol allows; see [`Strictness::Lenient`](crate::wire::Strictness::Lenient).
            ///
            /// # Errors
            /// [`Error`](crate::Error) for mistakes lenient reading does not drop.
            pub fn from_json_lenient(json: &str) -> Result<$crate::codec::strictness::Parsed<Self>, $crate::error::Error> {
                Self::parse(json, $crate::codec::strictness::Strictness::Lenient)
            }

            #[doc = concat!("Reads ", $what, " from JSON text in `strictness`, with what reading saw:")]
            /// what lenient reading dropped, and the key the plan id was
            /// read under (see [`Parsed`](crate::wire::Parsed)).
            ///
            /// # Errors
            /// As [`from_json`](Self::from_json) in strict strictness,
            /// [`from_json_lenient`](Self::from_json_lenient) in lenient strictness.
            pub fn parse(json: &str, strictness: $crate::codec::strictness::Strictness) -> Result<$crate::codec::strictness::Parsed<Self>, $crate::error::Error> {
                let mut reading = $crate::codec::strictness::ReadNotes::new(strictness);
                let value = <Self as $crate::codec::wire_type::WireType>::read_str(json, &mut reading)?;
                Ok(reading.into_parsed(value))
            }

            #[doc = concat!("Reads ", $what, " from a parsed JSON value, in either spelling.")]
            ///
            /// # Errors
            /// [`Error`](crate::Error) if the value breaks the protocol; the error says where.
            pub fn from_value(value: ::serde_json::Value) -> Result<Self, $crate::error::Error> {
                let mut reading = $crate::codec::strictness::ReadNotes::strict();
                <Self as $crate::codec::wire_type::WireType>::read(value, &mut reading, &$crate::error::Path::Root)
            }

            /// [`parse`](Self::parse) for a parsed value: the same reader, in `strictness`.
            ///
            /// # Errors
            /// As [`parse`](Self::parse).
            pub fn parse_value(value: ::serde_json::Value, strictness: $crate::codec::strictness::Strictness) -> Result<$crate::codec::strictness::Parsed<Self>, $crate::error::Error> {
                let mut reading = $crate::codec::strictness::ReadNotes::new(strictness);
                let value = <Self as $crate::codec::wire_type::WireType>::read(value, &mut reading, &$crate::error::Path::Root)?;
                Ok(reading.into_parsed(value))
            }

            /// Writes compact JSON in `spelling`.
            pub fn to_json(&self, spelling: $crate::protocol::spelling::Spelling) -> String {
                $crate::codec::wire_type::to_json(self, spelling)
            }

            /// Writes compact JSON in `spelling` to `writer`.
            ///
            /// # Errors
            /// The writer's I/O error (a closed pipe, a full disk).
            pub fn write_json<W: ::std::io::Write>(
                &self,
                mut writer: W,
                spelling: $crate::protocol::spelling::Spelling,
            ) -> ::std::io::Result<()> {
                $crate::codec::text_sink::object(self, spelling, &mut writer)
            }

            /// Converts to a JSON value in `spelling`.
            pub fn to_value(&self, spelling: $crate::protocol::spelling::Spelling) -> ::serde_json::Value {
                ::serde_json::to_value($crate::codec::writer::Spelled(self, spelling))
                    .unwrap_or_else(|e| unreachable!("plan-core wire types always serialize: {e}"))
            }

            /// A view that serializes in `spelling` with any serde serializer.
            /// (The plain `Serialize` impl writes the ACP spelling.)
            pub fn spelled(&self, spelling: $crate::protocol::spelling::Spelling) -> impl ::serde_core::Serialize + '_ {
                $crate::codec::writer::Spelled(self, spelling)
            }
        }

        /// Writes the ACP spelling (what the published SDKs read); use
        /// `spelled` for the other.
        impl ::serde_core::Serialize for $ty {
            fn serialize<S: ::serde_core::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                ::serde_core::Serialize::serialize(&$crate::codec::writer::Spelled(self, $crate::protocol::spelling::Spelling::Acp), s)
            }
        }

        /// Reads either spelling, strictly.
        impl<'de> ::serde_core::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde_core::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let value = <::serde_json::Value as ::serde_core::Deserialize>::deserialize(d)?;
                Self::from_value(value).map_err(<D::Error as ::serde_core::de::Error>::custom)
            }
        }
    };
}
pub(crate) use wire_methods;
