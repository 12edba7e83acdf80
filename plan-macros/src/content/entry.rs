//! The derive's entry point: the item parsed, checked, and expanded, or
//! its errors explained.

use proc_macro2::TokenStream;
use syn::DeriveInput;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    match super::valid::check(&super::ast::read(&input)) {
        Ok(content) => super::expand::content(&content),
        Err(err) => crate::on_error::content(&input, &err),
    }
}
