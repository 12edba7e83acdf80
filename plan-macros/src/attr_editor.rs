//! What a derive tells the editor while its attributes are being typed
//! (docs/design.md, "The DSL in the editor"): on a derive with errors, each
//! word written in `#[step(..)]`, `#[plan(..)]`, `#[status(..)]` and
//! `#[priority(..)]` as plain Rust that rustc accepts whatever the word is,
//! with the user's span. A word its place takes is the path of its
//! `plan_core::dsl` item (hover, go-to); a word it does not take (half
//! typed, misspelt) is a binding in a `match` on that place's words, which
//! rust-analyzer completes with the words that fit when it expands the
//! derive with its marker at the cursor. Nothing here adds an error.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::quote;
use syn::{Attribute, Ident};

use crate::rules;

/// A place a word can stand in an attribute: the `plan_core::dsl` enum of
/// its words, one word of it (the `match`'s value), the words it takes.
#[derive(Clone, Copy)]
struct Place {
    module: &'static str,
    any: &'static str,
    words: &'static [&'static str],
}

const PRIORITY: Place = Place {
    module: "priority",
    any: "high",
    words: &rules::KNOWN_PRIORITIES,
};
const STATUS: Place = Place {
    module: "status",
    any: "pending",
    words: &rules::KNOWN_STATUSES,
};
const STEP_KEY: Place = Place {
    module: "step_attr",
    any: "priority",
    words: &["priority"],
};
const PLAN_KEY: Place = Place {
    module: "plan_attr",
    any: "id",
    words: &["id"],
};

/// How an attribute's words are read: `key = value` pairs (the keys' place,
/// and each key's value's place), or bare words of one place.
enum Grammar {
    Pairs(Place, fn(&str) -> Option<Place>),
    Bare(Place),
}

/// The grammar of a derive helper attribute of ours, by its name.
fn grammar(name: &str) -> Option<Grammar> {
    Some(match name {
        crate::symbol::STEP => {
            Grammar::Pairs(STEP_KEY, |key| (key == "priority").then_some(PRIORITY))
        }
        crate::symbol::PLAN => Grammar::Pairs(PLAN_KEY, |_| None),
        crate::symbol::STATUS => Grammar::Bare(STATUS),
        crate::symbol::PRIORITY => Grammar::Bare(PRIORITY),
        _ => return None,
    })
}

/// The editor's part of a derive with errors, for every attribute of the
/// item and of its variants: inside `const _`, so it names nothing.
pub(crate) fn words(input: &syn::DeriveInput) -> TokenStream {
    let mut attrs: Vec<&Attribute> = input.attrs.iter().collect();
    if let syn::Data::Enum(data) = &input.data {
        attrs.extend(data.variants.iter().flat_map(|v| v.attrs.iter()));
    }
    let mut statements = TokenStream::new();
    for attr in attrs {
        let Some(grammar) = attr
            .path()
            .get_ident()
            .and_then(|i| grammar(&i.to_string()))
        else {
            continue;
        };
        let syn::Meta::List(list) = &attr.meta else {
            continue;
        };
        for (place, word) in placed(&grammar, list.tokens.clone()) {
            statements.extend(statement(place, &word));
        }
    }
    if statements.is_empty() {
        return statements;
    }
    quote! {
        const _: () = {
            #[allow(unused_variables, non_snake_case, unreachable_patterns, dead_code, clippy::all)]
            fn __plan_editor() { #statements }
        };
    }
}

/// Each word of an attribute's tokens with its place.
fn placed(grammar: &Grammar, tokens: TokenStream) -> Vec<(Place, Ident)> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut found = Vec::new();
    let mut value_of: Option<Option<Place>> = None;
    for (index, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Ident(word) => match grammar {
                Grammar::Bare(place) => found.push((*place, word.clone())),
                Grammar::Pairs(keys, values) => match value_of.take() {
                    Some(Some(place)) => found.push((place, word.clone())),
                    Some(None) => {}
                    None => {
                        let next_is_eq = matches!(tokens.get(index + 1), Some(TokenTree::Punct(p)) if p.as_char() == '=');
                        if next_is_eq {
                            value_of = Some(values(&word.to_string()));
                        }
                        found.push((*keys, word.clone()));
                    }
                },
            },
            TokenTree::Punct(p) if p.as_char() == '=' => {}
            _ => value_of = None,
        }
    }
    found
}

/// One word as the editor sees it: the path of its item, or a binding in a
/// `match` on its place's words; nothing for a name of the user's own.
fn statement(place: Place, word: &Ident) -> TokenStream {
    let text = word.to_string();
    let module = Ident::new(place.module, Span::call_site());
    if place.words.contains(&text.as_str()) {
        let last = Ident::new(&text, word.span());
        return quote!(let _ = ::plan_core::dsl::#module::#last;);
    }
    // A name of the user's own, a keyword, or a prelude variant (a pattern
    // `None` would be `Option::None`, a type error): nothing to echo.
    let prelude = ["None", "Some", "Ok", "Err"].contains(&text.as_str());
    if prelude
        || text.starts_with('_')
        || text.starts_with("r#")
        || syn::parse_str::<Ident>(&text).is_err()
    {
        return TokenStream::new();
    }
    let any = Ident::new(place.any, Span::call_site());
    quote!({
        use ::plan_core::dsl::#module::*;
        match ::plan_core::dsl::#module::#any { #word => {} }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_word_is_placed_by_the_attributes_grammar() {
        let step = grammar("step").unwrap();
        let words: Vec<(&str, String)> = placed(&step, quote!("Ship", priority = hi, prio))
            .into_iter()
            .map(|(place, word)| (place.module, word.to_string()))
            .collect();
        assert_eq!(
            words,
            [
                ("step_attr", "priority".to_owned()),
                ("priority", "hi".to_owned()),
                ("step_attr", "prio".to_owned())
            ]
        );
        let status = grammar("status").unwrap();
        assert_eq!(placed(&status, quote!(in_pr)).len(), 1);
        // A half-typed word is echoed as a binding; a known one is its path.
        let echoed = statement(PRIORITY, &Ident::new("hi", Span::call_site())).to_string();
        assert!(
            echoed.contains("match :: plan_core :: dsl :: priority :: high { hi => { } }"),
            "{echoed}"
        );
        let path = statement(PRIORITY, &Ident::new("high", Span::call_site())).to_string();
        assert_eq!(path, "let _ = :: plan_core :: dsl :: priority :: high ;");
        assert!(statement(PRIORITY, &Ident::new("_mine", Span::call_site())).is_empty());
    }
}
