//! `#[derive(Steps)]`: a plan whose steps are the variants of an enum.
//! Read (`ast`) → check (`valid`) → generate (`expand`).

mod ast;
mod expand;
mod valid;

use proc_macro2::TokenStream;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<syn::DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    match valid::check(&ast::Input::read(&input)) {
        Ok(plan) => expand::steps(&plan),
        Err(err) => {
            // The errors and a stub, and the attributes' words for the
            // editor (a derive being typed has errors).
            let mut out = crate::on_error::steps(&input, &err);
            out.extend(crate::attr_editor::words(&input));
            out
        }
    }
}
