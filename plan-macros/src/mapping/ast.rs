//! Stage 1: what the enum says, unjudged: its variants with their
//! `#[status(...)]`/`#[priority(...)]` names, and the container attribute.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Data, DeriveInput, Fields, Ident, LitStr};

use super::kind::MappingKind;
use crate::attrs::{self, Args};

/// What the enum says, unjudged.
pub(crate) struct Input<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) not_enum: Option<Span>,
    pub(crate) generics: &'a syn::Generics,
    pub(crate) container: Vec<(Span, syn::Result<Args>)>,
    pub(crate) variants: Vec<Variant<'a>>,
}

pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) fields: &'a Fields,
    /// `#[status(name)]`: the name and its span, read.
    pub(crate) names: Vec<syn::Result<(String, Span)>>,
}

pub(crate) fn read<'a>(input: &'a DeriveInput, kind: &MappingKind) -> Input<'a> {
    let (not_enum, variants) = match &input.data {
        Data::Enum(data) => (
            None,
            data.variants
                .iter()
                .map(|v| Variant {
                    ident: &v.ident,
                    fields: &v.fields,
                    names: v
                        .attrs
                        .iter()
                        .filter(|a| a.path().is_ident(kind.attr))
                        .map(name)
                        .collect(),
                })
                .collect(),
        ),
        Data::Struct(data) => (Some(data.struct_token.span), Vec::new()),
        Data::Union(data) => (Some(data.union_token.span), Vec::new()),
    };
    let container = input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident(kind.container))
        .map(|a| (a.path().segments[0].ident.span(), attrs::args(a)))
        .collect();
    Input {
        ident: &input.ident,
        not_enum,
        generics: &input.generics,
        container,
        variants,
    }
}

/// `#[status(pending)]` or `#[status("_on hold")]`.
fn name(attr: &Attribute) -> syn::Result<(String, Span)> {
    let parser = |input: ParseStream<'_>| {
        let name = if input.peek(LitStr) {
            let lit: LitStr = input.parse()?;
            (lit.value(), lit.span())
        } else {
            let ident = Ident::parse_any(input).map_err(|e| {
                syn::Error::new(e.span(), "expected a name, e.g. `pending` or `_blocked`")
            })?;
            (ident.unraw().to_string(), ident.span())
        };
        if !input.is_empty() {
            return Err(input.error("a variant maps to one name only"));
        }
        Ok(name)
    };
    match &attr.meta {
        syn::Meta::List(list) => parser.parse2(list.tokens.clone()),
        other => Err(syn::Error::new_spanned(
            other,
            "write the name in parentheses, e.g. `#[status(pending)]`",
        )),
    }
}
