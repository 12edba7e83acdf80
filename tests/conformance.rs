//! `check -- AGENT` (examples/conformance.rs), held to agents whose faults
//! are known: our own agent is clean under every kind of client, and a
//! deliberately broken agent, one switch per fault, has each fault reported
//! by its rule under the kinds it reaches, and nothing else. Each agent runs
//! on a thread behind OS pipes; every run is bounded by the check's timeout
//! and the test's.
//!
//! Why one file over 500 lines: the broken agent and its faults are the
//! shared subject of every test here, and each integration test file is a
//! binary of its own (linked against the SDK and the rest once more).

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/agent.rs"]
mod agent;
mod common;

use std::io::{self, BufRead, Write};
use std::time::Duration;

use acp_plan::CheckAgentOptions as Options;
use acp_plan::harness::{self as conformance, ClientRun};
use common::checking::{check_agent, rules};
use plan_core::{
    agent::{InitializeRequest, PlanSender},
    plan,
    wire::{ClientKind, ProtocolVersion, Spelling},
};
use serde_json::{Value, json};

fn quick() -> Options {
    let mut opts = Options::default();
    opts.timeout = Duration::from_secs(1);
    opts
}

#[test]
fn our_agent_is_clean_for_every_kind_of_client_with_and_without_a_cancel() {
    let options = {
        let mut opts = Options::default();
        opts.cancel = true;
        opts.timeout = Duration::from_secs(20);
        opts
    };
    let runs = check_agent(
        |input, out| {
            let options = agent::Options {
                pause: Duration::from_millis(20),
                ..agent::Options::default()
            };
            let _ = agent::serve(input, out, io::sink(), options);
        },
        &options,
    );
    let report = conformance::report_text(&options, &runs);
    assert_eq!(conformance::exit_code(&runs), 0, "{report}");
    for run in &runs {
        assert_eq!(run.stop_reasons, ["end_turn", "cancelled"], "{report}");
        assert_eq!(run.judged_as, run.kind);
        // Plans were sent, and checked, in every kind.
        assert!(
            run.transcript
                .iter()
                .filter(|l| l.contains("\"plan"))
                .count()
                > 5
        );
    }
}

/// One fault each; `None` is a correct agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    /// `plan_update` to a v1 client that did not send `plan`.
    PlanUpdateWithoutOptIn,
    /// `cancelled` to a v1 client (in `plan_update`, or in the v1 `plan`).
    CancelledToV1,
    /// A `file` plan (to a client of plan operations).
    FilePlan,
    /// A markdown plan whose `path` is relative.
    RelativePath,
    /// The turn never ends.
    NoTurnEnd,
    /// A line that is not JSON.
    MalformedLine,
    /// v2: the prompt is never answered (the turn ends with `idle` all the same).
    Unanswered,
    /// The agent exits before answering `initialize`.
    ExitsAtOnce,
    /// It refuses the prompt as an agent without a key does (-32000
    /// "Authentication required"), having offered a way to authenticate.
    RefusesPrompt,
    /// It takes the prompt and says nothing more: a model it cannot reach.
    Silent,
    /// It refuses `session/new` until `authenticate` with its method `login`.
    NeedsLogin,
    /// v2: before it answers the prompt, an `idle` that ends earlier work
    /// (`max_tokens`); then the turn as usual, ending `end_turn`.
    IdleOfEarlierWork,
    /// v2: the whole turn, its `idle` included, then the prompt's answer.
    AnswersAfterIdle,
    /// v2: an `idle` of earlier work, the answer, a plan, and no end.
    HangsAfterEarlierIdle,
}

impl Fault {
    /// v2: whether an `idle` of earlier work comes before the prompt's answer.
    fn idles_first(self) -> bool {
        matches!(
            self,
            Fault::IdleOfEarlierWork | Fault::HangsAfterEarlierIdle
        )
    }

    /// Whether the turn ends at all.
    fn ends_its_turn(self) -> bool {
        !matches!(self, Fault::NoTurnEnd | Fault::HangsAfterEarlierIdle)
    }
}

/// `update` in a `session/update` of the broken family's one session.
fn raw(update: &Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "sess_1", "update": update}})
}

/// v2's `idle` state update, ending with `stop`.
fn idle(stop: &str) -> Value {
    raw(&json!({"sessionUpdate": "state_update", "state": "idle", "stopReason": stop}))
}

