//! Plan mode, judged (with `--scripted-model` and `--plan-mode`): the model
//! made a markdown plan the agent's way (Claude Code's `ExitPlanMode`,
//! codex's `<proposed_plan>` answer), and its [`Log`] says so. A client
//! that reads plan operations must get it whole: the last markdown version
//! it was sent is the model's plan (white space at the end aside), every
//! version of it came under one `planId`, and a `path`, when sent, is
//! absolute (the version table's own rule). A v1 client without `plan`
//! must get nothing it cannot read (the version table's rules again), and
//! must get the plan all the same: the seeds' fallback to the `plan`
//! update, whose entries are the plan's steps (plan-core's one reading,
//! `MarkdownSteps`, which its `Fallback` sends); sent nothing of it, or
//! a `plan` that drops the steps, that is a finding. Where the agent keeps the plan in a file it
//! does not name in the update, that is a note too: a client could open it.

use plan_core::wire::{ClientKind, Spelling};
use plan_core::{PlanContent, SessionUpdate};
use serde_json::Value;

use super::client_run::ClientRun;
use crate::check::finding::Finding;
use crate::check::rule;
use crate::model::Log;
use crate::model::turn::PlanMade;

/// A markdown plan a client received.
struct Markdown {
    line: usize,
    id: String,
    content: String,
    path: Option<String>,
}

/// The markdown plans a client received.
fn received(run: &ClientRun) -> Vec<Markdown> {
    super::mapping::updates(run)
        .filter_map(|(line, update)| match update {
            SessionUpdate::PlanUpdate {
                plan:
                    PlanContent::Markdown {
                        id, content, path, ..
                    },
                ..
            } => Some(Markdown {
                line,
                id: id.to_string(),
                content: content.to_string(),
                path: path.as_ref().map(ToString::to_string),
            }),
            _ => None,
        })
        .collect()
}

/// A file the agent says holds its plan: a `planFilePath` or a `filePath`
/// ending in `.md` anywhere in the tool calls it reported.
fn plan_file(run: &ClientRun) -> Option<String> {
    fn find(value: &Value) -> Option<String> {
        match value {
            Value::Object(map) => map.iter().find_map(|(key, v)| match v {
                Value::String(path)
                    if (key == "planFilePath" || key == "filePath")
                        && std::path::Path::new(path)
                            .extension()
                            .is_some_and(|e| e.eq_ignore_ascii_case("md")) =>
                {
                    Some(path.clone())
                }
                other => find(other),
            }),
            Value::Array(items) => items.iter().find_map(find),
            _ => None,
        }
    }
    run.updates.iter().find_map(|(_, update)| match update {
        SessionUpdate::Other(other) if other.kind().starts_with("tool_call") => {
            other.as_object().values().find_map(find)
        }
        _ => None,
    })
}

/// The model's plan reached this client in no form: a `model-plan`
/// finding at the end of the transcript, with its `fix`.
fn not_sent(run: &mut ClientRun, message: String, fix: String) {
    let line = run.transcript.len();
    let finding = Finding::new(rule::MODEL_PLAN, line, String::new(), message, Some(fix));
    run.findings.push(finding);
}

