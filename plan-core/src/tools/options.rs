//! How a tool call becomes a plan (`PlanOptions`, `ActiveForm`): what the
//! tools' readers (`todo_write.rs`, `update_plan.rs`) and `ModelPlans`
//! (`plans.rs`) share, below both.

use crate::protocol::entry::Priority;

/// Where a todo's `activeForm` ("Fixing the parser") goes. Either way each
/// entry's `_meta` keeps both labels under `"todo"`, so the list can be
/// given back ([`TodoWrite::from_plan`](super::TodoWrite::from_plan)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ActiveForm {
    /// The entry in progress is labelled by its `activeForm`, as Claude Code
    /// shows it and claude-agent-acp sends it; pending and completed, by its
    /// `content`. The client's board keeps it one entry across the relabel
    /// (its matching rule pairs an entry that enters or leaves
    /// `in_progress` in the same place with the same priority), and so
    /// does every client that matches entries by place.
    #[default]
    WhileInProgress,
    /// Every entry is labelled by its `content`; the `activeForm` is in
    /// `_meta` only. For clients that match entries by text alone.
    Never,
}

/// How a tool call becomes a plan: the entries' priorities and the label of
/// an entry in progress.
///
/// The tools have no priority, and the protocol requires one: by default
/// every entry is `medium` (what claude-agent-acp and codex-acp send), or
/// the caller says.
#[derive(Debug, Clone)]
pub struct PlanOptions {
    priority: Priority,
    priority_of: Option<fn(&str) -> Priority>,
    /// Where a todo's `activeForm` goes.
    pub active_form: ActiveForm,
}

impl Default for PlanOptions {
    fn default() -> Self {
        Self {
            priority: Priority::Medium,
            priority_of: None,
            active_form: ActiveForm::default(),
        }
    }
}

impl PlanOptions {
    /// Every entry with `priority`.
    #[must_use]
    pub fn priority(mut self, priority: Priority) -> Self {
        self.priority = priority;
        self.priority_of = None;
        self
    }

    /// Each entry's priority from its text (a todo's `content`, never its
    /// `activeForm`, so a relabel keeps its priority).
    #[must_use]
    pub fn priority_by(mut self, priority_of: fn(&str) -> Priority) -> Self {
        self.priority_of = Some(priority_of);
        self
    }

    /// Where a todo's `activeForm` goes.
    #[must_use]
    pub fn active_form(mut self, active_form: ActiveForm) -> Self {
        self.active_form = active_form;
        self
    }

    pub(crate) fn priority_of(&self, text: &str) -> Priority {
        self.priority_of
            .map_or_else(|| self.priority.clone(), |of| of(text))
    }
}