/// A small ACP agent (v1 and v2) that sends one plan through `PlanSender`
/// per prompt, and then does what `fault` says, written by hand.
/// Over 80 lines: one loop over the client's lines, each fault an arm of it.
fn broken_agent(fault: Fault, input: impl BufRead, mut out: impl Write) {
    let mut write = |message: &dyn std::fmt::Display| {
        let _ = writeln!(out, "{message}");
        let _ = out.flush();
    };
    let mut client = None::<InitializeRequest>;
    let mut logged_in = false;
    for line in input.lines().map_while(Result::ok) {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let (id, params) = (message["id"].clone(), &message["params"]);
        let respond = |result: Value| json!({"jsonrpc": "2.0", "id": id, "result": result});
        match message["method"].as_str().unwrap_or_default() {
            "initialize" if fault == Fault::ExitsAtOnce => return,
            "initialize" => {
                let request = InitializeRequest::from_value(params.clone()).unwrap();
                let version = request.negotiated(ProtocolVersion::LATEST).number();
                client = Some(request);
                write(&respond(
                    json!({"protocolVersion": version, "agentCapabilities": {},
                    "authMethods": [{"id": "login", "name": "Log in", "description": "Run `agent login`"}]}),
                ));
            }
            "authenticate" => {
                logged_in = params["methodId"] == "login";
                write(&respond(json!({})));
            }
            "session/new" if fault == Fault::NeedsLogin && !logged_in => {
                write(&json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32000, "message": "Authentication required"}}));
            }
            "session/new" => write(&respond(json!({"sessionId": "sess_1"}))),
            "session/prompt" if fault == Fault::RefusesPrompt => {
                write(&json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32000, "message": "Authentication required"}}));
            }
            "session/prompt" if fault == Fault::Silent => {}
            "session/prompt" => {
                let init = client.clone().expect("initialize came first");
                let mut sender = PlanSender::for_client("sess_1", &init, ProtocolVersion::LATEST);
                let v2 = sender.protocol() == ProtocolVersion::V2;
                if v2 && fault.idles_first() {
                    write(&idle("max_tokens"));
                }
                if v2 && !matches!(fault, Fault::Unanswered | Fault::AnswersAfterIdle) {
                    write(&respond(json!({"messageId": "msg_1"})));
                }
                let plan = sender.update(
                    plan! { id: "p", items: [high in_progress "Analyze", low pending "Ship"] },
                );
                write(&plan.to_json(Spelling::Acp));
                let items = |status: &str| json!({"type": "items", "planId": "p", "entries": [{"content": "Ship", "priority": "low", "status": status}]});
                let operations = sender.supports_plan_operations();
                match fault {
                    Fault::PlanUpdateWithoutOptIn if !operations => {
                        write(&raw(
                            &json!({"sessionUpdate": "plan_update", "plan": items("pending")}),
                        ));
                    }
                    Fault::CancelledToV1 if !v2 && operations => {
                        write(&raw(
                            &json!({"sessionUpdate": "plan_update", "plan": items("cancelled")}),
                        ));
                    }
                    Fault::CancelledToV1 if !v2 => {
                        let entries =
                            json!([{"content": "Ship", "priority": "low", "status": "cancelled"}]);
                        write(&raw(&json!({"sessionUpdate": "plan", "entries": entries})));
                    }
                    Fault::FilePlan if operations => {
                        let file =
                            json!({"type": "file", "planId": "f", "uri": "file:///tmp/PLAN.md"});
                        write(&raw(&json!({"sessionUpdate": "plan_update", "plan": file})));
                    }
                    Fault::RelativePath if operations => {
                        let markdown = json!({"type": "markdown", "planId": "m", "content": "# Plan", "path": "docs/PLAN.md"});
                        write(&raw(
                            &json!({"sessionUpdate": "plan_update", "plan": markdown}),
                        ));
                    }
                    Fault::MalformedLine => write(&"this line is not JSON"),
                    _ => {}
                }
                if !fault.ends_its_turn() {
                    continue;
                }
                if v2 {
                    write(&idle("end_turn"));
                    if fault == Fault::AnswersAfterIdle {
                        write(&respond(json!({"messageId": "msg_1"})));
                    }
                } else {
                    write(&respond(json!({"stopReason": "end_turn"})));
                }
            }
            _ if !id.is_null() => write(&json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32601, "message": "method not found"}})),
            _ => {}
        }
    }
}

