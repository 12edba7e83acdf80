//! The map is the territory: `docs/map.md` names every file of the three
//! crates (and nothing that is gone), and the imports follow the layers
//! `docs/design.md` draws. Both read the source tree as text.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[path = "common/paths.rs"]
mod paths;
use paths::{crate_names, crate_paths, root_names, super_roots};

/// The workspace root (this package lives in `tests/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Every file under `dir`, as paths relative to the workspace root; a
/// symbolic link is one entry (its target is mapped where it lives). A
/// `target` folder (a nested workspace's build) is no source.
fn files(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            if entry.file_name() != "target" {
                files(&path, out);
            }
        } else {
            let relative = path.strip_prefix(root()).unwrap();
            out.insert(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The crates' source folders the map covers.
const MAPPED: [&str; 3] = ["plan-core/src/", "plan-macros/src/", "acp-plan/src/"];

/// The paths the map names: every backticked path under one of [`MAPPED`]
/// in `docs/map.md`, the file-by-file list under design.md's folders.
fn mapped() -> BTreeSet<String> {
    std::fs::read_to_string(root().join("docs/map.md"))
        .unwrap()
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|text| MAPPED.iter().any(|src| text.starts_with(src)))
        .filter(|text| !text.ends_with('/'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_design_map_names_every_file_of_the_crates_and_nothing_that_is_gone() {
    let mut on_disk = BTreeSet::new();
    for src in MAPPED {
        files(&root().join(src), &mut on_disk);
    }
    let mapped = mapped();
    let missing: Vec<_> = on_disk.difference(&mapped).collect();
    let gone: Vec<_> = mapped.difference(&on_disk).collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "docs/map.md: add a line for {missing:?}; remove {gone:?}"
    );
}

/// plan-core's layers, lowest first (docs/design.md, "The map"): a file may
/// name its own folder and the layers before its own. Folders in one layer
/// do not name each other. `lib.rs`, `private.rs`, `guide.rs` and `dsl.rs` stand beside
/// the layers.
const LAYERS: &[&[&str]] = &[
    &["rules"],
    &["error"],
    &["protocol"],
    &["codec"],
    &["agent", "client"],
    &["tools"],
    &["interop"],
    &["fixtures"],
];

/// acp-plan's layers, the same way (`lib.rs` and `main.rs` beside them).
const ACP_PLAN_LAYERS: &[&[&str]] = &[
    &["process"],
    &["model"],
    &["board", "fixtures", "tool", "proxy"],
    &["check"],
    &["cli"],
];

/// Where the files under `src` import against `layers`: each as
/// `FILE:LINE: ...`. A path names a layer by `crate::`, by `super::`
/// climbing to the root, or through one of the root's re-exports.
fn against_layers(src: &str, layers: &[&[&str]]) -> Vec<String> {
    let by_folder = |module: &str| layers.iter().position(|layer| layer.contains(&module));
    let reexports = root_names(&root(), src);
    let layer_of = |name: &str| {
        by_folder(name).or_else(|| {
            let (_, folder) = reexports.iter().find(|(n, _)| n == name)?;
            by_folder(folder)
        })
    };
    let mut all = BTreeSet::new();
    files(&root().join(src), &mut all);
    let mut wrong = Vec::new();
    for file in all
        .iter()
        .filter(|f| Path::new(f).extension().is_some_and(|e| e == "rs"))
    {
        let inner = file.strip_prefix(src).unwrap().trim_start_matches('/');
        let module = inner.split(['/', '.']).next().unwrap();
        let Some(own) = layer_of(module) else {
            continue; // beside the layers
        };
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let supers = text.lines().enumerate().flat_map(|(number, line)| {
            super_roots(inner, line)
                .into_iter()
                .map(move |name| (number + 1, name))
        });
        for (line, named) in crate_names(&text).into_iter().chain(supers) {
            let Some(theirs) = layer_of(&named) else {
                continue;
            };
            if named != module && theirs >= own {
                wrong.push(format!("{file}:{line}: `{module}` names `crate::{named}`"));
            }
        }
    }
    wrong
}

#[test]
fn plan_core_imports_follow_its_layers() {
    let wrong = against_layers("plan-core/src", LAYERS);
    assert!(
        wrong.is_empty(),
        "imports against the layers (docs/design.md, `The map`): a layer names only the ones below it:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn acp_plan_imports_follow_its_layers() {
    let wrong = against_layers("acp-plan/src", ACP_PLAN_LAYERS);
    assert!(
        wrong.is_empty(),
        "acp-plan's imports against its layers (docs/design.md, `The map`):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_layer_check_sees_a_path_in_code_and_not_in_prose() {
    assert_eq!(
        crate_paths("use crate::client::board::PlanBoard;"),
        ["client"]
    );
    assert_eq!(
        crate_paths("    let p = crate::protocol::progress::Progress::of(e);"),
        ["protocol"]
    );
    assert_eq!(
        crate_paths("$crate::codec::ReadNotes::lenient()"),
        ["codec"]
    );
    assert!(crate_paths("//! reading is the codec's job (`crate::codec`)").is_empty());
    assert!(crate_paths("use plan_core::client;").is_empty());
    assert!(crate_paths("use my_crate::codec;").is_empty());
    assert!(crate_paths("/// see [`Error`](crate::Error)").is_empty());
    assert!(crate_paths("#[doc = \"[`Lenient`](crate::Lenient)\"]").is_empty());
    assert_eq!(crate_paths("impl From<crate::Error> for X {}"), ["Error"]);
    assert_eq!(
        crate_paths("use crate::wire::Spelling;"),
        ["wire::Spelling"]
    );
    // `super::` that climbs to the root names a top-level module.
    assert_eq!(
        super_roots("codec/read/shared.rs", "use super::super::super::agent::X;"),
        ["agent"]
    );
    assert!(super_roots("codec/read/shared.rs", "use super::super::writer;").is_empty());
    assert_eq!(
        super_roots("codec/mod.rs", "use super::protocol::Y;"),
        ["protocol"]
    );
    // The root's re-exports lead to their folders.
    let names = root_names(&root(), "plan-core/src");
    assert!(
        names.contains(&("Error".to_owned(), "error".to_owned())),
        "{names:?}"
    );
    assert!(
        names.contains(&("wire::Message".to_owned(), "codec".to_owned())),
        "{names:?}"
    );
    // A group names each of its items.
    assert_eq!(
        crate_paths("use crate::{board, check::{self, x}, tool};"),
        ["board", "check", "tool"]
    );
    let text = "use crate::{\n    board,\n    check::conformance,\n};\nfn f() {}";
    assert_eq!(
        crate_names(text),
        [(1, "board".to_owned()), (1, "check".to_owned())]
    );
}

/// What the map says `protocol/` does not do: read or write JSON text (the
/// codec's job), with `meta.rs` the one file that does, for `_meta`'s own.
#[test]
fn only_meta_handles_json_text_in_the_protocol_layer() {
    let mut all = BTreeSet::new();
    files(&root().join("plan-core/src/protocol"), &mut all);
    let calls = [
        "serde_json::from_",
        "serde_json::to_",
        "RawValue",
        "crate::codec",
    ];
    let mut found = Vec::new();
    for file in all.iter().filter(|f| !f.ends_with("/meta.rs")) {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        // Code only: doc comments and comments may name the codec, and the
        // tests at the bottom of a file may read JSON to check a type.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (number, line) in code.lines().enumerate() {
            let line = line.trim_start();
            if line.starts_with("//") {
                continue;
            }
            if let Some(call) = calls.iter().find(|c| line.contains(**c)) {
                found.push(format!("{file}:{}: {call}", number + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "protocol/ reads and writes no JSON text but `meta.rs`'s (docs/design.md, `The map`):\n{}",
        found.join("\n")
    );
}

/// The longest a source file may be without saying, at its top, why it is
/// longer.
const LONG_FILE: usize = 500;

/// Every Rust file of the repository's own code (crates, examples, tests,
/// benches, fuzz targets) over [`LONG_FILE`] lines says why in its opening
/// comment, with the words "over 500 lines" and a reason; one that does not
/// holds two things and should be split.
#[test]
fn a_file_over_500_lines_says_why_at_its_top() {
    let mut all = BTreeSet::new();
    for dir in [
        "plan-core/src",
        "plan-macros/src",
        "acp-plan/src",
        "acp-plan/tests",
        "examples",
        "tests",
        "bench",
        "fuzz/fuzz_targets",
    ] {
        files(&root().join(dir), &mut all);
    }
    let mut unexplained = Vec::new();
    for file in all
        .iter()
        .filter(|f| Path::new(f).extension().is_some_and(|e| e == "rs"))
    {
        let path = root().join(file);
        if path.is_symlink() || file.starts_with("tests/ui/") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines = text.lines().count();
        if lines <= LONG_FILE {
            continue;
        }
        let opening: String = text
            .lines()
            .take_while(|l| l.starts_with("//") || l.starts_with("#!") || l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        if !opening.contains("over 500 lines") {
            unexplained.push(format!("{file} ({lines} lines)"));
        }
    }
    assert!(
        unexplained.is_empty(),
        "over {LONG_FILE} lines with no reason in the opening comment (split it, or say why it is one file): {unexplained:#?}"
    );
}

/// The public items at plan-core's root with its default features (those
/// rustdoc lists there): every `pub use` name, `pub mod`, and other `pub`
/// item at the top of `lib.rs`, leaving out what a non-default feature or
/// `#[doc(hidden)]` keeps from rustdoc's root page.
fn root_items(lib: &str) -> Vec<String> {
    let default_features = ["macros"];
    let mut items = Vec::new();
    let (mut depth, mut hidden) = (0usize, false);
    for line in lib.lines() {
        let code = line.split("//").next().unwrap_or_default().trim();
        if depth == 0 {
            if let Some(feature) = code
                .strip_prefix("#[cfg(feature = \"")
                .and_then(|rest| rest.split('"').next())
            {
                hidden |= !default_features.contains(&feature);
            }
            hidden |= code.starts_with("#[doc(hidden)]");
            if let Some(rest) = code.strip_prefix("pub ") {
                if !hidden {
                    if let Some(path) = rest.strip_prefix("use ") {
                        let path = path.trim_end_matches(';');
                        match path.split_once('{') {
                            Some((_, names)) => items.extend(
                                names
                                    .trim_end_matches('}')
                                    .split(',')
                                    .map(|n| n.trim().to_owned())
                                    .filter(|n| !n.is_empty()),
                            ),
                            None => items.push(path.rsplit("::").next().unwrap().to_owned()),
                        }
                    } else {
                        let name = rest
                            .split([' ', '(', '{', '<', ':', ';'])
                            .nth(1)
                            .unwrap_or(rest);
                        items.push(name.to_owned());
                    }
                }
                hidden = false;
            }
        }
        depth += code.matches('{').count();
        depth = depth.saturating_sub(code.matches('}').count());
    }
    items
}

#[test]
fn the_root_holds_the_protocols_types_the_error_and_the_macros() {
    let lib = std::fs::read_to_string(root().join("plan-core/src/lib.rs")).unwrap();
    let items = root_items(&lib);
    assert!(
        items.len() <= 30,
        "plan-core's root lists {} items with default features (at most 30: the protocol's types, `Error`, the macros and derives; the rest lives in `agent`, `client`, `wire`): {items:?}",
        items.len()
    );
    for room in ["agent", "client", "wire", "guide"] {
        assert!(
            items.iter().any(|i| i == room),
            "no room `{room}`: {items:?}"
        );
    }
    // The counting itself: a feature-gated or hidden item is not listed.
    let sample = "pub use a::{B, C};\n#[cfg(feature = \"acp\")]\npub mod acp;\n#[doc(hidden)]\npub mod __private {\n    pub use x::Y;\n}\npub mod wire {\n    pub use z::W;\n}\n";
    assert_eq!(root_items(sample), ["B", "C", "wire"]);
}

/// What design.md says of the writers: each names every field of its type
/// (destructuring it, or matching every variant whole), so a field added
/// to a type and forgotten by its writer does not compile. A writer that
/// reads a field as `self.field` would compile on without it.
#[test]
fn every_writer_destructures_its_type() {
    let mut all = BTreeSet::new();
    files(&root().join("plan-core/src/codec"), &mut all);
    let mut found = Vec::new();
    for file in all
        .iter()
        .filter(|f| Path::new(f).extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        for (at, _) in text.match_indices("impl Members for ") {
            let Some(start) = text[at..].find("fn members").map(|i| at + i) else {
                continue;
            };
            let Some(open) = text[start..].find('{').map(|i| start + i) else {
                continue;
            };
            // The body: to the brace that closes it.
            let mut depth = 0;
            let mut end = open;
            for (i, c) in text[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    end = open + i;
                    break;
                }
            }
            let body = &text[open..end];
            for (i, _) in body.match_indices("self.") {
                let rest = &body[i + "self.".len()..];
                let name_end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                let (name, after) = rest.split_at(name_end);
                // A method call, or a newtype's one field, is no field read.
                if after.starts_with('(') || name == "0" {
                    continue;
                }
                let line = text[..open + i].matches('\n').count() + 1;
                found.push(format!("{file}:{line}: self.{name}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "a writer reads a field instead of naming them all (docs/design.md, Invariants):\n{}",
        found.join("\n")
    );
}

/// The design is read whole by the next engineer: it stays within 300
/// lines (measurements go to docs/figures.md, the file list to docs/map.md).
#[test]
fn the_design_fits_in_300_lines() {
    let design =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/design.md"))
            .unwrap();
    let lines = design.lines().count();
    assert!(lines <= 300, "docs/design.md is {lines} lines");
}
