//! The text writer: our message types written as JSON text without going
//! through serde's data model. It is what `to_json`, `write_json` and
//! `write_line` use for notifications, updates, plan content and entries.
//!
//! The `Serialize` impls (in each type's file) stay the reference: they serve
//! every other serializer, and `tests/roundtrip.rs` holds the two writers to
//! the same bytes for arbitrary messages in both spellings.

use std::io::{self, Write};

use serde_json::Value;

use crate::codec::{Sorted, Spelling};
use crate::protocol::content::PlanContent;
use crate::protocol::entry::PlanEntry;
use crate::protocol::meta::Meta;
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::SessionUpdate;
use crate::rules::JSON_ESCAPE;

/// Writes JSON text to `W` in one spelling.
pub(crate) struct Emitter<W> {
    out: W,
    spelling: Spelling,
}

impl<W: Write> Emitter<W> {
    pub(crate) fn new(out: W, spelling: Spelling) -> Self {
        Self { out, spelling }
    }

    fn raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)
    }

    /// A JSON string, escaped as `serde_json` escapes it. Eight bytes at a time
    /// are checked for anything to escape; only a chunk that has some is
    /// looked at byte by byte.
    fn str(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(b"\"")?;
        self.str_contents(text)?;
        self.out.write_all(b"\"")
    }

    /// The inside of a JSON string: `text` escaped, without the quotes.
    fn str_contents(&mut self, text: &str) -> io::Result<()> {
        let bytes = text.as_bytes();
        let mut start = 0;
        let mut index = 0;
        while index < bytes.len() {
            if let Some(chunk) = bytes.get(index..index + 8)
                && !needs_escape(chunk)
            {
                index += 8;
                continue;
            }
            let byte = bytes[index];
            index += 1;
            let escape = JSON_ESCAPE[usize::from(byte)];
            if escape == 0 {
                continue;
            }
            let index = index - 1;
            self.out.write_all(&bytes[start..index])?;
            if escape == b'u' {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let hex = [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]];
                self.out
                    .write_all(&[b'\\', b'u', b'0', b'0', hex[0], hex[1]])?;
            } else {
                self.out.write_all(&[b'\\', escape])?;
            }
            start = index + 1;
        }
        self.out.write_all(&bytes[start..])
    }

    /// Any JSON value (`_meta`, custom fields), keys sorted.
    fn value(&mut self, value: &Value) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, &Sorted(value)).map_err(io::Error::from)
    }

    /// `,"_meta":{...}` if there is one.
    fn meta(&mut self, meta: Option<&Meta>) -> io::Result<()> {
        let Some(meta) = meta else { return Ok(()) };
        self.raw(b",\"_meta\":")?;
        self.raw(meta.as_json().as_bytes())
    }

    /// `,"id":"..."` or `,"planId":"..."`.
    fn plan_id(&mut self, id: &str) -> io::Result<()> {
        self.raw(match self.spelling {
            Spelling::Rfd => b",\"id\":",
            Spelling::Acp => b",\"planId\":",
        })?;
        self.str(id)
    }

    fn entries(&mut self, entries: &[PlanEntry]) -> io::Result<()> {
        self.raw(b"[")?;
        for (index, entry) in entries.iter().enumerate() {
            if index > 0 {
                self.raw(b",")?;
            }
            self.entry(entry)?;
        }
        self.raw(b"]")
    }

    pub(crate) fn entry(&mut self, entry: &PlanEntry) -> io::Result<()> {
        self.raw(b"{\"content\":")?;
        self.str(&entry.content)?;
        self.raw(b",\"priority\":")?;
        self.str(entry.priority.as_str())?;
        self.raw(b",\"status\":")?;
        self.str(entry.status.as_str())?;
        self.meta(entry.meta.as_ref())?;
        self.raw(b"}")
    }

    pub(crate) fn content(&mut self, plan: &PlanContent) -> io::Result<()> {
        self.raw(b"{\"type\":")?;
        self.str(plan.type_name())?;
        self.plan_id(plan.id().as_str())?;
        match plan {
            PlanContent::Items { entries, .. } => {
                self.raw(b",\"entries\":")?;
                self.entries(entries)?;
            }
            PlanContent::File { uri, .. } => {
                self.raw(b",\"uri\":")?;
                self.str(uri.as_str())?;
            }
            PlanContent::Markdown { content, path, .. } => {
                self.raw(b",\"content\":")?;
                self.str(content)?;
                if let Some(path) = path {
                    self.raw(b",\"path\":")?;
                    self.str(path.as_str())?;
                }
            }
            PlanContent::Custom { fields, .. } | PlanContent::Reserved { fields, .. } => {
                for (key, value) in crate::codec::SortedMap(fields).entries() {
                    if !crate::protocol::content::OWN_KEYS.contains(&key.as_str()) {
                        self.raw(b",")?;
                        self.str(key)?;
                        self.raw(b":")?;
                        self.value(value)?;
                    }
                }
            }
        }
        self.meta(plan.meta())?;
        self.raw(b"}")
    }

    pub(crate) fn update(&mut self, update: &SessionUpdate) -> io::Result<()> {
        let meta = match update {
            SessionUpdate::Other(other) => {
                return serde_json::to_writer(
                    &mut self.out,
                    &crate::codec::SortedMap(other.as_object()),
                )
                .map_err(io::Error::from);
            }
            SessionUpdate::Plan(plan) => {
                self.raw(b"{\"sessionUpdate\":\"plan\",\"entries\":")?;
                self.entries(&plan.entries)?;
                plan.meta.as_ref()
            }
            SessionUpdate::PlanUpdate { plan, meta } => {
                self.raw(b"{\"sessionUpdate\":\"plan_update\",\"plan\":")?;
                self.content(plan)?;
                meta.as_ref()
            }
            SessionUpdate::PlanRemoved { id, meta } => {
                self.raw(b"{\"sessionUpdate\":\"plan_removed\"")?;
                self.plan_id(id.as_str())?;
                meta.as_ref()
            }
        };
        self.meta(meta)?;
        self.raw(b"}")
    }

    pub(crate) fn notification(&mut self, notification: &SessionNotification) -> io::Result<()> {
        self.raw(NOTIFICATION_HEAD.as_bytes())?;
        self.str_contents(notification.session_id.as_str())?;
        self.raw(NOTIFICATION_UPDATE.as_bytes())?;
        self.update(&notification.update)?;
        self.meta(notification.meta.as_ref())?;
        self.raw(NOTIFICATION_CLOSE.as_bytes())
    }
}

