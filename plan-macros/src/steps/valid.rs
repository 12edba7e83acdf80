//! Stage 2: the rules of a plan enum, every error on its token.

use crate::symbol;
use syn::{Fields, Ident};

use super::ast::{Input, Variant};
use crate::attrs::{self, ArgValue};
use crate::errors::Errors;
use crate::name_check::{self, Name, NameKind};
use crate::rules;

pub(crate) struct CheckedSteps<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) id: String,
    /// Where `#[plan(id = ...)]` wrote its key, if it did.
    pub(crate) id_key: Option<proc_macro2::Span>,
    pub(crate) steps: Vec<Step<'a>>,
}

pub(crate) struct Step<'a> {
    pub(crate) variant: &'a Ident,
    pub(crate) content: String,
    pub(crate) priority: Name,
    /// Where `priority = ...` wrote its key and the priority (none for the
    /// default).
    pub(crate) priority_at: Option<(proc_macro2::Span, proc_macro2::Span)>,
}

pub(crate) fn check<'a>(input: &Input<'a>) -> Result<CheckedSteps<'a>, syn::Error> {
    let mut errors = Errors::new(Vec::new());
    if let Some(span) = input.not_enum {
        errors.at(
            span,
            "`#[derive(Steps)]` works on an enum whose unit variants are the plan's steps",
        );
        return errors.finish(None);
    }
    if let Some(param) = input.generics.params.first() {
        errors.push(syn::Error::new_spanned(
            param,
            "a plan enum cannot be generic: its steps are fixed",
        ));
    }
    for attr in &input.stray_steps {
        errors.push(syn::Error::new_spanned(
            attr,
            "`#[step]` belongs on a variant, not on the enum; `#[plan(id = \"...\")]` goes here",
        ));
    }
    let (id, id_key) = plan_id(input, &mut errors);
    if input.variants.is_empty() {
        errors.at(
            input.ident.span(),
            format_args!(
                "`{}` has no steps; a plan needs at least one variant",
                input.ident
            ),
        );
    }

    let mut steps: Vec<Step<'_>> = Vec::new();
    for variant in &input.variants {
        if let Some(step) = check_step(variant, &steps, &mut errors) {
            steps.push(step);
        }
    }
    errors.finish(Some(CheckedSteps {
        ident: input.ident,
        id,
        id_key,
        steps,
    }))
}

/// `#[plan(id = "...")]`, or the type's name in kebab-case; and where the
/// key `id` was written.
fn plan_id(input: &Input<'_>, errors: &mut Errors) -> (String, Option<proc_macro2::Span>) {
    let mut id = None;
    let mut id_key = None;
    for (key, value) in attrs::container_pairs(
        &input.plan,
        symbol::PLAN,
        &[symbol::ID],
        "id = \"refactor\"",
        errors,
    ) {
        let ArgValue::Str(lit) = value else {
            errors.at(value.span(), "the plan id is a string: `id = \"refactor\"`");
            continue;
        };
        id_key = Some(key.span());
        match rules::check_plan_id(&lit.value()) {
            Ok(()) => id = Some(lit.value()),
            Err(problem) => errors.at(lit.span(), problem),
        }
    }
    let id = id.unwrap_or_else(|| attrs::kebab_case(&input.ident.to_string()));
    (id, id_key)
}

/// One variant: a unit variant with a content no other step has, and a priority.
fn check_step<'a>(
    variant: &Variant<'a>,
    earlier: &[Step<'a>],
    errors: &mut Errors,
) -> Option<Step<'a>> {
    if !matches!(variant.fields, Fields::Unit) {
        errors.push(syn::Error::new_spanned(
            variant.fields,
            format_args!("a step is a unit variant; `{}` has fields", variant.ident),
        ));
    }
    for (span, _) in variant.steps.iter().skip(1) {
        errors.at(
            *span,
            "one `#[step(...)]` per variant; put everything in the first",
        );
    }
    let mut text = None;
    let mut priority = None;
    match variant.steps.first() {
        Some((_, Err(err))) => errors.push(err.clone()),
        Some((_, Ok(args))) => {
            text = args.text.as_ref().map(|lit| (lit.value(), lit.span()));
            for (key, value) in &args.pairs {
                if key == symbol::PRIORITY {
                    priority = Some((key, value));
                } else {
                    name_check::unknown_key(key, &[symbol::PRIORITY], "`#[step(...)]`", errors);
                }
            }
        }
        None => {}
    }
    // The priority is checked even when the content is missing, so both are reported.
    let priority_at = priority.map(|(key, value)| (key.span(), value.span()));
    let priority = match priority.map(|(_, value)| value) {
        None => Some(Name::Known("medium")),
        Some(value) => name_check::check_name(
            &value.text(),
            value.span(),
            NameKind::Priority,
            false,
            errors,
        ),
    };
    let Some((content, span)) = text.or_else(|| variant.doc.clone()) else {
        errors.at(variant.ident.span(), format_args!(
            "step `{}` has no content: give it a doc comment (`/// Analyze the code`) or write `#[step(\"Analyze the code\")]`",
            variant.ident
        ));
        return None;
    };
    if let Err(problem) = crate::rules::check_content(&content) {
        errors.at(span, problem);
        return None;
    }
    if earlier.iter().any(|step| step.content == content) {
        errors.at(span, format_args!(
            "two steps say \"{content}\"; each step's content must differ, as clients tell entries apart by it"
        ));
        return None;
    }
    Some(Step {
        variant: variant.ident,
        content,
        priority: priority?,
        priority_at,
    })
}
