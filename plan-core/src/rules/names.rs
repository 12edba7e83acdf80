//! Names: the known priorities, statuses and plan types, the rule for custom
//! names, typo suggestions, and the values protocol v1 lacks.

use core::fmt;

/// The plan type the drafts had and the stabilized protocol removed: read
/// from older agents, never sent unless a client is known to read it.
pub(crate) const PRE_STABLE_PLAN_TYPE: &str = "file";

/// The priorities ACP defines.
pub(crate) const KNOWN_PRIORITIES: [&str; 3] = ["high", "medium", "low"];
/// The statuses ACP defines (v2; v1 lacks `cancelled`).
pub(crate) const KNOWN_STATUSES: [&str; 4] = ["pending", "in_progress", "completed", "cancelled"];
/// Words people (and models) use for a status besides the protocol's own
/// (`KNOWN_STATUSES`), each with the protocol's word it stands for, plain (lower case; `-` and spaces as `_`). The
/// one table behind the suggestions (`done`: "did you mean `completed`?",
/// in the macros and the run-time parsers) and the `tools` reader's lenient
/// words.
pub(crate) const STATUS_WORDS: [(&str, &str); 23] = [
    ("todo", "pending"),
    ("to_do", "pending"),
    ("not_started", "pending"),
    ("open", "pending"),
    ("queued", "pending"),
    ("planned", "pending"),
    ("inprogress", "in_progress"),
    ("wip", "in_progress"),
    ("doing", "in_progress"),
    ("active", "in_progress"),
    ("started", "in_progress"),
    ("working", "in_progress"),
    ("ongoing", "in_progress"),
    ("current", "in_progress"),
    ("running", "in_progress"),
    ("complete", "completed"),
    ("done", "completed"),
    ("finished", "completed"),
    ("resolved", "completed"),
    ("canceled", "cancelled"),
    ("skipped", "cancelled"),
    ("abandoned", "cancelled"),
    ("dropped", "cancelled"),
];

/// `text` plain: trimmed, lower case, `-` and spaces as `_`.
fn plain(text: &str) -> impl Iterator<Item = char> + '_ {
    text.trim().chars().map(|c| match c {
        '-' | ' ' => '_',
        c => c.to_ascii_lowercase(),
    })
}

/// The known status `text` means: a known status, or a word of
/// [`STATUS_WORDS`], in any case, with `-` or spaces for `_`.
pub(crate) fn status_word(text: &str) -> Option<&'static str> {
    let same = |word: &str| plain(text).eq(word.chars());
    KNOWN_STATUSES
        .iter()
        .copied()
        .find(|k| same(k))
        .or_else(|| {
            STATUS_WORDS
                .iter()
                .find(|(word, _)| same(word))
                .map(|(_, status)| *status)
        })
}

/// The statuses a v1 `plan` update may carry.
pub(crate) const V1_STATUSES: [&str; 3] = ["pending", "in_progress", "completed"];
/// The plan content types ACP defines, by name: what the readers tell
/// apart by `type`.
///
/// `file` is pre-stable (see `versions.rs`): read from older agents, and
/// known so that a message carrying it is never taken for a reserved type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)] // plan-macros judges type names as text (`KNOWN_PLAN_TYPES`)
pub(crate) enum PlanType {
    /// `items`: a list of entries.
    Items,
    /// `file`: a URI (pre-stable).
    File,
    /// `markdown`: a document, maybe with its file's path.
    Markdown,
}

#[allow(dead_code)] // as above
impl PlanType {
    /// Every type, in the order of [`KNOWN_PLAN_TYPES`].
    pub(crate) const ALL: [Self; 3] = [Self::Items, Self::File, Self::Markdown];

    /// The type's name on the wire.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Self::Items => "items",
            Self::File => PRE_STABLE_PLAN_TYPE,
            Self::Markdown => "markdown",
        }
    }

    /// The type named `name`, if the protocol defines it.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The names of the plan types ACP defines ([`PlanType`]), for what judges
/// them as text (plan-macros, suggestions for a typo).
#[allow(dead_code)] // plan-core reads types through `PlanType`
pub(crate) const KNOWN_PLAN_TYPES: [&str; 3] = [
    PlanType::Items.name(),
    PlanType::File.name(),
    PlanType::Markdown.name(),
];

/// Why a name cannot be a custom value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameProblem {
    /// The name is empty.
    Empty,
    /// The name is `_` alone.
    UnderscoreOnly,
    /// The name does not begin with `_`: it is reserved for future ACP versions.
    Reserved,
}

