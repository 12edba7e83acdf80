//! The text sink: the one writer's sink for JSON text (`writer.rs` says
//! what each message holds; this says how JSON text spells it). It is what
//! `to_json`, `write_json` and `write_line` use, without serde's data model.
//! `tests/roundtrip.rs` holds it to the serde sink's bytes for arbitrary
//! messages in both spellings.

use std::io::{self, Write};

use serde_json::Value;

use crate::codec::sorted::Sorted;
use crate::codec::writer::{Members, Sink};
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
    value.members(spelling, &mut TextOut { out, first: true })?;
    out.write_all(b"}")
}

/// Room for `"key":"` on the stack (the table's keys are far shorter).
const ROOM: usize = 32;

/// The members of one object as JSON text.
struct TextOut<'a, W: ?Sized> {
    out: &'a mut W,
    /// No member written yet (no comma before the next).
    first: bool,
}

impl<W: Write + ?Sized> TextOut<'_, W> {
    /// `,"key":` (no comma before the first member), then `open` (an
    /// opening quote or bracket, or nothing). The fixed keys are the
    /// table's, which need no escaping (`the_tables_keys_need_no_escaping`).
    #[expect(
        clippy::inline_always,
        reason = "measured: without it the caller's crate calls these per member (+30-75% on `to_json`, docs/figures.md)"
    )]
    #[inline(always)]
    fn head(&mut self, key: &'static str, open: &'static [u8]) -> io::Result<()> {
        debug_assert!(
            !key.bytes().any(|b| JSON_ESCAPE[usize::from(b)] != 0),
            "{key}"
        );
        // The comma on its own: the rest has a length known where this is
        // inlined, so it is copied without a call (measured: a third of
        // `to_json`'s time went to copies of unknown length).
        if !std::mem::take(&mut self.first) {
            self.out.write_all(b",")?;
        }
        let key = key.as_bytes();
        let end = 3 + key.len() + open.len();
        if end > ROOM {
            for part in [b"\"", key, b"\":", open] {
                self.out.write_all(part)?;
            }
            return Ok(());
        }
        let mut text = [0u8; ROOM];
        text[0] = b'"';
        text[1..=key.len()].copy_from_slice(key);
        text[1 + key.len()] = b'"';
        text[2 + key.len()] = b':';
        text[3 + key.len()..end].copy_from_slice(open);
        self.out.write_all(&text[..end])
    }
}

impl<W: Write + ?Sized> Sink for TextOut<'_, W> {
    type Error = io::Error;

    #[expect(
        clippy::inline_always,
        reason = "measured: without it the caller's crate calls these per member (+30-75% on `to_json`, docs/figures.md)"
    )]
    #[inline(always)]
    fn str(&mut self, key: &'static str, value: &str) -> io::Result<()> {
        self.head(key, b"\"")?;
        json_string_contents(self.out, value)?;
        self.out.write_all(b"\"")
    }

    #[expect(
        clippy::inline_always,
        reason = "measured: without it the caller's crate calls these per member (+30-75% on `to_json`, docs/figures.md)"
    )]
    #[inline(always)]
    fn word(&mut self, key: &'static str, value: &'static str) -> io::Result<()> {
        // No escape scan: the protocol's words need none
        // (`the_protocols_words_need_no_escaping`).
        self.head(key, b"\"")?;
        self.out.write_all(value.as_bytes())?;
        self.out.write_all(b"\"")
    }

    #[inline]
    fn object<T: Members>(
        &mut self,
        key: &'static str,
        value: &T,
        spelling: Spelling,
    ) -> io::Result<()> {
        self.head(key, b"")?;
        object(value, spelling, self.out)
    }

    #[inline]
    fn list<T: Members>(
        &mut self,
        key: &'static str,
        items: &[T],
        spelling: Spelling,
    ) -> io::Result<()> {
        self.head(key, b"[")?;
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
        self.head(crate::rules::KEY_META, b"")?;
        self.out.write_all(meta.as_json().as_bytes())
    }
}

/// The length of `value`'s JSON text, from what is cheap to know: each
/// key's and string's length, `_meta`'s text, a JSON value's walk. Exact
/// when no string needs an escape (each escape adds a byte or five, and
/// the buffer grows once then). What `to_json` reserves.
pub(crate) fn size<T: Members + ?Sized>(value: &T, spelling: Spelling) -> usize {
    let mut size = Size {
        bytes: 2,
        first: true,
    };
    match value.members(spelling, &mut size) {
        Ok(()) => size.bytes,
        Err(never) => match never {},
    }
}

/// The size sink: counts the bytes the text sink would write, writing none.
struct Size {
    bytes: usize,
    first: bool,
}

impl Size {
    /// `,"key":`, as [`TextOut::head`] writes it.
    fn head(&mut self, key: &str) {
        self.bytes += usize::from(!std::mem::take(&mut self.first)) + key.len() + 3;
    }
}

impl Sink for Size {
    type Error = std::convert::Infallible;

