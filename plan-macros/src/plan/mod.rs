//! `plan!` and `plan_json!`: parse (`ast`) → check (`valid`) → generate (`expand`).

mod ast;
mod expand;
mod valid;

use proc_macro2::TokenStream;
use quote::quote;

/// `plan!`: the plan as a value.
pub(crate) fn plan(input: TokenStream) -> TokenStream {
    match parse_and_check(input) {
        Ok(plan) => expand::value(&plan),
        Err(err) => fallback(&err),
    }
}

/// `plan_json!`: the plan's wire JSON in both spellings, written now.
pub(crate) fn plan_json(input: TokenStream) -> TokenStream {
    match parse_and_check(input).and_then(|plan| expand::static_json(&plan)) {
        Ok(tokens) => tokens,
        Err(err) => fallback(&err),
    }
}

fn parse_and_check(input: TokenStream) -> syn::Result<valid::Plan> {
    let input = syn::parse2::<ast::Input>(input)?;
    valid::check(input)
}

/// Every error, in an expression of any type (`loop {}` is `!`), so that the
/// errors stand alone: no "expected `PlanContent`, found `()`" follows them.
fn fallback(err: &syn::Error) -> TokenStream {
    let errors = err.to_compile_error();
    quote!({ #errors loop {} })
}
