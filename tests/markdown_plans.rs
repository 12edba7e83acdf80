//! Markdown plans as agents write them (`tests/data/markdown-plans/`: each
//! `NAME.md` beside `NAME.steps`, the steps a reader would call the plan)
//! read as their steps, and reaching a v1 client without
//! `clientCapabilities.plan` as those steps, through the sender and
//! `SessionPlans`; a plan written by `plan_to_markdown` reads back as itself.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use plan_core::{
    PlanContent, PlanEntry, PlanId, Priority, SessionUpdate, Status,
    agent::{InitializeRequest, PlanSender, SessionPlans},
    client::{MarkdownSteps, markdown_to_entries, plan_to_markdown},
    wire::ClientCapabilities,
};
use proptest::prelude::*;
use serde_json::Value;

/// Every plan of the corpus: its name, its text, and its `.steps` file.
fn corpus() -> Vec<(String, String, String)> {
    let dir = common::data_dir().join("markdown-plans");
    let mut plans: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    plans.sort();
    assert!(plans.len() >= 25, "the corpus is in {}", dir.display());
    plans
        .into_iter()
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let steps = std::fs::read_to_string(path.with_extension("steps"))
                .unwrap_or_else(|e| panic!("{name}.steps: {e}"));
            (name, text, steps)
        })
        .collect()
}

/// A `.steps` file: `source: NAME`, then `[ ] text` (pending), `[x]`
/// (completed), `[>]` (in progress), `[-]` (cancelled), one a line.
fn expected(steps: &str) -> (String, Vec<(String, Status)>) {
    let mut lines = steps.lines();
    let source = lines
        .next()
        .and_then(|line| line.strip_prefix("source: "))
        .expect("a .steps file starts with `source: `")
        .to_owned();
    let steps = lines
        .map(|line| {
            let (mark, text) = line.split_at(4);
            let status = match mark {
                "[ ] " => Status::Pending,
                "[x] " => Status::Completed,
                "[>] " => Status::InProgress,
                "[-] " => Status::Cancelled,
                other => panic!("unknown mark {other:?}"),
            };
            (text.to_owned(), status)
        })
        .collect();
    (source, steps)
}

fn seen(entries: &[PlanEntry]) -> Vec<(String, Status)> {
    entries
        .iter()
        .map(|e| (e.content.to_string(), e.status.clone()))
        .collect()
}

