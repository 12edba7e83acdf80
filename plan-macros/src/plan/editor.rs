//! What the editor is told: the words a user typed and their `{ }` parts,
//! in a form rustc accepts whatever they are, and rust-analyzer reads as
//! plain Rust (docs/design.md, "The DSL in the editor").

use proc_macro2::{Group, Span, TokenStream};
use quote::quote;
use syn::Ident;
use syn::ext::IdentExt;

use super::ast::{Role, Typed};
use crate::rules;

/// What the editor is told beside a call's errors, or beside a value
/// written at compile time: each word typed, and each `{ }` part as the
/// user's own block. Nothing here adds an error to the macro's, so hover,
/// go-to and completion work on a call while it is being written:
/// - a word its place takes is the path of its `plan_core::dsl` item;
/// - a word it does not take (half typed, misspelt) is echoed as written,
///   as a binding in a `match` on that place's words: rustc accepts any
///   name there, and an editor completes it with the words that fit
///   (rust-analyzer completes inside a macro only where the expansion
///   carries the user's token as written);
/// - a name of the user's own (`_urgent`) is left alone.
pub(crate) fn editor(seen: &[Typed]) -> TokenStream {
    let mut out = TokenStream::new();
    for part in seen {
        match part {
            Typed::Word(role, word) => match word_path(*role, word) {
                Some(path) => out.extend(quote!(let _ = #path;)),
                None if word.unraw().to_string().starts_with('_') => {}
                // A keyword (`in` of `in-progress`) is no binding's name.
                None if syn::parse2::<Ident>(quote!(#word)).is_err() => {}
                None => out.extend(echo(*role, word)),
            },
            Typed::Block(group) => {
                let block = block(group);
                out.extend(quote!(let _ = #block;));
            }
            // The same `match` with `_` where the word will be, so that the
            // expansion of what is typed so far lines up with the one an
            // editor makes with its marker at the cursor.
            Typed::Missing(role) => out.extend(echo(*role, &quote!(_))),
        }
    }
    out
}

/// A word its place does not take, as written, where the words that fit
/// are what an editor offers: a binding in a `match` on a value of the
/// place's enum, with its words in scope.
fn echo(role: Role, word: &dyn quote::ToTokens) -> TokenStream {
    let (module, any) = role.module_and_word();
    let (module, any) = (
        Ident::new(module, Span::call_site()),
        Ident::new(any, Span::call_site()),
    );
    quote!(#[allow(unused_variables, non_snake_case)] {
        use ::plan_core::dsl::#module::*;
        match ::plan_core::dsl::#module::#any { #word => {} }
    })
}

/// The path of a word its place takes, its item of `plan_core::dsl`
/// (`::plan_core::dsl::status::in_progress`): the macro's own segments at
/// the call site, the last one where the user wrote the word, so an
/// editor's hover and go-to on the word reach the item's docs. None for
/// a word the place does not take.
pub(super) fn word_path(role: Role, word: &Ident) -> Option<TokenStream> {
    let known: &[&str] = match role {
        Role::Key => &super::valid::KEYS,
        Role::Priority => &rules::KNOWN_PRIORITIES,
        Role::Status => &rules::KNOWN_STATUSES,
    };
    let text = word.unraw().to_string();
    if !known.contains(&text.as_str()) {
        return None;
    }
    let last = if text == "type" {
        Ident::new_raw(&text, word.span())
    } else {
        Ident::new(&text, word.span())
    };
    let module = Ident::new(role.module_and_word().0, Span::call_site());
    Some(quote!(::plan_core::dsl::#module::#last))
}

/// A user's `{ expression }` as a block whose braces belong to the macro, so
/// rustc does not lint them as unnecessary (they are the grammar, not style),
/// but that still sits where the user wrote it, so type errors point there.
pub(super) fn block(group: &Group) -> Group {
    let mut block = Group::new(group.delimiter(), group.stream());
    block.set_span(Span::call_site().located_at(group.span()));
    block
}
