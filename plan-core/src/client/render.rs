//! Plans drawn for a person in a terminal.

use std::fmt::Write as _;
use std::io::IsTerminal;

use crate::client::board::{PlanBoard, TrackedPlan};
use crate::client::changes::Changes;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::progress::Progress;

/// How to draw: with ANSI colours or as plain text, with or without
/// clickable links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TerminalStyle {
    /// Whether to write ANSI colour and emphasis codes.
    pub color: bool,
    /// Whether to write a markdown plan's `path` as an OSC 8 hyperlink to
    /// the file (a terminal that supports them makes it clickable); else as
    /// plain text.
    pub hyperlinks: bool,
}

impl TerminalStyle {
    /// Plain text: no escape codes; every state is also said in words.
    pub const PLAIN: Self = Self {
        color: false,
        hyperlinks: false,
    };
    /// ANSI colours and emphasis (no hyperlinks: see [`detect`](Self::detect)).
    pub const COLOR: Self = Self {
        color: true,
        hyperlinks: false,
    };

    /// Colour when `stream` is a terminal and `NO_COLOR` is unset or empty
    /// (<https://no-color.org>); plain text otherwise. Hyperlinks when
    /// `stream` is a terminal known to support OSC 8 (`FORCE_HYPERLINK=1`
    /// forces them, `FORCE_HYPERLINK=0` turns them off).
    pub fn detect(stream: &impl IsTerminal) -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let terminal = stream.is_terminal();
        Self {
            color: terminal && !no_color,
            hyperlinks: terminal && hyperlinks_supported(|name| std::env::var(name).ok()),
        }
    }

    fn paint(self, out: &mut String, codes: &str, text: &str) {
        if self.color && !codes.is_empty() {
            let _ = write!(out, "\x1b[{codes}m{text}\x1b[0m");
        } else {
            out.push_str(text);
        }
    }
}

/// Whether the terminal the environment describes draws OSC 8 hyperlinks:
/// `FORCE_HYPERLINK` decides if set; else terminals known to support them
/// (and that set a variable saying who they are).
fn hyperlinks_supported(var: impl Fn(&str) -> Option<String>) -> bool {
    if let Some(force) = var("FORCE_HYPERLINK") {
        return force != "0";
    }
    let program = var("TERM_PROGRAM").unwrap_or_default();
    let term = var("TERM").unwrap_or_default();
    let vte = var("VTE_VERSION").and_then(|v| v.parse::<u32>().ok());
    matches!(
        program.as_str(),
        "iTerm.app" | "WezTerm" | "vscode" | "ghostty" | "Hyper" | "terminology"
    ) || matches!(
        term.as_str(),
        "xterm-kitty" | "alacritty" | "foot" | "xterm-ghostty"
    ) || vte.is_some_and(|v| v >= 5000)
        || var("WT_SESSION").is_some()
        || var("KONSOLE_VERSION").is_some()
        || var("DOMTERM").is_some()
}

/// A `file://` URL for an absolute path (`C:\dev\p.md` becomes
/// `file:///C:/dev/p.md`), every byte a URL cannot hold percent-encoded.
fn file_url(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut url = String::from("file://");
    if !path.starts_with('/') {
        url.push('/');
    }
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~:".contains(&byte) {
            url.push(char::from(byte));
        } else {
            let _ = write!(url, "%{byte:02X}");
        }
    }
    url
}

const BOLD: &str = "1";
const DIM: &str = "2";
const DIM_STRUCK: &str = "2;9";
const GREEN: &str = "32";
const YELLOW_BOLD: &str = "1;33";
const CYAN: &str = "36";
const RED: &str = "31";
const BAR_WIDTH: usize = 20;

