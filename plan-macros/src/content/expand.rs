//! The conversions to and from `PlanContent`. Nothing here judges.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::valid::Content;

pub(crate) fn content(content: &Content<'_>) -> TokenStream {
    let ident = content.ident;
    let kind = &content.kind;
    let (impl_generics, ty_generics, where_clause) = content.generics.split_for_impl();
    // The `id` field must be a `PlanId`: a type error here points at its type.
    let id_type = content.id_type;
    let id_check = quote_spanned! {id_type.span()=>
        const _: fn(&#id_type) -> &::plan_core::__private::PlanId = |id| id;
    };
    crate::dummy::wrap_in_const(&quote! {
        #id_check

        #[automatically_derived]
        impl #impl_generics ::plan_core::__private::CustomPlan for #ident #ty_generics #where_clause {
            const PLAN_TYPE: &'static str = #kind;
        }

        #[automatically_derived]
        impl #impl_generics ::core::convert::TryFrom<&#ident #ty_generics> for ::plan_core::__private::PlanContent #where_clause {
            type Error = ::plan_core::__private::CustomContentError;

            fn try_from(value: &#ident #ty_generics) -> ::core::result::Result<Self, Self::Error> {
                ::plan_core::__private::to_custom(value, #kind)
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::convert::TryFrom<#ident #ty_generics> for ::plan_core::__private::PlanContent #where_clause {
            type Error = ::plan_core::__private::CustomContentError;

            fn try_from(value: #ident #ty_generics) -> ::core::result::Result<Self, Self::Error> {
                ::plan_core::__private::to_custom(&value, #kind)
            }
        }

        #[automatically_derived]
        impl #impl_generics ::core::convert::TryFrom<&::plan_core::__private::PlanContent> for #ident #ty_generics #where_clause {
            type Error = ::plan_core::__private::CustomContentError;

            fn try_from(content: &::plan_core::__private::PlanContent) -> ::core::result::Result<Self, Self::Error> {
                ::plan_core::__private::from_custom(content, #kind)
            }
        }
    })
}
