//! The house's rules that the compiler does not keep, read from the source
//! as text: a folder's hub (`mod.rs`, or `a.rs` beside `a/`) only routes
//! down and is never imported back by the files under it; a function fits in one view (80 lines) or says at
//! its top why not; acp-plan's root names what docs/design.md says it does;
//! no files import each other round a circle.
//!
//! Why one file over 500 lines: every rule here reads the same files
//! through the same walk and import reader; split, each part would need
//! them again, and each integration test file is a binary of its own.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The workspace root (this package lives in `tests/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The crates' source folders.
const SOURCES: [&str; 3] = ["plan-core/src", "plan-macros/src", "acp-plan/src"];

/// Every `.rs` file under `dir`, as (path, module path from the crate
/// root: `a/b.rs` and `a/b/mod.rs` are both `["a", "b"]`).
fn modules(dir: &Path, at: &[String], out: &mut Vec<(PathBuf, Vec<String>)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut inner = at.to_vec();
            inner.push(name);
            modules(&path, &inner, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut module = at.to_vec();
            if !["mod", "lib", "main"].contains(&name.as_str()) {
                module.push(name);
            }
            out.push((path, module));
        }
    }
}

/// A file's code before its test module (`#[cfg(test)] mod tests { .. }`,
/// always last); `None` for a test module's own file (`tests.rs`,
/// `*_tests.rs`).
fn code_of(path: &Path) -> Option<String> {
    let stem = path.file_stem().unwrap().to_string_lossy();
    if stem == "tests" || stem.ends_with("_tests") {
        return None;
    }
    let text = std::fs::read_to_string(path).unwrap();
    let end = text
        .find("\n#[cfg(test)]\nmod tests {")
        .unwrap_or(text.len());
    Some(text[..end].to_owned())
}

/// The names a path prefix leads to in `code` (comments and doc comments
/// are prose): `prefix` then a name, or a `{...}` group's first segments
/// (over as many lines as it takes), each with its line.
fn names_after(code: &str, prefix: &str) -> Vec<(usize, String)> {
    let prose_blanked: String = code
        .lines()
        .map(|line| {
            if line.trim_start().starts_with("//") {
                ""
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let code = prose_blanked.as_str();
    let mut found = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = &code[..at];
        if before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
            continue; // `my_crate::`, or a longer `super::super::` chain
        }
        let line = before.matches('\n').count() + 1;
        let rest = &code[at + prefix.len()..];
        let items: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => split_group(group),
            None => vec![rest],
        };
        for item in items {
            let end = item
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(item.len());
            if end > 0 {
                found.push((line, item[..end].to_owned()));
            }
        }
    }
    found
}