#[test]
fn every_plan_of_the_corpus_reads_as_its_steps() {
    let mut wrong = Vec::new();
    for (name, text, steps) in corpus() {
        let (source, want) = expected(&steps);
        let read = MarkdownSteps::read(&text);
        let got = seen(&read.entries);
        if got != want || format!("{:?}", read.source) != source {
            wrong.push(format!(
                "{name}: read from {:?} as {got:#?}\nwanted from {source}: {want:#?}",
                read.source
            ));
        }
        assert!(
            read.entries.iter().all(|e| e.priority == Priority::Medium),
            "{name}"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The plan a v1 client without plan operations gets for `markdown`.
fn v1_view(notification: &plan_core::SessionNotification) -> Vec<(String, Status)> {
    let SessionUpdate::Plan(plan) = &notification.update else {
        panic!("a v1 client without `plan` gets the v1 `plan`: {notification:?}")
    };
    seen(&plan.entries)
}

/// What a v1 `plan` can carry of a step's status: v1 has no `cancelled`,
/// so the fallback sends it `completed`, marked in the text.
fn as_v1((text, status): (String, Status)) -> (String, Status) {
    match status {
        Status::Cancelled => (format!("{text} (cancelled)"), Status::Completed),
        other => (text, other),
    }
}

#[test]
fn every_plan_of_the_corpus_reaches_a_v1_client_without_plan_as_its_steps() {
    for (name, text, steps) in corpus() {
        let want: Vec<_> = expected(&steps).1.into_iter().map(as_v1).collect();
        let id = PlanId::new("plan-mode").unwrap();
        // The sender.
        let mut sender = PlanSender::new("s", &ClientCapabilities::default());
        let sent = sender.update(PlanContent::markdown(id.clone(), text.clone()));
        assert_eq!(v1_view(&sent), want, "{name}, through PlanSender");
        // The connection's plans, the README's way.
        let plans = SessionPlans::new();
        plans.initialize(InitializeRequest::from_json(r#"{"protocolVersion":1}"#).unwrap());
        let thread = String::from("thread-7");
        let sent = plans
            .update_if_changed(&thread, PlanContent::markdown(id, text.clone()))
            .expect("a first plan is sent");
        assert_eq!(v1_view(&sent), want, "{name}, through SessionPlans");
    }
}

/// Deltas of a streamed markdown plan (codex's plan mode) whose steps do
/// not change reach a v1 client without `plan` once; a ticked box is the
/// next message.
#[test]
fn markdown_deltas_whose_steps_do_not_change_are_sent_once() {
    let plans = SessionPlans::new();
    let id = PlanId::new("plan").unwrap();
    let deltas = [
        "# Plan\n\n- [ ] Read the test\n- [ ] Fix it",
        "# Plan\n\n- [ ] Read the test\n- [ ] Fix it\n",
        "# Plan\n\n- [ ] Read the test\n- [ ] Fix it\n\n",
        "# Plan\n\n- [ ] Read the test\n- [ ] Fix it\n\nNotes follow",
        "# Plan\n\n- [ ] Read the test\n- [ ] Fix it\n\nNotes follow.",
        "# Plan\n\n- [x] Read the test\n- [ ] Fix it\n\nNotes follow.",
    ];
    let sent: Vec<_> = deltas
        .iter()
        .filter_map(|delta| plans.update_if_changed("s", PlanContent::markdown(id.clone(), *delta)))
        .map(|n| v1_view(&n))
        .collect();
    assert_eq!(sent.len(), 2, "{sent:#?}");
    assert_eq!(sent[1][0].1, Status::Completed);
}

fn step_text() -> impl Strategy<Value = String> {
    // Words of plain text: what an entry's content reads as in markdown
    // unchanged (`plan_to_markdown` writes content as it is, markup and all).
    prop::collection::vec("[A-Za-z][A-Za-z0-9,.:;?'/]{0,8}", 1..6).prop_map(|w| w.join(" "))
}

fn status() -> impl Strategy<Value = Status> {
    prop_oneof![
        Just(Status::Pending),
        Just(Status::InProgress),
        Just(Status::Completed),
        Just(Status::Cancelled),
    ]
}

proptest! {
    #[test]
    fn a_plan_written_as_markdown_reads_back_as_its_steps(
        steps in prop::collection::vec((step_text(), status()), 1..20),
    ) {
        let entries: Vec<PlanEntry> = steps
            .iter()
            .map(|(text, status)| PlanEntry::new(text.clone(), Priority::High, status.clone()))
            .collect();
        let plan = PlanContent::items(PlanId::new("p").unwrap(), entries);
        let markdown = plan_to_markdown(&plan);
        let read = seen(&markdown_to_entries(&markdown));
        prop_assert_eq!(read, steps, "{}", markdown);
    }
}

/// Board (a v1 client without `clientCapabilities.plan`) ←
/// `acp-plan proxy` ← `tool-agent markdown FILES` (plan-mode plans of its
/// own, as markdown, to a client that opted in, which the proxy does for
/// it). The board's final state as JSON, and how many plan messages it got.
fn through_the_proxy(files: &[PathBuf]) -> (Value, u64) {
    let mut options = acp_plan::BoardOptions::default();
    options.json = true;
    options.plan_capability = false;
    options.timeout = Duration::from_secs(20);
    options.command = [
        env!("CARGO_BIN_EXE_acp-plan-harness"),
        "proxy",
        "--",
        env!("CARGO_BIN_EXE_tool-agent"),
        "markdown",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .chain(files.iter().map(|f| f.display().to_string()))
    .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    acp_plan::harness::board_agent(
        &options,
        &mut out,
        &mut err,
        plan_core::client::TerminalStyle::PLAIN,
        false,
    )
    .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&err)));
    let state: Value = serde_json::from_slice(&out).unwrap();
    let plan = &state["sessions"][0]["plans"][0];
    let version = plan["version"].as_u64().unwrap_or(0);
    (plan["content"].clone(), version)
}

#[test]
fn every_plan_of_the_corpus_reaches_a_v1_client_through_the_proxy_as_its_steps() {
    let dir = common::data_dir().join("markdown-plans");
    for (name, _, steps) in corpus() {
        let want: Vec<_> = expected(&steps).1.into_iter().map(as_v1).collect();
        let (content, messages) = through_the_proxy(&[dir.join(format!("{name}.md"))]);
        assert_eq!(content["type"], "items", "{name}: {content}");
        let got: Vec<(String, Status)> = content["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let status: Status = e["status"].as_str().unwrap().parse().unwrap();
                (e["content"].as_str().unwrap().to_owned(), status)
            })
            .collect();
        assert_eq!(got, want, "{name}, through acp-plan proxy");
        assert_eq!(messages, 1, "{name}");
    }
}

#[test]
fn a_stream_of_deltas_reaches_a_v1_client_through_the_proxy_once_per_change_of_steps() {
    let dir = tempdir("deltas");
    let deltas = [
        "# Plan: fix the parser\n",
        "# Plan: fix the parser\n\n1. Read the failing test\n",
        "# Plan: fix the parser\n\n1. Read the failing test\n2. Fix the off-by-one\n",
        "# Plan: fix the parser\n\n1. Read the failing test\n2. Fix the off-by-one\n\n",
        "# Plan: fix the parser\n\n1. Read the failing test\n2. Fix the off-by-one\n\n## Verification\n",
        "# Plan: fix the parser\n\n1. Read the failing test\n2. Fix the off-by-one\n\n## Verification\n- `cargo test`\n",
    ];
    let files: Vec<PathBuf> = deltas
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let path = dir.join(format!("{i}.md"));
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    let (content, messages) = through_the_proxy(&files);
    // The title alone, then one step, then two: three states, three messages.
    assert_eq!(messages, 3, "{content}");
    assert_eq!(content["entries"].as_array().unwrap().len(), 2, "{content}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A fresh folder under the target's temporary directory.
fn tempdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("markdown-plans-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What the fuzz target (`fuzz/fuzz_targets/markdown_steps.rs`) holds, on
/// the shapes that break readers: lists nested 10,000 deep, a megabyte of
/// prose, unclosed fences, every stored fuzz input. (Its time is measured
/// by `bench/markdown.rs`, not asserted here.)
#[test]
fn no_text_panics_the_reading_and_only_white_space_has_no_step() {
    // Each `- ` opens a list inside the item before it: 10,000 levels.
    let deep = "- ".repeat(10_000) + "the innermost step";
    let quotes = ">".repeat(10_000) + " deep";
    let prose = "The plan is to read the code and fix it. ".repeat(25_000);
    let mut inputs = vec![
        deep,
        quotes,
        prose,
        "```\n- not a step".to_owned(),
        "1. a\n```\n2. b".to_owned(),
        "- [ ]\n- [x]\n*\n+".to_owned(),
        "\r\n\r\n".to_owned(),
        "#\n##\n###".to_owned(),
        "<div>\n- hidden\n</div>".to_owned(),
        // Found by the fuzz target: a code block whose first line holds a
        // lone `\r` (no line end), which a step's text must not keep.
        "\t'll fix\u{13d}<<<<<<<<<# Plaan\r\u{1}\0\0\0 fix\u{13d}<<<<<<<<<# Plaa".to_owned(),
    ];
    inputs.extend(
        common::fuzz_inputs()
            .into_iter()
            .filter_map(|bytes| String::from_utf8(bytes).ok()),
    );
    for text in &inputs {
        let steps = MarkdownSteps::read(text);
        assert_eq!(
            text.trim().is_empty(),
            steps.entries.is_empty(),
            "{:?}",
            &text[..text.len().min(80)]
        );
        assert!(
            steps
                .entries
                .iter()
                .all(|e| !e.content.is_empty() && !e.content.contains(['\n', '\r'])),
            "{:?}",
            &text[..text.len().min(80)]
        );
    }
}
