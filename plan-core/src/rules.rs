//! The protocol's naming rules, in one dependency-free file.
//!
//! `plan-core` checks them at run time and `plan-macros` at compile time, and
//! they must never disagree. This file therefore depends on nothing but
//! `core`/`alloc`, and `plan-macros/src/rules.rs` is a symbolic link to it: one
//! source, compiled into both crates (`cargo package` copies a link's target,
//! so both published crates still carry it). See `docs/design.md`.
//!
//! Everything here is `pub(crate)`: `plan-core` exposes it through its own
//! types ([`CustomName`](crate::CustomName), [`PlanId`](crate::PlanId), ...).

use core::fmt;

/// The priorities ACP defines.
pub(crate) const KNOWN_PRIORITIES: [&str; 3] = ["high", "medium", "low"];
/// The statuses ACP defines (v2; v1 lacks `cancelled`).
pub(crate) const KNOWN_STATUSES: [&str; 4] = ["pending", "in_progress", "completed", "cancelled"];
/// The statuses a v1 `plan` update may carry.
pub(crate) const V1_STATUSES: [&str; 3] = ["pending", "in_progress", "completed"];
/// The plan content types ACP defines.
pub(crate) const KNOWN_PLAN_TYPES: [&str; 3] = ["items", "file", "markdown"];

/// The plan id's key in the source documents' spelling and in the ACP one.
pub(crate) const PLAN_ID_KEYS: [&str; 2] = ["id", "planId"];
/// The keys a plan object writes itself (its type, its id in either spelling,
/// `_meta`): a custom plan's own fields cannot hold them.
pub(crate) const OWN_KEYS: [&str; 4] = ["type", PLAN_ID_KEYS[0], PLAN_ID_KEYS[1], "_meta"];

/// What is wrong with a field that has two spellings (the plan id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SpellingProblem {
    /// Neither spelling is there.
    Missing,
    /// Both are there: ambiguous.
    Both,
}

/// A [`SpellingProblem`] with the field's two keys, as one sentence.
pub(crate) struct ExplainSpelling<'a> {
    pub(crate) problem: SpellingProblem,
    /// The source documents' spelling, e.g. `id`.
    pub(crate) rfd: &'a str,
    /// The ACP spelling, e.g. `planId`.
    pub(crate) acp: &'a str,
}

impl fmt::Display for ExplainSpelling<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { rfd, acp, .. } = self;
        match self.problem {
            SpellingProblem::Missing => {
                write!(
                    f,
                    "missing required field `{acp}` (or `{rfd}`, its RFD spelling)"
                )
            }
            SpellingProblem::Both => write!(
                f,
                "both `{rfd}` and `{acp}` are present; they are two spellings of one field, keep one"
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

/// What each byte turns into inside a JSON string, as `serde_json` writes it:
/// 0 for itself, else the letter after the backslash (`u` for `\u00XX`). The
/// writer at run time and `plan_json!` at compile time both escape with it.
pub(crate) const JSON_ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// The JSON-RPC version every ACP message carries.
pub(crate) const JSONRPC_VERSION: &str = "2.0";
/// The JSON-RPC method of every session update.
pub(crate) const SESSION_UPDATE: &str = "session/update";

/// What is wrong with the JSON-RPC envelope of a `session/update`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EnvelopeProblem<'a> {
    /// `jsonrpc` is not `"2.0"`.
    Version(&'a str),
    /// `method` is not `session/update`.
    Method(&'a str),
    /// The message has an `id`: it is a request.
    HasId,
}

/// Checks the `jsonrpc` and `method` of a `session/update`.
pub(crate) fn check_envelope<'a>(
    version: &'a str,
    method: &'a str,
) -> Result<(), EnvelopeProblem<'a>> {
    if version != JSONRPC_VERSION {
        Err(EnvelopeProblem::Version(version))
    } else if method != SESSION_UPDATE {
        Err(EnvelopeProblem::Method(method))
    } else {
        Ok(())
    }
}

impl fmt::Display for EnvelopeProblem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Version(found) => {
                write!(
                    f,
                    "expected JSON-RPC version \"{JSONRPC_VERSION}\", found {found:?}"
                )
            }
            Self::Method(found) => write!(f, "expected method `{SESSION_UPDATE}`, found `{found}`"),
            Self::HasId => write!(
                f,
                "a `{SESSION_UPDATE}` is a notification and carries no `id`; this is a request"
            ),
        }
    }
}