/// The top-level items of a `use` group's text after its `{`.
fn split_group(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(group[start..i].trim());
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(group[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(group[start..].trim());
    items
}

#[test]
fn no_file_imports_its_own_folders_hub_back() {
    let mut back = Vec::new();
    for src in SOURCES {
        let crate_root = root().join(src);
        let mut files = Vec::new();
        modules(&crate_root, &[], &mut files);
        let all: BTreeSet<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
        // The folders with a hub (`mod.rs`, or `a.rs` beside `a/`).
        let hubs: BTreeSet<Vec<String>> = files
            .iter()
            .filter(|(p, _)| is_hub(p))
            .map(|(_, m)| m.clone())
            .collect();
        for (path, module) in &files {
            let Some(code) = code_of(path) else { continue };
            // The folders above this file, nearest first: `super::` once
            // is the first (a hub's own folder is the hub: not above it).
            for up in 1..module.len() {
                let folder = &module[..module.len() - up];
                if !hubs.contains(folder) {
                    continue;
                }
                let full = format!("crate::{}", folder.join("::"));
                let mut prefixes = vec!["super::".repeat(up), format!("{full}::")];
                // A hub imported by name (`use crate::a::{self, ..}`) is
                // then reached as `a::item`.
                let last = folder.last().unwrap();
                if code.contains(&format!("use {full}::{{self"))
                    || code.contains(&format!("use {full};"))
                {
                    prefixes.push(format!("{last}::"));
                }
                for prefix in &prefixes {
                    for (line, name) in names_after(&code, prefix) {
                        let mut child = folder.to_vec();
                        child.push(name.clone());
                        if name == "super" || name == "self" || all.contains(&child) {
                            continue;
                        }
                        let path = path.strip_prefix(root()).unwrap().display().to_string();
                        back.push(format!(
                            "{path}:{line}: `{name}` from {}'s hub",
                            folder.join("/")
                        ));
                    }
                }
            }
        }
    }
    assert!(
        back.is_empty(),
        "a file imports its folder's hub back (move the item to the file it belongs to):\n{}",
        back.join("\n")
    );
}

/// Whether `path` is a folder's hub: its `mod.rs`, or `a.rs` beside a
/// folder `a/` (the other way Rust writes a module with children).
fn is_hub(path: &Path) -> bool {
    path.ends_with("mod.rs") || path.with_extension("").is_dir()
}

/// The lines of a hub's `code` that are more than routing: anything but
/// `mod` and `use` items (a `use` over many lines whole), attributes,
/// comments and blank lines.
fn more_than_routing(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_use = false;
    for (i, line) in code.lines().enumerate() {
        let item = line.trim();
        // Past any visibility: `pub`, `pub(crate)`, `pub(in a::b)`.
        let bare = match item.strip_prefix("pub") {
            Some(rest) if rest.starts_with('(') => {
                rest.split_once(") ").map_or(item, |(_, after)| after)
            }
            Some(rest) if rest.starts_with(' ') => rest.trim_start(),
            _ => item,
        };
        if in_use {
            in_use = !item.ends_with(';');
            continue;
        }
        if bare.starts_with("use ") {
            in_use = !item.ends_with(';');
            continue;
        }
        let routing = item.is_empty()
            || item.starts_with("//")
            || item.starts_with("#[")
            || (bare.starts_with("mod ") && item.ends_with(';'));
        if !routing {
            found.push((i + 1, item.to_owned()));
        }
    }
    found
}

/// A folder's hub routes: it declares the folder's files and re-exports
/// what they make; what it would do itself is a file of its own, named for
/// its job. Crate roots (`lib.rs`, `main.rs`) are the facades, not hubs.
#[test]
fn every_hub_only_routes() {
    let mut holding = Vec::new();
    for src in SOURCES {
        let mut files = Vec::new();
        modules(&root().join(src), &[], &mut files);
        for (path, _) in files.iter().filter(|(p, _)| is_hub(p)) {
            let Some(code) = code_of(path) else { continue };
            if let Some((line, item)) = more_than_routing(&code).first() {
                let path = path.strip_prefix(root()).unwrap().display();
                holding.push(format!("{path}:{line}: {item}"));
            }
        }
    }
    assert!(
        holding.is_empty(),
        "a hub holds more than routing (move it to a file named for its job):\n{}",
        holding.join("\n")
    );
}

#[test]
fn the_hub_check_sees_code_and_not_a_use_over_many_lines() {
    let routing = "//! A hub.\n\nmod a;\n#[cfg(test)]\npub(in crate::x) mod b;\npub use a::{\n    One,\n    Two,\n};\n";
    assert!(more_than_routing(routing).is_empty());
    let holding = format!("{routing}\npub fn run() {{}}\n");
    assert_eq!(
        more_than_routing(&holding),
        [(11, "pub fn run() {}".to_owned())]
    );
}

/// Where each function of `code` starts and how many lines it spans, by
/// its braces (strings, characters and comments skipped); a declaration
/// without a body is none.
fn functions(code: &str) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let mut depth = 0usize;
        let mut opened = false;
        let mut state = Lex::Code;
        'body: for (offset, text) in lines[start..].iter().enumerate() {
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                state = match (state, c) {
                    (Lex::Code, '/') if chars.peek() == Some(&'/') => break,
                    (Lex::Code, '"') => Lex::Str,
                    (Lex::Code, '\'') => {
                        // A character literal, not a lifetime: `'x'` or `'\..'`.
                        let rest: String = chars.clone().take(3).collect();
                        if rest.starts_with('\\') || rest.chars().nth(1) == Some('\'') {
                            Lex::Char
                        } else {
                            Lex::Code
                        }
                    }
                    (Lex::Code, '{') => {
                        depth += 1;
                        opened = true;
                        Lex::Code
                    }
                    (Lex::Code, '}') => {
                        depth = depth.saturating_sub(1);
                        if opened && depth == 0 {
                            found.push((start + 1, name.clone(), offset + 1));
                            break 'body;
                        }
                        Lex::Code
                    }
                    (Lex::Code, ';') if !opened && depth == 0 => break 'body,
                    (Lex::Str | Lex::Char, '\\') => {
                        chars.next();
                        state
                    }
                    (Lex::Str, '"') | (Lex::Char, '\'') => Lex::Code,
                    (state, _) => state,
                };
            }
        }
    }
    found
}