    fn str(&mut self, key: &'static str, value: &str) -> Result<(), Self::Error> {
        self.head(key);
        self.bytes += value.len() + 2;
        Ok(())
    }

    fn object<T: Members>(
        &mut self,
        key: &'static str,
        value: &T,
        spelling: Spelling,
    ) -> Result<(), Self::Error> {
        self.head(key);
        self.bytes += size(value, spelling);
        Ok(())
    }

    fn list<T: Members>(
        &mut self,
        key: &'static str,
        items: &[T],
        spelling: Spelling,
    ) -> Result<(), Self::Error> {
        self.head(key);
        // The brackets, and a comma between items.
        self.bytes += 2 + items.len().saturating_sub(1);
        for item in items {
            self.bytes += size(item, spelling);
        }
        Ok(())
    }

    fn value(&mut self, key: &str, value: &Value) -> Result<(), Self::Error> {
        self.head(key);
        self.bytes += value_size(value);
        Ok(())
    }

    fn meta(&mut self, meta: Option<&Meta>) -> Result<(), Self::Error> {
        if let Some(meta) = meta {
            self.head(crate::rules::KEY_META);
            self.bytes += meta.as_json().len();
        }
        Ok(())
    }
}

/// A JSON value's compact length, escapes aside (a number's digits are
/// estimated at 20, a float's longest).
fn value_size(value: &Value) -> usize {
    match value {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(_) => 20,
        Value::String(text) => text.len() + 2,
        Value::Array(items) => {
            2 + items.len().saturating_sub(1) + items.iter().map(value_size).sum::<usize>()
        }
        Value::Object(map) => {
            2 + map.len().saturating_sub(1)
                + map
                    .iter()
                    .map(|(key, value)| key.len() + 3 + value_size(value))
                    .sum::<usize>()
        }
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
        // Fewer than eight bytes left: the last eight, overlapping what was
        // checked, are one word too.
        if index + 8 > bytes.len()
            && let Some(last) = bytes.len().checked_sub(8).map(|from| &bytes[from..])
            && !needs_escape(last)
        {
            break;
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

    /// `to_json`'s reservation is the text's length for every sample (every
    /// key of the layout table) whose strings need no escape, and never
    /// short by more than the escapes' bytes.
    #[test]
    fn the_size_is_the_texts_length_but_for_escapes() {
        for message in crate::codec::layout_tests::samples() {
            for spelling in [Spelling::Acp, Spelling::Rfd] {
                let text = crate::codec::wire_type::to_json(&message, spelling);
                let reserved = size(&message, spelling);
                let escapes = text.matches('\\').count() * 5;
                assert!(
                    reserved + escapes >= text.len(),
                    "{reserved} for {}: {text}",
                    text.len()
                );
                // Numbers are reserved at their longest; everything else exactly.
                if !text.contains('\\') && !text.bytes().any(|b| b.is_ascii_digit()) {
                    assert_eq!(reserved, text.len(), "{text}");
                }
            }
        }
        let plain = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[{"content":"a","priority":"high","status":"pending"},{"content":"b","priority":"low","status":"completed","_meta":{"k":[true,null]}}]}}}}"#;
        let message = crate::SessionNotification::from_json(plain).unwrap();
        assert_eq!(size(&message, Spelling::Acp), plain.len());
    }

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
    fn the_protocols_words_need_no_escaping() {
        use crate::protocol::entry::{Priority, Status};
        use crate::rules::{PlanType, TAG_PLAN, TAG_PLAN_REMOVED, TAG_PLAN_UPDATE};
        let names = Priority::KNOWN_VALUES
            .iter()
            .map(|p| p.known_str().unwrap());
        let statuses = Status::KNOWN_VALUES.iter().map(|s| s.known_str().unwrap());
        let types = [PlanType::Items, PlanType::Markdown, PlanType::File].map(PlanType::name);
        let others = [
            TAG_PLAN,
            TAG_PLAN_UPDATE,
            TAG_PLAN_REMOVED,
            crate::rules::JSONRPC_VERSION,
            crate::protocol::notification::METHOD,
        ];
        for word in names.chain(statuses).chain(types).chain(others) {
            let mut escaped = Vec::new();
            json_string_contents(&mut escaped, word).unwrap();
            assert_eq!(escaped, word.as_bytes(), "{word}");
        }
    }

    #[test]
    fn a_string_is_escaped_wherever_its_escape_falls() {
        // Every length up to three words, an escape at every place: the
        // word-at-a-time scan and its overlapping last word miss none.
        for len in 0..24 {
            for at in 0..len {
                for special in ['"', '\\', '\n', '\u{1}'] {
                    let mut text: Vec<char> = std::iter::repeat_n('a', len).collect();
                    text[at] = special;
                    let text: String = text.into_iter().collect();
                    let mut ours = Vec::new();
                    json_string(&mut ours, &text).unwrap();
                    assert_eq!(
                        String::from_utf8(ours).unwrap(),
                        serde_json::to_string(&text).unwrap()
                    );
                }
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
