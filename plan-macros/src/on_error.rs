//! What a macro emits when its input has errors. A derive emits the errors
//! and a stub of the impls it would have written (bodies that never run), so
//! that code using the type does not add "trait not implemented" errors to the
//! ones that matter; a generic type gets the stub for every instance (its
//! generics split for the impl, as `thiserror`'s does on error). A
//! function-like macro emits the errors in a value of the type it gives.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{DeriveInput, GenericParam, Generics};

/// The errors, and the stub `impls` inside `const _` (`dummy.rs`).
fn with_stub(err: &syn::Error, impls: &TokenStream) -> TokenStream {
    let errors = err.to_compile_error();
    let stub = crate::dummy::wrap_in_const(impls);
    quote! {
        #errors
        #stub
    }
}

/// The type as the stub names it (`Ident<T, 'a, N>`), the impl's generics
/// and where clause. With `all_static`, every type and lifetime parameter is
/// bounded by `'static`, which the `Steps` trait asks of its implementors.
fn split(input: &DeriveInput, all_static: bool) -> (TokenStream, TokenStream, TokenStream) {
    let mut generics: Generics = input.generics.clone();
    if all_static {
        let bounds: Vec<TokenStream> = generics
            .params
            .iter()
            .filter_map(|param| match param {
                GenericParam::Type(t) => {
                    let ident = &t.ident;
                    Some(quote!(#ident: 'static))
                }
                GenericParam::Lifetime(l) => {
                    let lifetime = &l.lifetime;
                    Some(quote!(#lifetime: 'static))
                }
                GenericParam::Const(_) => None,
            })
            .collect();
        let clause = generics.make_where_clause();
        for bound in bounds {
            if let Ok(predicate) = syn::parse2(bound) {
                clause.predicates.push(predicate);
            }
        }
    }
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    (
        quote!(#ident #ty_generics),
        quote!(#impl_generics),
        quote!(#where_clause),
    )
}

/// `#[derive(Steps)]`: a `Steps` impl with no steps.
pub(crate) fn steps(input: &DeriveInput, err: &syn::Error) -> TokenStream {
    let (ty, generics, bounds) = split(input, true);
    with_stub(
        err,
        &quote! {
            #[automatically_derived]
            impl #generics ::plan_core::__private::Steps for #ty #bounds {
                const ID: ::plan_core::__private::PlanId = ::plan_core::__private::plan_id("invalid");
                const STEPS: &'static [::plan_core::__private::Step] = &[];
                const ALL: &'static [Self] = &[];
                fn index(&self) -> usize {
                    ::core::unreachable!()
                }
            }
        },
    )
}

/// `#[derive(PlanStatus)]`, `#[derive(PlanPriority)]`: the conversions.
/// `ty` is `Status` or `Priority`, `expression_trait` the `__private` trait
/// a `{ expression }` of that type goes through, `what` "status" or "priority".
pub(crate) fn mapping(
    input: &DeriveInput,
    err: &syn::Error,
    ty: &str,
    expression_trait: &str,
    what: &str,
) -> TokenStream {
    let (me, generics, bounds) = split(input, false);
    let ty = syn::Ident::new(ty, Span::call_site());
    let expression_trait = syn::Ident::new(expression_trait, Span::call_site());
    let method = syn::Ident::new(&format!("into_{what}"), Span::call_site());
    with_stub(
        err,
        &quote! {
            #[automatically_derived]
            impl #generics ::core::convert::From<&#me> for ::plan_core::__private::#ty #bounds {
                fn from(_: &#me) -> Self { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl #generics ::core::convert::From<#me> for ::plan_core::__private::#ty #bounds {
                fn from(_: #me) -> Self { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl #generics ::core::convert::TryFrom<&::plan_core::__private::#ty> for #me #bounds {
                type Error = ::plan_core::__private::UnmappedValue;
                fn try_from(_: &::plan_core::__private::#ty) -> ::core::result::Result<Self, Self::Error> { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl #generics ::core::convert::TryFrom<::plan_core::__private::#ty> for #me #bounds {
                type Error = ::plan_core::__private::UnmappedValue;
                fn try_from(_: ::plan_core::__private::#ty) -> ::core::result::Result<Self, Self::Error> { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl #generics ::plan_core::__private::#expression_trait for #me #bounds {
                fn #method(self) -> ::plan_core::__private::#ty { ::core::unreachable!() }
            }
        },
    )
}

/// `#[derive(PlanContent)]`: `CustomPlan` and the conversions.
pub(crate) fn content(input: &DeriveInput, err: &syn::Error) -> TokenStream {
    let (me, generics, bounds) = split(input, false);
    with_stub(
        err,
        &quote! {
            #[automatically_derived]
            impl #generics ::plan_core::__private::CustomPlan for #me #bounds {
                const PLAN_TYPE: &'static str = "_invalid";
            }
            #[automatically_derived]
            impl #generics ::core::convert::TryFrom<&#me> for ::plan_core::__private::PlanContent #bounds {
                type Error = ::plan_core::__private::CustomContentError;
                fn try_from(_: &#me) -> ::core::result::Result<Self, Self::Error> { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl #generics ::core::convert::TryFrom<#me> for ::plan_core::__private::PlanContent #bounds {
                type Error = ::plan_core::__private::CustomContentError;
                fn try_from(_: #me) -> ::core::result::Result<Self, Self::Error> { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl #generics ::core::convert::TryFrom<&::plan_core::__private::PlanContent> for #me #bounds {
                type Error = ::plan_core::__private::CustomContentError;
                fn try_from(_: &::plan_core::__private::PlanContent) -> ::core::result::Result<Self, Self::Error> { ::core::unreachable!() }
            }
        },
    )
}

/// What a function-like macro emits when its input has errors: the errors,
/// in an expression of the type the call gives (`ty`, under `__private`), so
/// that the errors stand alone: no "expected `PlanContent`, found `()`"
/// follows them, and, unlike a diverging `loop {}`, no "unreachable
/// statement" warning on the code after the call. `editor` is what the
/// call still tells an editor (statements that add no error:
/// `plan::expand::editor`).
pub(crate) fn invalid_value(
    err: &syn::Error,
    ty: &TokenStream,
    editor: &TokenStream,
) -> TokenStream {
    let errors = err.to_compile_error();
    // The editor's part first: what precedes it is then the same, token for
    // token, whatever the user is typing (an error's message quotes the
    // user's word; rust-analyzer, completing, lines the expansion up with
    // the one of the text without its marker).
    quote!({ #editor #errors ::plan_core::__private::invalid::<::plan_core::__private::#ty>() })
}
