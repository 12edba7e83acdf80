//! With `--scripted-model`, `check` knows the plans the model made: the
//! model's log ([`Log`]) says which plan calls it made with the agent's
//! own plan tool and which the agent ran (their result came back). This
//! holds what each kind of client received against those plans, and only
//! those, in order: each must reach the client with every step, its status
//! as the client's version can say it. A step lost, a status changed, or a
//! plan of the model's that never arrived is a finding (`model-plan`);
//! what the agent may choose (priorities, which the tools cannot express;
//! an entry in progress labelled by its `activeForm`; a plan sent again
//! unchanged) is a note. An agent that offered its model no plan tool
//! cannot be judged so: that is said, with the tools it offered (exit 2),
//! never blamed on it. Plan mode's markdown plans are judged in
//! [`plan_mode`](super::plan_mode).

use plan_core::tools::Todo;
use plan_core::wire::ClientKind;
use plan_core::{PlanEntry, SessionUpdate, Status};

use super::client_run::ClientRun;
use crate::check::finding::Finding;
use crate::check::rule;
use crate::model::Log;
use crate::model::turn::PlanMade;

/// One plan a client received: its entries and the transcript line.
struct Received {
    line: usize,
    entries: Vec<PlanEntry>,
}

/// The updates of the agent's `session/update` lines, as a lenient client
/// read them, each with its transcript line.
pub(super) fn updates(run: &ClientRun) -> impl Iterator<Item = (usize, &SessionUpdate)> + '_ {
    run.updates.iter().map(|(line, update)| (*line, update))
}

/// The items plans a client received.
fn received(run: &ClientRun) -> Vec<Received> {
    updates(run)
        .filter_map(|(line, update)| {
            let entries = match update {
                SessionUpdate::Plan(plan) => plan.entries.clone(),
                SessionUpdate::PlanUpdate { plan, .. } => plan.entries()?.to_vec(),
                _ => return None,
            };
            Some(Received { line, entries })
        })
        .collect()
}

/// The status a client of `kind` is sent for `status` (v1 has no
/// `cancelled`: completed, the content marked, as the fallback says).
fn as_sent(status: &Status, kind: ClientKind) -> Status {
    match status {
        Status::Cancelled if kind != ClientKind::V2 => Status::Completed,
        other => other.clone(),
    }
}

/// Whether `entry` is `todo` as a client of `kind` is sent it: its content
/// or its `activeForm` as the label, its status.
fn same_step(entry: &PlanEntry, todo: &Todo, kind: ClientKind) -> bool {
    let label = entry.content.as_ref();
    let named = label == todo.content
        || label == todo.active_form
        || label.strip_suffix(" (cancelled)") == Some(todo.content.as_str());
    named && entry.status == as_sent(&todo.status, kind)
}

fn matches(plan: &Received, todos: &[Todo], kind: ClientKind) -> bool {
    plan.entries.len() == todos.len()
        && plan
            .entries
            .iter()
            .zip(todos)
            .all(|(entry, todo)| same_step(entry, todo, kind))
}

/// What differs between the model's plan and the one the client got.
fn differences(plan: &Received, todos: &[Todo], kind: ClientKind) -> Vec<String> {
    let mut found = Vec::new();
    for (i, todo) in todos.iter().enumerate() {
        let entry = plan.entries.iter().find(|e| {
            let label = e.content.as_ref();
            label == todo.content || label == todo.active_form
        });
        match entry {
            None => found.push(format!("step {} (\"{}\") was lost", i + 1, todo.content)),
            Some(entry) if entry.status != as_sent(&todo.status, kind) => {
                let cancelled_as_completed = kind == ClientKind::V2
                    && todo.status == Status::Cancelled
                    && entry.status == Status::Completed;
                found.push(if cancelled_as_completed {
                    format!(
                        "step {} (\"{}\") was cancelled by the model and sent as completed, though v2 has `cancelled`",
                        i + 1,
                        todo.content
                    )
                } else {
                    format!(
                        "step {} (\"{}\") is `{}` in the model's plan and `{}` here",
                        i + 1,
                        todo.content,
                        as_sent(&todo.status, kind),
                        entry.status
                    )
                });
            }
            Some(_) => {}
        }
    }
    if plan.entries.len() > todos.len() {
        found.push(format!(
            "{} step(s) the model did not plan were added",
            plan.entries.len() - todos.len()
        ));
    }
    found
}