/// A v1 client without `plan` and the model's markdown `plan` (by `tool`):
/// it reads no markdown plan, so the agent must fall back to the v1 `plan`
/// update ("When absent, the agent must fall back to the existing plan
/// session update type", the seeds, 000 and 001), whose entries are the
/// plan's steps (plan-core's one reading, `MarkdownSteps`). Sent none, a
/// finding; sent one whose entries are not the steps (one line of the
/// plan, say, where it has four steps), a finding too: the fallback drops
/// the steps. The fix shows the `plan` that carries them.
fn v1_fallback(run: &mut ClientRun, tool: &str, plan: &str) {
    let expected = plan_core::client::MarkdownSteps::read(plan);
    let right = SessionUpdate::plan(expected.entries.clone()).to_json(Spelling::Acp);
    let count = expected.entries.len();
    let steps = format!("{count} step{}", if count == 1 { "" } else { "s" });
    let sent: Vec<(usize, Vec<plan_core::PlanEntry>)> = super::mapping::updates(run)
        .filter_map(|(line, update)| match update {
            SessionUpdate::Plan(plan) => Some((line, plan.entries.clone())),
            _ => None,
        })
        .collect();
    let Some((line, last)) = sent.last() else {
        not_sent(
            run,
            format!(
                "plan mode: the model's markdown plan (`{tool}`) reached this client in no form; a v1 client without `clientCapabilities.plan` reads no markdown plan, so the agent must fall back to the `plan` update (the seeds: \"When absent, the agent must fall back to the existing plan session update type\")"
            ),
            format!(
                "send this client a v1 `plan` whose entries are the markdown plan's {steps}, as plan-core's `Fallback` does: {right}"
            ),
        );
        return;
    };
    let texts = |entries: &[plan_core::PlanEntry]| -> Vec<String> {
        entries.iter().map(|e| e.content.to_string()).collect()
    };
    if texts(last) == texts(&expected.entries) {
        run.notes.push(format!(
            "plan mode: the model's markdown plan (`{tool}`) reached this client as a v1 `plan` of its {steps} (the seeds' fallback)"
        ));
        return;
    }
    let got: Vec<String> = texts(last).iter().map(|t| format!("{t:?}")).collect();
    run.findings.push(Finding::new(
        rule::MODEL_PLAN,
        *line,
        "params.update.entries".to_owned(),
        format!(
            "plan mode: the fallback drops the plan's steps: the model's markdown plan (`{tool}`) has {steps} ({:?}), and this client's last v1 `plan` has {} entr{} ({})",
            expected.source,
            last.len(),
            if last.len() == 1 { "y" } else { "ies" },
            got.join(", ")
        ),
        Some(format!(
            "send the plan's steps as the v1 `plan`'s entries, one entry a step, as plan-core's `Fallback` does: {right}"
        )),
    ));
}

/// The last plan the client was sent is the model's `plan` (from `tool`),
/// and every version on the way to it came under one plan id; a finding
/// for each that is not so.
fn whole_under_one_id(run: &mut ClientRun, plans: &[Markdown], tool: &str, plan: &str) {
    let Some(last) = plans.last() else { return };
    let same = |content: &str| content.trim_end() == plan.trim_end();
    match plans.iter().rposition(|p| same(&p.content)) {
        None => run.findings.push(Finding::new(
            rule::MODEL_PLAN,
            last.line,
            "params.update.plan.content".to_owned(),
            format!(
                "plan mode: the last markdown plan this client was sent is not the model's plan (`{tool}`): {} characters where the model wrote {}",
                last.content.trim_end().len(),
                plan.trim_end().len()
            ),
            Some("send the model's plan whole as the content (markdown, not a diff)".to_owned()),
        )),
        Some(at) => {
            // Every version on the way to it (a prefix of it) under its id.
            let id = &plans[at].id;
            let mut ids: Vec<&str> = plans[..=at]
                .iter()
                .filter(|p| plan.trim_end().starts_with(p.content.trim_end()))
                .map(|p| p.id.as_str())
                .collect();
            ids.dedup();
            if ids.len() > 1 {
                run.findings.push(Finding::new(
                    rule::MODEL_PLAN,
                    plans[at].line,
                    "params.update.plan.planId".to_owned(),
                    format!(
                        "plan mode: the versions of the model's plan came under {} plan ids ({}); a client shows each as a plan of its own",
                        ids.len(),
                        ids.iter().map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
                    ),
                    Some(format!("send every version of one plan under one `planId` (`{id}`)")),
                ));
            }
        }
    }
}

