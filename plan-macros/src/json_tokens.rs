//! JSON text written at compile time, byte for byte as plan-core writes it
//! at run time (compact, the same string escapes; `_meta` objects in source
//! order, kept as written, custom plan fields with their keys sorted).
//! The expansion tests in `tests/plan_macro.rs` hold the two producers to
//! one output.

use std::fmt::Write as _;

use crate::rules;
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};

/// A JSON value known at compile time. Floats are left out on purpose: their
/// shortest round-trip text is `serde_json`'s business, not ours.
pub(crate) enum Json {
    Null,
    Bool(bool),
    Int(i128),
    Str(String),
    Array(Vec<Json>),
    /// Members in source order (keys are unique).
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Writes compact JSON, object members in source order.
    pub(crate) fn write(&self, out: &mut String) {
        self.write_in(out, false);
    }

    /// Writes compact JSON, every object's members sorted by key.
    pub(crate) fn write_sorted(&self, out: &mut String) {
        self.write_in(out, true);
    }

    fn write_in(&self, out: &mut String, sorted: bool) {
        match self {
            Self::Null => out.push_str("null"),
            Self::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Self::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Self::Str(s) => write_str(out, s),
            Self::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write_in(out, sorted);
                }
                out.push(']');
            }
            Self::Object(members) => {
                out.push('{');
                for (i, (key, value)) in sorted_if(members, sorted).into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(out, key);
                    out.push(':');
                    value.write_in(out, sorted);
                }
                out.push('}');
            }
        }
    }
}

/// The members, sorted by key if `sorted`.
pub(crate) fn sorted_if(members: &[(String, Json)], sorted: bool) -> Vec<&(String, Json)> {
    let mut members: Vec<&(String, Json)> = members.iter().collect();
    if sorted {
        members.sort_by(|a, b| a.0.cmp(&b.0));
    }
    members
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
pub(crate) fn parse_object(group: &Group) -> Result<Vec<(String, Json)>, (Span, String)> {
    match parse_group(group)? {
        Json::Object(map) => Ok(map),
        _ => Err((group.span(), "expected a JSON object".into())),
    }
}

fn parse_group(group: &Group) -> Result<Json, (Span, String)> {
    let parts = split_commas(group.stream());
    match group.delimiter() {
        Delimiter::Bracket => parts
            .iter()
            .map(|p| parse_value(p, group.span()))
            .collect::<Result<_, _>>()
            .map(Json::Array),
        Delimiter::Brace => {
            let mut members: Vec<(String, Json)> = Vec::new();
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
                let Json::Str(name) = parse_literal(key)? else {
                    return Err((key.span(), "a JSON key must be a string literal".into()));
                };
                if members.iter().any(|(known, _)| *known == name) {
                    return Err((key.span(), format!("duplicate JSON key `{name}`")));
                }
                let value = parse_value(value, key.span())?;
                members.push((name, value));
            }
            Ok(Json::Object(members))
        }
        _ => Err((group.span(), "expected `{...}` or `[...]`".into())),
    }
}

fn parse_value(tokens: &[TokenTree], near: Span) -> Result<Json, (Span, String)> {
    match tokens {
        [TokenTree::Group(g)] if g.delimiter() != Delimiter::Parenthesis => parse_group(g),
        [TokenTree::Literal(lit)] => parse_literal(lit),
        [TokenTree::Punct(minus), TokenTree::Literal(lit)] if minus.as_char() == '-' => {
            match parse_literal(lit)? {
                Json::Int(i) => Ok(Json::Int(-i)),
                _ => Err((lit.span(), "only a number can be negative".into())),
            }
        }
        [TokenTree::Ident(id)] if id == "null" => Ok(Json::Null),
        [TokenTree::Ident(id)] if id == "true" => Ok(Json::Bool(true)),
        [TokenTree::Ident(id)] if id == "false" => Ok(Json::Bool(false)),
        [first, ..] => Err((
            first.span(),
            "not literal JSON: an expression is only known at run time".into(),
        )),
        [] => Err((near, "expected a JSON value".into())),
    }
}

fn parse_literal(lit: &proc_macro2::Literal) -> Result<Json, (Span, String)> {
    let span = lit.span();
    let tokens: TokenStream = TokenTree::Literal(lit.clone()).into();
    match syn::parse2::<syn::Lit>(tokens) {
        Ok(syn::Lit::Str(s)) => Ok(Json::Str(s.value())),
        Ok(syn::Lit::Int(i)) if i.suffix().is_empty() => i
            .base10_parse::<i128>()
            .ok()
            .filter(|v| i64::try_from(*v).is_ok() || u64::try_from(*v).is_ok())
            .map(Json::Int)
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
        let object = Json::Object(parse_object(&group).unwrap());
        let mut ours = String::new();
        object.write_sorted(&mut ours);
        let theirs =
            serde_json::json!({ "b": [1, -2, true, null, "x"], "a": { "z": "é\n", "y": {} } });
        assert_eq!(ours, theirs.to_string());
        let mut in_order = String::new();
        object.write(&mut in_order);
        assert_eq!(
            in_order,
            r#"{"b":[1,-2,true,null,"x"],"a":{"z":"é\n","y":{}}}"#
        );
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
