//! `#[derive(PlanStatus)]` and `#[derive(PlanPriority)]`: an agent's own enum
//! mapped onto ACP statuses or priorities. One implementation for both,
//! configured by [`MappingKind`]. Stages: `ast` (read, unjudged) → `valid`
//! (checked) → `expand` (generated).

mod ast;
mod expand;
mod valid;

use crate::symbol;
use proc_macro2::TokenStream;
use syn::DeriveInput;

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

pub(crate) fn derive(input: TokenStream, kind: &MappingKind) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    match valid::check(&ast::read(&input, kind), kind) {
        Ok(mapping) => expand::mapping(&mapping, kind),
        Err(err) => crate::on_error::mapping(
            &input,
            &err,
            kind.ty,
            kind.expression_trait,
            kind.names.what(),
        ),
    }
}
