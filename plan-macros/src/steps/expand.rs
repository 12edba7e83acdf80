//! Stage 3: the `Steps` impl. Nothing here judges.

use proc_macro2::TokenStream;
use quote::quote;

use super::valid::CheckedSteps;
use crate::name_check::Name;

pub(crate) fn steps(plan: &CheckedSteps<'_>) -> TokenStream {
    let ident = plan.ident;
    let id = &plan.id;
    // The key `id`, where `#[plan(id = ...)]` wrote it, names its item.
    let id_key = plan.id_key.map(|at| {
        let key = syn::Ident::new("id", at);
        quote!(let _ = ::plan_core::dsl::key::#key;)
    });
    let variants: Vec<_> = plan.steps.iter().map(|s| s.variant).collect();
    let indexes = 0..variants.len();
    let steps = plan.steps.iter().map(|step| {
        let content = &step.content;
        let priority = priority(&step.priority, step.priority_at);
        quote!(::plan_core::__private::Step { content: #content, priority: #priority })
    });
    // Inside `const _` (dummy.rs). `start()` comes from the `Steps` trait.
    crate::dummy::wrap_in_const(&quote! {
        #[automatically_derived]
        impl ::plan_core::__private::Steps for #ident {
            const ID: ::plan_core::__private::PlanId = { #id_key ::plan_core::__private::plan_id(#id) };
            const STEPS: &'static [::plan_core::__private::Step] = &[#(#steps),*];
            const ALL: &'static [Self] = &[#(Self::#variants),*];

            fn index(&self) -> usize {
                match self {
                    #(Self::#variants => #indexes,)*
                }
            }
        }
    })
}

/// A step's priority; a known one is its `plan_core::dsl` item, where
/// `#[step(priority = ...)]` wrote its key and value (`at`).
pub(crate) fn priority(
    name: &Name,
    at: Option<(proc_macro2::Span, proc_macro2::Span)>,
) -> TokenStream {
    match name {
        Name::Known(known) => crate::plan::word_value(
            "priority",
            known,
            at.map_or_else(proc_macro2::Span::call_site, |(_, value)| value),
            at.map(|(key, _)| key),
        ),
        Name::Custom(custom) => {
            quote!(::plan_core::__private::Priority::Custom(::plan_core::__private::custom_name(#custom)))
        }
    }
}
