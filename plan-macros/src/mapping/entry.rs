//! The macro's entry point: its input parsed, checked and expanded, or its
//! errors explained (each stage a file beside this one).

use proc_macro2::TokenStream;

use super::kind::MappingKind;
use syn::DeriveInput;

pub(crate) fn derive(input: TokenStream, kind: &MappingKind) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    match super::valid::check(&super::ast::read(&input, kind), kind) {
        Ok(mapping) => super::expand::mapping(&mapping, kind),
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
