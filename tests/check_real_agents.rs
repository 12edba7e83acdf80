//! `check` on what real agents send (claude-agent-acp 0.101.0, codex-acp
//! 2.6.0; see `data/real-agents/README.md`): each transcript is clean from
//! the file and replayed as a live agent, the cancel codex answers -32800
//! under v2 included; a recorded `initialize` decides how a file is judged;
//! a run that saw no plan says so; repeats are noted; each turn rule is said
//! where its source says it.

mod common;

use std::io::{self, BufReader};
use std::sync::mpsc;
use std::time::Duration;

use acp_plan::CheckAgentOptions as Options;
use acp_plan::harness::FileReport;
use acp_plan::harness::{self as conformance, ClientRun};
use common::real_agents::{TRANSCRIPTS, replay_agent, transcript, without};
use plan_core::wire::{ClientKind, ProtocolVersion};
use serde_json::Value;

#[test]
fn check_finds_each_transcript_clean_from_the_file() {
    for (name, _) in TRANSCRIPTS {
        let report = acp_plan::harness::check_file(transcript(name).as_bytes(), None);
        assert_eq!(report.findings, [], "{name}");
    }
}

/// `check -- AGENT`'s judgement of one kind against a replayed transcript.
fn check_replayed(name: &str, kind: ClientKind, options: &Options) -> ClientRun {
    check_replayed_text(transcript(name), kind, options)
}

fn check_replayed_text(text: String, kind: ClientKind, options: &Options) -> ClientRun {
    let options = options.clone();
    let (done, result) = mpsc::channel();
    std::thread::spawn(move || {
        let (agent_reads, to_agent) = io::pipe().unwrap();
        let (from_agent, agent_writes) = io::pipe().unwrap();
        std::thread::spawn(move || replay_agent(&text, BufReader::new(agent_reads), agent_writes));
        let run = conformance::check_kind(kind, &options, BufReader::new(from_agent), to_agent);
        let _ = done.send(run);
    });
    result
        .recv_timeout(Duration::from_secs(30))
        .expect("the check ended in time")
}

#[test]
fn check_finds_each_agent_clean_when_its_transcript_is_replayed_live() {
    for (name, kind) in TRANSCRIPTS {
        let options = {
            let mut opts = Options::default();
            opts.cancel = name.contains("cancel");
            opts.timeout = Duration::from_secs(2);
            opts
        };
        let run = check_replayed(name, kind, &options);
        assert_eq!(run.failure, None, "{name}");
        assert!(run.findings.is_empty(), "{name}: {:#?}", run.findings);
        assert!(run.plans > 0, "{name}: plans were judged");
    }
}

#[test]
fn codex_cancelled_before_inserting_the_prompt_is_clean_under_v2() {
    // Line 27: idle with `stopReason: "cancelled"`; line 28: the held prompt
    // answered -32800, as the v2 draft allows.
    let options = {
        let mut opts = Options::default();
        opts.cancel = true;
        opts.timeout = Duration::from_secs(2);
        opts
    };
    let run = check_replayed("codex-check-cancel-v2-32800", ClientKind::V2, &options);
    assert!(run.findings.is_empty(), "{:#?}", run.findings);
    assert_eq!(run.stop_reasons, ["end_turn", "cancelled"]);
}

fn check_text(name: &str, text: &str, protocol: Option<ProtocolVersion>) -> (FileReport, String) {
    let report = acp_plan::harness::check_file(text.as_bytes(), protocol);
    let mut out = Vec::new();
    report.write_text(name, &mut out).unwrap();
    (report, String::from_utf8(out).unwrap())
}

