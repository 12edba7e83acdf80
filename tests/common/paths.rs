//! Reading the paths a line of Rust names, as text: `crate::` paths (a
//! `use` group's each), `super::` climbing to the root, and the root's
//! re-exports. For `tests/map.rs`'s layer checks.

use std::path::Path;

/// The first segment of every `crate::` path on a line of code (comments,
/// doc comments and doc links `](crate::...)` are prose, not imports); a
/// group `crate::{a, b::c}` gives each of its names.
pub(crate) fn crate_paths(line: &str) -> Vec<&str> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::").filter(|(at, _)| {
        let before = code[..*at].trim_end_matches('$');
        // Not a path that only ends in `crate` (`my_crate::...`), nor a doc link.
        !before.ends_with(|c: char| c.is_alphanumeric() || c == '_') && !before.ends_with("](")
    }) {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            names.extend(group_names(group));
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        // `wire` gathers items of several layers: its item says which.
        let end = if &rest[..end] == "wire" {
            rest[end..]
                .strip_prefix("::")
                .map(|item| {
                    item.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(item.len())
                })
                .map_or(end, |n| end + 2 + n)
        } else {
            end
        };
        names.push(&rest[..end]);
    }
    names
}

/// The first segment of each item of a `use` group's text (after its `{`,
/// to its closing `}` or the end of the text): `a, b::{c, d}, e` gives
/// `a`, `b`, `e`.
fn group_names(group: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                names.push(&group[start..i]);
                start = group.len();
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                names.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if start < group.len() {
        names.push(&group[start..]);
    }
    names
        .into_iter()
        .map(|item| {
            let item = item.trim();
            let end = item
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(item.len());
            &item[..end]
        })
        .filter(|name| !name.is_empty())
        .collect()
}

/// Each `crate::` name a file's code uses, with its line; a `use
/// crate::{...}` group over several lines is read whole.
pub(crate) fn crate_names(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (number, line) in text.lines().enumerate() {
        if let Some((first, mut group)) = open.take() {
            group.push_str(line);
            if line.contains('}') {
                found.extend(
                    crate_paths(&group)
                        .into_iter()
                        .map(|n| (first, n.to_owned())),
                );
            } else {
                open = Some((first, group));
            }
            continue;
        }
        if line.trim_start().starts_with("use crate::{") && !line.contains('}') {
            open = Some((number + 1, line.to_owned()));
            continue;
        }
        found.extend(
            crate_paths(line)
                .into_iter()
                .map(|n| (number + 1, n.to_owned())),
        );
    }
    found
}

/// The crate root's re-exports, each name with the folder it comes from
/// (`Error` → `error`, `wire::Message` → `codec`), read from `lib.rs`: a
/// path through the root names the layer it leads to.
pub(crate) fn root_names(root: &Path, src: &str) -> Vec<(String, String)> {
    let lib = std::fs::read_to_string(root.join(src).join("lib.rs")).unwrap();
    let mut names = Vec::new();
    let mut in_wire = false;
    for line in lib.lines() {
        let code = line.trim();
        if code.starts_with("pub mod wire") {
            in_wire = true;
        } else if in_wire && code == "}" {
            in_wire = false;
        }
        let Some(path) = code
            .strip_prefix("pub use ")
            .and_then(|p| p.strip_suffix(';'))
        else {
            continue;
        };
        let path = path.strip_prefix("crate::").unwrap_or(path);
        let folder = path.split("::").next().unwrap_or_default().to_owned();
        let last = path.rsplit("::").next().unwrap_or_default();
        let items: Vec<&str> = match last.strip_prefix('{') {
            Some(group) => group
                .trim_end_matches('}')
                .split(',')
                .map(str::trim)
                .collect(),
            None => vec![last],
        };
        for item in items.into_iter().filter(|i| !i.is_empty()) {
            let name = if in_wire {
                format!("wire::{item}")
            } else {
                item.to_owned()
            };
            names.push((name, folder.clone()));
        }
    }
    names
}

/// The first segment after the crate's root that each `super::` path of a
/// line reaches, from the file `inner` (its path under `src`): `super::`
/// climbing to the root names a top-level module, as `crate::` does. A
/// path that stays inside the file's own folder names none.
pub(crate) fn super_roots(inner: &str, line: &str) -> Vec<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    // The file's module path: `a/b.rs` is `a::b`, `a/mod.rs` is `a`.
    let mut module: Vec<&str> = inner.trim_end_matches(".rs").split('/').collect();
    if module.last() == Some(&"mod") || module.last() == Some(&"lib") {
        module.pop();
    }
    let mut found = Vec::new();
    for (at, _) in code.match_indices("super::") {
        if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
            continue; // the second `super::` of a chain
        }
        let mut rest = &code[at..];
        let mut ups = 0;
        while let Some(next) = rest.strip_prefix("super::") {
            ups += 1;
            rest = next;
        }
        // Climbing exactly to the root (more is an inline `mod tests`).
        if ups == module.len() {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            found.push(rest[..end].to_owned());
        }
    }
    found
}
