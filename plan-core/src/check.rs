//! The sender's side of the rules: what a conforming peer must not send,
//! even though a tolerant reader keeps it.

use std::fmt;

use crate::content::PlanContent;
use crate::entry::{PlanEntry, Priority, Status};
use crate::error::Path;
use crate::notification::SessionNotification;
use crate::rules::{ExplainName, NameProblem};
use crate::update::SessionUpdate;

/// One thing in a message that a conforming peer must not send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    path: String,
    message: String,
}

impl Violation {
    /// Where it is, e.g. `plan.entries[0].priority`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong, in one sentence.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at `{}`: {}", self.path, self.message)
    }
}

impl std::error::Error for Violation {}

struct Checker(Vec<Violation>);

impl Checker {
    fn report(&mut self, at: &Path<'_>, message: impl fmt::Display) {
        self.0.push(Violation {
            path: at.render(),
            message: message.to_string(),
        });
    }

    fn reserved(&mut self, at: &Path<'_>, name: &str) {
        self.report(
            at,
            ExplainName {
                problem: NameProblem::Reserved,
                name,
            },
        );
    }

    fn entries(&mut self, entries: &[PlanEntry], v1: bool, at: &Path<'_>) {
        for (index, entry) in entries.iter().enumerate() {
            let at = at.index(index);
            self.priority(&entry.priority, v1, &at.key("priority"));
            self.status(&entry.status, v1, &at.key("status"));
        }
    }

    fn priority(&mut self, priority: &Priority, v1: bool, at: &Path<'_>) {
        match priority {
            Priority::Reserved(name) => self.reserved(at, name.as_str()),
            Priority::Custom(name) if v1 => self.report(at, format_args!(
                "a v1 `plan` update cannot carry the custom priority `{name}`; v1 knows only `high`, `medium` and `low`"
            )),
            _ => {}
        }
    }

    fn status(&mut self, status: &Status, v1: bool, at: &Path<'_>) {
        match status {
            Status::Reserved(name) => self.reserved(at, name.as_str()),
            Status::Cancelled if v1 => self.report(
                at,
                "`cancelled` does not exist in protocol v1; a v1 `plan` update knows only `pending`, `in_progress` and `completed`",
            ),
            Status::Custom(name) if v1 => self.report(at, format_args!(
                "a v1 `plan` update cannot carry the custom status `{name}`; v1 knows only `pending`, `in_progress` and `completed`"
            )),
            _ => {}
        }
    }

    fn update(&mut self, update: &SessionUpdate, at: &Path<'_>) {
        match update {
            SessionUpdate::Plan(plan) => self.entries(&plan.entries, true, &at.key("entries")),
            SessionUpdate::PlanUpdate { plan, .. } => {
                let at = at.key("plan");
                match plan {
                    PlanContent::Items { entries, .. } => {
                        self.entries(entries, false, &at.key("entries"));
                    }
                    PlanContent::Reserved { kind, .. } => {
                        self.reserved(&at.key("type"), kind.as_str());
                    }
                    _ => {}
                }
            }
            SessionUpdate::PlanRemoved { .. } | SessionUpdate::Other(_) => {}
        }
    }

    fn finish(self) -> Result<(), Vec<Violation>> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self.0)
        }
    }
}

impl SessionUpdate {
    /// Checks what a conforming agent may send: no reserved (non-`_`) names,
    /// and in a v1 `plan` update, only v1's closed sets of priorities and
    /// statuses (no `cancelled`, no custom values).
    ///
    /// Reading is tolerant (it keeps such values so messages round-trip);
    /// this is the strict, sender's view. Values built with this crate's
    /// constructors pass, except a v1 `plan` with v2-only values.
    ///
    /// ```
    /// use plan_core::SessionUpdate;
    ///
    /// let update = SessionUpdate::from_json(
    ///     r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"cancelled"}]}"#,
    /// )?;
    /// let violations = update.check().unwrap_err();
    /// assert_eq!(violations[0].path(), "entries[0].status");
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// Every violation, in message order.
    pub fn check(&self) -> Result<(), Vec<Violation>> {
        let mut checker = Checker(Vec::new());
        checker.update(self, &Path::Root);
        checker.finish()
    }
}

impl SessionNotification {
    /// [`SessionUpdate::check`] for the notification's update; paths start at
    /// `params.update`.
    ///
    /// # Errors
    /// Every violation, in message order.
    pub fn check(&self) -> Result<(), Vec<Violation>> {
        let mut checker = Checker(Vec::new());
        let params = Path::Root;
        let params = params.key("params");
        checker.update(&self.update, &params.key("update"));
        checker.finish()
    }
}