/// An entry's (or a step's) content is blank: it must say what the step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlankContent;

/// Checks an entry's content: at least one character that is not white space.
pub(crate) fn check_content(content: &str) -> Result<(), BlankContent> {
    if content.trim().is_empty() {
        Err(BlankContent)
    } else {
        Ok(())
    }
}

impl fmt::Display for BlankContent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an entry's content cannot be empty; say what the step does")
    }
}

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

/// Why a string cannot be a plan id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IdProblem {
    /// The id is empty.
    Empty,
    /// The id holds only white space.
    Blank,
}

/// Checks a plan id: it must contain at least one character that is not white space.
pub(crate) fn check_plan_id(id: &str) -> Result<(), IdProblem> {
    if id.is_empty() {
        Err(IdProblem::Empty)
    } else if id.trim().is_empty() {
        Err(IdProblem::Blank)
    } else {
        Ok(())
    }
}

impl fmt::Display for IdProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Empty => "a plan id cannot be empty",
            Self::Blank => "a plan id cannot be only white space",
        })
    }
}

/// Why a string cannot be the `uri` of a file plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UriProblem {
    /// The URI is empty.
    Empty,
    /// The URI has no `scheme:` prefix (a bare path).
    NoScheme,
    /// The scheme is one letter: almost surely a Windows drive (`C:\...`).
    DriveLetter,
    /// The URI contains a character a URI cannot hold unencoded (white
    /// space, a control character, a non-ASCII letter, `<`, `"`, ...).
    Character(char),
    /// A `%` not followed by two hexadecimal digits.
    BadPercent,
}

/// Checks that `uri` is an absolute URI (RFC 3986): `scheme ":" rest`, where
/// the scheme is a letter followed by letters, digits, `+`, `-` or `.`, and
/// every other character is one a URI may hold, or a `%` escape.
pub(crate) fn check_uri(uri: &str) -> Result<(), UriProblem> {
    if uri.is_empty() {
        return Err(UriProblem::Empty);
    }
    let Some((scheme, _)) = uri.split_once(':') else {
        return Err(UriProblem::NoScheme);
    };
    let mut chars = scheme.chars();
    let starts_with_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if !starts_with_letter
        || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return Err(UriProblem::NoScheme);
    }
    if scheme.len() == 1 {
        return Err(UriProblem::DriveLetter);
    }
    let bytes = uri.as_bytes();
    for (at, c) in uri.char_indices() {
        let allowed = c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=%".contains(c);
        if !allowed {
            return Err(UriProblem::Character(c));
        }
        let hex = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_hexdigit);
        if c == '%' && !(hex(at + 1) && hex(at + 2)) {
            return Err(UriProblem::BadPercent);
        }
    }
    Ok(())
}

impl fmt::Display for UriProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Self::Character(c) = self {
            return write!(
                f,
                "{c:?} cannot appear in a URI as it is; percent-encode it as UTF-8 bytes (a space is `%20`)"
            );
        }
        f.write_str(match self {
            Self::Empty => "a file plan's URI cannot be empty",
            Self::NoScheme => {
                "a file plan's URI must be absolute, with a scheme, e.g. `file:///tmp/plan.md`"
            }
            Self::DriveLetter => {
                "this looks like a Windows path, not a URI; write it as `file:///C:/path/plan.md`"
            }
            Self::BadPercent => "a `%` in a URI must be followed by two hexadecimal digits",
            Self::Character(_) => unreachable!("handled above"),
        })
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

