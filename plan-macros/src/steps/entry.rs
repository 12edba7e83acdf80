//! The macro's entry point: its input parsed, checked and expanded, or its
//! errors explained (each stage a file beside this one).

use proc_macro2::TokenStream;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<syn::DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    match super::valid::check(&super::ast::Input::read(&input)) {
        Ok(plan) => super::expand::steps(&plan),
        Err(err) => {
            // The attributes' words for the editor first (a derive being
            // typed has errors; what precedes the word an editor completes
            // must be the same token for token in both expansions, and the
            // errors quote the word), then the errors and a stub.
            let mut out = crate::attr_editor::words(&input);
            out.extend(crate::on_error::steps(&input, &err));
            out
        }
    }
}
