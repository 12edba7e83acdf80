//! `include_plan_stream!`: a recorded stream checked at compile time and kept
//! byte for byte; the misuses are in `tests/ui/include_plan_stream/`.

use plan_core::{
    agent::StaticStream,
    client::{Applied, SessionBoards},
    include_plan_stream,
};

/// A real run of `examples/agent.rs` under protocol v2, recorded from its
/// stdout: responses, a `user_message` echo, `state_update`s and plan updates.
const AGENT_RUN: StaticStream = include_plan_stream!("fixtures/recorded-agent-v2.ndjson");
const LIFECYCLE: StaticStream = include_plan_stream!("fixtures/refactor-lifecycle.acp.ndjson");
const LIFECYCLE_RFD: StaticStream = include_plan_stream!("fixtures/refactor-lifecycle.rfd.ndjson");

fn file_lines(path: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_lines_are_the_recorded_ones_byte_for_byte() {
    for (stream, path) in [
        (AGENT_RUN, "fixtures/recorded-agent-v2.ndjson"),
        (LIFECYCLE, "fixtures/refactor-lifecycle.acp.ndjson"),
        (LIFECYCLE_RFD, "fixtures/refactor-lifecycle.rfd.ndjson"),
    ] {
        let lines = file_lines(path);
        assert_eq!(stream.lines(), lines.as_slice(), "{path}");
        assert_eq!(stream.len(), lines.len());
        assert_eq!(stream.to_ndjson(), lines.join("\n") + "\n");
        let mut written = Vec::new();
        stream.write_ndjson(&mut written).unwrap();
        assert_eq!(written, stream.to_ndjson().into_bytes());
    }
}

#[test]
fn a_recorded_agent_run_replays_into_a_board() {
    let mut boards = SessionBoards::new().strict();
    let mut kinds = Vec::new();
    for line in AGENT_RUN.lines() {
        let applied = boards.apply_json(line).unwrap();
        assert!(applied.skipped.is_empty(), "{line}");
        kinds.push(applied.value);
    }
    // The responses are other messages; the plan updates update one plan.
    assert!(matches!(kinds[0], Applied::OtherMessage { method: None }));
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, Applied::Updated { created: true, .. }))
    );
    let board = boards.boards().next().unwrap();
    let plan = board.plans().next().unwrap();
    let progress = plan.progress().unwrap();
    assert!(
        progress.is_done(),
        "the recorded turn ran to its end: {progress}"
    );
}

#[test]
fn both_spellings_replay_to_the_same_board() {
    let replay = |stream: StaticStream| {
        let mut boards = SessionBoards::new().strict();
        for line in stream.lines() {
            boards.apply_json(line).unwrap();
        }
        boards
    };
    assert_eq!(replay(LIFECYCLE), replay(LIFECYCLE_RFD));
}

/// One suggestion for one word, wherever it is judged: each name the file
/// macro refuses in `tests/ui/include_plan_stream/many_errors.ndjson` (its
/// `.stderr` says how) is a finding of `acp-plan check` on the same file,
/// word for word, with a fix that names the value read.
#[test]
fn check_and_the_file_macro_say_the_same_of_a_name() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/include_plan_stream/");
    let stream = std::fs::read(format!("{dir}many_errors.ndjson")).unwrap();
    let stderr = std::fs::read_to_string(format!("{dir}many_errors.stderr")).unwrap();
    let report = acp_plan::harness::check_file(&stream, None);
    let mut compared = 0;
    for error in stderr.lines().filter_map(|l| l.strip_prefix("error: ")) {
        // FILE:LINE:COLUMN: PATH: MESSAGE
        let Some((place, rest)) = error.split_once(": ") else {
            continue;
        };
        let Some((path, message)) = rest.split_once(": ") else {
            continue;
        };
        if !message.starts_with("unknown ") {
            continue;
        }
        let line: usize = place.split(':').nth(1).unwrap().parse().unwrap();
        let finding = report
            .findings
            .iter()
            .find(|f| f.line == line && f.path.ends_with(path))
            .unwrap_or_else(|| panic!("no finding at line {line}, {path}: {:#?}", report.findings));
        assert_eq!(finding.message, message);
        let fix = finding.fix.as_deref().unwrap_or_default();
        let name = message.split('`').nth(1).unwrap();
        assert!(fix.contains(&format!("`_{name}`")), "{fix}");
        compared += 1;
    }
    assert!(compared > 0, "the stderr names a word: {stderr}");
}