/// Where the lexer of [`functions`] is.
#[derive(Clone, Copy)]
enum Lex {
    Code,
    Str,
    Char,
}

/// The name of the function a line declares, if it does.
fn fn_name(line: &str) -> Option<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return None;
    }
    let at = code.find("fn ")?;
    let before = &code[..at];
    let words_ok = before.split_whitespace().all(|w| {
        w.starts_with("pub") || ["const", "async", "unsafe", "extern", "default"].contains(&w)
    });
    if !words_ok || (at > 0 && !before.ends_with(' ')) {
        return None;
    }
    let rest = &code[at + 3..];
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(rest[..end].to_owned())
}

/// How many lines a function may span before its top must say why.
const ONE_VIEW: usize = 80;

/// The functions of `code` (from `path`) over one view that do not say
/// why at their top (a comment in the lines just above or at it), each as
/// `path:line: name, span`.
fn too_long(path: &Path, code: &str) -> Vec<String> {
    let lines: Vec<&str> = code.lines().collect();
    let path = path.strip_prefix(root()).unwrap().display().to_string();
    functions(code)
        .into_iter()
        .filter(|&(line, _, span)| {
            let top = &lines[line.saturating_sub(4)..(line + 2).min(lines.len())];
            let says_why = top
                .iter()
                .any(|l| l.to_lowercase().contains("over 80 lines"));
            span > ONE_VIEW && !says_why
        })
        .map(|(line, name, span)| format!("{path}:{line}: `{name}`, {span} lines"))
        .collect()
}

#[test]
fn every_function_fits_in_one_view_or_says_why() {
    let mut long = Vec::new();
    let folders = SOURCES.iter().copied().chain(["examples", "bench"]);
    for folder in folders {
        let mut files = Vec::new();
        modules(&root().join(folder), &[], &mut files);
        for (path, _) in files {
            let Some(code) = code_of(&path) else { continue };
            long.extend(too_long(&path, &code));
        }
    }
    assert!(
        long.is_empty(),
        "split these along their steps, or say at their top why they are \
         over 80 lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_lexer_counts_a_function_by_its_braces_not_its_strings() {
    let code = "fn a() {\n    let s = \"}}{\";\n    let c = '}';\n    // }\n}\nfn b();\n";
    assert_eq!(functions(code), [(1, "a".to_owned(), 5)]);
    let nested = "pub(crate) fn outer<'a>(x: &'a str) {\n    if x.is_empty() {\n    }\n}\n";
    assert_eq!(functions(nested), [(1, "outer".to_owned(), 4)]);
}

#[test]
fn the_hub_check_sees_a_name_taken_from_the_hub_and_not_a_sibling() {
    let code =
        "use super::{Finding, client_run::ClientRun};\nuse super::report;\n// super::Prose\n";
    let names: Vec<String> = names_after(code, "super::")
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(names, ["Finding", "client_run", "report"]);
}

/// The names acp-plan's root makes public: each `pub use` item (its alias
/// where it has one) and each `pub mod`.
fn acp_plan_root_names() -> BTreeSet<String> {
    let lib = std::fs::read_to_string(root().join("acp-plan/src/lib.rs")).unwrap();
    let mut names = BTreeSet::new();
    let mut depth = 0usize;
    for line in lib.lines() {
        let code = line.trim();
        if depth == 0 {
            if let Some(path) = code
                .strip_prefix("pub use ")
                .and_then(|p| p.strip_suffix(';'))
            {
                let items = match path.find('{') {
                    Some(at) => path[at + 1..].trim_end_matches('}').split(',').collect(),
                    None => vec![path.rsplit("::").next().unwrap()],
                };
                for item in items.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
                    let name = item.rsplit(" as ").next().unwrap();
                    names.insert(name.trim().to_owned());
                }
            } else if let Some(module) = code.strip_prefix("pub mod ") {
                names.insert(module.trim_end_matches([' ', '{', ';']).to_owned());
            }
        }
        depth += code.matches('{').count();
        depth = depth.saturating_sub(code.matches('}').count());
    }
    names
}

