//! Reading derive attributes: `#[name("text", key = value, ...)]` and doc comments.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Ident, LitStr, Token};

/// The arguments of an attribute such as `#[step("Ship it", priority = high)]`:
/// an optional leading string, then `key = value` pairs.
#[derive(Default)]
pub(crate) struct Args {
    pub(crate) text: Option<LitStr>,
    pub(crate) pairs: Vec<(Ident, ArgValue)>,
}

/// A value after `key =`: a string or a bare name.
pub(crate) enum ArgValue {
    Str(LitStr),
    Name(Ident),
}

impl ArgValue {
    pub(crate) fn text(&self) -> String {
        match self {
            Self::Str(lit) => lit.value(),
            Self::Name(ident) => ident.unraw().to_string(),
        }
    }

    pub(crate) fn span(&self) -> Span {
        match self {
            Self::Str(lit) => lit.span(),
            Self::Name(ident) => ident.span(),
        }
    }
}

/// Reads an attribute's arguments; `#[name]` alone has none.
pub(crate) fn args(attr: &Attribute) -> syn::Result<Args> {
    match &attr.meta {
        syn::Meta::Path(_) => Ok(Args::default()),
        syn::Meta::List(list) => {
            (|input: ParseStream<'_>| parse_args(input)).parse2(list.tokens.clone())
        }
        syn::Meta::NameValue(nv) => Err(syn::Error::new_spanned(
            nv,
            format!(
                "write `#[{}(...)]`, with parentheses",
                attr.path()
                    .get_ident()
                    .map_or(String::new(), ToString::to_string)
            ),
        )),
    }
}

fn parse_args(input: ParseStream<'_>) -> syn::Result<Args> {
    let mut args = Args::default();
    if input.peek(LitStr) {
        args.text = Some(input.parse()?);
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
    }
    while !input.is_empty() {
        let key = Ident::parse_any(input)
            .map_err(|e| syn::Error::new(e.span(), "expected `key = value`"))?;
        input
            .parse::<Token![=]>()
            .map_err(|e| syn::Error::new(e.span(), format!("expected `=` after `{key}`")))?;
        let value = if input.peek(LitStr) {
            ArgValue::Str(input.parse()?)
        } else if input.peek(Ident::peek_any) {
            ArgValue::Name(Ident::parse_any(input)?)
        } else {
            return Err(input.error(format!("expected a value for `{key}`: a name or a string")));
        };
        args.pairs.push((key, value));
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
    }
    Ok(args)
}

/// The `key = value` pairs of an item's `#[name(...)]` attributes, all of
/// them together, with every mistake reported: an attribute that does not
/// read, a leading string or nothing at all (the message shows `example`),
/// a key not in `known` (with a suggestion), a key given twice.
pub(crate) fn container_pairs<'a>(
    attrs: &'a [(Span, syn::Result<Args>)],
    name: &str,
    known: &[&str],
    example: &str,
    errors: &mut crate::errors::Errors,
) -> Vec<(&'a Ident, &'a ArgValue)> {
    let mut pairs: Vec<(&Ident, &ArgValue)> = Vec::new();
    for (span, args) in attrs {
        let args = match args {
            Ok(args) => args,
            Err(err) => {
                errors.push(err.clone());
                continue;
            }
        };
        if let Some(text) = &args.text {
            errors.at(text.span(), format_args!("write `#[{name}({example})]`"));
        } else if args.pairs.is_empty() {
            errors.at(*span, format_args!("`#[{name}]` needs `{example}`"));
        }
        for (key, value) in &args.pairs {
            if !known.iter().any(|k| key == k) {
                crate::name_check::unknown_key(key, known, &format!("`#[{name}(...)]`"), errors);
            } else if pairs.iter().any(|(k, _)| *k == key) {
                errors.at(
                    key.span(),
                    format_args!("`{key}` is given twice in `#[{name}(...)]`"),
                );
            } else {
                pairs.push((key, value));
            }
        }
    }
    pairs
}

/// The first paragraph of the doc comments, lines joined by spaces, and the
/// span of its first line.
pub(crate) fn doc_text(attrs: &[Attribute]) -> Option<(String, Span)> {
    let mut text = String::new();
    let mut span = None;
    for attr in attrs
        .iter()
        .filter(|a| a.path().is_ident(crate::symbol::DOC))
    {
        let syn::Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(literal),
            ..
        }) = &nv.value
        else {
            continue;
        };
        let line = literal.value();
        let line = line.trim();
        if line.is_empty() {
            if text.is_empty() {
                continue;
            }
            break;
        }
        span.get_or_insert_with(|| literal.span());
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(line);
    }
    span.map(|span| (text, span))
}

/// `RefactorPlan` → `refactor-plan`.
pub(crate) fn kebab_case(name: &str) -> String {
    snake_case(name).replace('_', "-")
}

/// `InProgress` → `in_progress`.
pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases() {
        assert_eq!(kebab_case("RefactorPlan"), "refactor-plan");
        assert_eq!(snake_case("InProgress"), "in_progress");
        assert_eq!(snake_case("Done"), "done");
    }
}
