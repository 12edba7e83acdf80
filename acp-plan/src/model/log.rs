//! What the scripted model did while serving one agent: which tools were
//! offered, which plan calls it made, and which the agent ran (a later
//! request carries the call's result). `check` judges the agent against
//! this log, never against the script alone: a plan the model did not make
//! is no finding.

use std::collections::{BTreeSet, HashSet};

use super::request::{EXIT_PLAN_MODE, Request};
use super::tasks;
use super::turn::{Decision, PlanMade, Reply};

/// What the model did while serving one agent: the tools offered, the plan
/// calls it made, and which the agent ran.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Log {
    /// How many requests it answered.
    pub requests: usize,
    /// Every tool any request offered, by name.
    pub offered: BTreeSet<String>,
    /// The plan tools offered (a known one or one of that shape, the task
    /// tools, `ExitPlanMode`, or plan mode's `<proposed_plan>`).
    pub plan_tools: BTreeSet<String>,
    /// Tools that speak of a plan or todos but that the model cannot plan
    /// with (offered where no plan tool was): see
    /// [`Request::unplayable`](super::request::Request::unplayable).
    pub unplayable: BTreeSet<String>,
    /// The plans it made, in order: the call's id (empty for a plan said
    /// as text), the tool, the plan.
    pub made: Vec<(String, String, PlanMade)>,
    /// The ids of the calls whose result came back.
    pub answered: HashSet<String>,
    /// The ids of the calls whose result came back as an error (see
    /// [`PastCall::failed`](super::request::PastCall::failed)).
    pub failed: HashSet<String>,
}

impl Log {
    /// Notes a request and the model's answer, whose call (if any) has
    /// `id`.
    pub(crate) fn record(&mut self, request: &Request, decision: &Decision, id: &str) {
        self.requests += 1;
        self.offered
            .extend(request.tools.iter().map(|(name, _)| name.clone()));
        if let Some(tool) = request.plan_tool() {
            self.plan_tools.insert(tool.name().to_owned());
        } else if !tasks::offered(request) {
            self.unplayable
                .extend(request.unplayable().into_iter().map(str::to_owned));
        }
        if tasks::offered(request) {
            self.plan_tools.insert(tasks::BOTH.to_owned());
        }
        if decision
            .made
            .as_ref()
            .is_some_and(|(tool, _)| tool == EXIT_PLAN_MODE)
        {
            self.plan_tools.insert(EXIT_PLAN_MODE.to_owned());
        }
        for call in request.calls.iter().filter(|c| c.result.is_some()) {
            let ids = if call.failed {
                &mut self.failed
            } else {
                &mut self.answered
            };
            ids.insert(call.id.clone());
        }
        if let Some((tool, made)) = &decision.made {
            if matches!(decision.reply, Reply::Text(_)) {
                self.plan_tools.insert(tool.clone());
            }
            let id = match decision.reply {
                Reply::Call { .. } => id.to_owned(),
                Reply::Text(_) => String::new(),
            };
            // An agent that sends a request again gets the same answer.
            if id.is_empty() || !self.made.iter().any(|(made_id, ..)| *made_id == id) {
                self.made.push((id, tool.clone(), made.clone()));
            }
        }
    }

    /// The plans the agent ran, in order (a plan said as text needs no
    /// run): the tool and the plan.
    pub(crate) fn plans_run(&self) -> Vec<(&str, &PlanMade)> {
        self.made
            .iter()
            .filter(|(id, ..)| id.is_empty() || self.answered.contains(id))
            .map(|(_, tool, made)| (tool.as_str(), made))
            .collect()
    }

    /// How many of its plan calls the agent never ran: no result came back.
    pub(crate) fn not_run(&self) -> usize {
        self.made
            .iter()
            .filter(|(id, ..)| {
                !id.is_empty() && !self.answered.contains(id) && !self.failed.contains(id)
            })
            .count()
    }

    /// How many of its plan calls came back from the agent as errors (and
    /// never as a result): not carried out, as a cancel ends them.
    pub(crate) fn failed_runs(&self) -> usize {
        self.made
            .iter()
            .filter(|(id, ..)| self.failed.contains(id) && !self.answered.contains(id))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Script;
    use crate::model::request::PastCall;
    use crate::model::turn::decide;
    use serde_json::{Value, json};

    fn todo_tool() -> (String, Value) {
        (
            "write_todos".to_owned(),
            json!({ "type": "object", "properties": { "todos": { "type": "array", "items": {
                "type": "object", "properties": { "description": { "type": "string" },
                "status": { "type": "string", "enum": ["pending", "in_progress", "completed", "cancelled", "blocked"] } } } } } }),
        )
    }

    #[test]
    fn the_log_holds_only_the_plans_the_agent_ran() {
        let script = Script::built_in();
        let mut log = Log::default();
        let mut request = Request {
            tools: vec![todo_tool(), ("read_file".to_owned(), json!({}))],
            ..Request::default()
        };
        let first = decide(&script, &request);
        assert_eq!(first.summary, "calls write_todos (1 of 3)");
        log.record(&request, &first, "c0");
        request.calls.push(PastCall::of("write_todos", "c0", false));
        let again = decide(&script, &request);
        log.record(&request, &again, "c1");
        // The first is answered with the second request's conversation.
        request.calls[0].result = Some("ok".to_owned());
        request.calls.push(PastCall::of("write_todos", "c1", false));
        log.record(&request, &decide(&script, &request), "c2");
        assert_eq!(log.made.len(), 3);
        assert_eq!(log.plans_run().len(), 1);
        assert_eq!(log.not_run(), 2);
        assert_eq!(log.failed_runs(), 0);
        assert_eq!(log.plan_tools, BTreeSet::from(["write_todos".to_owned()]));
        assert!(log.offered.contains("read_file"));
        // The second comes back as an error, as Claude Code ends a call a
        // cancel stopped: not run, and not among the calls with no result.
        request.calls[1].result = Some("[Request interrupted by user for tool use]".to_owned());
        request.calls[1].failed = true;
        log.record(&request, &decide(&script, &request), "c3");
        assert_eq!(log.plans_run().len(), 1);
        assert_eq!(log.failed_runs(), 1);
        assert_eq!(log.not_run(), 2, "the third, and the fourth just made");
    }
}
