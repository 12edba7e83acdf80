//! `#[derive(PlanContent)]`: a custom plan type as a struct.
//! Read → check (`valid`) → generate (`expand`).

mod expand;
mod valid;

use crate::symbol;
use proc_macro2::{Span, TokenStream};
use syn::{Data, DeriveInput};

use crate::attrs::{self, Args};

/// What the struct says, unjudged.
pub(crate) struct Input<'a> {
    pub(crate) derive: &'a DeriveInput,
    /// `#[plan_content(...)]`, read.
    pub(crate) attrs: Vec<(Span, syn::Result<Args>)>,
    /// The named fields, or why there are none (the span to blame).
    pub(crate) fields: Result<&'a syn::FieldsNamed, Span>,
}

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    let fields = match &input.data {
        Data::Struct(data) => match &data.fields {
            syn::Fields::Named(named) => Ok(named),
            _ => Err(data.struct_token.span),
        },
        Data::Enum(data) => Err(data.enum_token.span),
        Data::Union(data) => Err(data.union_token.span),
    };
    let attrs = input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident(symbol::PLAN_CONTENT))
        .map(|a| (a.path().segments[0].ident.span(), attrs::args(a)))
        .collect();
    match valid::check(&Input {
        derive: &input,
        attrs,
        fields,
    }) {
        Ok(content) => expand::content(&content),
        Err(err) => crate::fallback::content(&input, &err),
    }
}
