//! What an update changed in a plan: entries matched between two versions
//! (the protocol gives entries no id) by their text, then by their place
//! among the entries their text left unmatched.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::protocol::entry::{PlanEntry, Status};

/// What an update changed in an items plan, compared with the version before.
///
/// The protocol gives entries no id, so an entry of the new version is
/// matched with one of the old version in two steps:
/// 1. **by its text**: the first unmatched old entry with the same content
///    (a v1 entry marked ` (cancelled)` matches the entry it was);
/// 2. **by its place**, for what step 1 left: the entries text matched split
///    each list into gaps (before the first matched entry, between two, after
///    the last); each unmatched new entry, in order, is paired with the first
///    unmatched old entry of the same gap that has its priority, where one of
///    the two is in progress. Such a pair is one entry whose text changed
///    ([`relabelled`](Self::relabelled)), as when an agent shows an entry in
///    progress under another label (Claude's `activeForm`: "Fix the parser"
///    pending, "Fixing the parser" in progress, "Fix the parser" completed).
///
/// What is left is new ([`added`](Self::added)) or gone
/// ([`removed`](Self::removed)): a task dropped and another added in the
/// same place, neither in progress, are a removal and an addition.
///
/// ```
/// use plan_core::{PlanEntry, Priority, Status, client::Changes};
///
/// let entry = |text: &'static str, status| PlanEntry::new(text, Priority::Medium, status);
/// let before = [entry("Read the test", Status::Completed), entry("Fix the parser", Status::Pending), entry("Run the suite", Status::Pending)];
/// let after = [entry("Read the test", Status::Completed), entry("Fixing the parser", Status::InProgress), entry("Run the suite", Status::Pending)];
/// let changes = Changes::between(&before, &after);
/// assert_eq!(changes.relabelled, [(1, "Fix the parser".into())]);
/// assert_eq!(changes.status_changed, [(1, Status::Pending)]);
/// assert!(changes.added.is_empty() && changes.removed.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Changes {
    /// Indexes, in the new entry list, of entries that are new.
    pub added: Vec<usize>,
    /// Entries of the previous version that are gone.
    pub removed: Vec<PlanEntry>,
    /// Indexes, in the new entry list, of entries whose status moved, with
    /// the status they had before.
    pub status_changed: Vec<(usize, Status)>,
    /// Indexes, in the new entry list, of entries matched by their place
    /// whose text changed, with the text they had before.
    pub relabelled: Vec<(usize, Cow<'static, str>)>,
}