/// The tools a log lists, for a sentence: `` `a`, `b` `` (or "none").
pub(super) fn listed<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let names: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// Judges `run` (one kind of client) against what the model's `log` says
/// it made and the agent ran (a kind [`driven`](super::driven) says was
/// driven).
pub(super) fn judge_mapping(run: &mut ClientRun, log: &Log) {
    if log.requests == 0 {
        // It plans without a model (`driven` let it through only so).
        run.notes.push(
            "the agent never asked the scripted model: its plans are its own, not the model's (judged by the protocol's rules alone)"
                .to_owned(),
        );
        return;
    }
    let plans = log.plans_run();
    let steps: Vec<(&str, &[Todo])> = plans
        .iter()
        .filter_map(|(tool, made)| match made {
            PlanMade::Steps(todos) => Some((*tool, todos.as_slice())),
            PlanMade::Markdown(_) => None,
        })
        .collect();
    let tools: std::collections::BTreeSet<String> =
        steps.iter().map(|(tool, _)| (*tool).to_owned()).collect();
    calls_not_carried_out(run, log);
    if steps.is_empty() {
        return;
    }
    let received = received(run);
    if received.is_empty() {
        sent_none(run, steps.len(), &tools);
        return;
    }
    let before = run.findings.len();
    in_order(run, &received, &steps);
    if run.findings.len() == before {
        run.notes.push(format!(
            "the model's {} plan(s) with {} reached this client whole: in order, every step, each status as its version says it",
            steps.len(),
            listed(tools.iter())
        ));
    }
    notes(run, &received, &steps);
}

/// Notes on the model's plan calls the agent did not carry out: not run,
/// or run into an error.
fn calls_not_carried_out(run: &mut ClientRun, log: &Log) {
    if log.not_run() > 0 {
        run.notes.push(format!(
            "{} of the model's plan call(s) were not run by the agent (no result came back, as when a turn is cancelled): not judged",
            log.not_run()
        ));
    }
    if log.failed_runs() > 0 {
        run.notes.push(format!(
            "{} of the model's plan call(s) came back from the agent as errors (refused, or stopped by a cancel): not carried out, not judged",
            log.failed_runs()
        ));
    }
}

/// Each of the model's plans (`steps`) found among what the client
/// `received`, in order; a finding for each that is missing or changed.
fn in_order(run: &mut ClientRun, received: &[Received], steps: &[(&str, &[Todo])]) {
    let kind = run.judged_as;
    let mut next = 0;
    for (call, (_, todos)) in steps.iter().enumerate() {
        let found = received[next..]
            .iter()
            .position(|plan| matches(plan, todos, kind));
        if let Some(at) = found {
            next += at + 1;
            continue;
        }
        // The nearest candidate: the next plan the client got, if any.
        let (line, message) = match received.get(next) {
            Some(plan) => (
                plan.line,
                format!(
                    "the model's plan {} of {} reached this client changed: {}",
                    call + 1,
                    steps.len(),
                    differences(plan, todos, kind).join("; ")
                ),
            ),
            None => (
                run.transcript.len(),
                format!(
                    "the model's plan {} of {} never reached this client",
                    call + 1,
                    steps.len()
                ),
            ),
        };
        run.findings.push(Finding::new(
            rule::MODEL_PLAN,
            line,
            String::new(),
            message,
            None,
        ));
        if received.get(next).is_some() {
            next += 1;
        }
    }
}

/// The model made `plans` plans with `tools` and the client got none: one
/// finding says so (`--expect-plans` would say it again: its goes).
fn sent_none(run: &mut ClientRun, plans: usize, tools: &std::collections::BTreeSet<String>) {
    run.findings.retain(|f| f.rule != rule::EXPECT_PLANS);
    let message = format!(
        "the model made {plans} plan(s) with {}; this client was sent none (no `plan` or `plan_update` came)",
        listed(tools.iter())
    );
    let fix = format!(
        "turn each call of {} into a plan update for the client (`plan`, or `plan_update` where it reads it), every step and status",
        listed(tools.iter())
    );
    let line = run.transcript.len();
    run.findings.push(Finding::new(
        rule::MODEL_PLAN,
        line,
        String::new(),
        message,
        Some(fix),
    ));
}

