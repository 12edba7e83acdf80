//! Values: plan ids, file URIs, an entry's content.

use core::fmt;

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

/// Why a string cannot be the `path` of a markdown plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PathProblem {
    /// The path is empty (omit `path`, or send `null`, for a plan with no file).
    Empty,
    /// The path is relative: the protocol requires an absolute one.
    Relative,
    /// The path is a URI (`file:///...`), not a file-system path.
    Uri,
}

/// Checks a markdown plan's `path`: an absolute file-system path, as the
/// stabilized protocol (2026-11-20) requires. Absolute is a POSIX path
/// (`/home/dev/PLAN.md`), a Windows drive path (`C:\dev\PLAN.md`, `C:/dev/PLAN.md`)
/// or a Windows UNC path (`\\server\share\PLAN.md`).
pub(crate) fn check_absolute_path(path: &str) -> Result<(), PathProblem> {
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && matches!(bytes[2], b'\\' | b'/');
    if path.is_empty() {
        Err(PathProblem::Empty)
    } else if path.starts_with('/') || path.starts_with("\\\\") || drive {
        Ok(())
    } else if check_uri(path).is_ok() {
        Err(PathProblem::Uri)
    } else {
        Err(PathProblem::Relative)
    }
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Empty => {
                "a markdown plan's `path` cannot be empty; leave it out (or `null`) for a plan with no file"
            }
            Self::Relative => {
                "a markdown plan's `path` must be absolute, e.g. `/home/dev/project/PLAN.md`; a relative path cannot be opened by the client"
            }
            Self::Uri => {
                "a markdown plan's `path` is a file-system path, not a URI; write `/home/dev/project/PLAN.md`, not `file:///home/dev/project/PLAN.md`"
            }
        })
    }
}
