//! `#[derive(PlanStatus)]` and `#[derive(PlanPriority)]`: an agent's own enum
//! mapped onto ACP statuses or priorities. One implementation for both,
//! configured by [`MappingKind`]. Read → check (`valid`) → generate (`expand`).

mod expand;
mod valid;

use crate::symbol;
use proc_macro2::{Span, TokenStream};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Data, DeriveInput, Fields, Ident, LitStr};

use crate::attrs::{self, Args};
use crate::name_check::NameKind;

/// Which derive this is.
pub(crate) struct MappingKind {
    /// `PlanStatus`
    pub(crate) derive: &'static str,
    /// `status`: the variant attribute.
    pub(crate) attr: &'static str,
    /// `plan_status`: the enum attribute.
    pub(crate) container: &'static str,
    pub(crate) names: NameKind,
    /// `Status`: the plan-core type.
    pub(crate) ty: &'static str,
    /// `IntoStatus`: the trait `plan!` expressions go through.
    pub(crate) expression_trait: &'static str,
}

pub(crate) const STATUS: MappingKind = MappingKind {
    derive: "PlanStatus",
    attr: symbol::STATUS,
    container: symbol::PLAN_STATUS,
    names: NameKind::Status,
    ty: "Status",
    expression_trait: "IntoStatus",
};

pub(crate) const PRIORITY: MappingKind = MappingKind {
    derive: "PlanPriority",
    attr: symbol::PRIORITY,
    container: symbol::PLAN_PRIORITY,
    names: NameKind::Priority,
    ty: "Priority",
    expression_trait: "IntoPriority",
};

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

pub(crate) fn derive(input: TokenStream, kind: &MappingKind) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    match valid::check(&read(&input, kind), kind) {
        Ok(mapping) => expand::mapping(&mapping, kind),
        Err(err) => crate::fallback::mapping(
            &input,
            &err,
            kind.ty,
            kind.expression_trait,
            kind.names.what(),
        ),
    }
}

fn read<'a>(input: &'a DeriveInput, kind: &MappingKind) -> Input<'a> {
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