/// The names docs/design.md says acp-plan's root holds: each backticked
/// name of its paragraph that starts `**acp-plan's surface.**`.
fn documented_root_names() -> BTreeSet<String> {
    let design = std::fs::read_to_string(root().join("docs/design.md")).unwrap();
    let at = design
        .find("**acp-plan's surface.**")
        .expect("docs/design.md has a paragraph `**acp-plan's surface.**`");
    let paragraph = design[at..].split("\n\n").next().unwrap();
    paragraph
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|name| name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn acp_plans_root_names_what_the_design_says_and_nothing_else() {
    assert_eq!(acp_plan_root_names(), documented_root_names());
}

/// The modules a file's code names by path (`crate::a::b::Item`,
/// `super::b::Item`, in `use` lines or inline), each resolved to the
/// deepest module of the crate that the path names.
fn imported_modules(
    code: &str,
    module: &[String],
    all: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    let mut resolve = |base: Vec<String>, rest: &str| {
        // `a::b::{c, d::E}`: every path the group spells, each resolved.
        let mut paths = vec![(base, rest.to_owned())];
        'paths: while let Some((mut at, rest)) = paths.pop() {
            let mut rest = rest.as_str();
            loop {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                let name = &rest[..end];
                let mut deeper = at.clone();
                deeper.push(name.to_owned());
                if name.is_empty() || !all.contains(&deeper) {
                    break;
                }
                at = deeper;
                rest = &rest[end..];
                match rest.strip_prefix("::") {
                    Some(after) if after.starts_with('{') => {
                        for item in split_group(&after[1..]) {
                            paths.push((at.clone(), item.to_owned()));
                        }
                        continue 'paths; // the group's paths, not its parent
                    }
                    Some(after) => rest = after,
                    None => break,
                }
            }
            if at != module && !at.is_empty() {
                found.insert(at);
            }
        }
    };
    for (_, line) in code
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
    {
        for (at, _) in line.match_indices("crate::") {
            if line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            resolve(Vec::new(), &line[at + "crate::".len()..]);
        }
        for (at, _) in line.match_indices("super::") {
            if line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut ups = 1;
            let mut rest = &line[at + "super::".len()..];
            while let Some(after) = rest.strip_prefix("super::") {
                ups += 1;
                rest = after;
            }
            let Some(base) = module.len().checked_sub(ups) else {
                continue;
            };
            resolve(module[..base].to_vec(), rest);
        }
    }
    found
}

/// The circles of a graph (Tarjan's strongly connected components of more
/// than one node).
fn circles(
    graph: &std::collections::BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Vec<Vec<Vec<String>>> {
    struct State<'g> {
        graph: &'g std::collections::BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: std::collections::BTreeMap<&'g Vec<String>, (usize, usize)>,
        stack: Vec<&'g Vec<String>>,
        on_stack: BTreeSet<&'g Vec<String>>,
        next: usize,
        found: Vec<Vec<Vec<String>>>,
    }
    fn visit<'g>(s: &mut State<'g>, node: &'g Vec<String>) {
        s.index.insert(node, (s.next, s.next));
        s.next += 1;
        s.stack.push(node);
        s.on_stack.insert(node);
        for next in s.graph.get(node).into_iter().flatten() {
            let Some((next, _)) = s.graph.get_key_value(next) else {
                continue;
            };
            if !s.index.contains_key(next) {
                visit(s, next);
                let low = s.index[next].1.min(s.index[node].1);
                s.index.get_mut(node).unwrap().1 = low;
            } else if s.on_stack.contains(next) {
                let low = s.index[next].0.min(s.index[node].1);
                s.index.get_mut(node).unwrap().1 = low;
            }
        }
        if s.index[node].0 == s.index[node].1 {
            let mut circle = Vec::new();
            while let Some(top) = s.stack.pop() {
                s.on_stack.remove(top);
                circle.push(top.clone());
                if top == node {
                    break;
                }
            }
            if circle.len() > 1 {
                circle.sort();
                s.found.push(circle);
            }
        }
    }
    let mut state = State {
        graph,
        index: std::collections::BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    state.found
}

