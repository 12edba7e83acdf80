//! The conversions. Nothing here judges.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::kind::MappingKind;
use super::valid::Mapping;
use crate::name_check::Name;

pub(crate) fn mapping(mapping: &Mapping<'_>, kind: &MappingKind) -> TokenStream {
    let ident = mapping.ident;
    let ty = syn::Ident::new(kind.ty, Span::call_site());
    let expression_trait = syn::Ident::new(kind.expression_trait, Span::call_site());
    let method = syn::Ident::new(&format!("into_{}", kind.names.what()), Span::call_site());
    let what = kind.names.what();
    let target = ident.to_string();
    let variants: Vec<_> = mapping.variants.iter().map(|(v, ..)| *v).collect();
    let values: Vec<TokenStream> = mapping
        .variants
        .iter()
        .map(|(_, name, at)| match name {
            // The word's `plan_core::dsl` item, where the attribute wrote it.
            Name::Known(known) => crate::plan::word_value(
                kind.names.what(),
                known,
                at.unwrap_or_else(Span::call_site),
                None,
            ),
            Name::Custom(custom) => {
                quote!(::plan_core::__private::#ty::Custom(::plan_core::__private::custom_name(#custom)))
            }
        })
        .collect();
    let texts: Vec<&str> = mapping
        .variants
        .iter()
        .map(|(_, name, _)| name.as_str())
        .collect();
    crate::dummy::wrap_in_const(&quote! {
        #[automatically_derived]
        impl ::core::convert::From<&#ident> for ::plan_core::__private::#ty {
            fn from(value: &#ident) -> Self {
                match value {
                    #(#ident::#variants => #values,)*
                }
            }
        }

        #[automatically_derived]
        impl ::core::convert::From<#ident> for ::plan_core::__private::#ty {
            fn from(value: #ident) -> Self {
                <Self as ::core::convert::From<&#ident>>::from(&value)
            }
        }

        #[automatically_derived]
        impl ::core::convert::TryFrom<&::plan_core::__private::#ty> for #ident {
            type Error = ::plan_core::__private::UnmappedValue;

            fn try_from(value: &::plan_core::__private::#ty) -> ::core::result::Result<Self, Self::Error> {
                match value.as_str() {
                    #(#texts => ::core::result::Result::Ok(#ident::#variants),)*
                    other => ::core::result::Result::Err(::plan_core::__private::UnmappedValue::new(#what, other, #target)),
                }
            }
        }

        #[automatically_derived]
        impl ::core::convert::TryFrom<::plan_core::__private::#ty> for #ident {
            type Error = ::plan_core::__private::UnmappedValue;

            fn try_from(value: ::plan_core::__private::#ty) -> ::core::result::Result<Self, Self::Error> {
                <Self as ::core::convert::TryFrom<&::plan_core::__private::#ty>>::try_from(&value)
            }
        }

        #[automatically_derived]
        impl ::plan_core::__private::#expression_trait for #ident {
            fn #method(self) -> ::plan_core::__private::#ty {
                ::core::convert::From::from(self)
            }
        }
    })
}