#[test]
fn a_file_with_the_clients_initialize_is_judged_for_that_client() {
    // Claude's plan mode, with `plan` taken out of the recorded `initialize`:
    // its markdown `plan_update` goes to a client that did not opt in.
    let edited = transcript("claude-planmode-v1caps").replacen(r#","plan":{}"#, "", 1);
    assert_ne!(edited, transcript("claude-planmode-v1caps"));
    for protocol in [None, Some(ProtocolVersion::V1), Some(ProtocolVersion::V2)] {
        let (report, out) = check_text("edited.ndjson", &edited, protocol);
        assert_eq!(report.recorded_client, Some(ClientKind::V1), "{protocol:?}");
        assert_eq!(report.findings.len(), 1, "{protocol:?}: {out}");
        assert!(
            out.starts_with("edited.ndjson:29: at `params.update.sessionUpdate`: ")
                && out.ends_with("[v1-no-opt-in]\n"),
            "{out}"
        );
    }
    // As recorded, the client opted in: clean, whatever `--protocol` says.
    for protocol in [None, Some(ProtocolVersion::V1), Some(ProtocolVersion::V2)] {
        let (report, out) = check_text(
            "plan-mode.ndjson",
            &transcript("claude-planmode-v1caps"),
            protocol,
        );
        assert_eq!(report.recorded_client, Some(ClientKind::V1Plan));
        assert_eq!((report.findings.len(), report.plans), (0, 1), "{out}");
    }
}

#[test]
fn a_file_without_an_initialize_is_judged_by_the_protocol_option() {
    // The v1 `plan` updates of Claude's TodoWrite, without the `initialize`
    // and its answer: `--protocol 2` reads them as a v2 client would.
    let whole = transcript("claude-v1caps");
    let text = whole.lines().skip(2).collect::<Vec<_>>().join("\n");
    let (report, out) = check_text("todo.ndjson", &text, None);
    assert_eq!(
        (report.recorded_client, report.findings.len(), report.plans),
        (None, 0, 3),
        "{out}"
    );
    let (report, out) = check_text("todo.ndjson", &text, Some(ProtocolVersion::V2));
    assert_eq!(report.findings.len(), 3, "{out}");
    assert!(out.lines().all(|l| l.ends_with("[v2-no-v1-plan]")), "{out}");
    // With them, the client they record decides: v1 with `plan`, clean.
    let (report, out) = check_text(
        "todo.ndjson",
        &transcript("claude-v1caps"),
        Some(ProtocolVersion::V2),
    );
    assert_eq!(
        (report.recorded_client, report.findings.len()),
        (Some(ClientKind::V1Plan), 0),
        "{out}"
    );
}

#[test]
fn no_plan_at_all_is_said_and_can_be_a_finding() {
    // Claude Code offers its model no todo tool by default: no plan comes.
    let silent = without("claude-v1caps", r#""sessionUpdate":"plan""#);
    let options = {
        let mut opts = Options::default();
        opts.timeout = Duration::from_secs(2);
        opts
    };
    let run = check_replayed_text(silent.clone(), ClientKind::V1Plan, &options);
    assert_eq!(
        (run.plans, run.findings.len()),
        (0, 0),
        "{:#?}",
        run.findings
    );
    assert_eq!(run.notes, ["no plan message seen: nothing judged"]);
    let runs = [run];
    let text = conformance::report_text(&options, &runs);
    assert!(
        text.contains("answered v1; turns ended: end_turn; no plan message seen: nothing judged\n"),
        "{text}"
    );
    assert!(text.contains("nothing was judged"), "{text}");
    assert!(!text.contains("clean"), "{text}");
    let json = conformance::report_json(&options, &runs);
    assert_eq!(json["nothingJudged"], true);
    assert_eq!(json["kinds"][0]["nothingJudged"], true);
    assert_eq!(json["kinds"][0]["plans"], 0);
    assert_eq!(
        json["kinds"][0]["notes"][0],
        "no plan message seen: nothing judged"
    );
    assert_eq!(conformance::exit_code(&runs), 0);
    // `--expect-plans`: a finding, for CI.
    let expecting = {
        let mut opts = options.clone();
        opts.expect_plans = true;
        opts
    };
    let run = check_replayed_text(silent.clone(), ClientKind::V1Plan, &expecting);
    let rules: Vec<&str> = run.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, ["expect-plans"]);
    assert!(
        run.findings[0]
            .fix
            .as_deref()
            .unwrap()
            .contains("TodoWrite")
    );
    assert_eq!(conformance::exit_code(&[run]), 1);
    // The file mode counts what it judged too.
    let (report, _) = check_text("silent.ndjson", &silent, None);
    assert_eq!((report.plans, report.findings.len()), (0, 0));
    // And a run that saw plans says how many.
    let run = check_replayed("claude-v1caps", ClientKind::V1Plan, &options);
    let text = conformance::report_text(&options, &[run]);
    assert!(text.contains("3 plan message(s) judged; clean"), "{text}");
}

#[test]
fn check_notes_the_repeats_it_saw() {
    let options = {
        let mut opts = Options::default();
        opts.timeout = Duration::from_secs(2);
        opts
    };
    let run = check_replayed("claude-tasks-v1caps", ClientKind::V1Plan, &options);
    assert!(run.findings.is_empty(), "{:#?}", run.findings);
    assert_eq!((run.plans, run.repeats), (13, 6));
    assert_eq!(
        run.notes,
        [
            "6 of 13 plan message(s) repeated the plan as it already was (allowed; a client need not redraw)"
        ]
    );
}

#[test]
fn each_turn_rule_is_said_in_the_published_text_it_names() {
    // Every description of the TypeScript SDK 2.4.0's schemas, white space folded.
    fn descriptions(value: &Value, into: &mut String) {
        match value {
            Value::String(text) => {
                into.push_str(&text.split_whitespace().collect::<Vec<_>>().join(" "));
                into.push('\n');
            }
            Value::Array(items) => items.iter().for_each(|v| descriptions(v, into)),
            Value::Object(map) => map.values().for_each(|v| descriptions(v, into)),
            _ => {}
        }
    }
    for rule in conformance::TURN_RULES {
        let path = format!(
            "{}/data/sdk-ts-2.4.0/v{}-schema.json",
            env!("CARGO_MANIFEST_DIR"),
            rule.protocol
        );
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut text = String::new();
        descriptions(&schema, &mut text);
        let quote = rule.quote.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            text.contains(&quote),
            "v{}: {quote:?} is not in {path}",
            rule.protocol
        );
    }
}
