//! What an update changed in a plan: entries matched by their text between
//! two versions (the protocol gives entries no id).

use std::collections::HashMap;

use crate::protocol::entry::{PlanEntry, Status};

/// What an update changed in an items plan, compared with the version before.
///
/// Entries are matched by their content text (the protocol gives entries no
/// id): an entry whose text is new was added, one whose text is gone was
/// removed, and one whose text stayed but whose status moved changed status.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    /// Indexes, in the new entry list, of entries that are new.
    pub added: Vec<usize>,
    /// Entries of the previous version that are gone.
    pub removed: Vec<PlanEntry>,
    /// Indexes, in the new entry list, of entries whose status moved, with
    /// the status they had before.
    pub status_changed: Vec<(usize, Status)>,
}

impl Changes {
    /// Whether the update changed nothing the changes track.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.status_changed.is_empty()
    }
}

/// The text an entry is matched by between two versions of a plan: its
/// content, without the mark the v1 fallback adds to a cancelled entry
/// (`X (cancelled)`, sent as completed), so `X` cancelled under v1 reads as a
/// status change of `X`, not as `X` removed and another entry added.
fn match_key(entry: &PlanEntry) -> &str {
    entry
        .content
        .strip_suffix(crate::rules::CANCELLED_MARK)
        .unwrap_or(&entry.content)
}

impl Changes {
    /// What changed from `before` to `after`: each new entry is matched with
    /// the first unmatched old entry of the same content text (a v1 entry
    /// marked ` (cancelled)` matches the entry it was). Linear in the
    /// entries: small lists are scanned (cheaper than hashing), long ones
    /// matched through a map from content to the old entries that have it.
    pub(crate) fn between(before: Option<&[PlanEntry]>, after: Option<&[PlanEntry]>) -> Self {
        let (before, after) = (before.unwrap_or_default(), after.unwrap_or_default());
        if before.len().saturating_mul(after.len()) <= SCAN_LIMIT {
            Self::scanned(before, after)
        } else {
            Self::hashed(before, after)
        }
    }

    fn scanned(before: &[PlanEntry], after: &[PlanEntry]) -> Self {
        Self::matched(before, after, |entry, matched| {
            before
                .iter()
                .enumerate()
                .position(|(i, old)| !matched[i] && match_key(old) == match_key(entry))
        })
    }

    fn hashed(before: &[PlanEntry], after: &[PlanEntry]) -> Self {
        // For each content text, the old entries that have it, last first,
        // so that `pop` gives the first unmatched one.
        let mut unmatched: HashMap<&str, Vec<usize>> = HashMap::with_capacity(before.len());
        for (i, old) in before.iter().enumerate().rev() {
            unmatched.entry(match_key(old)).or_default().push(i);
        }
        Self::matched(before, after, |entry, _| {
            unmatched.get_mut(match_key(entry))?.pop()
        })
    }

    /// The changes, given how to find the old entry a new one matches.
    fn matched(
        before: &[PlanEntry],
        after: &[PlanEntry],
        mut find: impl FnMut(&PlanEntry, &[bool]) -> Option<usize>,
    ) -> Self {
        let mut matched = vec![false; before.len()];
        let mut changes = Changes::default();
        for (index, entry) in after.iter().enumerate() {
            match find(entry, &matched) {
                Some(i) => {
                    matched[i] = true;
                    if before[i].status != entry.status {
                        changes
                            .status_changed
                            .push((index, before[i].status.clone()));
                    }
                }
                None => changes.added.push(index),
            }
        }
        changes.removed = before
            .iter()
            .zip(&matched)
            .filter(|(_, m)| !**m)
            .map(|(e, _)| e.clone())
            .collect();
        changes
    }
}

/// Up to this many old × new entry pairs, matching entries by scanning beats
/// building a map (measured: `cargo bench -p plan-harness --bench versus -- "6 board"`).
const SCAN_LIMIT: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::entry::Priority;

    #[test]
    fn long_lists_are_matched_as_short_ones_are() {
        // Lists with repeated texts, entries moved, added, dropped, statuses changed.
        let mut state: u32 = 12345;
        let mut next = |n: u32| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (state >> 16) % n
        };
        let statuses = [Status::Pending, Status::InProgress, Status::Completed];
        for round in 0..300u32 {
            let mut list = |len: u32| -> Vec<PlanEntry> {
                (0..len)
                    .map(|_| {
                        let status = statuses[next(3) as usize].clone();
                        PlanEntry::new(format!("step {}", next(12)), Priority::Low, status)
                    })
                    .collect()
            };
            let (before, after) = (list(round * 7 % 40), list(round * 13 % 40));
            assert_eq!(
                Changes::hashed(&before, &after),
                Changes::scanned(&before, &after),
                "{before:?} -> {after:?}"
            );
        }
    }
}
