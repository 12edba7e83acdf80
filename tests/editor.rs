//! The DSL in a real editor: rust-analyzer, driven over LSP on a small
//! user crate (`tests/data/editor/lib.rs`), answers hover, go-to and
//! completion inside `plan!` and the derives as it does for the same plan
//! written with plain builders in the same file.
//!
//! It needs a rust-analyzer binary, so it is ignored in `cargo test` and run
//! by `.ci/run` (which builds one into its cache):
//!
//! ```text
//! RUST_ANALYZER=path/to/rust-analyzer cargo test -p plan-harness --test editor -- --ignored
//! ```
//!
//! The server expands the macros with the toolchain's own proc-macro
//! server, so this is what a user sees, not a model of it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "common/lsp.rs"]
mod lsp;
use lsp::{LOAD, Server};

/// The user crate in a temporary folder: the source, a manifest naming
/// this checkout's plan-core, the workspace's lock file (the same versions,
/// no network) and toolchain.
fn user_crate() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let root = std::env::temp_dir().join(format!("plan-editor-{}", std::process::id()));
    std::fs::create_dir_all(root.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"editor-user\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nplan-core = {{ path = \"{}\" }}\n\n[workspace]\n",
        repo.join("plan-core").display()
    );
    std::fs::write(root.join("Cargo.toml"), manifest).unwrap();
    for file in ["Cargo.lock", "rust-toolchain.toml"] {
        std::fs::copy(repo.join(file), root.join(file)).unwrap();
    }
    std::fs::copy(
        repo.join("tests/data/editor/lib.rs"),
        root.join("src/lib.rs"),
    )
    .unwrap();
    std::fs::copy(
        repo.join("tests/fixtures/plans/refactor.json"),
        root.join("plan.json"),
    )
    .unwrap();
    root
}

/// The LSP position of `word` inside the one place `needle` occurs.
fn at(text: &str, needle: &str, word: &str) -> Value {
    let mut found = text.match_indices(needle);
    let (start, _) = found.next().unwrap_or_else(|| panic!("no `{needle}`"));
    assert!(found.next().is_none(), "`{needle}` is not unique");
    let offset = start + needle.find(word).unwrap_or_else(|| panic!("no `{word}`"));
    // Position just inside the word, as a user's pointer would be.
    let before = &text[..=offset];
    let line = before.matches('\n').count();
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": column})
}

/// The position just after `needle`, the first after `from` (where a
/// user typing it stands).
fn after(text: &str, from: &str, needle: &str) -> Value {
    let from = text.find(from).unwrap_or_else(|| panic!("no `{from}`"));
    let start = from
        + text[from..]
            .find(needle)
            .unwrap_or_else(|| panic!("no `{needle}`"));
    let before = &text[..start + needle.len()];
    let line = before.matches('\n').count();
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": column})
}

