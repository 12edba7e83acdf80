//! Any plan written as markdown (`plan_to_markdown`, for logs and PR
//! comments): a checklist that `steps.rs`, the one reading of a markdown
//! plan, reads back as the same steps and statuses. Text, not JSON:
//! nothing here reads or writes a message.

use std::fmt::Write as _;

use crate::protocol::content::PlanContent;
use crate::protocol::entry::Status;

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
