//! What both judges (`files.rs`, recorded lines; `conformance/`, a live
//! agent's) ask of a line that plan-core's `Line` read once: whether its
//! update is about plans, and whether its plan id is in the RFD spelling
//! (a finding).

use plan_core::SessionUpdate;
use plan_core::agent::Violation;
use plan_core::wire::{Parsed, Spelling};

use super::rule::ACP_SPELLING;

/// Whether an update is about plans (`plan`, `plan_update`, `plan_removed`).
pub(crate) fn is_plan(update: &SessionUpdate) -> bool {
    matches!(
        update,
        SessionUpdate::Plan(_)
            | SessionUpdate::PlanUpdate { .. }
            | SessionUpdate::PlanRemoved { .. }
    )
}

/// A plan id the reader found under the RFD's key (`id`), which no
/// published SDK reads.
pub(crate) fn rfd_spelling<T>(read: &Parsed<T>) -> Option<Violation> {
    let key = read.plan_id.as_ref()?;
    (key.spelling() == Spelling::Rfd).then(|| {
        Violation::new(
            key.path().to_owned(),
            ACP_SPELLING,
            "`id` is the RFD spelling of the plan id, which no published SDK reads (they require `planId`); write `planId`",
        )
    })
}