fn hover_text(result: &Value) -> String {
    match &result["contents"] {
        Value::Object(markup) => markup["value"].as_str().unwrap_or_default().to_owned(),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// Where go-to-definition leads: `file:line` of each target.
fn targets(result: &Value) -> Vec<String> {
    let list = match result {
        Value::Array(list) => list.clone(),
        Value::Null => Vec::new(),
        one => vec![one.clone()],
    };
    list.iter()
        .map(|target| {
            let uri = target["uri"]
                .as_str()
                .or(target["targetUri"].as_str())
                .unwrap_or_default();
            let range = if target["range"].is_null() {
                &target["targetSelectionRange"]
            } else {
                &target["range"]
            };
            format!("{uri}:{}", range["start"]["line"])
        })
        .collect()
}

fn labels(result: &Value) -> Vec<String> {
    let items = result["items"].as_array().or(result.as_array());
    items
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["label"].as_str())
                .map(|label| label.trim().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The open document and what the probes found wrong.
struct Probe {
    server: Server,
    uri: String,
    text: String,
    failures: Vec<String>,
}

impl Probe {
    fn check(&mut self, what: &str, ok: bool, seen: &dyn std::fmt::Debug) {
        eprintln!("{} {what}", if ok { "ok  " } else { "FAIL" });
        if !ok {
            self.failures.push(format!("{what}: got {seen:?}"));
        }
    }

    fn hover(&mut self, position: &Value) -> String {
        let params = json!({"textDocument": {"uri": self.uri}, "position": position});
        hover_text(&self.server.request("textDocument/hover", &params))
    }

    fn goto(&mut self, position: &Value) -> Vec<String> {
        let params = json!({"textDocument": {"uri": self.uri}, "position": position});
        targets(&self.server.request("textDocument/definition", &params))
    }

    /// The labels offered with the item `typed` written after `// ITEMS`,
    /// the cursor after `cursor` there.
    fn complete_item(&mut self, typed: &str, cursor: &str) -> Vec<String> {
        let typed_text = self.text.replace("// ITEMS", &format!("// ITEMS\n{typed}"));
        let uri = self.uri.clone();
        self.server.change(&uri, &typed_text);
        let position = after(&typed_text, "// ITEMS", cursor);
        let params = json!({"textDocument": {"uri": uri}, "position": position});
        labels(&self.server.request("textDocument/completion", &params))
    }

    /// The labels offered with `typed` in place of `TYPING`, the cursor
    /// after `cursor` there.
    fn complete(&mut self, typed: &str, cursor: &str) -> Vec<String> {
        let typed_text = self.text.replace("    TYPING", typed);
        let uri = self.uri.clone();
        self.server.change(&uri, &typed_text);
        let position = after(&typed_text, "pub fn typing", cursor);
        let params = json!({"textDocument": {"uri": uri}, "position": position});
        labels(&self.server.request("textDocument/completion", &params))
    }
}

/// Hover: each word says what it means in the protocol, as the builders'
/// words do; a `{ }` part is the user's own code.
/// Over 80 lines: one table, a word of the DSL and what its hover says.
fn hovers(probe: &mut Probe) {
    let text = probe.text.clone();
    for (needle, word, says) in [
        (
            "high pending \"Read the parser\"",
            "high",
            "critical to the overall goal",
        ),
        (
            "high pending \"Read the parser\"",
            "pending",
            "not started yet",
        ),
        (
            "low completed \"Ship it\"",
            "completed",
            "Status `completed`",
        ),
        (
            "medium in_progress \"Fix it\"",
            "in_progress",
            "being worked on now",
        ),
        (
            "medium in_progress \"Fix it\"",
            "medium",
            "important, but not critical",
        ),
        ("plan! { id: \"notes\"", "id", "Key `id`"),
        ("plan! { id: \"literal\"", "id", "Key `id`"),
        ("\"literal\", items:", "items", "Key `items`"),
        ("markdown: \"# Plan\"", "markdown", "Key `markdown`"),
        ("path: \"/work/PLAN.md\"", "path", "Key `path`"),
        (
            "#[step(priority = high)]",
            "high",
            "critical to the overall goal",
        ),
        (
            "#[status(in_progress)]",
            "in_progress",
            "being worked on now",
        ),
        ("plan! { id: \"literal\"", "plan", "PRIORITY STATUS"),
        ("low cancelled \"Old\"", "cancelled", "Protocol v2 only"),
        ("plan_json! { id", "plan_json", "wire JSON at compile time"),
        (
            "include_plan!(\"plan.json\")",
            "include_plan",
            "JSON plan fixture",
        ),
        ("#[derive(Clone, Copy, Steps)]", "Steps", "steps of a plan"),
        (
            "#[derive(Clone, Copy, PlanStatus)]",
            "PlanStatus",
            "onto ACP statuses",
        ),
    ] {
        let said = probe.hover(&at(&text, needle, word));
        probe.check(
            &format!("hover `{word}` in `{needle}`"),
            said.contains(says),
            &said,
        );
    }
    let said = probe.hover(&at(
        &text,
        "Priority::Medium, Status::InProgress",
        "InProgress",
    ));
    probe.check(
        "hover `Status::InProgress` (baseline)",
        !said.is_empty(),
        &said,
    );
    let said = probe.hover(&at(&text, "low { my_status } \"Then this\"", "my_status"));
    probe.check(
        "hover `{ my_status }`: the user's binding alone",
        said.contains("my_status: Status")
            && !said.contains("__plan_expression")
            && !said.contains("plan-core"),
        &said,
    );
}

/// Go-to: one target each, where the item is.
fn gotos(probe: &mut Probe) {
    let text = probe.text.clone();
    for (needle, word) in [
        ("high pending \"Read the parser\"", "high"),
        ("medium in_progress \"Fix it\"", "in_progress"),
        ("\"literal\", items:", "items"),
    ] {
        let went = probe.goto(&at(&text, needle, word));
        probe.check(
            &format!("go to `{word}`: plan_core::dsl"),
            went.len() == 1 && went[0].contains("plan-core/src/dsl.rs"),
            &went,
        );
    }
    let went = probe.goto(&at(&text, "low { my_status } \"Then this\"", "my_status"));
    let baseline = probe.goto(&at(&text, "Priority::Low, my_status", "my_status"));
    let parameter = at(&text, "pub fn braced(my_status", "my_status")["line"].clone();
    probe.check(
        "go to `{ my_status }`: one target, the parameter",
        went.len() == 1 && baseline.len() == 1 && went[0].ends_with(&format!(":{parameter}")),
        &(went, baseline),
    );
}

/// Completion while typing: each partial call is what a user has typed so
/// far, the cursor after the last needle.
fn completions(probe: &mut Probe) {
    for (typed, cursor, offers) in [
        (
            "    plan! { id: \"t\", items: [ high in_pr ] }",
            "high in_pr",
            &["in_progress", "pending", "completed"][..],
        ),
        (
            "    plan! { id: \"t\", items: [ hi ] }",
            "[ hi",
            &["high", "medium", "low"][..],
        ),
        (
            "    plan! { id: \"t\", items: [ high  ] }",
            "[ high ",
            &["pending", "in_progress"][..],
        ),
        (
            "    plan! { id: \"t\", ite }",
            "ite",
            &["items", "markdown"][..],
        ),
        // The baseline: the same words completed in plain Rust.
        (
            "    { use plan_core::dsl::status::*; match my_status.into() { in_pr => {} } }; todo!()",
            "in_pr",
            &["in_progress", "pending"][..],
        ),
        (
            "    PlanEntry::new(\"x\", Priority::Hi, my_status); todo!()",
            "Priority::Hi",
            &["High", "Medium"][..],
        ),
        (
            "    plan! { id: \"t\", items: [ low pending { my_ } \"x\", medium ] }",
            "{ my_",
            &["my_status"][..],
        ),
    ] {
        let got = probe.complete(typed, cursor);
        probe.check(
            &format!("complete `{cursor}` in `{}`", typed.trim()),
            offers.iter().all(|o| got.iter().any(|g| g == o)),
            &got,
        );
    }
    // The derives' attributes while they are typed (a derive with errors
    // still tells the editor its words: plan-macros/src/attr_editor.rs).
    for (typed, cursor, offers) in [
        (
            "#[derive(Clone, Copy, Steps)]\n#[plan(id = \"t\")]\nenum T1 {\n    #[step(priority = hi)]\n    A,\n}",
            "priority = hi",
            &["high", "medium", "low"][..],
        ),
        (
            "#[derive(Clone, Copy, Steps)]\n#[plan(id = \"t\")]\nenum T2 {\n    #[step(prio)]\n    A,\n}",
            "step(prio",
            &["priority"][..],
        ),
        (
            "#[derive(Clone, Copy, Steps)]\n#[plan(i)]\nenum T3 {\n    A,\n}",
            "plan(i",
            &["id"][..],
        ),
        (
            "#[derive(Clone, Copy, PlanStatus)]\nenum S1 {\n    #[status(in_pr)]\n    A,\n}",
            "status(in_pr",
            &["in_progress", "pending", "completed"][..],
        ),
    ] {
        let got = probe.complete_item(typed, cursor);
        probe.check(
            &format!("complete `{cursor}` in a derive's attribute"),
            offers.iter().all(|o| got.iter().any(|g| g == o)),
            &got,
        );
    }
}

#[test]
#[ignore = "needs a rust-analyzer binary (RUST_ANALYZER); .ci/run runs it"]
fn the_dsl_answers_hover_goto_and_completion_as_plain_rust_does() {
    let binary = PathBuf::from(
        std::env::var_os("RUST_ANALYZER").expect("set RUST_ANALYZER to a rust-analyzer binary"),
    );
    let root = user_crate();
    let file = root.join("src/lib.rs");
    let uri = format!("file://{}", file.display());
    let text = std::fs::read_to_string(&file).unwrap();

    let mut server = Server::start(&binary, &root);
    server.request(
        "initialize",
        &json!({
            "processId": std::process::id(),
            "rootUri": format!("file://{}", root.display()),
            "capabilities": {
                "textDocument": {
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                    "definition": {"linkSupport": false},
                    "completion": {"completionItem": {"snippetSupport": false}},
                },
                "experimental": {"serverStatusNotification": true},
            },
            "initializationOptions": {"checkOnSave": false, "cachePriming": {"enable": false}},
        }),
    );
    server.notify("initialized", &json!({}));
    server.notify(
        "textDocument/didOpen",
        &json!({"textDocument": {"uri": uri, "languageId": "rust", "version": 1, "text": text}}),
    );
    server.wait_quiescent();

    let mut probe = Probe {
        server,
        uri,
        text,
        failures: Vec::new(),
    };
    // The macros are expanded once the proc-macro server has them: wait
    // for the first word to answer.
    let first = at(&probe.text, "high pending \"Read the parser\"", "high");
    let until = Instant::now() + LOAD;
    while probe.hover(&first).is_empty() {
        assert!(Instant::now() < until, "the macro never expanded");
        std::thread::sleep(Duration::from_secs(1));
    }
    hovers(&mut probe);
    gotos(&mut probe);
    completions(&mut probe);

    let failures = std::mem::take(&mut probe.failures);
    drop(probe);
    let _ = std::fs::remove_dir_all(&root);
    assert!(
        failures.is_empty(),
        "{} probe(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