fn check_fault(fault: Fault) -> Vec<ClientRun> {
    check_agent(move |input, out| broken_agent(fault, input, out), &quick())
}

#[test]
fn the_correct_agent_of_the_broken_family_is_clean() {
    let runs = check_fault(Fault::None);
    assert_eq!(
        rules(&runs),
        Vec::<String>::new(),
        "{}",
        conformance::report_text(&quick(), &runs)
    );
    assert_eq!(conformance::exit_code(&runs), 0);
}

#[test]
fn each_fault_is_reported_by_its_rule_under_the_kinds_it_reaches_and_nothing_else() {
    for (fault, expected) in [
        (Fault::PlanUpdateWithoutOptIn, &["v1: v1-no-opt-in"][..]),
        (
            Fault::CancelledToV1,
            &["v1-plan: v1-values", "v1: v1-values"],
        ),
        (
            Fault::FilePlan,
            &["v1-plan: pre-stable-file", "v2: pre-stable-file"],
        ),
        (
            Fault::RelativePath,
            &["v1-plan: absolute-path", "v2: absolute-path"],
        ),
        (
            Fault::NoTurnEnd,
            &["v1-plan: turn-end", "v1: turn-end", "v2: turn-end"],
        ),
        (
            Fault::MalformedLine,
            &["v1-plan: json-rpc", "v1: json-rpc", "v2: json-rpc"],
        ),
        (Fault::Unanswered, &["v2: unanswered-request"]),
    ] {
        let runs = check_fault(fault);
        let report = conformance::report_text(&quick(), &runs);
        assert_eq!(rules(&runs), expected, "{fault:?}:\n{report}");
        assert_eq!(conformance::exit_code(&runs), 1, "{fault:?}");
        for finding in runs.iter().flat_map(|r| &r.findings) {
            assert!(!finding.message.is_empty(), "{fault:?}: {finding:?}");
            assert!(
                finding.fix.is_some(),
                "every finding says what to do: {finding:?}"
            );
        }
    }
}

/// v2: an agent reports its state at any time, so an `idle` before the
/// prompt's answer may end other work: the turn ends with the idle after
/// the answer, and with the early one only when none follows (said in a
/// note). Judged by the stop reason each turn ended with.
#[test]
fn a_v2_turn_ends_with_the_idle_after_the_prompts_answer() {
    for (fault, note) in [
        (Fault::IdleOfEarlierWork, false),
        (Fault::AnswersAfterIdle, true),
    ] {
        let runs = check_fault(fault);
        let report = conformance::report_text(&quick(), &runs);
        assert_eq!(rules(&runs), Vec::<String>::new(), "{fault:?}:\n{report}");
        for run in &runs {
            assert_eq!(
                run.stop_reasons,
                ["end_turn"],
                "{fault:?} {:?}:\n{report}",
                run.kind
            );
            let noted = run
                .notes
                .iter()
                .any(|n| n.contains("came before the prompt's answer"));
            let v2 = run.judged_as == ClientKind::V2;
            assert_eq!(
                noted,
                note && v2,
                "{fault:?} {:?}: {:?}",
                run.kind,
                run.notes
            );
        }
        assert_eq!(
            runs.iter()
                .filter(|r| r.judged_as == ClientKind::V2)
                .count(),
            1
        );
    }
    // An idle of earlier work does not end a turn that went on past the
    // answer and never ended.
    let runs = check_fault(Fault::HangsAfterEarlierIdle);
    let v2: Vec<_> = runs
        .iter()
        .filter(|r| r.judged_as == ClientKind::V2)
        .collect();
    let found: Vec<_> = v2[0].findings.iter().map(|f| f.rule.clone()).collect();
    assert_eq!(found, ["turn-end"], "{:?}", v2[0].findings);
}

