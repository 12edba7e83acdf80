//! `#[derive(PlanStatus)]` and `#[derive(PlanPriority)]`: an agent's own enum
//! mapped onto ACP statuses or priorities. One implementation for both,
//! configured by [`MappingKind`] (`kind.rs`). Stages: `ast` (read, unjudged) → `valid`
//! (checked) → `expand` (generated).

mod ast;
mod expand;
pub(crate) mod kind;
mod valid;

pub(crate) use kind::{MappingKind, PRIORITY, STATUS};

use proc_macro2::TokenStream;
use syn::DeriveInput;

pub(crate) fn derive(input: TokenStream, kind: &MappingKind) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    match valid::check(&ast::read(&input, kind), kind) {
        Ok(mapping) => expand::mapping(&mapping, kind),
        Err(err) => {
            // The attributes' words for the editor first (see steps/mod.rs),
            // then the errors and the stub.
            let mut out = crate::attr_editor::words(&input);
            out.extend(crate::on_error::mapping(
                &input,
                &err,
                kind.ty,
                kind.expression_trait,
                kind.names.what(),
            ));
            out
        }
    }
}
