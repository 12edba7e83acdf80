//! The text writer: the one writer's sink for JSON text (`writer.rs` says
//! what each message holds; this says how JSON text spells it). It is what
//! `to_json`, `write_json` and `write_line` use, without serde's data model.
//! `tests/roundtrip.rs` holds it to the serde sink's bytes for arbitrary
//! messages in both spellings.

use std::io::{self, Write};

use serde_json::Value;

use crate::codec::Sorted;
use crate::codec::writer::{Members, Out};
use crate::protocol::meta::Meta;
use crate::protocol::spelling::Spelling;
use crate::rules::JSON_ESCAPE;

/// Writes `value` as one JSON object to `out`.
#[inline]
pub(crate) fn object<T: Members + ?Sized, W: Write + ?Sized>(
    value: &T,
    spelling: Spelling,
    out: &mut W,
) -> io::Result<()> {
    out.write_all(b"{")?;
    value.members(spelling, &mut Text { out, first: true })?;
    out.write_all(b"}")
}

/// Room for `,"key":` on the stack (the table's keys are far shorter).
const ROOM: usize = 32;

/// The members of one object as JSON text.
struct Text<'a, W: ?Sized> {
    out: &'a mut W,
    /// No member written yet (no comma before the next).
    first: bool,
}

impl<W: Write + ?Sized> Text<'_, W> {
    /// `"key":`, after a comma unless it is the first member. The fixed keys
    /// are the table's, which need no escaping (`the_tables_keys_need_no_escaping`).
    #[expect(
        clippy::inline_always,
        reason = "measured: without it the caller's crate calls these per member (+30-75% on `to_json`, docs/figures.md)"
    )]
    #[inline(always)]
    fn key(&mut self, key: &'static str) -> io::Result<()> {
        debug_assert!(
            !key.bytes().any(|b| JSON_ESCAPE[usize::from(b)] != 0),
            "{key}"
        );
        // `,"key":` in one write: the table's keys are short, and once
        // inlined their length is a constant.
        let key = key.as_bytes();
        let skip = usize::from(std::mem::take(&mut self.first));
        let mut text = [0u8; ROOM];
        match text.get_mut(2..2 + key.len()) {
            Some(room) if key.len() + 4 <= ROOM => room.copy_from_slice(key),
            _ => {
                let open: &[u8] = if skip == 1 { b"\"" } else { b",\"" };
                self.out.write_all(open)?;
                self.out.write_all(key)?;
                return self.out.write_all(b"\":");
            }
        }
        text[0] = b',';
        text[1] = b'"';
        text[2 + key.len()] = b'"';
        text[3 + key.len()] = b':';
        self.out.write_all(&text[skip..4 + key.len()])
    }
}

impl<W: Write + ?Sized> Out for Text<'_, W> {
    type Error = io::Error;

    #[expect(
        clippy::inline_always,
        reason = "measured: without it the caller's crate calls these per member (+30-75% on `to_json`, docs/figures.md)"
    )]
    #[inline(always)]
    fn str(&mut self, key: &'static str, value: &str) -> io::Result<()> {
        self.key(key)?;
        json_string(self.out, value)
    }

    #[inline]
    fn object<T: Members>(
        &mut self,
        key: &'static str,
        value: &T,
        spelling: Spelling,
    ) -> io::Result<()> {
        self.key(key)?;
        object(value, spelling, self.out)
    }

    #[inline]
    fn list<T: Members>(
        &mut self,
        key: &'static str,
        items: &[T],
        spelling: Spelling,
    ) -> io::Result<()> {
        self.key(key)?;
        self.out.write_all(b"[")?;
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                self.out.write_all(b",")?;
            }
            object(item, spelling, self.out)?;
        }
        self.out.write_all(b"]")
    }

    #[inline]
    fn value(&mut self, key: &str, value: &Value) -> io::Result<()> {
        if !std::mem::take(&mut self.first) {
            self.out.write_all(b",")?;
        }
        json_string(self.out, key)?;
        self.out.write_all(b":")?;
        serde_json::to_writer(&mut *self.out, &Sorted(value)).map_err(io::Error::from)
    }

    #[expect(
        clippy::inline_always,
        reason = "measured: without it the caller's crate calls these per member (+30-75% on `to_json`, docs/figures.md)"
    )]
    #[inline(always)]
    fn meta(&mut self, meta: Option<&Meta>) -> io::Result<()> {
        let Some(meta) = meta else { return Ok(()) };
        self.key(crate::rules::KEY_META)?;
        self.out.write_all(meta.as_json().as_bytes())
    }
}

/// Writes `text` as a JSON string.
#[inline]
fn json_string<W: Write + ?Sized>(out: &mut W, text: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    json_string_contents(out, text)?;
    out.write_all(b"\"")
}

/// Writes the inside of a JSON string: `text` escaped as `serde_json`
/// escapes it, without the quotes (for `StaticUpdate`, whose fixed text
/// holds the quotes). Eight bytes at a time are checked for anything to
/// escape; only a chunk that has some is looked at byte by byte.
pub(crate) fn json_string_contents<W: Write + ?Sized>(out: &mut W, text: &str) -> io::Result<()> {
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
        out.write_all(&bytes[start..index])?;
        if escape == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let hex = [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]];
            out.write_all(&[b'\\', b'u', b'0', b'0', hex[0], hex[1]])?;
        } else {
            out.write_all(&[b'\\', escape])?;
        }
        start = index + 1;
    }
    out.write_all(&bytes[start..])
}

/// A `session/update` notification's text up to its session id's text, as
/// the one writer writes it (a test below holds them together), for
/// `StaticUpdate`, which keeps the rest of its message as text.
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

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn the_envelope_text_is_what_the_one_writer_writes() {
        use crate::protocol::id::SessionId;
        use crate::protocol::notification::SessionNotification;
        use crate::protocol::update::{Plan, SessionUpdate};
        for id in ["sess_1", "a \"quoted\" \\ id\n", ""] {
            let update = SessionUpdate::Plan(Plan::new(Vec::new()));
            let message = SessionNotification::new(SessionId::new(id), update.clone());
            for spelling in [Spelling::Acp, Spelling::Rfd] {
                let mut by_hand = NOTIFICATION_HEAD.as_bytes().to_vec();
                json_string_contents(&mut by_hand, id).unwrap();
                by_hand.extend_from_slice(NOTIFICATION_UPDATE.as_bytes());
                by_hand.extend_from_slice(update.to_json(spelling).as_bytes());
                by_hand.extend_from_slice(NOTIFICATION_CLOSE.as_bytes());
                assert_eq!(
                    String::from_utf8(by_hand).unwrap(),
                    message.to_json(spelling)
                );
            }
        }
    }

    #[test]
    fn the_tables_keys_need_no_escaping() {
        use crate::rules::layout::*;
        let tables = [
            ENTRY,
            ITEMS,
            MARKDOWN,
            FILE,
            CUSTOM,
            UPDATE_PLAN,
            UPDATE_PLAN_UPDATE,
            UPDATE_PLAN_REMOVED,
            NOTIFICATION,
            PARAMS,
        ];
        let spelled = [Spelling::Acp, Spelling::Rfd]
            .into_iter()
            .flat_map(|s| [s.plan_id_key(), s.capability_key()]);
        let keys = tables.iter().flat_map(|t| t.iter().map(|f| f.key));
        for key in keys.chain(spelled) {
            let mut escaped = Vec::new();
            json_string(&mut escaped, key).unwrap();
            assert_eq!(escaped, format!("\"{key}\"").into_bytes(), "{key}");
        }
    }

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
