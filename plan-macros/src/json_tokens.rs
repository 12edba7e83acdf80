//! JSON written in tokens (`meta: {...}`, `fields: {...}` in `plan!`), read
//! into the macros' one JSON value (`json_reader::Node`, which a file's JSON
//! is read into too), and the one writer of that value: compact, byte for
//! byte as plan-core writes it at run time (the same string escapes;
//! `_meta` objects in source order, kept as written, custom plan fields with
//! their keys sorted). The expansion tests in `tests/plan_macro.rs` hold the
//! two producers to one output.

use std::fmt::Write as _;

use crate::json_reader::{Node, NodeKind};
use crate::rules;
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};

/// Writes `node` as compact JSON (the one writer of the macros' JSON, for
/// values read from a file or from tokens alike): every object's members in
/// source order, or sorted by key if `sorted`; numbers as their text.
pub(crate) fn write(node: &Node, out: &mut String, sorted: bool) {
    match &node.kind {
        NodeKind::Null => out.push_str("null"),
        NodeKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        NodeKind::Number(text) => out.push_str(text),
        NodeKind::String(s) => write_str(out, s),
        NodeKind::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out, sorted);
            }
            out.push(']');
        }
        NodeKind::Object(members) => {
            out.push('{');
            for (i, (key, value)) in sorted_if(members, sorted).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, key);
                out.push(':');
                write(value, out, sorted);
            }
            out.push('}');
        }
    }
}

/// The members, sorted by key if `sorted`.
pub(crate) fn sorted_if(members: &[(String, Node)], sorted: bool) -> Vec<&(String, Node)> {
    let mut members: Vec<&(String, Node)> = members.iter().collect();
    if sorted {
        members.sort_by(|a, b| a.0.cmp(&b.0));
    }
    members
}

/// A value read from tokens: it has no line and column (its tokens' spans
/// were where any mistake in it was reported).
fn node(kind: NodeKind) -> Node {
    Node {
        kind,
        line: 0,
        column: 0,
    }
}

/// Writes a JSON string literal with `serde_json`'s escapes: `"`, `\`, the
/// short forms `\b \t \n \f \r`, and `\u00XX` (lower-case hex) for the other
/// control characters below U+0020. Nothing else is escaped.
pub(crate) fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        // The escapes of `rules::JSON_ESCAPE`, the table the run-time writer uses.
        let escape = u8::try_from(c).map_or(0, |byte| rules::JSON_ESCAPE[usize::from(byte)]);
        match escape {
            0 => out.push(c),
            b'u' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            letter => {
                out.push('\\');
                out.push(char::from(letter));
            }
        }
    }
    out.push('"');
}

/// Reads the tokens of a `{ ... }` group written in `serde_json::json!`
/// syntax as a literal JSON object. `Err` carries the span of the first token
/// that is not literal JSON (an interpolated expression, a float, ...) and why.
pub(crate) fn parse_object(group: &Group) -> Result<Node, (Span, String)> {
    match parse_group(group)? {
        object @ Node {
            kind: NodeKind::Object(_),
            ..
        } => Ok(object),
        _ => Err((group.span(), "expected a JSON object".into())),
    }
}

fn parse_group(group: &Group) -> Result<Node, (Span, String)> {
    let parts = split_commas(group.stream());
    match group.delimiter() {
        Delimiter::Bracket => parts
            .iter()
            .map(|p| parse_value(p, group.span()))
            .collect::<Result<_, _>>()
            .map(|items| node(NodeKind::Array(items))),
        Delimiter::Brace => {
            let mut members: Vec<(String, Node)> = Vec::new();
            for part in &parts {
                let (key, value) = match part.as_slice() {
                    [TokenTree::Literal(key), TokenTree::Punct(colon), value @ ..]
                        if colon.as_char() == ':' =>
                    {
                        (key, value)
                    }
                    [first, ..] => {
                        return Err((
                            first.span(),
                            "expected `\"key\": value`, with a string literal key".into(),
                        ));
                    }
                    [] => continue,
                };
                let NodeKind::String(name) = parse_literal(key)?.kind else {
                    return Err((key.span(), "a JSON key must be a string literal".into()));
                };
                if members.iter().any(|(known, _)| *known == name) {
                    return Err((key.span(), format!("duplicate JSON key `{name}`")));
                }
                let value = parse_value(value, key.span())?;
                members.push((name, value));
            }
            Ok(node(NodeKind::Object(members)))
        }
        _ => Err((group.span(), "expected `{...}` or `[...]`".into())),
    }
}