/// Judges `run` against the markdown plans in the model's `log`.
pub(super) fn judge_plan_mode(run: &mut ClientRun, log: &Log) {
    let made: Vec<(&str, &str)> = log
        .plans_run()
        .into_iter()
        .filter_map(|(tool, made)| match made {
            PlanMade::Markdown(text) => Some((tool, text.as_str())),
            PlanMade::Steps(_) => None,
        })
        .collect();
    let Some(&(tool, plan)) = made.last() else {
        return;
    };
    let plans = received(run);
    if run.judged_as == ClientKind::V1 {
        if plans.is_empty() {
            v1_fallback(run, tool, plan);
        }
        return;
    }
    let Some(last) = plans.last() else {
        not_sent(
            run,
            format!(
                "plan mode: the model's markdown plan (`{tool}`) never reached this client, which reads plan operations"
            ),
            "send the plan as a `plan_update` with `markdown` content, the whole plan each time, under one `planId`".to_owned(),
        );
        return;
    };
    let before = run.findings.len();
    whole_under_one_id(run, &plans, tool, plan);
    if run.findings.len() == before {
        let versions = plans.iter().filter(|p| p.id == last.id).count();
        run.notes.push(format!(
            "plan mode: the model's markdown plan (`{tool}`) reached this client whole under the plan id `{}` ({versions} version(s))",
            last.id
        ));
    }
    match (&last.path, plan_file(run)) {
        (None, Some(file)) => run.notes.push(format!(
            "plan mode: the agent keeps the plan in a file ({file}) but its `plan_update` names no `path`; with `path` a client can open the file"
        )),
        (Some(path), _) => run
            .notes
            .push(format!("plan mode: the plan names its file, `{path}`")),
        (None, None) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn markdown_update(id: &str, content: &str, path: Option<&str>) -> String {
        let mut plan = serde_json::json!({ "type": "markdown", "planId": id, "content": content });
        if let Some(path) = path {
            plan["path"] = Value::from(path);
        }
        serde_json::json!({ "jsonrpc": "2.0", "method": "session/update", "params": {
            "sessionId": "s", "update": { "sessionUpdate": "plan_update", "plan": plan } } })
        .to_string()
    }

    fn log_of(plan: &str) -> Log {
        let mut log = Log {
            requests: 2,
            ..Log::default()
        };
        log.plan_tools.insert("ExitPlanMode".to_owned());
        log.made.push((
            "e".to_owned(),
            "ExitPlanMode".to_owned(),
            PlanMade::Markdown(plan.to_owned()),
        ));
        log.answered.insert("e".to_owned());
        log
    }

    const PLAN: &str = "# Plan\n\n1. Read\n2. Fix\n";

    #[test]
    fn the_plan_whole_under_one_id_is_clean_and_its_unnamed_file_a_note() {
        let tool_call = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t","_meta":{"claudeCode":{"toolResponse":{"filePath":"/home/dev/.claude/plans/x.md"}}}}}}"#;
        let lines = [
            markdown_update("plan-mode", "# Plan\n", None),
            tool_call.to_owned(),
            markdown_update("plan-mode", "# Plan\n\n1. Read\n2. Fix", None),
        ];
        let mut run = ClientRun::of_lines(ClientKind::V1Plan, &lines);
        judge_plan_mode(&mut run, &log_of(PLAN));
        assert!(run.findings.is_empty(), "{:#?}", run.findings);
        assert!(
            run.notes.iter().any(|n| n
                .contains("(/home/dev/.claude/plans/x.md) but its `plan_update` names no `path`")),
            "{:?}",
            run.notes
        );
    }

    #[test]
    fn a_plan_that_is_not_the_models_or_moves_ids_or_never_comes_is_a_finding() {
        let changed = [markdown_update("p", "# Plan\n\n1. Read", None)];
        let mut run = ClientRun::of_lines(ClientKind::V2, &changed);
        judge_plan_mode(&mut run, &log_of(PLAN));
        assert_eq!(run.findings.len(), 1);
        assert!(run.findings[0].message.contains("is not the model's plan"));
        let moved = [
            markdown_update("a", "# Plan\n", None),
            markdown_update("b", PLAN, None),
        ];
        let mut run = ClientRun::of_lines(ClientKind::V2, &moved);
        judge_plan_mode(&mut run, &log_of(PLAN));
        assert_eq!(run.findings.len(), 1);
        assert!(run.findings[0].message.contains("2 plan ids (`a`, `b`)"));
        let mut run = ClientRun::of_lines(ClientKind::V1Plan, &[] as &[&str]);
        judge_plan_mode(&mut run, &log_of(PLAN));
        assert!(
            run.findings[0]
                .message
                .contains("never reached this client")
        );
    }

    /// The v1 `plan` line a v1 client without `plan` is sent for `plan` by
    /// plan-core's sender.
    fn fallback_line(plan: &str) -> String {
        let caps = plan_core::wire::ClientCapabilities::from_json("{}").unwrap();
        let mut sender = plan_core::agent::PlanSender::with_protocol(
            "s",
            plan_core::wire::ProtocolVersion::V1,
            &caps,
        );
        let content = PlanContent::from_json(
            &serde_json::json!({ "type": "markdown", "planId": "plan-mode", "content": plan })
                .to_string(),
        )
        .unwrap();
        sender.update(content).to_json(Spelling::Acp)
    }

    /// The one `model-plan` finding a v1 client without `plan` gets for
    /// `plan`, having been sent `lines`.
    fn the_v1_finding(lines: &[String], plan: &str) -> Finding {
        let mut run = ClientRun::of_lines(ClientKind::V1, lines);
        judge_plan_mode(&mut run, &log_of(plan));
        assert_eq!(run.findings.len(), 1, "{:?}", run.findings);
        assert_eq!(run.findings[0].rule, rule::MODEL_PLAN);
        run.findings.remove(0)
    }

    #[test]
    fn a_v1_client_without_plan_must_get_the_plans_steps_as_a_v1_plan() {
        // A plan as Claude Code writes one: a title, context, numbered steps.
        let plan = "# Plan: fix the parser\n\n## Context\nThe lexer drops `\\r`.\n\n## Steps\n1. Read the test\n2. Fix the parser\n";
        // Sent nothing of it: the seeds' fallback missed, a finding.
        let finding = the_v1_finding(&[], plan);
        assert!(
            finding
                .message
                .contains("must fall back to the `plan` update"),
            "{}",
            finding.message
        );
        // The fix shows the right `plan`: the two steps.
        let fix = finding.fix.as_deref().unwrap_or_default();
        assert!(
            fix.contains(r#""entries":[{"content":"Read the test","priority":"medium","status":"pending"},{"content":"Fix the parser""#),
            "{fix}"
        );
        // Sent its steps as a v1 `plan`, as plan-core's sender does: clean.
        let mut run = ClientRun::of_lines(ClientKind::V1, &[fallback_line(plan)]);
        judge_plan_mode(&mut run, &log_of(plan));
        assert!(run.findings.is_empty(), "{:?}", run.findings);
        assert!(
            run.notes[0].contains("as a v1 `plan` of its 2 steps"),
            "{:?}",
            run.notes
        );
    }

    #[test]
    fn a_fallback_that_drops_the_steps_is_a_finding() {
        let plan =
            "# Plan: fix the parser\n\n1. Read the test\n2. Fix the parser\n3. Run the tests\n";
        // What a line-prefix reader sent: the plan's first line alone.
        let finding = the_v1_finding(&[fallback_line("# Plan: fix the parser")], plan);
        assert!(
            finding
                .message
                .contains("the fallback drops the plan's steps")
                && finding.message.contains("has 3 steps")
                && finding
                    .message
                    .contains(r#"1 entry ("Plan: fix the parser")"#),
            "{}",
            finding.message
        );
        assert_eq!(finding.line, 1);
    }
}
