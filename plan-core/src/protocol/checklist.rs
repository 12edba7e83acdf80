//! Plans and markdown checklists, both ways, as a pair: any plan written as
//! markdown (`plan_to_markdown`, for logs and PR comments) and a markdown
//! plan's checklist read as entries (`markdown_to_entries`: the one reading
//! of `- [ ]` and `- [x]` that the v1 fallback, which sends a v1 client
//! without plan operations the checklist, and the client's drawing share).
//! Text, not JSON: nothing here reads or writes a message.

use std::fmt::Write as _;

use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};

/// Reads the task list of a markdown plan: every line `- [ ] task`,
/// `- [x] task` (also `*`/`+` bullets, `[X]`, and indented items), in order.
/// Checked items are completed, the rest pending; all are `medium` priority.
///
/// ```
/// use plan_core::{Status, client::markdown_to_entries};
///
/// let entries = markdown_to_entries("## Steps\n- [x] Refactor module\n- [ ] Add tests\nNot a task");
/// assert_eq!(entries.len(), 2);
/// assert_eq!(entries[0].status, Status::Completed);
/// assert_eq!(entries[1].content, "Add tests");
/// ```
pub fn markdown_to_entries(markdown: &str) -> Vec<PlanEntry> {
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

/// Writes a plan as markdown: a heading with its id and progress, then a
/// checklist (`- [x]` completed, `- [ ]` otherwise; the task in progress in
/// bold, cancelled ones struck through). Markdown plans are written as they
/// are, under the path of their file if they have one; pre-stable file plans
/// as a link, custom types as their type name.
///
/// ```
/// use plan_core::{plan, client::plan_to_markdown};
///
/// let plan = plan! { id: "refactor", items: [
///     high completed "Analyze", high in_progress "Refactor", low cancelled "Polish",
/// ] };
/// assert_eq!(
///     plan_to_markdown(&plan),
///     "### refactor (1/3, 1 cancelled)\n\n- [x] Analyze\n- [ ] **Refactor** (in progress)\n- [x] ~~Polish~~ (cancelled)\n"
/// );
/// ```
pub fn plan_to_markdown(plan: &PlanContent) -> String {
    let mut out = String::new();
    match plan {
        PlanContent::Items { id, entries, .. } => {
            let progress = crate::protocol::progress::Progress::of(entries);
            let _ = writeln!(out, "### {id} ({progress})\n");
            for entry in entries {
                let text = &entry.content;
                let _ = match &entry.status {
                    Status::Completed => writeln!(out, "- [x] {text}"),
                    Status::Cancelled => writeln!(out, "- [x] ~~{text}~~ (cancelled)"),
                    Status::InProgress => writeln!(out, "- [ ] **{text}** (in progress)"),
                    Status::Pending => writeln!(out, "- [ ] {text}"),
                    other => writeln!(out, "- [ ] {text} ({other})"),
                };
            }
        }
        PlanContent::Markdown {
            id, content, path, ..
        } => {
            let _ = writeln!(out, "### {id}\n");
            if let Some(path) = path {
                let _ = writeln!(out, "File: `{path}`\n");
            }
            let _ = writeln!(out, "{}", content.trim_end());
        }
        PlanContent::File { id, uri, .. } => {
            let _ = writeln!(out, "### {id}\n\nThe plan is in [{uri}]({uri}).");
        }
        PlanContent::Custom { id, .. } | PlanContent::Reserved { id, .. } => {
            let _ = writeln!(out, "### {id}\n\nA `{}` plan.", plan.type_name());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checklists_accept_the_usual_bullets_and_nothing_else() {
        let text = "  * [X] done\n+ [ ]  spaced \n- [ ]\n-[ ] no space\n- [~] odd\n1. [ ] numbered\n- plain";
        let entries = markdown_to_entries(text);
        let seen: Vec<(&str, &Status)> = entries.iter().map(|e| (&*e.content, &e.status)).collect();
        assert_eq!(
            seen,
            [("done", &Status::Completed), ("spaced", &Status::Pending)]
        );
    }
}