/// What the agent chose where the tool leaves it free.
fn notes(run: &mut ClientRun, plans: &[Received], steps: &[(&str, &[Todo])]) {
    let mut priorities: Vec<String> = plans
        .iter()
        .flat_map(|p| &p.entries)
        .map(|e| e.priority.as_str().to_owned())
        .collect();
    priorities.sort();
    priorities.dedup();
    if !priorities.is_empty() {
        run.notes.push(format!(
            "the model's plan tool has no priorities; the agent sent {} (its choice)",
            priorities
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let relabelled = steps.iter().flat_map(|(_, t)| t.iter()).any(|todo| {
        todo.active_form != todo.content
            && plans
                .iter()
                .flat_map(|p| &p.entries)
                .any(|e| e.content.as_ref() == todo.active_form)
    });
    if relabelled {
        run.notes.push(
            "an entry in progress is labelled by its `activeForm` (\"Fixing the parser\"), as Claude Code shows it (its choice)"
                .to_owned(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan_core::agent::PlanSender;
    use plan_core::tools::{ModelPlans, Scope};
    use plan_core::wire::{ClientCapabilities, ProtocolVersion, Spelling};

    use crate::model::Script;

    /// The log of a model that made every plan of `script` with `tool`,
    /// the first `run` of them run by the agent.
    fn log_of(script: &Script, tool: &str, run: usize) -> Log {
        let mut log = Log {
            requests: script.len() + 1,
            ..Log::default()
        };
        log.plan_tools.insert(tool.to_owned());
        for i in 0..script.len() {
            let todos = script.todo_write(i).unwrap().todos.clone();
            log.made
                .push((format!("c{i}"), tool.to_owned(), PlanMade::Steps(todos)));
            if i < run {
                log.answered.insert(format!("c{i}"));
            }
        }
        log
    }

    /// What an agent mapping each call with `ModelPlans` sends a v1 client
    /// with `plan`, call by call.
    fn mapped(script: &Script) -> Vec<String> {
        let caps = ClientCapabilities::from_json(r#"{"plan":{}}"#).unwrap();
        let sender = PlanSender::with_protocol("s", ProtocolVersion::V1, &caps);
        let mut plans = ModelPlans::new(sender);
        (0..script.len())
            .filter_map(|i| {
                let call = script.todo_write(i).unwrap().to_value().to_string();
                plans
                    .todo_write(&Scope::MAIN, &call)
                    .ok()
                    .and_then(|outcome| outcome.notification)
                    .map(|n| n.to_json(Spelling::Acp))
            })
            .collect()
    }

    #[test]
    fn an_agent_that_maps_every_call_is_clean_and_its_choices_are_notes() {
        let script = Script::built_in();
        let mut run = ClientRun::of_lines(ClientKind::V1Plan, &mapped(&script));
        judge_mapping(&mut run, &log_of(&script, "TodoWrite", 3));
        assert_eq!(run.findings, Vec::new());
        assert!(
            run.notes.iter().any(|n| n.contains("`medium`")),
            "{:?}",
            run.notes
        );
        assert!(
            run.notes.iter().any(|n| n.contains("activeForm")),
            "{:?}",
            run.notes
        );
    }

    #[test]
    fn a_lost_step_a_changed_status_and_a_missing_plan_are_findings() {
        let script = Script::built_in();
        let mut lines = mapped(&script);
        // The second plan loses its last step; the third's first step goes back to pending.
        lines[1] = lines[1].replace(
            r#",{"content":"Update the changelog","priority":"medium","status":"pending""#,
            r#",{"content":"x","priority":"medium","status":"pending""#,
        );
        lines[2] = lines[2].replacen(r#""status":"completed""#, r#""status":"pending""#, 1);
        let mut run = ClientRun::of_lines(ClientKind::V1Plan, &lines);
        judge_mapping(&mut run, &log_of(&script, "TodoWrite", 3));
        let messages: Vec<&str> = run.findings.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert!(
            messages[0].contains("plan 2 of 3") && messages[0].contains("was lost"),
            "{messages:?}"
        );
        assert!(
            messages[1].contains("plan 3 of 3")
                && messages[1].contains("is `completed` in the model's plan and `pending` here"),
            "{messages:?}"
        );
        assert!(run.findings.iter().all(|f| f.rule == rule::MODEL_PLAN));
        let mut run = ClientRun::of_lines(ClientKind::V1Plan, &lines[..1]);
        judge_mapping(&mut run, &log_of(&script, "TodoWrite", 3));
        assert_eq!(run.findings.len(), 2);
        assert!(
            run.findings[1]
                .message
                .contains("plan 3 of 3 never reached")
        );
    }

    #[test]
    fn only_the_plans_the_agent_ran_are_judged() {
        // Two of three calls ran: the client that got those two is clean.
        let script = Script::built_in();
        let lines = mapped(&script);
        let mut run = ClientRun::of_lines(ClientKind::V1Plan, &lines[..2]);
        judge_mapping(&mut run, &log_of(&script, "TodoWrite", 2));
        assert_eq!(run.findings, Vec::new());
        assert!(
            run.notes
                .iter()
                .any(|n| n.starts_with("1 of the model's plan call(s) were not run")),
            "{:?}",
            run.notes
        );
        // No call made at all: nothing to hold the client to.
        let mut run = ClientRun::of_lines(ClientKind::V1Plan, &[] as &[&str]);
        let mut log = log_of(&script, "write_todos", 0);
        log.made.clear();
        judge_mapping(&mut run, &log);
        assert_eq!((run.findings.len(), run.failure), (0, None));
    }

    #[test]
    fn plans_that_reached_no_client_are_one_finding_naming_the_tool() {
        let script = Script::built_in();
        let mut run = ClientRun::of_lines(ClientKind::V1, &["{}"]);
        run.findings.push(Finding::new(
            rule::EXPECT_PLANS,
            1,
            String::new(),
            "no plan message seen".to_owned(),
            None,
        ));
        judge_mapping(&mut run, &log_of(&script, "write_todos", 3));
        assert_eq!(run.findings.len(), 1, "{:#?}", run.findings);
        assert_eq!(run.findings[0].rule, rule::MODEL_PLAN);
        assert_eq!(
            run.findings[0].message,
            "the model made 3 plan(s) with `write_todos`; this client was sent none (no `plan` or `plan_update` came)"
        );
    }
}
