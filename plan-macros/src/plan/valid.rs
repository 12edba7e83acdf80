//! Stage 2: every rule of the protocol a `plan!` call can break, each error
//! on the narrowest token. All errors are collected; nothing here emits code.

use proc_macro2::{Group, Span, TokenTree};
use syn::ext::IdentExt;
use syn::{Ident, LitStr};

use super::ast::{Entry, Field, Input, Name, Text, Value};
use crate::errors::{Errors, Site};
use crate::name_check::{self, NameKind};
use crate::rules;

/// The keys a `plan!` call knows.
pub(crate) const KEYS: [&str; 9] = [
    "id", "items", "entries", "markdown", "file", "type", "path", "fields", "meta",
];
/// The keys that say what kind of plan it is; a call has exactly one.
const CONTENT_KEYS: [&str; 5] = ["items", "entries", "markdown", "file", "type"];
use crate::rules::OWN_KEYS;

/// A call that passed every check.
pub(crate) struct CheckedPlan {
    pub(crate) form: CheckedForm,
    pub(crate) meta: Option<Group>,
}

/// What a checked call makes: the v1 `plan` update, or plan content of
/// one type, with its checked parts.
pub(crate) enum CheckedForm {
    /// `entries: [...]`: a v1 `plan` update.
    V1(Vec<CheckedEntry>),
    Items(Text, Vec<CheckedEntry>),
    /// Id, content, and the absolute `path` of its file, if any.
    Markdown(Text, Text, Option<Text>),
    /// A pre-stable `file` plan: only `include_plan!` makes one (a recorded
    /// fixture of an older agent); `plan!` refuses `file:`.
    File(Text, Text),
    /// A custom type: id, the `_name`, and the `fields` JSON object.
    Custom(Text, String, Option<Group>),
}

pub(crate) struct CheckedEntry {
    pub(crate) priority: CheckedName,
    pub(crate) status: CheckedName,
    pub(crate) content: Text,
    pub(crate) meta: Option<Group>,
}

impl CheckedEntry {
    /// Every part, for the expansion's readers of an entry: a field added
    /// here changes this tuple, so each of them fails to compile until it
    /// handles the field.
    pub(crate) fn parts(&self) -> (&CheckedName, &CheckedName, &Text, Option<&Group>) {
        let Self {
            priority,
            status,
            content,
            meta,
        } = self;
        (priority, status, content, meta.as_ref())
    }
}