fn parse_value(tokens: &[TokenTree], near: Span) -> Result<Node, (Span, String)> {
    match tokens {
        [TokenTree::Group(g)] if g.delimiter() != Delimiter::Parenthesis => parse_group(g),
        [TokenTree::Literal(lit)] => parse_literal(lit),
        [TokenTree::Punct(minus), TokenTree::Literal(lit)] if minus.as_char() == '-' => {
            match parse_literal(lit)?.kind {
                NodeKind::Number(n) if n != "0" => Ok(node(NodeKind::Number(format!("-{n}")))),
                NodeKind::Number(n) => Ok(node(NodeKind::Number(n))),
                _ => Err((lit.span(), "only a number can be negative".into())),
            }
        }
        [TokenTree::Ident(id)] if id == "null" => Ok(node(NodeKind::Null)),
        [TokenTree::Ident(id)] if id == "true" => Ok(node(NodeKind::Bool(true))),
        [TokenTree::Ident(id)] if id == "false" => Ok(node(NodeKind::Bool(false))),
        [first, ..] => Err((
            first.span(),
            "not literal JSON: an expression is only known at run time".into(),
        )),
        [] => Err((near, "expected a JSON value".into())),
    }
}

fn parse_literal(lit: &proc_macro2::Literal) -> Result<Node, (Span, String)> {
    let span = lit.span();
    let tokens: TokenStream = TokenTree::Literal(lit.clone()).into();
    match syn::parse2::<syn::Lit>(tokens) {
        Ok(syn::Lit::Str(s)) => Ok(node(NodeKind::String(s.value()))),
        // The number's JSON text: its decimal digits (`0x10` and `1_000` as
        // JSON writes them).
        Ok(syn::Lit::Int(i)) if i.suffix().is_empty() => i
            .base10_parse::<u64>()
            .ok()
            .map(|v| node(NodeKind::Number(v.to_string())))
            .ok_or((span, "this integer does not fit JSON's 64 bits".into())),
        Ok(syn::Lit::Float(_)) => {
            Err((span, "a float's JSON text is only known at run time".into()))
        }
        _ => Err((
            span,
            "expected a string, an integer, `true`, `false` or `null`".into(),
        )),
    }
}