#[test]
fn a_finding_names_its_line_path_and_fix_as_check_does() {
    let runs = check_fault(Fault::CancelledToV1);
    let run = runs.iter().find(|r| r.kind == ClientKind::V1Plan).unwrap();
    let finding = &run.findings[0];
    assert_eq!(finding.path, "params.update.plan.entries[0].status");
    assert!(
        finding
            .fix
            .as_deref()
            .is_some_and(|fix| fix.contains("completed")),
        "{finding:?}"
    );
    // The line is the transcript's: the raw plan_update with `cancelled`.
    assert!(run.transcript[finding.line - 1].contains("\"cancelled\""));
    let text = conformance::report_text(&quick(), &runs);
    assert!(
        text.contains(&format!(
            "  line {}: at `params.update.plan.entries[0].status`: ",
            finding.line
        )),
        "{text}"
    );
    // With `--record`, the line is named in the kind's file.
    let recorded = {
        let mut opts = quick();
        opts.record = Some("runs".into());
        opts
    };
    let text = conformance::report_text(&recorded, &runs);
    assert!(
        text.contains(&format!("  runs/v1-plan.ndjson:{}: at ", finding.line)),
        "{text}"
    );
    let json = conformance::report_json(&quick(), &runs);
    assert_eq!(json["exit"], 1);
    assert_eq!(json["kinds"][1]["findings"][0]["rule"], "v1-values");
}

#[test]
fn a_turn_end_fix_names_the_version_it_applies_to() {
    let runs = check_fault(Fault::NoTurnEnd);
    for run in &runs {
        let fix = run.findings[0].fix.as_deref().unwrap_or_default();
        let version = if run.judged_as == ClientKind::V2 {
            "v2: "
        } else {
            "v1: "
        };
        assert!(fix.starts_with(version), "{:?}: {fix}", run.kind);
        assert!(
            !fix.contains(if version == "v1: " { "v2" } else { "v1" }),
            "{fix}"
        );
    }
}

#[test]
fn an_agent_that_exits_at_once_could_not_be_driven_and_says_why() {
    let runs = check_fault(Fault::ExitsAtOnce);
    assert_eq!(conformance::exit_code(&runs), 2);
    for run in &runs {
        let reason = run.failure.as_deref().unwrap_or_default();
        assert!(reason.contains("before answering `initialize`"), "{reason}");
    }
    assert!(conformance::report_text(&quick(), &runs).contains("could not be driven"));
}

#[test]
fn an_agent_that_cannot_work_could_not_be_driven_and_is_blamed_for_nothing() {
    for (fault, says) in [
        (
            Fault::RefusesPrompt,
            "the agent refused the prompt: {\"code\":-32000,\"message\":\"Authentication required\"}",
        ),
        (Fault::Silent, "the turn made no progress within 1 s"),
    ] {
        let runs = check_fault(fault);
        let report = conformance::report_text(&quick(), &runs);
        assert_eq!(conformance::exit_code(&runs), 2, "{fault:?}:\n{report}");
        assert_eq!(rules(&runs), Vec::<String>::new(), "{fault:?}:\n{report}");
        for run in &runs {
            let reason = run.failure.as_deref().unwrap_or_default();
            assert!(reason.starts_with(says), "{fault:?}: {reason}");
            // What to do: the agent's own ways in, a key, the scripted model.
            assert!(reason.contains("choose one with `--auth ID`"), "{reason}");
            assert!(
                reason.contains("login: Log in (Run `agent login`)"),
                "{reason}"
            );
            assert!(reason.contains("`--scripted-model`"), "{reason}");
        }
    }
}

#[test]
fn check_authenticates_with_the_method_auth_names() {
    let refused = check_fault(Fault::NeedsLogin);
    assert_eq!(conformance::exit_code(&refused), 2);
    let reason = refused[0].failure.as_deref().unwrap_or_default();
    assert!(
        reason.starts_with("the agent refused `session/new`"),
        "{reason}"
    );
    assert!(reason.contains("login: Log in"), "{reason}");
    let options = {
        let mut opts = quick();
        opts.auth = Some("login".to_owned());
        opts
    };
    let runs = check_agent(
        move |input, out| broken_agent(Fault::NeedsLogin, input, out),
        &options,
    );
    let report = conformance::report_text(&options, &runs);
    assert_eq!(conformance::exit_code(&runs), 0, "{report}");
}

