//! A markdown plan's checklist, read as entries: the one reading of
//! `- [ ]` and `- [x]` that the v1 fallback (a v1 client without plan operations is sent the
//! checklist) and the client's drawing share.

use crate::protocol::entry::{PlanEntry, Priority, Status};

/// Reads the task list of a markdown plan: every line `- [ ] task`,
/// `- [x] task` (also `*`/`+` bullets, `[X]`, and indented items), in order.
/// Checked items are completed, the rest pending; all are `medium` priority.
///
/// ```
/// use plan_core::{Status, client::markdown_checklist};
///
/// let entries = markdown_checklist("## Steps\n- [x] Refactor module\n- [ ] Add tests\nNot a task");
/// assert_eq!(entries.len(), 2);
/// assert_eq!(entries[0].status, Status::Completed);
/// assert_eq!(entries[1].content, "Add tests");
/// ```
pub fn markdown_checklist(markdown: &str) -> Vec<PlanEntry> {
    markdown
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let rest = line
                .strip_prefix(['-', '*', '+'])?
                .strip_prefix(' ')?
                .trim_start();
            let (status, task) = if let Some(task) = rest.strip_prefix("[ ]") {
                (Status::Pending, task)
            } else if let Some(task) = rest
                .strip_prefix("[x]")
                .or_else(|| rest.strip_prefix("[X]"))
            {
                (Status::Completed, task)
            } else {
                return None;
            };
            let task = task.trim();
            (!task.is_empty()).then(|| PlanEntry::new(task.to_owned(), Priority::Medium, status))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checklists_accept_the_usual_bullets_and_nothing_else() {
        let text = "  * [X] done\n+ [ ]  spaced \n- [ ]\n-[ ] no space\n- [~] odd\n1. [ ] numbered\n- plain";
        let entries = markdown_checklist(text);
        let seen: Vec<(&str, &Status)> = entries.iter().map(|e| (&*e.content, &e.status)).collect();
        assert_eq!(
            seen,
            [("done", &Status::Completed), ("spaced", &Status::Pending)]
        );
    }
}
