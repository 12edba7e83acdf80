//! The one wrapper around what a derive writes: `const _: () = { ... };`,
//! as `serde_derive` does, so nothing the derive writes (a helper, an
//! import) can clash with a name of the user's, and nothing leaks out but
//! the impls.

use proc_macro2::TokenStream;
use quote::quote;

/// `items` inside an anonymous constant.
pub(crate) fn wrap_in_const(items: &TokenStream) -> TokenStream {
    quote! {
        const _: () = {
            #items
        };
    }
}
