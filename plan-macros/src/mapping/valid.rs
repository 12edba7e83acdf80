//! The rules of a mapping enum, every error on its token.

use crate::symbol;
use proc_macro2::Span;
use syn::{Fields, Ident};

use super::ast::{Input, Variant};
use super::kind::MappingKind;
use crate::attrs::{self, ArgValue};
use crate::errors::Errors;
use crate::name_check::{self, Name};

pub(crate) struct Mapping<'a> {
    pub(crate) ident: &'a Ident,
    /// Each variant, its name, and where an attribute wrote the name (none
    /// for a name `rename_all` made).
    pub(crate) variants: Vec<(&'a Ident, Name, Option<Span>)>,
}

/// How `rename_all` turns a variant's name into a protocol name.
#[derive(Clone, Copy)]
enum Rename {
    /// `Pending` → `pending`: for variants named after known values.
    Snake,
    /// `Blocked` → `_blocked`: custom values.
    UnderscoreSnake,
}

/// Stage 2 of a mapping derive: the enum's shape, each variant's name
/// (written, or by `rename_all`) checked, no two variants on one name.
pub(crate) fn check<'a>(input: &Input<'a>, kind: &MappingKind) -> Result<Mapping<'a>, syn::Error> {
    let mut errors = Errors::new(Vec::new());
    if let Some(span) = input.not_enum {
        errors.at(
            span,
            format_args!(
                "`#[derive({})]` works on an enum of unit variants",
                kind.derive
            ),
        );
        return errors.finish(None);
    }
    if let Some(param) = input.generics.params.first() {
        errors.push(syn::Error::new_spanned(
            param,
            "a mapping enum cannot be generic",
        ));
    }
    if input.variants.is_empty() {
        errors.at(
            input.ident.span(),
            format_args!("`{}` has no variants to map", input.ident),
        );
    }
    let rename = rename(input, kind, &mut errors);

    let mut variants: Vec<(&Ident, Name, Option<Span>)> = Vec::new();
    for variant in &input.variants {
        if !matches!(variant.fields, Fields::Unit) {
            errors.push(syn::Error::new_spanned(
                variant.fields,
                format_args!(
                    "`{}` has fields; a {} is a unit variant",
                    variant.ident,
                    kind.names.what()
                ),
            ));
        }
        let written = matches!(variant.names.first(), Some(Ok(_)));
        let Some((text, span)) = variant_name(variant, rename, input, kind, &mut errors) else {
            continue;
        };
        let Some(name) = name_check::check_name(&text, span, kind.names, false, &mut errors) else {
            continue;
        };
        if let Some((first, ..)) = variants
            .iter()
            .find(|(_, n, _)| n.as_str() == name.as_str())
        {
            errors.at(
                span,
                format_args!(
                    "`{first}` and `{}` both map to {} `{}`; converting back could not choose",
                    variant.ident,
                    kind.names.what(),
                    name.as_str()
                ),
            );
            continue;
        }
        variants.push((variant.ident, name, written.then_some(span)));
    }
    errors.finish(Some(Mapping {
        ident: input.ident,
        variants,
    }))
}

/// The name a variant maps to and where it was said: its one attribute
/// (a second is an error), or its name by `rename_all`; `None` after an
/// error (one a wrong container attribute already said is not said again).
fn variant_name(
    variant: &Variant<'_>,
    rename: Option<Rename>,
    input: &Input<'_>,
    kind: &MappingKind,
    errors: &mut Errors,
) -> Option<(String, Span)> {
    for extra in variant.names.iter().skip(1) {
        let span = extra
            .as_ref()
            .map_or_else(syn::Error::span, |(_, span)| *span);
        errors.at(
            span,
            format_args!("one `#[{}(...)]` per variant", kind.attr),
        );
    }
    match (variant.names.first(), rename) {
        (Some(Ok(name)), _) => Some(name.clone()),
        (Some(Err(err)), _) => {
            errors.push(err.clone());
            None
        }
        (None, Some(rule)) => {
            let snake = attrs::snake_case(&variant.ident.to_string());
            let text = match rule {
                Rename::Snake => snake,
                Rename::UnderscoreSnake => format!("_{snake}"),
            };
            Some((text, variant.ident.span()))
        }
        // A container attribute that was given but is wrong (a bad value,
        // a misspelt key) is reported once, above: not again per variant.
        (None, None) if !input.container.is_empty() => None,
        (None, None) => {
            errors.at(variant.ident.span(), format_args!(
                "`{}` maps to no {what}: add `#[{attr}(...)]`, or `#[{container}(rename_all = \"_snake_case\")]` on the enum",
                variant.ident,
                what = kind.names.what(),
                attr = kind.attr,
                container = kind.container,
            ));
            None
        }
    }
}

fn rename(input: &Input<'_>, kind: &MappingKind, errors: &mut Errors) -> Option<Rename> {
    let mut rename = None;
    let pairs = attrs::container_pairs(
        &input.container,
        kind.container,
        &[symbol::RENAME_ALL],
        "rename_all = \"_snake_case\"",
        errors,
    );
    for (_, value) in pairs {
        match value {
            ArgValue::Str(lit) if lit.value() == "snake_case" => rename = Some(Rename::Snake),
            ArgValue::Str(lit) if lit.value() == "_snake_case" => rename = Some(Rename::UnderscoreSnake),
            other => errors.at(other.span(), format_args!(
                "`rename_all` takes \"_snake_case\" (custom values: `Blocked` → `_blocked`) or \"snake_case\" (known values: `InProgress` → `in_progress`)"
            )),
        }
    }
    rename
}
