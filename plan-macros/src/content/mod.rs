//! `#[derive(PlanContent)]`: a custom plan type as a struct.
//! Stages: `ast` (read, unjudged) → `valid` (checked) → `expand` (generated).

mod ast;
mod expand;
mod valid;

use proc_macro2::TokenStream;
use syn::DeriveInput;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    match valid::check(&ast::read(&input)) {
        Ok(content) => expand::content(&content),
        Err(err) => crate::on_error::content(&input, &err),
    }
}