/// Draws every plan of a board, in order, with what the last update changed.
///
/// ```
/// use plan_core::{plan, SessionUpdate, client::{render_board, PlanBoard, TerminalStyle}};
///
/// let mut board = PlanBoard::new("s");
/// board.apply_update(plan! { id: "refactor", items: [
///     high completed "Analyze", high in_progress "Refactor", low pending "Release",
/// ] }.into());
/// assert_eq!(render_board(&board, TerminalStyle::PLAIN), "\
/// ▣ refactor  [██████░░░░░░░░░░░░░░] 1/3  ▸ Refactor
///   ✓ Analyze   high  (new)
///   ▸ Refactor  high  (new)
///   ○ Release   low  (new)
/// ");
/// ```
pub fn render_board(board: &PlanBoard, style: TerminalStyle) -> String {
    let mut out = String::new();
    for (index, plan) in board.plans().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push_str(&render_board_plan(plan, style));
    }
    out
}

/// Draws one plan of a board, with what its last update changed.
pub fn render_board_plan(plan: &TrackedPlan, style: TerminalStyle) -> String {
    let changes = (plan.version() > 1 || !plan.changes().is_empty()).then(|| plan.changes());
    render_plan(plan.content(), changes, style)
}

/// Draws one plan: a header with the id, a progress bar and `k/n` and the
/// task in progress; then the entries (`✓` completed, `▸` in progress, `○`
/// pending, `✗` cancelled, struck through in colour), each with its priority.
/// Markdown plans are drawn as their text under the file's `path`, if it has
/// one (an OSC 8 hyperlink with [`TerminalStyle::hyperlinks`]); pre-stable
/// file plans as their URI. With
/// `changes`, new entries, moved statuses and changed labels are marked,
/// removed ones listed.
pub fn render_plan(plan: &PlanContent, changes: Option<&Changes>, style: TerminalStyle) -> String {
    let mut out = String::new();
    style.paint(&mut out, BOLD, &format!("▣ {}", plan.id()));
    match plan {
        PlanContent::Items { entries, .. } => {
            let progress = Progress::of(entries);
            out.push_str("  ");
            bar(&mut out, progress, style);
            let _ = write!(out, " {progress}");
            if let Some(now) = entries.iter().find(|e| e.status == Status::InProgress) {
                out.push_str("  ");
                style.paint(&mut out, YELLOW_BOLD, &format!("▸ {}", now.content));
            }
            out.push('\n');
            let width = entries
                .iter()
                .map(|e| e.content.chars().count())
                .max()
                .unwrap_or(0);
            for (index, entry) in entries.iter().enumerate() {
                render_entry(&mut out, entry, width, changes.map(|c| (c, index)), style);
            }
            if let Some(changes) = changes {
                for gone in &changes.removed {
                    out.push_str("  ");
                    style.paint(&mut out, DIM_STRUCK, &format!("− {}", gone.content));
                    style.paint(&mut out, DIM, "  (removed)");
                    out.push('\n');
                }
            }
            if entries.is_empty() {
                style.paint(&mut out, DIM, "  (no entries)");
                out.push('\n');
            }
        }
        PlanContent::Markdown { content, path, .. } => {
            style.paint(&mut out, DIM, "  markdown");
            if let Some(path) = path {
                out.push_str("  → ");
                let shown = if style.hyperlinks {
                    let url = file_url(path.as_str());
                    format!("\x1b]8;;{url}\x1b\\{path}\x1b]8;;\x1b\\")
                } else {
                    path.to_string()
                };
                style.paint(&mut out, CYAN, &shown);
            }
            out.push('\n');
            for line in content.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        PlanContent::File { uri, .. } => {
            style.paint(&mut out, DIM, "  file (pre-stable)");
            out.push_str("  → ");
            style.paint(&mut out, CYAN, uri.as_str());
            out.push('\n');
        }
        PlanContent::Custom { fields, .. } | PlanContent::Reserved { fields, .. } => {
            style.paint(&mut out, DIM, &format!("  {}", plan.type_name()));
            out.push('\n');
            for (key, value) in fields {
                let _ = writeln!(out, "    {key}: {value}");
            }
        }
    }
    out
}

fn bar(out: &mut String, progress: Progress, style: TerminalStyle) {
    let cells = |n: usize| (n * BAR_WIDTH).checked_div(progress.total).unwrap_or(0);
    let done = cells(progress.completed);
    let cancelled = cells(progress.completed + progress.cancelled) - done;
    out.push('[');
    style.paint(out, GREEN, &"█".repeat(done));
    style.paint(out, DIM, &"▒".repeat(cancelled));
    out.push_str(&"░".repeat(BAR_WIDTH - done - cancelled));
    out.push(']');
}

fn render_entry(
    out: &mut String,
    entry: &PlanEntry,
    width: usize,
    change: Option<(&Changes, usize)>,
    style: TerminalStyle,
) {
    let text = &*entry.content;
    let pad = " ".repeat(width.saturating_sub(text.chars().count()));
    out.push_str("  ");
    match &entry.status {
        Status::Completed => {
            style.paint(out, GREEN, "✓");
            let _ = write!(out, " {text}{pad}");
        }
        Status::InProgress => {
            style.paint(out, YELLOW_BOLD, &format!("▸ {text}"));
            out.push_str(&pad);
        }
        Status::Pending => {
            let _ = write!(out, "○ {text}{pad}");
        }
        Status::Cancelled => {
            style.paint(out, DIM_STRUCK, &format!("✗ {text}"));
            out.push_str(&pad);
        }
        other => {
            style.paint(out, CYAN, &format!("◇ {text}"));
            out.push_str(&pad);
            style.paint(out, CYAN, &format!("  [{other}]"));
        }
    }
    out.push_str("  ");
    match &entry.priority {
        Priority::High => style.paint(out, RED, "high"),
        Priority::Medium => out.push_str("medium"),
        Priority::Low => style.paint(out, DIM, "low"),
        other => style.paint(out, CYAN, other.as_str()),
    }
    if entry.status == Status::Cancelled && !style.color {
        out.push_str("  (cancelled)");
    }
    if let Some((changes, index)) = change {
        let label = changes.relabelled.iter().find(|(i, _)| *i == index);
        let status = changes.status_changed.iter().find(|(i, _)| *i == index);
        match (label, status) {
            _ if changes.added.contains(&index) => style.paint(out, GREEN, "  (new)"),
            (Some((_, text)), Some((_, before))) => {
                style.paint(out, DIM, &format!("  (was \"{text}\", {before})"));
            }
            (Some((_, text)), None) => style.paint(out, DIM, &format!("  (was \"{text}\")")),
            (None, Some((_, before))) => style.paint(out, DIM, &format!("  (was {before})")),
            (None, None) => {}
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::{file_url, hyperlinks_supported};

    #[test]
    fn paths_become_file_urls() {
        assert_eq!(file_url("/home/dev/PLAN.md"), "file:///home/dev/PLAN.md");
        assert_eq!(file_url("/my plan/é.md"), "file:///my%20plan/%C3%A9.md");
        assert_eq!(file_url("C:\\dev\\PLAN.md"), "file:///C:/dev/PLAN.md");
    }

    #[test]
    fn hyperlinks_follow_the_terminal() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert!(hyperlinks_supported(env(&[("TERM_PROGRAM", "WezTerm")])));
        assert!(hyperlinks_supported(env(&[("VTE_VERSION", "6800")])));
        assert!(!hyperlinks_supported(env(&[("VTE_VERSION", "4000")])));
        assert!(!hyperlinks_supported(env(&[("TERM", "xterm-256color")])));
        assert!(hyperlinks_supported(env(&[("FORCE_HYPERLINK", "1")])));
        assert!(!hyperlinks_supported(env(&[
            ("FORCE_HYPERLINK", "0"),
            ("TERM_PROGRAM", "WezTerm")
        ])));
    }
}