#[test]
fn a_recorded_transcript_is_a_fixture_include_plan_stream_accepts() {
    // The committed recording was written by `check --record` (its `cwd`
    // written as `/work`, the session id as `sess_recorded`); `include_plan_stream!`
    // checks it at compile time.
    const RECORDED: plan_core::agent::StaticStream =
        plan_core::include_plan_stream!("fixtures/check-record/v1-plan.ndjson");
    let options = {
        let mut opts = Options::default();
        opts.timeout = Duration::from_secs(20);
        opts
    };
    let runs = check_agent(
        |input, out| {
            let options = agent::Options {
                pause: Duration::ZERO,
                ..agent::Options::default()
            };
            let _ = agent::serve(input, out, io::sink(), options);
        },
        &options,
    );
    let run = runs.iter().find(|r| r.kind == ClientKind::V1Plan).unwrap();
    // What varies between runs: the working directory and the session id.
    let cwd = serde_json::to_string(&std::env::current_dir().unwrap()).unwrap();
    let session = run
        .transcript
        .iter()
        .find_map(|l| {
            serde_json::from_str::<Value>(l).ok()?["result"]["sessionId"]
                .as_str()
                .map(str::to_owned)
        })
        .expect("a session");
    let fresh: Vec<String> = run
        .transcript
        .iter()
        .map(|l| {
            l.replace(&cwd, "\"/work\"")
                .replace(&session, "sess_recorded")
        })
        .collect();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/check-record/v1-plan.ndjson");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, fresh.join("\n") + "\n").unwrap();
    }
    let recorded: Vec<&str> = RECORDED.lines().to_vec();
    assert_eq!(
        recorded,
        fresh,
        "the agent's run changed: UPDATE_SNAPSHOTS=1 rewrites {}",
        path.display()
    );
}

#[test]
fn docs_ci_lists_every_rule_check_reports_and_no_other() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ci.md")).unwrap();
    let start = page.find("| rule | what it means | the fix |").unwrap();
    let mut listed: Vec<&str> = page[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("| `"))
        .filter_map(|l| l.split('`').nth(1))
        .collect();
    let mut rules: Vec<&str> = plan_core::agent::Violation::RULES
        .iter()
        .copied()
        .chain(conformance::RULES)
        .chain([acp_plan::harness::ACP_SPELLING])
        .collect();
    listed.sort_unstable();
    rules.sort_unstable();
    assert_eq!(listed, rules, "docs/ci.md's rule table against the rules");
}

/// An agent gone before it answers `initialize` (a program that is not an
/// ACP agent, as the README's agent snippet is when started as one): the
/// same report on every run, exit 2, no finding in a kind not driven, one
/// explanation with its hint, and the text and the JSON agree.
#[test]
fn an_agent_gone_at_once_gets_the_same_report_every_run() {
    let scripts = [
        "exit 0",
        // It writes a plan line and exits without reading its input.
        r#"echo '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}'"#,
    ];
    for script in scripts {
        let mut options = Options::default();
        options.command = vec!["sh".into(), "-c".into(), script.into()];
        options.timeout = Duration::from_secs(10);
        let mut reports = Vec::new();
        for _ in 0..20 {
            let mut out = Vec::new();
            let status = conformance::report_agent(&options, &mut out).unwrap();
            assert_eq!(status, 2, "{}", String::from_utf8_lossy(&out));
            // Each kind's time varies; the rest is the report.
            let text: Vec<String> = String::from_utf8(out)
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with("check: time per kind"))
                .map(str::to_owned)
                .collect();
            let text = text.join("\n") + "\n";
            reports.push(text);
        }
        let first = &reports[0];
        assert!(reports.iter().all(|r| r == first), "{reports:#?}");
        assert!(
            first.ends_with("check: could not drive the agent for 3 of 3 kinds of client (nothing judged); exit 2\n"),
            "{first}"
        );
        assert_eq!(
            first.matches("the agent exited before answering `initialize`; a program that exits without reading its standard input is not an ACP agent").count(),
            3,
            "{first}"
        );
        let json = {
            let mut out = Vec::new();
            let mut json_options = options.clone();
            json_options.json = true;
            conformance::report_agent(&json_options, &mut out).unwrap();
            serde_json::from_slice::<Value>(&out).unwrap()
        };
        assert_eq!(json["findings"], 0, "{json:#}");
        assert_eq!(json["nothingJudged"], true, "{json:#}");
        for kind in json["kinds"].as_array().unwrap() {
            assert_eq!(kind["nothingJudged"], true, "{kind:#}");
            assert_eq!(kind["findings"], json!([]), "{kind:#}");
        }
    }
}