/// No two files of a crate import each other, directly or round a circle,
/// by the paths they name (`crate::`, `super::`; a hub's routing `pub use`
/// of its own children is not an import back).
#[test]
fn no_files_import_each_other_round_a_circle() {
    let mut found = Vec::new();
    for src in SOURCES {
        let mut files = Vec::new();
        modules(&root().join(src), &[], &mut files);
        let all: BTreeSet<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
        let mut graph = std::collections::BTreeMap::new();
        for (path, module) in &files {
            let Some(code) = code_of(path) else { continue };
            graph.insert(module.clone(), imported_modules(&code, module, &all));
        }
        for circle in circles(&graph) {
            let names: Vec<String> = circle
                .iter()
                .map(|m| format!("{src}/{}", m.join("/")))
                .collect();
            found.push(names.join(" <-> "));
        }
    }
    assert!(
        found.is_empty(),
        "import circles (move what both need to one of them, or below both):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_circle_check_sees_a_circle_and_resolves_groups_and_super() {
    let all: BTreeSet<Vec<String>> = [
        vec!["a".to_owned()],
        vec!["a".into(), "b".into()],
        vec!["a".into(), "c".into()],
    ]
    .into_iter()
    .collect();
    let b = vec!["a".to_owned(), "b".to_owned()];
    let imported = imported_modules("use crate::a::{c::X, b::Y};\nuse super::c::Z;", &b, &all);
    assert_eq!(
        imported,
        [vec!["a".to_owned(), "c".to_owned()]].into_iter().collect()
    );
    let mut graph = std::collections::BTreeMap::new();
    graph.insert(b.clone(), imported);
    graph.insert(
        vec!["a".to_owned(), "c".to_owned()],
        [b.clone()].into_iter().collect(),
    );
    assert_eq!(circles(&graph).len(), 1);
}

/// Type names defined more than once across the three crates, each with
/// why: the macro families' own stage types, private to their folders,
/// named for the grammar each reads (a `plan!` entry is not an
/// `include_plan!` entry).
const NAMED_TWICE: [(&str, &str); 8] = [
    (
        "Input",
        "each derive's parse stage (`*/ast.rs`), private to its folder",
    ),
    (
        "Content",
        "a macro's content as it reads it (plan!, include_plan!, PlanContent's derive)",
    ),
    ("Entry", "an entry as plan! and include_plan! read it"),
    ("Field", "a plan! key-value field; the layout table's field"),
    (
        "Message",
        "plan-core's wire::Message; include_plan_stream!'s line",
    ),
    (
        "Name",
        "a name as plan! reads it; a checked name (name_check.rs)",
    ),
    ("Variant", "a variant as each derive reads it"),
    (
        "Step",
        "plan-core's agent::Step (public); the Steps derive's checked step",
    ),
];

/// A type name defined twice in the workspace is one more name with two
/// meanings: a new one fails here unless [`NAMED_TWICE`] says why.
#[test]
fn no_type_name_is_defined_twice_unless_said_why() {
    let mut defined: std::collections::BTreeMap<String, Vec<String>> =
        std::collections::BTreeMap::new();
    for src in SOURCES {
        let mut files = Vec::new();
        modules(&root().join(src), &[], &mut files);
        for (path, _) in &files {
            // plan-macros/src/rules is plan-core's, by a link: one definition.
            let linked = path
                .ancestors()
                .any(|a| std::fs::symlink_metadata(a).is_ok_and(|m| m.file_type().is_symlink()));
            let Some(code) = code_of(path).filter(|_| !linked) else {
                continue;
            };
            for line in code.lines() {
                let line = line
                    .strip_prefix("pub ")
                    .or_else(|| line.strip_prefix("pub(crate) "))
                    .or_else(|| line.strip_prefix("pub(super) "))
                    .unwrap_or(line);
                let Some(rest) = ["struct ", "enum ", "trait ", "type "]
                    .iter()
                    .find_map(|k| line.strip_prefix(k))
                else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name.starts_with(char::is_uppercase) {
                    let path = path.strip_prefix(root()).unwrap().display().to_string();
                    defined.entry(name).or_default().push(path);
                }
            }
        }
    }
    let twice: Vec<String> = defined
        .iter()
        .filter(|(name, paths)| paths.len() > 1 && !NAMED_TWICE.iter().any(|(n, _)| n == name))
        .map(|(name, paths)| format!("{name}: {}", paths.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "type names defined twice (rename one, or say why in NAMED_TWICE):\n{}",
        twice.join("\n")
    );
    // And the allow-list holds no name that is no longer defined twice.
    let stale: Vec<&str> = NAMED_TWICE
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| defined.get(*n).is_none_or(|p| p.len() < 2))
        .collect();
    assert!(
        stale.is_empty(),
        "NAMED_TWICE lists names defined once: {stale:?}"
    );
}

/// The types `acp_plan::harness` names only because a value a test holds
/// carries them (`unnameable_types` wants every reachable type nameable).
const CARRIED: [&str; 8] = [
    "Level",
    "TurnRule",
    "Finding",
    "ListToolShape",
    "PlanTool",
    "AgentEnv",
    "Profile",
    "Wiring",
];

/// Every file of `dir` (deep) whose name ends `.rs`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.map(|e| e.unwrap().path()) {
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() && name != "target" && name != "ui" {
            rust_files(&path, out);
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

/// `acp_plan::harness` exposes what the tests use, item by item: each name
/// it exports is named by a test, a bench or a fuzz target, or is a type
/// such a value carries ([`CARRIED`]).
#[test]
fn the_harness_exposes_only_what_the_tests_use() {
    let lib = std::fs::read_to_string(root().join("acp-plan/src/lib.rs")).unwrap();
    let start = lib.find("pub mod harness {").expect("the harness module");
    let body = &lib[start..start + lib[start..].find("\n}").unwrap()];
    let exported: Vec<String> = body
        .split("pub use ")
        .skip(1)
        .flat_map(|item| {
            let item = &item[..item.find(';').unwrap()];
            let list = item.rsplit_once("::{").map_or_else(
                || vec![item.rsplit("::").next().unwrap().to_owned()],
                |(_, group)| {
                    group
                        .trim_end_matches('}')
                        .split(',')
                        .map(|s| s.trim().to_owned())
                        .filter(|s| !s.is_empty())
                        .collect()
                },
            );
            list.into_iter()
                .map(|name| name.rsplit(" as ").next().unwrap().trim().to_owned())
        })
        .collect();
    assert!(exported.len() > 10, "read the harness: {exported:?}");
    let mut users = Vec::new();
    for dir in ["tests", "bench", "fuzz/fuzz_targets", "examples"] {
        rust_files(&root().join(dir), &mut users);
    }
    let text: String = users
        .iter()
        .filter(|p| !p.ends_with("house.rs"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let is_word = |name: &str| {
        text.match_indices(name).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !ident(before) && !ident(after)
        })
    };
    let unused: Vec<&String> = exported
        .iter()
        .filter(|name| !CARRIED.contains(&name.as_str()) && !is_word(name))
        .collect();
    assert!(
        unused.is_empty(),
        "the harness exports what no test uses: {unused:?}"
    );
    let carried_used: Vec<&&str> = CARRIED.iter().filter(|n| is_word(n)).collect();
    assert!(
        carried_used.is_empty(),
        "now used by a test, so not only carried: {carried_used:?}"
    );
}

/// A test's whole text: a test file, or a source file's test module.
fn test_code(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let stem = path.file_stem().unwrap().to_string_lossy();
    if path.starts_with(root().join("tests")) || stem == "tests" || stem.ends_with("_tests") {
        return Some(text);
    }
    let at = text.find("\n#[cfg(test)]\nmod tests {")?;
    // Blank lines in place of the code above, so lines keep their numbers.
    Some("\n".repeat(text[..at].matches('\n').count()) + &text[at..])
}

/// Test functions fit in one view too, or say at their top why not: a test
/// that runs on is split along what it holds.
#[test]
fn every_test_function_fits_in_one_view_or_says_why() {
    let mut paths = Vec::new();
    for dir in ["tests", "plan-core/src", "plan-macros/src", "acp-plan/src"] {
        rust_files(&root().join(dir), &mut paths);
    }
    let mut long = Vec::new();
    for path in paths {
        let Some(code) = test_code(&path) else {
            continue;
        };
        long.extend(too_long(&path, &code));
    }
    assert!(
        long.is_empty(),
        "split these tests along what they hold, or say at their top why \
         they are over 80 lines:\n{}",
        long.join("\n")
    );
}

/// Generated code names absolute paths only under `::plan_core::__private`
/// (what it needs), `::plan_core::dsl` (the words, for the editor) and
/// `::core`: never a crate the user may not have, nor a name the user's
/// code could shadow. Read from the macros' source: every `::` path that
/// starts at `::`.
#[test]
fn generated_code_names_only_plan_core_and_core() {
    const ALLOWED: [&str; 3] = ["::plan_core::__private", "::plan_core::dsl", "::core::"];
    let mut files = Vec::new();
    modules(&root().join("plan-macros/src"), &[], &mut files);
    let mut named = 0;
    let mut other = Vec::new();
    for (path, _) in &files {
        let Some(code) = code_of(path) else { continue };
        for (n, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for (at, _) in line.match_indices("::") {
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || "_>)]}:".contains(c)) {
                    continue; // a path's inner `::`, or a turbofish
                }
                let rest = &line[at..];
                named += 1;
                if !ALLOWED.iter().any(|allowed| rest.starts_with(allowed)) {
                    let path = path.strip_prefix(root()).unwrap().display();
                    other.push(format!("{path}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(named > 50, "read the macros' paths: {named}");
    assert!(
        other.is_empty(),
        "generated code names a path outside `::plan_core::__private`, `::plan_core::dsl` and `::core`:\n{}",
        other.join("\n")
    );
}

/// Where acp-plan and the examples call a reader of a line, a message or
/// an `initialize`, and what each reads: a line's way goes through one of
/// these once. A new call fails here until it is listed, with what it reads
/// that no other call on its path has read.
const READERS: [(&str, &str, usize, &str); 14] = [
    (
        "acp-plan/src/process/connection.rs",
        "Line::read_message(",
        1,
        "each agent line of board and check",
    ),
    (
        "acp-plan/src/proxy/relay.rs",
        "Line::read_message(",
        1,
        "a plan or tool-call line, once the client is known",
    ),
    (
        "acp-plan/src/proxy/relay.rs",
        "Message::read(",
        2,
        "a client's request line; else an answer line (exclusive ways)",
    ),
    (
        "acp-plan/src/proxy/relay.rs",
        "InitializeRequest::from_json(",
        1,
        "the params of the client's initialize, split off by the line's read",
    ),
    (
        "acp-plan/src/proxy/relay.rs",
        "InitializeRequest::opting_in_to_plans(",
        1,
        "those params instead, opted in: read, and `plan` written into their text",
    ),
    (
        "acp-plan/src/proxy/chain.rs",
        "Message::read(",
        2,
        "the conductor's line; the agent's message inside its params",
    ),
    (
        "acp-plan/src/proxy/chain.rs",
        "SessionNotification::from_params(",
        1,
        "that message's params, once the relay knows the client",
    ),
    (
        "acp-plan/src/check/files.rs",
        "Line::read(",
        1,
        "each line of a recorded file",
    ),
    (
        "acp-plan/src/check/files.rs",
        "InitializeRequest::from_json(",
        1,
        "the recorded initialize's params, split off by the line's read",
    ),
    (
        "acp-plan/src/check/conformance/client_run.rs",
        "Line::read_message(",
        1,
        "test-only: a run built from lines for the judges' tests",
    ),
    (
        "acp-plan/src/model/script.rs",
        "Line::read(",
        1,
        "each value of a script file, split off by serde_json's stream",
    ),
    (
        "examples/client.rs",
        "Line::read_message(",
        1,
        "each line of the example client",
    ),
    (
        "examples/agent_rpc.rs",
        "Message::read(",
        1,
        "each line of the example agent",
    ),
    (
        "examples/model_agent.rs",
        "Message::read(",
        1,
        "each line of the example agent",
    ),
];

#[test]
fn each_reader_of_a_line_is_called_where_the_list_says_and_no_more() {
    let readers = [
        "Line::read_message(",
        "Line::read(",
        "Message::read(",
        "InitializeRequest::from_json(",
        "InitializeRequest::opting_in_to_plans(",
        "SessionNotification::from_params(",
    ];
    let mut files = Vec::new();
    rust_files(&root().join("acp-plan/src"), &mut files);
    rust_files(&root().join("examples"), &mut files);
    let mut found = Vec::new();
    for path in files {
        let Some(code) = code_of(&path) else { continue };
        let at = path.strip_prefix(root()).unwrap().display().to_string();
        for reader in readers {
            let calls = code
                .lines()
                .filter(|l| !l.trim_start().starts_with("//") && l.contains(reader))
                .count();
            if calls > 0 {
                found.push((at.clone(), reader, calls));
            }
        }
    }
    let listed: Vec<(String, &str, usize)> = READERS
        .iter()
        .map(|(file, reader, calls, _)| ((*file).to_owned(), *reader, *calls))
        .collect();
    found.sort();
    let mut listed_sorted = listed.clone();
    listed_sorted.sort();
    assert_eq!(
        found, listed_sorted,
        "the readers of a line are called elsewhere or more often than READERS says (list each with what it reads)"
    );
}