/// Checks the shape of a `{ ... }` or `[ ... ]` written in
/// `serde_json::json!` syntax, where values may be expressions: every member
/// of an object is `key: value`, no value is missing. `Err` carries the span
/// of the offending token and what to write instead, so a mistake is not
/// left to `json!`, which reports it over the whole macro call.
pub(crate) fn check_structure(group: &Group) -> Result<(), (Span, String)> {
    let parts = split_commas(group.stream());
    for (index, part) in parts.iter().enumerate() {
        let Some(first) = part.first() else {
            let span = group.span_close();
            return Err((
                span,
                format!("expected a value before the comma (item {})", index + 1),
            ));
        };
        let value = match group.delimiter() {
            Delimiter::Brace => {
                let Some(colon) = key_separator(part) else {
                    let arrow = part.windows(2).find_map(|pair| match pair {
                        [TokenTree::Punct(eq), TokenTree::Punct(gt)]
                            if eq.as_char() == '=' && gt.as_char() == '>' =>
                        {
                            Some(eq.span())
                        }
                        _ => None,
                    });
                    return Err(match arrow {
                        Some(span) => (
                            span,
                            "a JSON member is `\"key\": value`: write `:`, not `=>`".into(),
                        ),
                        None => (
                            first.span(),
                            "expected `\"key\": value` (a JSON member needs a `:` after its key)"
                                .into(),
                        ),
                    });
                };
                if colon == 0 {
                    return Err((first.span(), "expected a key before `:`".into()));
                }
                &part[colon + 1..]
            }
            Delimiter::Bracket => &part[..],
            _ => return Err((group.span(), "expected `{...}` or `[...]`".into())),
        };
        match value {
            [] => {
                let span = part.last().map_or(group.span(), TokenTree::span);
                return Err((span, "expected a value after `:`".into()));
            }
            [TokenTree::Group(inner)]
                if matches!(inner.delimiter(), Delimiter::Brace | Delimiter::Bracket) =>
            {
                check_structure(inner)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The index of the `:` between a member's key and its value: a lone `:`,
/// not part of a `::` path in an expression key.
fn key_separator(part: &[TokenTree]) -> Option<usize> {
    let colon = |t: &TokenTree| matches!(t, TokenTree::Punct(p) if p.as_char() == ':');
    (0..part.len()).find(|&i| {
        colon(&part[i])
            && !matches!(&part[i], TokenTree::Punct(p) if p.spacing() == proc_macro2::Spacing::Joint && part.get(i + 1).is_some_and(colon))
            && !(i > 0 && matches!(&part[i - 1], TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == proc_macro2::Spacing::Joint))
    })
}

/// Splits tokens at top-level commas (a trailing comma gives no empty part).
fn split_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut parts = vec![Vec::new()];
    for token in tokens {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => parts.push(Vec::new()),
            _ => parts
                .last_mut()
                .unwrap_or_else(|| unreachable!())
                .push(token),
        }
    }
    if parts.last().is_some_and(Vec::is_empty) {
        parts.pop();
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_like_serde_json() {
        let samples = [
            "plain",
            "quote \" and \\ slash /",
            "\n\r\t\u{8}\u{c}",
            "\u{0}\u{1f}\u{7f}",
            "é ✓ 🚀",
            "",
        ];
        for s in samples {
            let mut ours = String::new();
            write_str(&mut ours, s);
            assert_eq!(ours, serde_json::to_string(s).unwrap(), "{s:?}");
        }
        for c in (0..=0x7f_u8).map(char::from) {
            let mut ours = String::new();
            write_str(&mut ours, &c.to_string());
            assert_eq!(ours, serde_json::to_string(&c.to_string()).unwrap());
        }
    }

    #[test]
    fn literal_json_objects_write_like_serde_json() {
        let tokens: TokenStream =
            r#"{ "b": [1, -2, true, null, "x"], "a": { "z": "é\n", "y": {} } }"#
                .parse()
                .unwrap();
        let Some(TokenTree::Group(group)) = tokens.into_iter().next() else {
            panic!()
        };
        let object = parse_object(&group).unwrap();
        let mut ours = String::new();
        write(&object, &mut ours, true);
        let theirs =
            serde_json::json!({ "b": [1, -2, true, null, "x"], "a": { "z": "é\n", "y": {} } });
        assert_eq!(ours, theirs.to_string());
        let mut in_order = String::new();
        write(&object, &mut in_order, false);
        assert_eq!(
            in_order,
            r#"{"b":[1,-2,true,null,"x"],"a":{"z":"é\n","y":{}}}"#
        );
    }

    #[test]
    fn a_file_and_tokens_read_into_one_value_written_by_one_writer() {
        let text = r#"{ "b": [1, -2, true, null, "x\ty"], "a": { "z": "é\n", "y": {} } }"#;
        let from_file = crate::json_reader::parse(text).unwrap();
        let tokens: TokenStream = text.parse().unwrap();
        let Some(TokenTree::Group(group)) = tokens.into_iter().next() else {
            panic!()
        };
        let from_tokens = parse_object(&group).unwrap();
        for sorted in [false, true] {
            let (mut a, mut b) = (String::new(), String::new());
            write(&from_file, &mut a, sorted);
            write(&from_tokens, &mut b, sorted);
            assert_eq!(a, b);
        }
        // Rust's integer spellings are written as JSON writes the number.
        let tokens: TokenStream = "{ \"h\": 0x10, \"u\": 1_000, \"z\": -0 }".parse().unwrap();
        let Some(TokenTree::Group(group)) = tokens.into_iter().next() else {
            panic!()
        };
        let mut out = String::new();
        write(&parse_object(&group).unwrap(), &mut out, false);
        assert_eq!(out, r#"{"h":16,"u":1000,"z":0}"#);
    }

    #[test]
    fn the_shape_of_json_with_expressions_is_checked() {
        for (text, says) in [
            (r#"{ "a": x, "b": [1, { "c": f(y) }], "d": a::B }"#, None),
            (r#"{ "a" => 1 }"#, Some("not `=>`")),
            (r#"{ "a" 1 }"#, Some("needs a `:`")),
            (r#"{ "a": }"#, Some("a value after")),
            (r#"{ "a": 1,, "b": 2 }"#, Some("before the comma")),
            (r#"{ "a": { "b" => 2 } }"#, Some("not `=>`")),
            (r#"{ "a": [1,,2] }"#, Some("before the comma")),
        ] {
            let tokens: TokenStream = text.parse().unwrap();
            let Some(TokenTree::Group(group)) = tokens.into_iter().next() else {
                panic!()
            };
            match (check_structure(&group), says) {
                (Ok(()), None) => {}
                (Err((_, message)), Some(says)) => {
                    assert!(message.contains(says), "{text}: {message}");
                }
                (result, _) => panic!("{text}: {result:?}"),
            }
        }
    }

    #[test]
    fn non_literal_json_is_refused_with_a_reason() {
        for (text, says) in [
            (r#"{ "a": x }"#, "expression"),
            (r#"{ "a": 1.5 }"#, "float"),
            (r#"{ "a": 1, "a": 2 }"#, "duplicate"),
            ("{ a: 1 }", "string literal"),
            (r#"{ "a" }"#, "expected"),
        ] {
            let tokens: TokenStream = text.parse().unwrap();
            let Some(TokenTree::Group(group)) = tokens.into_iter().next() else {
                panic!()
            };
            let err = parse_object(&group)
                .err()
                .unwrap_or_else(|| panic!("{text} parsed"));
            assert!(err.1.contains(says), "{text}: {}", err.1);
        }
    }
}