impl Changes {
    /// Whether the update changed nothing the changes track.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.status_changed.is_empty()
            && self.relabelled.is_empty()
    }

    /// What changed from `before` to `after`, matched as the type's
    /// documentation says.
    pub fn between(before: &[PlanEntry], after: &[PlanEntry]) -> Self {
        Self::between_versions(Some(before), Some(after))
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
    /// What changed from `before` to `after` (either may be no entry list:
    /// a new plan, or one of another type). Linear in the entries: small
    /// lists are matched by text by scanning (cheaper than hashing), long
    /// ones through a map from content to the old entries that have it.
    pub(crate) fn between_versions(
        before: Option<&[PlanEntry]>,
        after: Option<&[PlanEntry]>,
    ) -> Self {
        let (before, after) = (before.unwrap_or_default(), after.unwrap_or_default());
        // The common update: the same steps in the same places, statuses
        // moved. Matching first-unmatched by text gives each entry its own
        // place then, so the places are compared and nothing is hashed.
        if before.len() == after.len()
            && before
                .iter()
                .zip(after)
                .all(|(old, new)| match_key(old) == match_key(new))
        {
            return Self::in_place(before, after);
        }
        if before.len().saturating_mul(after.len()) <= SCAN_LIMIT {
            Self::scanned(before, after)
        } else {
            Self::hashed(before, after)
        }
    }

    /// Each entry matched with the one in its place: only statuses changed.
    fn in_place(before: &[PlanEntry], after: &[PlanEntry]) -> Self {
        let mut changes = Changes::default();
        for (index, (old, new)) in before.iter().zip(after).enumerate() {
            if old.status != new.status {
                changes.status_changed.push((index, old.status.clone()));
            }
        }
        changes
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

    /// The changes, given how to find the old entry a new one matches by text.
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
        let unmatched = matched.iter().filter(|m| !**m).count();
        if unmatched > 0 && !changes.added.is_empty() {
            changes.pair_by_place(before, after, &mut matched);
        }
        changes.removed = before
            .iter()
            .zip(&matched)
            .filter(|(_, m)| !**m)
            .map(|(e, _)| e.clone())
            .collect();
        changes
    }

    /// Step 2: pairs the old entries text left unmatched with the new ones
    /// (`self.added`) of the same gap: each new entry, in order, with the
    /// first unpaired old entry of its gap that [`may_be_relabelled`]; a pair
    /// is a relabel (and a status change if the status moved too).
    fn pair_by_place(&mut self, before: &[PlanEntry], after: &[PlanEntry], matched: &mut [bool]) {
        // The gap of an unmatched entry: how many matched entries precede it.
        let old: Vec<(usize, usize)> = matched
            .iter()
            .enumerate()
            .filter(|(_, m)| !**m)
            .enumerate()
            .map(|(rank, (i, _))| (i - rank, i))
            .collect();
        let new: Vec<(usize, usize)> = self
            .added
            .iter()
            .enumerate()
            .map(|(rank, &j)| (j - rank, j))
            .collect();
        let mut paired = Vec::new();
        let (mut o, mut n) = (0, 0);
        while o < old.len() && n < new.len() {
            // The next gap that has unmatched entries on both sides.
            let gap = old[o].0.max(new[n].0);
            if old[o].0 < gap {
                o += 1;
                continue;
            }
            if new[n].0 < gap {
                n += 1;
                continue;
            }
            let olds = old[o..].iter().take_while(|(g, _)| *g == gap).count();
            let news = new[n..].iter().take_while(|(g, _)| *g == gap).count();
            // A whole list rewritten is additions and removals, not relabels.
            if olds.saturating_mul(news) <= SCAN_LIMIT {
                let mut taken = vec![false; olds];
                for &(_, j) in &new[n..n + news] {
                    let candidate = old[o..o + olds].iter().enumerate().find(|(k, (_, i))| {
                        !taken[*k] && may_be_relabelled(&before[*i], &after[j])
                    });
                    if let Some((k, &(_, i))) = candidate {
                        taken[k] = true;
                        matched[i] = true;
                        paired.push(j);
                        self.relabelled.push((j, before[i].content.clone()));
                        if before[i].status != after[j].status {
                            self.status_changed.push((j, before[i].status.clone()));
                        }
                    }
                }
            }
            o += olds;
            n += news;
        }
        if !paired.is_empty() {
            self.added.retain(|j| !paired.contains(j));
            self.status_changed.sort_unstable_by_key(|(j, _)| *j);
        }
    }
}

/// Whether two entries of the same gap, texts aside, may be one entry whose
/// label changed: the same priority, and one of them in progress (agents
/// show an entry under another label while it is in progress: Claude's
/// `activeForm`). Anything else is a removal and an addition, so two
/// different tasks in one place are never drawn as one.
fn may_be_relabelled(old: &PlanEntry, new: &PlanEntry) -> bool {
    old.priority == new.priority
        && (old.status == Status::InProgress || new.status == Status::InProgress)
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
            // The same steps in the same places, statuses moved (repeated
            // texts included): the in-place matcher agrees with both.
            let moved: Vec<PlanEntry> = before
                .iter()
                .map(|e| e.clone().with_status(statuses[next(3) as usize].clone()))
                .collect();
            assert_eq!(
                Changes::in_place(&before, &moved),
                Changes::hashed(&before, &moved),
                "{before:?} -> {moved:?}"
            );
            assert_eq!(
                Changes::between(&before, &moved),
                Changes::scanned(&before, &moved)
            );
        }
    }
}
