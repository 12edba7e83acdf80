//! The pages a reader pastes from: every Rust example of the README and of
//! plan-core's guides is a whole program that compiles as it is shown (the
//! harness's doc tests run them: `tests/common/lib.rs`), with no hidden
//! `#` line a reader would have to know to drop or add.

use std::path::Path;

/// Each Rust code block of the page at `path` (relative to the
/// repository), with the line it starts on.
fn rust_blocks(path: &str) -> Vec<(usize, Vec<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join(path)).unwrap();
    let mut blocks = Vec::new();
    let mut open: Option<(usize, Vec<String>)> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some("rust")) => open = Some((i + 1, Vec::new())),
            (Some(_), Some(_)) => blocks.extend(open.take()),
            (Some((_, lines)), None) => lines.push(line.to_owned()),
            _ => {}
        }
    }
    blocks
}

const PAGES: [&str; 7] = [
    "README.md",
    "plan-core/src/docs/guide/agents.md",
    "plan-core/src/docs/guide/clients.md",
    "plan-core/src/docs/guide/testing.md",
    "plan-core/src/docs/guide/sdk.md",
    "plan-core/src/docs/guide/models.md",
    "plan-core/src/docs/guide/wire.md",
];

#[test]
fn every_example_a_reader_pastes_is_a_whole_program_with_no_hidden_line() {
    let mut examples = 0;
    for page in PAGES {
        for (line, block) in rust_blocks(page) {
            let hidden: Vec<&String> = block
                .iter()
                .filter(|l| *l == "#" || l.starts_with("# "))
                .collect();
            assert!(hidden.is_empty(), "{page}:{line}: hidden lines {hidden:?}");
            assert!(
                block.iter().any(|l| l.starts_with("fn main()")),
                "{page}:{line}: not a whole program (no `fn main`)"
            );
            examples += 1;
        }
    }
    assert!(examples > 20, "{examples} examples");
}

/// The README's first command, as the two-commands block writes it.
fn main_command() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let block = readme
        .split("## The two commands")
        .nth(1)
        .and_then(|rest| rest.split("```sh\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("the README's two commands");
    let first = block.lines().next().expect("the main command");
    first.split('#').next().unwrap().trim().to_owned()
}

#[test]
fn the_main_command_builds_the_agent_in_its_own_package_and_the_bench_times_it() {
    // `cargo run --example agent` without `-p` selects the workspace's
    // members and unifies their features: half the workspace would build
    // twice. With `-p`, the example's package, nothing but the example.
    let command = main_command();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest = std::fs::read_to_string(root.join("examples/Cargo.toml")).unwrap();
    let package = manifest
        .lines()
        .find_map(|l| l.strip_prefix("name = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("the examples' package name");
    assert!(
        command.ends_with(&format!("-- cargo run -q -p {package} --example agent")),
        "{command}"
    );
    assert!(
        manifest.contains("[[example]]\nname = \"agent\""),
        "{manifest}"
    );
    // The first-run bench times that very command.
    let bench = std::fs::read_to_string(root.join("bench/first-run.sh")).unwrap();
    let timed = command.replace("cargo run -p acp-plan", "cargo run -q -p acp-plan");
    assert!(
        bench.contains(&timed),
        "bench/first-run.sh does not time `{timed}`"
    );
}