pub(crate) enum CheckedName {
    /// A known name, and where the user wrote it (the call site for a name
    /// read from a file): the expansion names its item of `plan_core::dsl`
    /// there.
    Known(&'static str, Span),
    Custom(String),
    Expr(Group),
}

/// The fields of a call by key, each at most once.
struct Slots {
    fields: [Option<Field>; KEYS.len()],
    /// The key that says what the plan is (`items`, `markdown`, ...).
    content_key: Option<Ident>,
    /// Whether an unknown key was reported (perhaps a misspelt content key).
    unknown: bool,
}

/// What the plan is, before its id is joined to it.
enum Content {
    V1(Vec<CheckedEntry>),
    Items(Vec<CheckedEntry>),
    Markdown(Text),
    Custom(String, Option<Group>),
}

/// Stage 2 of `plan!`: every rule a call can break, each error on its
/// token, all of them together.
pub(crate) fn check(input: Input) -> Result<CheckedPlan, syn::Error> {
    let mut errors = Errors::new(input.errors);
    let broken = |key: &str| input.broken.iter().any(|k| k.unraw() == key);
    let id_broken = broken("id");
    let content_broken = CONTENT_KEYS.iter().any(|k| broken(k));
    let Slots {
        fields,
        content_key,
        unknown,
    } = sort_fields(input.fields, &mut errors);
    let [id, items, entries, markdown, file, kind, path, fields, meta] = fields;

    let id_key = id.as_ref().map(|f| f.key.span());
    // An id that was given but is malformed is reported once, not as missing too.
    let id_given = id.is_some() || id_broken;
    let id = id.and_then(|f| {
        text_value(
            f,
            "a string literal or `{ expression }` giving a `PlanId`",
            &mut errors,
        )
    });
    if let Some(Text::Str(lit)) = &id {
        check_plan_id(&lit.value(), lit.span(), &mut errors);
    }
    let meta = meta.and_then(|f| {
        braced(
            f,
            "a JSON object, e.g. `meta: { \"traceId\": \"abc\" }`",
            &mut errors,
        )
    });
    let fields = fields.and_then(|f| custom_fields(f, kind.is_some(), &mut errors));

    let path = path.and_then(|f| markdown_path(f, markdown.is_some(), file.is_some(), &mut errors));

    let Some(content_key) = content_key else {
        if content_broken || unknown {
            return errors.finish(None);
        }
        errors.at(Span::call_site(), "a plan needs its content: one of `items: [...]`, `markdown: \"...\"` (with `path: \"/abs/PLAN.md\"` if it lives in a file), `type: _custom` (v2, with an `id`), or `entries: [...]` (a v1 plan)");
        return errors.finish(None);
    };
    let v1 = entries.is_some();
    let content = content([entries, items, markdown, file, kind], fields, &mut errors);

    // A v2 plan needs an id; a v1 plan has none.
    if let (true, Some(span)) = (v1, id_key) {
        errors.at(
            span,
            "the `plan` update (`entries: [...]`) has no id; write `items: [...]` for a plan with an id (a `plan_update`)",
        );
    }
    let form = form(
        content,
        id,
        path,
        id_given || v1,
        content_key.span(),
        &mut errors,
    );
    errors.finish(form.map(|form| CheckedPlan { form, meta }))
}

/// `fields`: only a custom plan (`custom`) has them, a JSON object without
/// the keys plan-core writes itself.
fn custom_fields(f: Field, custom: bool, errors: &mut Errors) -> Option<Group> {
    if !custom {
        errors.at(
            f.key.span(),
            "`fields` belongs to a custom plan: add `type: _your_type`",
        );
        return None;
    }
    let group = braced(f, "a JSON object of the custom plan's fields", errors)?;
    check_own_keys(&group, errors);
    Some(group)
}

/// `path`: only a markdown plan has one (a `file` plan's is its own
/// error), an absolute path.
fn markdown_path(f: Field, markdown: bool, file: bool, errors: &mut Errors) -> Option<Text> {
    if !markdown {
        if !file {
            errors.at(
                f.key.span(),
                "`path` belongs to a markdown plan: add `markdown: \"...\"` (the plan's text, shown by every client)",
            );
        }
        return None;
    }
    let path = text_value(
        f,
        "a string literal or `{ expression }` giving an `AbsolutePath`",
        errors,
    )?;
    if let Text::Str(lit) = &path {
        check_markdown_path(&lit.value(), lit.span(), errors);
    }
    Some(path)
}

/// What the checked content and id make; a v2 plan without an id is an
/// error at its content's key (`content_at`), unless the id was given but
/// broken or the plan is v1 (`id_said`: said already).
fn form(
    content: Option<Content>,
    id: Option<Text>,
    path: Option<Text>,
    id_said: bool,
    content_at: Span,
    errors: &mut Errors,
) -> Option<CheckedForm> {
    match (content, id) {
        (Some(Content::V1(entries)), None) => Some(CheckedForm::V1(entries)),
        (Some(Content::V1(_)) | None, Some(_)) => None,
        (_, None) if id_said => None,
        (_, None) => {
            errors.at(content_at, format_args!(
                "this plan needs an `id`: add `id: \"plan-1\"` (every v2 plan has one; use `entries: [...]` for a v1 plan without)"
            ));
            None
        }
        (Some(Content::Items(entries)), Some(id)) => Some(CheckedForm::Items(id, entries)),
        (Some(Content::Markdown(text)), Some(id)) => Some(CheckedForm::Markdown(id, text, path)),
        (Some(Content::Custom(name, fields)), Some(id)) => {
            Some(CheckedForm::Custom(id, name, fields))
        }
    }
}

/// Checks the one content field given: `[entries, items, markdown, file, type]`.
fn content(
    [entries, items, markdown, file, kind]: [Option<Field>; 5],
    fields: Option<Group>,
    errors: &mut Errors,
) -> Option<Content> {
    if let Some(field) = entries {
        entries_value(field, true, errors).map(Content::V1)
    } else if let Some(field) = items {
        entries_value(field, false, errors).map(Content::Items)
    } else if let Some(field) = markdown {
        text_value(
            field,
            "a string literal or `{ expression }` of markdown",
            errors,
        )
        .map(Content::Markdown)
    } else if let Some(field) = file {
        errors.at(field.key.span(), rules::FileNoLonger);
        None
    } else {
        kind.and_then(|field| custom_type(field, errors))
            .map(|name| Content::Custom(name, fields))
    }
}

/// Files each field under its key: unknown keys, duplicates and a second
/// content are errors.
fn sort_fields(input: Vec<Field>, errors: &mut Errors) -> Slots {
    let mut slots = Slots {
        fields: Default::default(),
        content_key: None,
        unknown: false,
    };
    for field in input {
        let key = field.key.unraw().to_string();
        let Some(index) = KEYS.iter().position(|k| *k == key) else {
            slots.unknown = true;
            match rules::suggest(&key, &KEYS) {
                Some(known) => errors.at(field.key.span(), format_args!("unknown key `{key}`; did you mean `{known}`?")),
                None => errors.at(field.key.span(), format_args!(
                    "unknown key `{key}`; a plan takes `id`, one of `items`, `entries`, `markdown` or `type`, and optionally `path` (markdown), `fields` and `meta`"
                )),
            }
            continue;
        };
        if slots.fields[index].is_some() {
            errors.at(
                field.key.span(),
                format_args!("duplicate key `{key}`; give it once"),
            );
            continue;
        }
        if CONTENT_KEYS.contains(&key.as_str()) {
            if let Some(first) = &slots.content_key {
                errors.at(field.key.span(), format_args!(
                    "a plan has one content: `{key}` cannot be given with `{first}`; make two plans"
                ));
                continue;
            }
            slots.content_key = Some(field.key.clone());
        }
        slots.fields[index] = Some(field);
    }
    slots
}

/// A value that must be text: a string literal or `{ expression }`.
fn text_value(field: Field, expected: &str, errors: &mut Errors) -> Option<Text> {
    match field.value {
        Value::Str(lit) => Some(Text::Str(lit)),
        Value::Braced(group) => Some(Text::Expr(group)),
        other => {
            errors.at(
                other.span(),
                format_args!("`{}` takes {expected}", field.key),
            );
            None
        }
    }
}

/// A value that must be a `{ ... }` group.
fn braced(field: Field, expected: &str, errors: &mut Errors) -> Option<Group> {
    match field.value {
        Value::Braced(group) => match crate::json_tokens::check_structure(&group) {
            Ok(()) => Some(group),
            Err((span, message)) => {
                errors.at(span, message);
                None
            }
        },
        other => {
            errors.at(
                other.span(),
                format_args!("`{}` takes {expected}", field.key),
            );
            None
        }
    }
}

fn entries_value(field: Field, v1: bool, errors: &mut Errors) -> Option<Vec<CheckedEntry>> {
    let Value::Entries(_, entries) = field.value else {
        // A list made at run time has its builder; `plan!` checks literals.
        let builder = if field.key == "entries" {
            "`plan_core::Plan::new(entries)`"
        } else {
            "`plan_core::PlanContent::items(plan_core::PlanId::new(\"id\")?, entries)`"
        };
        errors.at(
            field.value.span(),
            format_args!(
                "`{}` takes a list of entries written here: `[high pending \"Analyze\", ...]`; for entries made at run time (a `Vec<PlanEntry>`, an iterator), build the plan with {builder}",
                field.key
            ),
        );
        return None;
    };
    let checked: Vec<Option<CheckedEntry>> = entries
        .into_iter()
        .map(|e| check_entry(e, v1, errors))
        .collect();
    checked.into_iter().collect()
}

fn check_entry(entry: Entry, v1: bool, errors: &mut Errors) -> Option<CheckedEntry> {
    let priority = check_name(entry.priority, NameKind::Priority, v1, errors);
    let status = check_name(entry.status, NameKind::Status, v1, errors);
    if let Text::Str(lit) = &entry.content {
        check_entry_content(&lit.value(), lit.span(), errors);
    }
    if let Some(Err((span, message))) = entry.meta.as_ref().map(crate::json_tokens::check_structure)
    {
        errors.at(span, message);
        return None;
    }
    Some(CheckedEntry {
        priority: priority?,
        status: status?,
        content: entry.content,
        meta: entry.meta,
    })
}

fn check_name(name: Name, kind: NameKind, v1: bool, errors: &mut Errors) -> Option<CheckedName> {
    let (text, span) = match name {
        Name::Expr(group) => return Some(CheckedName::Expr(group)),
        Name::Ident(ident) => (ident.unraw().to_string(), ident.span()),
        Name::Str(lit) => (lit.value(), lit.span()),
    };
    Some(match check_entry_name(&text, span, kind, v1, errors)? {
        CheckedName::Known(known, _) => CheckedName::Known(known, span),
        other => other,
    })
}

fn custom_type(field: Field, errors: &mut Errors) -> Option<String> {
    let (text, span) = match field.value {
        Value::Name(ident) => (ident.unraw().to_string(), ident.span()),
        Value::Str(lit) => (lit.value(), lit.span()),
        other => {
            errors.at(
                other.span(),
                "`type` takes the custom type's name, e.g. `type: _timeline`",
            );
            return None;
        }
    };
    if rules::KNOWN_PLAN_TYPES.contains(&text.as_str()) {
        errors.at(
            span,
            format_args!(
                "`{text}` is a known plan type: write `{text}: ...` instead of `type: {text}`"
            ),
        );
        return None;
    }
    check_custom_type(&text, span, errors)
}

/// Reports top-level keys of a custom plan's `fields` that the plan writes itself.
fn check_own_keys(group: &Group, errors: &mut Errors) {
    let tokens: Vec<TokenTree> = group.stream().into_iter().collect();
    for pair in tokens.windows(2) {
        let [TokenTree::Literal(lit), TokenTree::Punct(colon)] = pair else {
            continue;
        };
        if colon.as_char() != ':' {
            continue;
        }
        let Ok(key) = syn::parse2::<LitStr>(TokenTree::Literal(lit.clone()).into()) else {
            continue;
        };
        if OWN_KEYS.contains(&key.value().as_str()) {
            errors.at(
                lit.span(),
                format_args!(
                    "`{}` is written by the plan itself; a custom plan's fields cannot hold it",
                    key.value()
                ),
            );
        }
    }
}

// The checks of one written value. `include_plan!` reads the same values
// from JSON (`include/valid.rs`) and checks each with these, so a rule is
// applied in one place for both macros; `site` is a token here, a place in
// the file there.

/// A plan id: not blank. Whether it passed.
pub(crate) fn check_plan_id(text: &str, site: impl Into<Site>, errors: &mut Errors) -> bool {
    passes(rules::check_plan_id(text), site, errors)
}

/// A markdown plan's `path`: absolute. Whether it passed.
pub(crate) fn check_markdown_path(text: &str, site: impl Into<Site>, errors: &mut Errors) -> bool {
    passes(rules::check_absolute_path(text), site, errors)
}

/// An entry's content: not blank. Whether it passed.
pub(crate) fn check_entry_content(text: &str, site: impl Into<Site>, errors: &mut Errors) -> bool {
    passes(rules::check_content(text), site, errors)
}

/// An entry's priority or status (in a v1 plan, v1's names only).
pub(crate) fn check_entry_name(
    text: &str,
    site: impl Into<Site>,
    kind: NameKind,
    v1: bool,
    errors: &mut Errors,
) -> Option<CheckedName> {
    Some(
        match name_check::check_name(text, site, kind, v1, errors)? {
            name_check::Name::Known(known) => CheckedName::Known(known, Span::call_site()),
            name_check::Name::Custom(custom) => CheckedName::Custom(custom),
        },
    )
}

/// A custom plan type's name: `_` and a name.
pub(crate) fn check_custom_type(
    text: &str,
    site: impl Into<Site>,
    errors: &mut Errors,
) -> Option<String> {
    name_check::check_plan_type(text, site, errors)
}

/// Reports a rule's problem at `site`; whether there was none.
fn passes<P: std::fmt::Display>(
    checked: Result<(), P>,
    site: impl Into<Site>,
    errors: &mut Errors,
) -> bool {
    match checked {
        Ok(()) => true,
        Err(problem) => {
            errors.at(site, problem);
            false
        }
    }
}
