//! The rules of a custom plan struct, every error on its token.

use crate::symbol;
use syn::Ident;

use super::ast::Input;
use crate::attrs::{self, ArgValue};
use crate::errors::Errors;
use crate::name_check;

pub(crate) struct Content<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a syn::Generics,
    pub(crate) kind: String,
    /// The `id` field's type, to assert it is a `PlanId`.
    pub(crate) id_type: &'a syn::Type,
}

pub(crate) fn check<'a>(input: &Input<'a>) -> Result<Content<'a>, syn::Error> {
    let mut errors = Errors::new(Vec::new());
    let ident = &input.derive.ident;
    let fields = match &input.fields {
        Ok(fields) => Some(*fields),
        Err(blame) => {
            errors.push(syn::Error::new_spanned(
                blame,
                "`#[derive(PlanContent)]` works on a struct with named fields, one of them `id: PlanId`",
            ));
            None
        }
    };
    let id_type =
        fields.and_then(|fields| {
            let id = fields
                .named
                .iter()
                .find(|f| f.ident.as_ref().is_some_and(|i| i == symbol::ID));
            if id.is_none() {
                errors.at(ident.span(), format_args!(
                "`{ident}` has no `id` field; every plan has an id: add `id: plan_core::PlanId`"
            ));
            }
            id.map(|f| &f.ty)
        });
    let kind = kind(input, &mut errors);
    let content = match (kind, id_type) {
        (Some(kind), Some(id_type)) => Some(Content {
            ident,
            generics: &input.derive.generics,
            kind,
            id_type,
        }),
        _ => None,
    };
    errors.finish(content)
}

/// `#[plan_content(type = "_timeline")]`, required.
fn kind(input: &Input<'_>, errors: &mut Errors) -> Option<String> {
    let mut kind = None;
    for (_, value) in attrs::container_pairs(
        &input.attrs,
        symbol::PLAN_CONTENT,
        &[symbol::TYPE],
        "type = \"_name\"",
        errors,
    ) {
        let text = match value {
            ArgValue::Str(lit) => lit.value(),
            ArgValue::Name(name) => name.to_string(),
        };
        kind = name_check::check_plan_type(&text, value.span(), errors);
    }
    if input.attrs.is_empty() {
        let ident = &input.derive.ident;
        errors.at(
            ident.span(),
            format_args!(
                "`{ident}` needs its plan type: add `#[plan_content(type = \"_{}\")]`",
                crate::attrs::snake_case(&ident.to_string())
            ),
        );
    }
    kind
}
