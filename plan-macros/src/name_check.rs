//! Priorities, statuses and plan types as the macros check them, with their
//! messages (the wordings themselves live in `rules/`).

use crate::errors::{Errors, Site};
use crate::rules;

/// Which closed set of names a name belongs to.
#[derive(Clone, Copy)]
pub(crate) enum NameKind {
    Priority,
    Status,
}

impl NameKind {
    fn known(self) -> &'static [&'static str] {
        match self {
            Self::Priority => &rules::KNOWN_PRIORITIES,
            Self::Status => &rules::KNOWN_STATUSES,
        }
    }

    fn v1_known(self) -> &'static [&'static str] {
        match self {
            Self::Priority => &rules::KNOWN_PRIORITIES,
            Self::Status => &rules::V1_STATUSES,
        }
    }

    /// Priorities for statuses and the other way round: a name of one
    /// written where the other belongs is a likely slip.
    fn other(self) -> Self {
        match self {
            Self::Priority => Self::Status,
            Self::Status => Self::Priority,
        }
    }

    pub(crate) fn what(self) -> &'static str {
        match self {
            Self::Priority => "priority",
            Self::Status => "status",
        }
    }
}

/// A value v1 lacks, in a v1 plan: the shared wording and the fix here.
fn not_in_v1(site: &Site, what: &str, name: &str, errors: &mut Errors) {
    errors.at(
        site,
        format_args!(
            "{}: the `plan` update (`entries: [...]`) is v1's and cannot carry it; write `items: [...]` with an `id` (a `plan_update`: v2 clients read it as written, v1 clients through the fallback)",
            rules::NotInV1 { what, name }
        ),
    );
}

/// A name that passed: one the protocol knows, or a valid custom one.
pub(crate) enum Name {
    Known(&'static str),
    Custom(String),
}

impl Name {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Self::Known(known) => known,
            Self::Custom(custom) => custom,
        }
    }
}

/// Checks a priority or status written as `text` at `site`: known, or `_`
/// and a name; in a v1 plan (`v1`), v1's closed set only. A typo of a known
/// name gets a suggestion.
pub(crate) fn check_name(
    text: &str,
    site: impl Into<Site>,
    kind: NameKind,
    v1: bool,
    errors: &mut Errors,
) -> Option<Name> {
    let site = site.into();
    let what = kind.what();
    if let Some(known) = kind.known().iter().find(|k| **k == text) {
        if v1 && !kind.v1_known().contains(known) {
            not_in_v1(&site, what, known, errors);
            return None;
        }
        return Some(Name::Known(known));
    }
    match rules::check_custom_name(text) {
        Ok(()) if v1 => {
            not_in_v1(&site, what, text, errors);
            None
        }
        Ok(()) => Some(Name::Custom(text.to_owned())),
        Err(_) if kind.other().known().contains(&text) => {
            errors.at(
                &site,
                format_args!(
                    "`{text}` is a {}, not a {what}; a {what} is one of {}",
                    kind.other().what(),
                    list(kind.known())
                ),
            );
            None
        }
        Err(problem) => {
            let suggestion = rules::suggest(text, kind.known());
            let unknown = rules::UnknownName {
                what,
                name: text,
                problem,
                suggestion,
            };
            if suggestion.is_some() {
                errors.at(&site, unknown);
            } else {
                errors.at(
                    &site,
                    format_args!("{unknown}; known: {}", list(kind.known())),
                );
            }
            None
        }
    }
}

/// Checks the name of a custom plan type: `_` and a name, not a known type.
pub(crate) fn check_plan_type(
    text: &str,
    site: impl Into<Site>,
    errors: &mut Errors,
) -> Option<String> {
    let site = site.into();
    if rules::KNOWN_PLAN_TYPES.contains(&text) {
        errors.at(&site, format_args!(
            "`{text}` is a known plan type, not a custom one; custom types begin with `_`, e.g. `_{text}`"
        ));
        return None;
    }
    match rules::check_custom_name(text) {
        Ok(()) => Some(text.to_owned()),
        Err(problem) => {
            let suggestion = rules::suggest(text, &rules::KNOWN_PLAN_TYPES);
            let unknown = rules::UnknownName {
                what: "plan type",
                name: text,
                problem,
                suggestion,
            };
            match suggestion {
                Some(near) => errors.at(&site, format_args!("{unknown} (write `{near}: ...`)")),
                None => errors.at(&site, unknown),
            }
            None
        }
    }
}

/// Reports `key` as unknown among `known`, with a suggestion if one is close.
pub(crate) fn unknown_key(key: &syn::Ident, known: &[&str], place: &str, errors: &mut Errors) {
    let text = key.to_string();
    match rules::suggest(&text, known) {
        Some(near) => errors.at(
            key.span(),
            format_args!("unknown key `{text}` in {place}; did you mean `{near}`?"),
        ),
        None => errors.at(
            key.span(),
            format_args!("unknown key `{text}` in {place}; it takes {}", list(known)),
        ),
    }
}

/// `a`, `b`, `c` as code.
pub(crate) fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}
