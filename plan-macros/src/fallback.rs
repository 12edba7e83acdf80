//! What a macro emits when its input has errors. A derive emits the errors
//! and a stub of the impls it would have written (bodies that never run), so
//! that code using the type does not add "trait not implemented" errors to the
//! ones that matter (a generic type gets no stub: its parameters are unknown);
//! a function-like macro emits the errors in a value of the type it gives.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::DeriveInput;

/// The errors, and the stub `impls` if the type is not generic.
fn with_stub(input: &DeriveInput, err: &syn::Error, impls: &TokenStream) -> TokenStream {
    let errors = err.to_compile_error();
    if !input.generics.params.is_empty() {
        return errors;
    }
    quote! {
        #errors
        const _: () = { #impls };
    }
}

/// `#[derive(Steps)]`: a `Steps` impl with no steps.
pub(crate) fn steps(input: &DeriveInput, err: &syn::Error) -> TokenStream {
    let ident = &input.ident;
    with_stub(
        input,
        err,
        &quote! {
            #[automatically_derived]
            impl ::plan_core::__private::Steps for #ident {
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
    let ident = &input.ident;
    let ty = syn::Ident::new(ty, Span::call_site());
    let expression_trait = syn::Ident::new(expression_trait, Span::call_site());
    let method = syn::Ident::new(&format!("into_{what}"), Span::call_site());
    with_stub(
        input,
        err,
        &quote! {
            #[automatically_derived]
            impl ::core::convert::From<&#ident> for ::plan_core::__private::#ty {
                fn from(_: &#ident) -> Self { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl ::core::convert::From<#ident> for ::plan_core::__private::#ty {
                fn from(_: #ident) -> Self { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl ::core::convert::TryFrom<&::plan_core::__private::#ty> for #ident {
                type Error = ::plan_core::__private::UnmappedValue;
                fn try_from(_: &::plan_core::__private::#ty) -> ::core::result::Result<Self, Self::Error> { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl ::core::convert::TryFrom<::plan_core::__private::#ty> for #ident {
                type Error = ::plan_core::__private::UnmappedValue;
                fn try_from(_: ::plan_core::__private::#ty) -> ::core::result::Result<Self, Self::Error> { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl ::plan_core::__private::#expression_trait for #ident {
                fn #method(self) -> ::plan_core::__private::#ty { ::core::unreachable!() }
            }
        },
    )
}

/// `#[derive(PlanContent)]`: `PLAN_TYPE` and the conversions.
pub(crate) fn content(input: &DeriveInput, err: &syn::Error) -> TokenStream {
    let ident = &input.ident;
    with_stub(
        input,
        err,
        &quote! {
            #[automatically_derived]
            impl #ident {
                /// The plan type on the wire (from `#[derive(PlanContent)]`).
                pub const PLAN_TYPE: &'static str = "_invalid";
            }
            #[automatically_derived]
            impl ::core::convert::TryFrom<&#ident> for ::plan_core::__private::PlanContent {
                type Error = ::plan_core::__private::CustomContentError;
                fn try_from(_: &#ident) -> ::core::result::Result<Self, Self::Error> { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl ::core::convert::TryFrom<#ident> for ::plan_core::__private::PlanContent {
                type Error = ::plan_core::__private::CustomContentError;
                fn try_from(_: #ident) -> ::core::result::Result<Self, Self::Error> { ::core::unreachable!() }
            }
            #[automatically_derived]
            impl ::core::convert::TryFrom<&::plan_core::__private::PlanContent> for #ident {
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
/// statement" warning on the code after the call.
pub(crate) fn invalid_value(err: &syn::Error, ty: &TokenStream) -> TokenStream {
    let errors = err.to_compile_error();
    quote!({ #errors ::plan_core::__private::invalid::<::plan_core::__private::#ty>() })
}
