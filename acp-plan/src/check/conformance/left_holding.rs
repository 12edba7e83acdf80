//! What a client is left holding at the end of the run, judged: a client of
//! plan operations (v1 with `plan`, v2) shows every live plan side by side,
//! so a plan that stopped updating while another plan with the same steps
//! went on is a stale copy on the user's screen (a todo list shown twice: a
//! proxy's derived plan beside the agent's own, a `plan` beside a
//! `plan_update` of the same list). A finding, on the evidence of the
//! updates the client got: the live plan once carried exactly the stale
//! one's steps (the same texts, in order), and was updated after the stale
//! one's last update.

use std::collections::BTreeMap;

use plan_core::SessionUpdate;
use plan_core::wire::ClientKind;

use super::client_run::ClientRun;
use crate::check::finding::Finding;
use crate::check::rule;

/// A plan the client holds: its step texts, every list of steps it had on
/// the way, and the transcript line of its last update.
struct Held {
    steps: Vec<String>,
    history: Vec<Vec<String>>,
    last: usize,
}

/// The plans the client holds after every update it got, by plan id (a v1
/// `plan` is the plan `main`, as the public schema maps it).
fn held(run: &ClientRun) -> BTreeMap<String, Held> {
    let mut plans = BTreeMap::new();
    for (line, update) in &run.updates {
        let (id, entries) = match update {
            SessionUpdate::Plan(plan) => ("main".to_owned(), &plan.entries[..]),
            SessionUpdate::PlanUpdate { plan, .. } if plan.entries().is_some() => {
                let entries = plan.entries().unwrap_or_default();
                (plan.id().to_string(), entries)
            }
            SessionUpdate::PlanRemoved { id, .. } => {
                plans.remove(id.as_str());
                continue;
            }
            // Not items (no steps), or not a plan.
            SessionUpdate::PlanUpdate { .. } | SessionUpdate::Other(_) => continue,
        };
        let steps: Vec<String> = entries.iter().map(|e| e.content.to_string()).collect();
        let held = plans.entry(id).or_insert_with(|| Held {
            steps: Vec::new(),
            history: Vec::new(),
            last: 0,
        });
        if !held.history.contains(&steps) {
            held.history.push(steps.clone());
        }
        held.steps = steps;
        held.last = *line;
    }
    plans
}

/// A finding for each plan a client of plan operations is left holding
/// that stopped updating beside a live plan with the same steps.
pub(super) fn judge_left_holding(run: &mut ClientRun) {
    if run.judged_as == ClientKind::V1 {
        return; // one plan on screen: each `plan` replaces the last
    }
    let plans = held(run);
    for (stale_id, stale) in &plans {
        let live = plans.iter().find(|(id, other)| {
            *id != stale_id
                && !stale.steps.is_empty()
                && other.history.contains(&stale.steps)
                && other.last > stale.last
        });
        let Some((live_id, live)) = live else {
            continue;
        };
        run.findings.push(Finding::new(
            rule::STALE_PLAN,
            live.last,
            String::new(),
            format!(
                "the client is left holding a stale copy of a plan: `{stale_id}` ({} steps) stopped updating at line {}, while `{live_id}`, which carried the same steps, went on to line {}; the user sees both",
                stale.steps.len(),
                stale.last,
                live.last
            ),
            Some(format!(
                "send one plan per list: keep updating `{stale_id}`, or remove it (`plan_removed`) when `{live_id}` takes over"
            )),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the proxy sent kimi-code's v1-with-`plan` client before it held
    /// derived plans (issue #62): its `todolist` plan, then the agent's own
    /// `plan` going on alone.
    #[test]
    fn a_derived_plan_left_behind_by_the_agents_own_is_a_finding() {
        let entries = |statuses: [&str; 2]| {
            serde_json::json!([
                { "content": "Read", "priority": "medium", "status": statuses[0] },
                { "content": "Fix", "priority": "medium", "status": statuses[1] },
            ])
        };
        let line = |update: serde_json::Value| {
            serde_json::json!({ "jsonrpc": "2.0", "method": "session/update",
                "params": { "sessionId": "s", "update": update } })
            .to_string()
        };
        let derived = line(serde_json::json!({ "sessionUpdate": "plan_update",
            "plan": { "type": "items", "planId": "todolist", "entries": entries(["in_progress", "pending"]) } }));
        let own = |s| line(serde_json::json!({ "sessionUpdate": "plan", "entries": entries(s) }));
        let grown = line(serde_json::json!({ "sessionUpdate": "plan", "entries": [
            { "content": "Read", "priority": "medium", "status": "completed" },
            { "content": "Fix", "priority": "medium", "status": "completed" },
            { "content": "Test", "priority": "medium", "status": "in_progress" },
        ] }));
        let lines = [
            derived.clone(),
            own(["in_progress", "pending"]),
            own(["completed", "completed"]),
            grown,
        ];
        let mut run = ClientRun::of_lines(ClientKind::V1Plan, &lines);
        judge_left_holding(&mut run);
        assert_eq!(run.findings.len(), 1, "{:?}", run.findings);
        assert_eq!(run.findings[0].rule, rule::STALE_PLAN);
        assert!(
            run.findings[0]
                .message
                .contains("`todolist` (2 steps) stopped updating at line 1")
        );
        // The same for a v2 client; a v1 client without `plan` holds one.
        let mut run = ClientRun::of_lines(ClientKind::V1, &lines);
        judge_left_holding(&mut run);
        assert!(run.findings.is_empty());
        // Removed when the agent's own plan came: clean.
        let removed =
            line(serde_json::json!({ "sessionUpdate": "plan_removed", "planId": "todolist" }));
        let lines = [
            derived,
            removed,
            own(["in_progress", "pending"]),
            own(["completed", "completed"]),
        ];
        let mut run = ClientRun::of_lines(ClientKind::V2, &lines);
        judge_left_holding(&mut run);
        assert!(run.findings.is_empty(), "{:?}", run.findings);
    }

    #[test]
    fn plans_with_other_steps_side_by_side_are_no_finding() {
        let line = |id: &str, step: &str| {
            serde_json::json!({ "jsonrpc": "2.0", "method": "session/update",
                "params": { "sessionId": "s", "update": { "sessionUpdate": "plan_update",
                "plan": { "type": "items", "planId": id, "entries": [
                    { "content": step, "priority": "high", "status": "pending" }] } } } })
            .to_string()
        };
        let lines = [
            line("build", "Compile"),
            line("test", "Run the tests"),
            line("test", "Run them"),
        ];
        let mut run = ClientRun::of_lines(ClientKind::V1Plan, &lines);
        judge_left_holding(&mut run);
        assert!(run.findings.is_empty(), "{:?}", run.findings);
    }
}
