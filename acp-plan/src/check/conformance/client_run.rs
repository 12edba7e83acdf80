//! What one kind of client saw: the result `check -- AGENT` gives per kind,
//! and the kind's name in reports and recordings.

use std::time::Duration;

use plan_core::SessionUpdate;
use plan_core::wire::ClientKind;

use crate::check::finding::Finding;

/// What one kind of client saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientRun {
    /// The client the agent was offered.
    pub kind: ClientKind,
    /// The client it was judged as: the same, or v1 with `plan` when the
    /// agent answered a v2 offer (which carries v1's keys too) with v1.
    pub judged_as: ClientKind,
    /// The protocol version the agent answered.
    pub answered: Option<u64>,
    /// How each turn ended (`stopReason`).
    pub stop_reasons: Vec<String>,
    /// What was found, in transcript order.
    pub findings: Vec<Finding>,
    /// How many plan messages (`plan`, `plan_update`, `plan_removed`) were
    /// judged; none means nothing was judged.
    pub plans: usize,
    /// How many plan updates were equal to the plan as it already was (the
    /// protocol allows them; a client need not redraw).
    pub repeats: usize,
    /// What a person would want to know that breaks no rule: nothing judged,
    /// repeats, a SHOULD not followed.
    pub notes: Vec<String>,
    /// Why the agent could not be driven, if it could not.
    pub failure: Option<String>,
    /// The agent's last lines on standard error, kept where it could not be
    /// driven (its own words on why).
    pub stderr_tail: Vec<String>,
    /// Every line, both ways, in order.
    pub transcript: Vec<String>,
    /// The updates of the agent's `session/update` lines, as a lenient
    /// client read them when they came, each with its transcript line:
    /// what the judges of the whole run look at, so no line is read twice.
    pub updates: Vec<(usize, SessionUpdate)>,
    /// How long this kind took, from its model's start to its agent's end.
    pub elapsed: Duration,
}

/// The name of a kind in reports and recordings (`v1`, `v1-plan`, `v2`).
pub fn kind_name(kind: ClientKind) -> &'static str {
    match kind {
        ClientKind::V1 => "v1",
        ClientKind::V1Plan => "v1-plan",
        ClientKind::V2 => "v2",
    }
}

impl ClientRun {
    /// A kind that could not be driven, for `reason`; nothing seen yet.
    pub(crate) fn failed(kind: ClientKind, reason: String) -> Self {
        Self {
            kind,
            judged_as: kind,
            answered: None,
            stop_reasons: Vec::new(),
            findings: Vec::new(),
            plans: 0,
            repeats: 0,
            notes: Vec::new(),
            failure: Some(reason),
            stderr_tail: Vec::new(),
            transcript: Vec::new(),
            updates: Vec::new(),
            elapsed: Duration::ZERO,
        }
    }
}

#[cfg(test)]
impl ClientRun {
    /// A run of `kind` that went through, whose transcript is `lines`: each
    /// of the agent's `session/update` lines read as the judge reads it
    /// when it comes (the judges' tests start here).
    pub(crate) fn of_lines(kind: ClientKind, lines: &[impl AsRef<str>]) -> Self {
        use plan_core::wire::{Line, PlanMessage, Strictness};
        let mut run = Self::failed(kind, String::new());
        run.failure = None;
        for (i, text) in lines.iter().enumerate() {
            let text = text.as_ref();
            run.transcript.push(text.to_owned());
            if let Some(Ok(read)) = Line::read_message(text, Strictness::Lenient).plan
                && let PlanMessage::Notification(n) = read.value
            {
                run.updates.push((i + 1, n.update));
            }
        }
        run
    }
}

/// The exit status of a run: 2 if a kind could not be driven, else 1 if
/// anything was found, else 0.
pub fn exit_code(runs: &[ClientRun]) -> u8 {
    if runs.iter().any(|r| r.failure.is_some()) {
        2
    } else {
        u8::from(runs.iter().any(|r| !r.findings.is_empty()))
    }
}
