//! A JSON document with the line and column of every value, for the errors
//! of the macros that read JSON files. A small reader of RFC 8259 text;
//! `serde_json` would cost the proc-macro crate a dependency and still not
//! keep positions.

use std::fmt;

/// A value and where it starts (1-based line and column, in characters).
pub(crate) struct Node {
    pub(crate) kind: NodeKind,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

pub(crate) enum NodeKind {
    Null,
    Bool(bool),
    /// The number's text, exactly as written.
    Number(String),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl NodeKind {
    /// "a string", "an object", ...: how errors name what they found.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool(_) => "a boolean",
            Self::Number(_) => "a number",
            Self::String(_) => "a string",
            Self::Array(_) => "an array",
            Self::Object(_) => "an object",
        }
    }
}

/// A syntax error and where it is.
#[derive(Debug)]
pub(crate) struct SyntaxError {
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

const MAX_DEPTH: usize = 128;

struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
    depth: usize,
}

/// Reads one JSON value filling the whole text (white space around it).
pub(crate) fn parse(text: &str) -> Result<Node, SyntaxError> {
    let mut reader = Cursor {
        chars: text.chars().peekable(),
        line: 1,
        column: 1,
        depth: 0,
    };
    reader.space();
    let node = reader.value()?;
    reader.space();
    match reader.chars.peek() {
        None => Ok(node),
        Some(_) => Err(reader.error("unexpected text after the JSON value")),
    }
}

impl Cursor<'_> {
    fn error(&self, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn space(&mut self) {
        while self
            .chars
            .peek()
            .is_some_and(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
        {
            self.next();
        }
    }

    fn expect(&mut self, wanted: char) -> Result<(), SyntaxError> {
        match self.chars.peek().copied() {
            Some(c) if c == wanted => {
                self.next();
                Ok(())
            }
            Some(c) => Err(self.error(format!("expected `{wanted}`, found `{c}`"))),
            None => Err(self.error(format!("expected `{wanted}`, found the end of the file"))),
        }
    }

    fn value(&mut self) -> Result<Node, SyntaxError> {
        let (line, column) = (self.line, self.column);
        let kind = match self.chars.peek().copied() {
            None => return Err(self.error("expected a JSON value, found the end of the file")),
            Some('{') => self.nested(Self::object)?,
            Some('[') => self.nested(Self::array)?,
            Some('"') => NodeKind::String(self.string()?),
            Some('t') => self.word("true", NodeKind::Bool(true))?,
            Some('f') => self.word("false", NodeKind::Bool(false))?,
            Some('n') => self.word("null", NodeKind::Null)?,
            Some(c) if c == '-' || c.is_ascii_digit() => NodeKind::Number(self.number()?),
            Some(c) => return Err(self.error(format!("expected a JSON value, found `{c}`"))),
        };
        Ok(Node { kind, line, column })
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<NodeKind, SyntaxError>,
    ) -> Result<NodeKind, SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        let kind = read(self);
        self.depth -= 1;
        kind
    }

    fn word(&mut self, word: &str, kind: NodeKind) -> Result<NodeKind, SyntaxError> {
        for wanted in word.chars() {
            if self.chars.peek() != Some(&wanted) {
                return Err(self.error(format!("expected `{word}`")));
            }
            self.next();
        }
        Ok(kind)
    }

    fn number(&mut self) -> Result<String, SyntaxError> {
        let mut text = String::new();
        while let Some(&c) = self.chars.peek() {
            if !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')) {
                break;
            }
            text.push(c);
            self.next();
        }
        let valid = is_json_number(&text) && text.parse::<f64>().is_ok_and(f64::is_finite);
        if valid {
            Ok(text)
        } else {
            Err(self.error(format!("`{text}` is not a JSON number")))
        }
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        self.expect('"')?;
        let mut out = String::new();
        loop {
            match self.next() {
                None => return Err(self.error("unterminated string")),
                Some('"') => return Ok(out),
                Some('\\') => match self.next() {
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('/') => out.push('/'),
                    Some('b') => out.push('\u{8}'),
                    Some('f') => out.push('\u{c}'),
                    Some('n') => out.push('\n'),
                    Some('r') => out.push('\r'),
                    Some('t') => out.push('\t'),
                    Some('u') => out.push(self.unicode()?),
                    _ => return Err(self.error("invalid escape in a string")),
                },
                Some(c) if c < ' ' => {
                    return Err(self.error("a control character must be escaped in a string"));
                }
                Some(c) => out.push(c),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let mut value = 0;
        for _ in 0..4 {
            let digit = self
                .next()
                .and_then(|c| c.to_digit(16))
                .ok_or_else(|| self.error("expected four hex digits after `\\u`"))?;
            value = value * 16 + digit;
        }
        Ok(value)
    }

    fn unicode(&mut self) -> Result<char, SyntaxError> {
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if self.next() != Some('\\') || self.next() != Some('u') {
                return Err(self.error("a high surrogate must be followed by `\\u` and a low one"));
            }
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.error("invalid low surrogate"));
            }
            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else {
            first
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid unicode escape"))
    }

    fn array(&mut self) -> Result<NodeKind, SyntaxError> {
        self.expect('[')?;
        let mut items = Vec::new();
        self.space();
        if self.chars.peek() == Some(&']') {
            self.next();
            return Ok(NodeKind::Array(items));
        }
        loop {
            self.space();
            if !items.is_empty() {
                self.no_trailing_comma(']')?;
            }
            items.push(self.value()?);
            self.space();
            match self.next() {
                Some(',') => {}
                Some(']') => return Ok(NodeKind::Array(items)),
                _ => return Err(self.error("expected `,` or `]` in an array")),
            }
        }
    }

    /// After a `,`: the container's `close` there is a trailing comma, which
    /// JSON (unlike Rust) does not allow; said so, not as "expected a value".
    fn no_trailing_comma(&self, close: char) -> Result<(), SyntaxError> {
        match self.chars.clone().next() {
            Some(c) if c == close => Err(self.error(format!(
                "a trailing comma before `{close}`: JSON allows none; remove the `,`"
            ))),
            _ => Ok(()),
        }
    }

    fn object(&mut self) -> Result<NodeKind, SyntaxError> {
        self.expect('{')?;
        let mut fields: Vec<(String, Node)> = Vec::new();
        self.space();
        if self.chars.peek() == Some(&'}') {
            self.next();
            return Ok(NodeKind::Object(fields));
        }
        loop {
            self.space();
            if !fields.is_empty() {
                self.no_trailing_comma('}')?;
            }
            let (line, column) = (self.line, self.column);
            let key = self.string()?;
            if fields.iter().any(|(k, _)| *k == key) {
                return Err(SyntaxError {
                    line,
                    column,
                    message: format!("`{key}` appears twice; a repeated key is ambiguous"),
                });
            }
            self.space();
            self.expect(':')?;
            self.space();
            fields.push((key, self.value()?));
            self.space();
            match self.next() {
                Some(',') => {}
                Some('}') => return Ok(NodeKind::Object(fields)),
                _ => return Err(self.error("expected `,` or `}` in an object")),
            }
        }
    }
}

/// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn is_json_number(text: &str) -> bool {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = text.strip_prefix('-').unwrap_or(text);
    let whole = digits(rest);
    if whole == 0 || (whole > 1 && rest.starts_with('0')) {
        return false;
    }
    let mut rest = &rest[whole..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        rest = &fraction[n..];
    }
    if let Some(exponent) = rest.strip_prefix(['e', 'E']) {
        let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        let n = digits(exponent);
        if n == 0 {
            return false;
        }
        rest = &exponent[n..];
    }
    rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_serde(node: &Node) -> serde_json::Value {
        match &node.kind {
            NodeKind::Null => serde_json::Value::Null,
            NodeKind::Bool(b) => (*b).into(),
            NodeKind::Number(n) => serde_json::from_str(n).unwrap(),
            NodeKind::String(s) => s.clone().into(),
            NodeKind::Array(items) => items.iter().map(to_serde).collect(),
            NodeKind::Object(fields) => fields
                .iter()
                .map(|(k, v)| (k.clone(), to_serde(v)))
                .collect(),
        }
    }

    #[test]
    fn reads_what_serde_json_reads() {
        let texts = [
            r#"{"a": [1, -2.5e3, true, false, null, "x\n\u00e9\ud83d\ude80\"\\\/"], "b": {}}"#,
            "[]",
            "  0 ",
            r#""\u0000""#,
            "[0, -0, 1.5, -1.25e-3, 2E+2, 10]",
        ];
        for text in texts {
            let ours = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(
                to_serde(&ours),
                serde_json::from_str::<serde_json::Value>(text).unwrap(),
                "{text}"
            );
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for text in [
            "",
            "{",
            "[1,]",
            "{\"a\" 1}",
            "01",
            "1.",
            ".5",
            "+1",
            "tru",
            "\"\u{1}\"",
            "\"\\x\"",
            "{} x",
            "[\"\\ud800\"]",
            // Found by fuzzing (fuzz target include_json): numbers serde_json refuses.
            "9e1111",
            "6.E1",
            "1e",
            "-",
            "1e+",
            "00",
        ] {
            assert!(parse(text).is_err(), "{text:?} read");
            assert!(
                serde_json::from_str::<serde_json::Value>(text).is_err(),
                "{text:?} read by serde_json"
            );
        }
    }

    #[test]
    fn positions_are_lines_and_columns() {
        let doc = parse("{\n  \"a\": [\n    7\n  ]\n}").unwrap();
        let NodeKind::Object(fields) = &doc.kind else {
            panic!()
        };
        let NodeKind::Array(items) = &fields[0].1.kind else {
            panic!()
        };
        assert_eq!((fields[0].1.line, fields[0].1.column), (2, 8));
        assert_eq!((items[0].line, items[0].column), (3, 5));
        let err = parse("{\n  \"a\": tru\n}").err().unwrap();
        assert_eq!(
            (err.line, err.column),
            (2, 11),
            "at the character that breaks `true`"
        );
    }

    #[test]
    fn a_trailing_comma_is_named_where_it_is() {
        for (text, line, column) in [("[1,\n ]", 2, 2), ("{\"a\": 1, }", 1, 10)] {
            let err = parse(text).err().unwrap();
            assert!(err.message.contains("trailing comma"), "{err}");
            assert_eq!((err.line, err.column), (line, column), "{text:?}");
        }
    }
}
