//! Stage 1: what the enum says, unjudged.

use crate::symbol;
use proc_macro2::Span;
use syn::{Attribute, Data, DeriveInput, Fields, Ident};

use crate::attrs::{self, Args};

pub(crate) struct Input<'a> {
    pub(crate) ident: &'a Ident,
    /// `struct`/`union` keyword span when the input is not an enum.
    pub(crate) not_enum: Option<Span>,
    pub(crate) generics: &'a syn::Generics,
    /// `#[plan(...)]` on the enum, read.
    pub(crate) plan: Vec<(Span, syn::Result<Args>)>,
    /// `#[step]` misplaced on the enum itself.
    pub(crate) stray_steps: Vec<&'a Attribute>,
    pub(crate) variants: Vec<Variant<'a>>,
}

pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) fields: &'a Fields,
    pub(crate) doc: Option<(String, Span)>,
    /// `#[step(...)]`, read; more than one is an error.
    pub(crate) steps: Vec<(Span, syn::Result<Args>)>,
}

impl<'a> Input<'a> {
    pub(crate) fn read(input: &'a DeriveInput) -> Self {
        let (not_enum, variants) = match &input.data {
            Data::Enum(data) => (None, data.variants.iter().map(Variant::read).collect()),
            Data::Struct(data) => (Some(data.struct_token.span), Vec::new()),
            Data::Union(data) => (Some(data.union_token.span), Vec::new()),
        };
        Self {
            ident: &input.ident,
            not_enum,
            generics: &input.generics,
            plan: read_all(&input.attrs, symbol::PLAN),
            stray_steps: input
                .attrs
                .iter()
                .filter(|a| a.path().is_ident(symbol::STEP))
                .collect(),
            variants,
        }
    }
}

impl<'a> Variant<'a> {
    fn read(variant: &'a syn::Variant) -> Self {
        Self {
            ident: &variant.ident,
            fields: &variant.fields,
            doc: attrs::doc_text(&variant.attrs),
            steps: read_all(&variant.attrs, symbol::STEP),
        }
    }
}

fn read_all(attrs: &[Attribute], name: &str) -> Vec<(Span, syn::Result<Args>)> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident(name))
        .map(|a| (a.path().segments[0].ident.span(), attrs::args(a)))
        .collect()
}
