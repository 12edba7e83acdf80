//! What one kind of client saw: the result `check -- AGENT` gives per kind,
//! and the kind's name in reports and recordings.

use std::time::Duration;

use plan_core::wire::ClientKind;

use crate::check::finding::Finding;

/// What one kind of client saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindRun {
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

impl KindRun {
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
            elapsed: Duration::ZERO,
        }
    }
}
