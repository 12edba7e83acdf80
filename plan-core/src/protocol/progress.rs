//! How far a list of entries has come.

use std::fmt;

use crate::protocol::entry::{PlanEntry, Status};

/// Progress of a list of entries: `completed` of `total`, with cancelled
/// entries counted apart (they are in `total` but never `completed`).
///
/// ```
/// use plan_core::{plan, client::Progress};
///
/// let plan = plan! { id: "p", items: [high completed "a", high cancelled "b", low pending "c"] };
/// let progress = Progress::of(plan.entries().unwrap());
/// assert_eq!((progress.completed, progress.cancelled, progress.total), (1, 1, 3));
/// assert_eq!(progress.to_string(), "1/3, 1 cancelled");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Entries with status `completed`.
    pub completed: usize,
    /// Entries with status `cancelled`.
    pub cancelled: usize,
    /// All entries.
    pub total: usize,
}

impl Progress {
    /// Counts `entries`.
    pub fn of(entries: &[PlanEntry]) -> Self {
        let count = |status: Status| entries.iter().filter(|e| e.status == status).count();
        Self {
            completed: count(Status::Completed),
            cancelled: count(Status::Cancelled),
            total: entries.len(),
        }
    }

    /// Whether nothing is left to do: every entry completed or cancelled.
    pub fn is_done(&self) -> bool {
        self.completed + self.cancelled == self.total
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.completed, self.total)?;
        if self.cancelled > 0 {
            write!(f, ", {} cancelled", self.cancelled)?;
        }
        Ok(())
    }
}