/// A `session/update` notification's text up to its session id's text:
/// the one place the envelope's head is written (the notification above,
/// and `StaticUpdate`, which keeps the rest of its message as text).
pub(crate) const NOTIFICATION_HEAD: &str =
    r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":""#;
/// Between the session id's text and the update.
pub(crate) const NOTIFICATION_UPDATE: &str = r#"","update":"#;
/// What closes `params` and the message.
pub(crate) const NOTIFICATION_CLOSE: &str = "}}";

/// Whether any of eight bytes must be escaped: a control character (below
/// 0x20), `"` or `\`. Word-at-a-time ("SWAR") tests, exact for these values.
#[inline(always)]
fn needs_escape(chunk: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut word = [0u8; 8];
    word.copy_from_slice(chunk);
    let word = u64::from_le_bytes(word);
    let below = |n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS;
    let equal = |byte: u8| {
        let x = word ^ (ONES * u64::from(byte));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    below(0x20) | equal(b'"') | equal(b'\\') != 0
}

/// Writes `text` as a JSON string.
#[cfg(test)]
fn json_string<W: Write>(out: W, text: &str) -> io::Result<()> {
    Emitter::new(out, Spelling::Rfd).str(text)
}

/// Writes the inside of a JSON string: `text` escaped, without the quotes
/// (for `StaticUpdate`, whose fixed text holds the quotes).
pub(crate) fn json_string_contents<W: Write>(out: W, text: &str) -> io::Result<()> {
    Emitter::new(out, Spelling::Rfd).str_contents(text)
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_envelope_text_is_made_of_the_tables_keys() {
        use crate::rules::{
            JSONRPC_VERSION, KEY_JSONRPC, KEY_METHOD, KEY_PARAMS, KEY_SESSION_ID, KEY_UPDATE,
            SESSION_UPDATE,
        };
        assert_eq!(
            super::NOTIFICATION_HEAD,
            format!(
                "{{\"{KEY_JSONRPC}\":\"{JSONRPC_VERSION}\",\"{KEY_METHOD}\":\"{SESSION_UPDATE}\",\"{KEY_PARAMS}\":{{\"{KEY_SESSION_ID}\":\""
            )
        );
        assert_eq!(super::NOTIFICATION_UPDATE, format!("\",\"{KEY_UPDATE}\":"));
    }

    use super::*;

    #[test]
    fn the_chunk_test_finds_exactly_the_bytes_to_escape() {
        for byte in 0..=255_u8 {
            for position in 0..8 {
                let mut chunk = [b'a'; 8];
                chunk[position] = byte;
                assert_eq!(
                    needs_escape(&chunk),
                    JSON_ESCAPE[usize::from(byte)] != 0,
                    "{byte:#x} at {position}"
                );
            }
        }
    }

    #[test]
    fn strings_escape_as_serde_json_escapes_them() {
        for byte in 0..=0x7f_u8 {
            let text = format!("a{}b", char::from(byte));
            let mut ours = Vec::new();
            json_string(&mut ours, &text).unwrap();
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string(&text).unwrap(),
                "{byte:#x}"
            );
        }
        // Escapes at every position of the eight-byte chunks, and none.
        for position in 0..20 {
            for special in ["\"", "\\", "\n", "\u{1}", "\u{1f}"] {
                let mut text = "x".repeat(20);
                text.replace_range(position..=position, special);
                let mut ours = Vec::new();
                json_string(&mut ours, &text).unwrap();
                assert_eq!(ours, serde_json::to_vec(&text).unwrap(), "{text:?}");
            }
        }
        let mut ours = Vec::new();
        json_string(&mut ours, "é ✓ 🚀 / \u{7f}").unwrap();
        assert_eq!(ours, serde_json::to_vec("é ✓ 🚀 / \u{7f}").unwrap());
    }
}