/// Checks the rule for custom priorities, statuses and plan types:
/// `_` followed by at least one more character.
pub(crate) fn check_custom_name(name: &str) -> Result<(), NameProblem> {
    match name.strip_prefix('_') {
        _ if name.is_empty() => Err(NameProblem::Empty),
        Some("") => Err(NameProblem::UnderscoreOnly),
        Some(_) => Ok(()),
        None => Err(NameProblem::Reserved),
    }
}

/// Explains a [`NameProblem`] for `name` in one sentence, with the fix.
pub(crate) struct ExplainName<'a> {
    pub(crate) problem: NameProblem,
    pub(crate) name: &'a str,
}

impl fmt::Display for ExplainName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problem {
            NameProblem::Empty => f.write_str(
                "a custom name cannot be empty; custom values are `_` followed by at least one character, e.g. `_blocked`",
            ),
            NameProblem::UnderscoreOnly => f.write_str(
                "`_` alone is not a custom name; add at least one character after the `_`, e.g. `_blocked`",
            ),
            NameProblem::Reserved => write!(
                f,
                "custom names must begin with `_`; `{0}` is reserved for future ACP versions (write `_{0}`)",
                self.name
            ),
        }
    }
}

/// A priority or status that protocol v1 does not have: `cancelled` (a
/// known v2 status) or a custom `_x` value. Its `Display` is the one wording;
/// each place adds what it means there.
pub(crate) struct NotInV1<'a> {
    /// "priority" or "status".
    pub(crate) what: &'a str,
    /// The value.
    pub(crate) name: &'a str,
}

impl NotInV1<'_> {
    /// The values v1 has for `what`.
    fn v1_values(&self) -> &'static [&'static str] {
        if self.what == "priority" {
            &KNOWN_PRIORITIES
        } else {
            &V1_STATUSES
        }
    }
}

impl fmt::Display for NotInV1<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { what, name } = self;
        if name.starts_with('_') {
            write!(f, "protocol v1 has no custom {what} `{name}`, only ")?;
        } else {
            write!(f, "`{name}` does not exist in protocol v1, only ")?;
        }
        let values = self.v1_values();
        for (i, value) in values.iter().enumerate() {
            match i {
                0 => {}
                i if i + 1 == values.len() => f.write_str(" and ")?,
                _ => f.write_str(", ")?,
            }
            write!(f, "`{value}`")?;
        }
        Ok(())
    }
}

/// A priority, status or plan type that is neither known nor a valid custom
/// name: the one wording, with the nearest known name if there is one.
pub(crate) struct UnknownName<'a> {
    /// "priority", "status" or "plan type".
    pub(crate) what: &'a str,
    pub(crate) name: &'a str,
    pub(crate) problem: NameProblem,
    /// The known name it most likely meant.
    pub(crate) suggestion: Option<&'a str>,
}

impl fmt::Display for UnknownName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { what, name, .. } = self;
        match self.suggestion {
            // A word of its own for a status (`done`): the protocol's word
            // first, the custom-name rule second.
            Some(near) if status_word(name) == Some(near) && !plain(name).eq(near.chars()) => {
                write!(
                    f,
                    "unknown {what} `{name}`; did you mean `{near}`? (a {what} of your own begins with `_`: `_{name}`)"
                )
            }
            Some(near) => write!(f, "unknown {what} `{name}`; did you mean `{near}`?"),
            None => write!(
                f,
                "unknown {what} `{name}`: {}",
                ExplainName {
                    problem: self.problem,
                    name,
                }
            ),
        }
    }
}

/// The known name `name` most likely means: the status a word of
/// [`STATUS_WORDS`] stands for (`done`: `completed`), else the closest
/// known name if it is a likely typo: the same name in another case, or at
/// most one edit in three characters away.
pub(crate) fn suggest<'k>(name: &str, known: &[&'k str]) -> Option<&'k str> {
    if let Some(meant) = status_word(name.trim_start_matches('_'))
        && let Some(known) = known.iter().find(|k| **k == meant)
    {
        return Some(known);
    }
    let lower = name.to_ascii_lowercase().replace('-', "_");
    let lower = lower.trim_start_matches('_');
    known
        .iter()
        .map(|k| (edit_distance(lower, k), *k))
        .filter(|(d, k)| *d <= (k.len() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Edit distance over chars, counting a swap of two neighbours as one edit
/// (optimal string alignment), so `itmes` is one edit from `items`. Names
/// here are short, so O(n·m) is fine.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // rows[i][j]: the distance between a[..i] and b[..j].
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let substitution = rows[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = substitution.min(rows[i - 1][j] + 1).min(rows[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}