/// The known name closest to `name`, if one is close enough to be a likely typo:
/// the same name in another case, or at most one edit in three characters away.
pub(crate) fn suggest<'k>(name: &str, known: &[&'k str]) -> Option<&'k str> {
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
fn edit_distance(a: &str, b: &str) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_names_follow_the_underscore_rule() {
        let cases = [
            ("_urgent", Ok(())),
            ("_x", Ok(())),
            ("__", Ok(())),
            ("", Err(NameProblem::Empty)),
            ("_", Err(NameProblem::UnderscoreOnly)),
            ("urgent", Err(NameProblem::Reserved)),
            ("high", Err(NameProblem::Reserved)),
            ("x_", Err(NameProblem::Reserved)),
        ];
        for (name, expected) in cases {
            assert_eq!(check_custom_name(name), expected, "{name:?}");
        }
    }

    #[test]
    fn the_reserved_message_names_the_fix() {
        let message = ExplainName {
            problem: NameProblem::Reserved,
            name: "urgent",
        }
        .to_string();
        assert_eq!(
            message,
            "custom names must begin with `_`; `urgent` is reserved for future ACP versions (write `_urgent`)"
        );
    }

    #[test]
    fn plan_ids_need_a_visible_character() {
        assert_eq!(check_plan_id("plan-1"), Ok(()));
        assert_eq!(check_plan_id(" a "), Ok(()));
        assert_eq!(check_plan_id(""), Err(IdProblem::Empty));
        assert_eq!(check_plan_id(" \t\n"), Err(IdProblem::Blank));
    }

    #[test]
    fn uris_must_be_absolute() {
        let cases = [
            ("file:///tmp/plan.md", Ok(())),
            ("https://example.com/plan", Ok(())),
            ("urn:isbn:0451450523", Ok(())),
            ("git+ssh://host/repo", Ok(())),
            ("", Err(UriProblem::Empty)),
            ("/tmp/plan.md", Err(UriProblem::NoScheme)),
            ("plan.md", Err(UriProblem::NoScheme)),
            ("1abc:x", Err(UriProblem::NoScheme)),
            (":x", Err(UriProblem::NoScheme)),
            ("C:\\plan.md", Err(UriProblem::DriveLetter)),
            ("file:///my%20plan.md", Ok(())),
            ("file:///my plan.md", Err(UriProblem::Character(' '))),
            ("file:///jos\u{e9}.md", Err(UriProblem::Character('\u{e9}'))),
            ("https://a/<b>", Err(UriProblem::Character('<'))),
            ("file:///50%", Err(UriProblem::BadPercent)),
            ("file:///%zz", Err(UriProblem::BadPercent)),
        ];
        for (uri, expected) in cases {
            assert_eq!(check_uri(uri), expected, "{uri:?}");
        }
    }

    #[test]
    fn suggestions_catch_typos_and_nothing_else() {
        assert_eq!(suggest("in_progess", &KNOWN_STATUSES), Some("in_progress"));
        assert_eq!(suggest("in-progress", &KNOWN_STATUSES), Some("in_progress"));
        assert_eq!(suggest("High", &KNOWN_PRIORITIES), Some("high"));
        assert_eq!(suggest("meduim", &KNOWN_PRIORITIES), Some("medium"));
        assert_eq!(suggest("canceled", &KNOWN_STATUSES), Some("cancelled"));
        assert_eq!(suggest("markdwn", &KNOWN_PLAN_TYPES), Some("markdown"));
        assert_eq!(suggest("pendign", &KNOWN_STATUSES), Some("pending"));
        assert_eq!(suggest("urgent", &KNOWN_PRIORITIES), None);
        assert_eq!(suggest("blocked", &KNOWN_STATUSES), None);
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("low", "low"), 0);
        assert_eq!(edit_distance("itmes", "items"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
    }
}
