//! Stage 1: what the struct says, unjudged: its named fields (or why there
//! are none) and its `#[plan_content(...)]` attributes.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::{Data, DeriveInput};

use crate::attrs::{self, Args};
use crate::symbol;

/// What the struct says, unjudged.
pub(crate) struct Input<'a> {
    pub(crate) derive: &'a DeriveInput,
    /// `#[plan_content(...)]`, read.
    pub(crate) attrs: Vec<(Span, syn::Result<Args>)>,
    /// The named fields, or, where there are none, the tokens to blame: a
    /// tuple or unit struct's name and fields (what the user must change),
    /// an enum's or a union's keyword.
    pub(crate) fields: Result<&'a syn::FieldsNamed, TokenStream>,
}

/// Reads the struct.
pub(crate) fn read(input: &DeriveInput) -> Input<'_> {
    let fields = match &input.data {
        Data::Struct(data) => match &data.fields {
            syn::Fields::Named(named) => Ok(named),
            other => {
                let mut blame = input.ident.to_token_stream();
                other.to_tokens(&mut blame);
                Err(blame)
            }
        },
        Data::Enum(data) => Err(data.enum_token.to_token_stream()),
        Data::Union(data) => Err(data.union_token.to_token_stream()),
    };
    let attrs = input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident(symbol::PLAN_CONTENT))
        .map(|a| (a.path().segments[0].ident.span(), attrs::args(a)))
        .collect();
    Input {
        derive: input,
        attrs,
        fields,
    }
}
