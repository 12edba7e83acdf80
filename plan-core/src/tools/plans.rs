//! `ModelPlans`: a model's plan tool calls, sent to one client session.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};
use std::path::Path;

use super::list_tool::ListTool;
use super::options::PlanOptions;
use super::read::{Correction, ToolError};
use super::steps::StepsTool;
use super::todo_write::TodoWrite;
use super::update_plan::UpdatePlan;
use crate::agent::{PlanRun, PlanSender, Steps};
use crate::protocol::content::PlanContent;
use crate::protocol::id::{AbsolutePath, InvalidPlanId, PlanId};
use crate::protocol::notification::SessionNotification;

/// Whose plan a tool call is: each scope has its own stable plan id, so a
/// subagent's list does not replace the main agent's.
///
/// ```
/// use plan_core::tools::Scope;
///
/// assert_eq!(Scope::MAIN.plan_id().as_str(), "plan");
/// assert_eq!(Scope::PLAN_MODE.plan_id().as_str(), "plan-mode");
/// assert_eq!(Scope::subagent("toolu_01")?.plan_id().as_str(), "subagent-toolu_01");
/// # Ok::<(), plan_core::wire::InvalidPlanId>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Scope(PlanId);

impl Scope {
    /// The main agent's plan: id `plan`.
    pub const MAIN: Self = Self(PlanId::new_unchecked(Cow::Borrowed("plan")));

    /// The plan the model proposes in plan mode: id `plan-mode` (the id
    /// claude-agent-acp sends its `ExitPlanMode` plan under).
    pub const PLAN_MODE: Self = Self(PlanId::new_unchecked(Cow::Borrowed("plan-mode")));

    /// A subagent's plan (Claude's Task tool): id `subagent-` and `id` (the
    /// subagent's tool call id, say).
    ///
    /// # Errors
    /// An `id` that is empty or only white space.
    pub fn subagent(id: &str) -> Result<Self, InvalidPlanId> {
        PlanId::new(id.to_owned())?;
        PlanId::new(format!("subagent-{id}")).map(Self)
    }

    /// The scope's plan id.
    pub fn plan_id(&self) -> &PlanId {
        &self.0
    }
}

/// What one tool call did: the notification to send and what was corrected.
/// The plan it made is [`ModelPlans::plan`] (the sender keeps it, so it is
/// not copied here).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolOutcome {
    /// The notification to send; `None` where the plan is the one last
    /// sent under its id (skipped; see [`ModelPlans::resend_unchanged`]),
    /// and where the call wrote its line itself
    /// ([`todo_write_to`](ModelPlans::todo_write_to), ...).
    pub notification: Option<SessionNotification>,
    /// Whether the plan went to the client: a notification returned, or a
    /// line written; `false` where it was skipped.
    pub sent: bool,
    /// What was corrected to read the call.
    pub corrections: Vec<Correction>,
}

impl ToolOutcome {
    /// The text to return to the model as the tool's result: that the plan
    /// was updated, and what was corrected, so it calls right next time.
    pub fn tool_result(&self) -> String {
        let mut text = String::from("The plan was updated.");
        if !self.corrections.is_empty() {
            text.push_str(" Read with corrections (follow the schema next time):");
            for correction in &self.corrections {
                text.push_str("\n- ");
                text.push_str(&correction.to_string());
            }
        }
        text
    }
}

/// A plan file the model wrote, that could not become a plan.
#[derive(Debug)]
#[non_exhaustive]
pub enum PlanFileError {
    /// The path is not absolute, or not UTF-8; the stabilized protocol's
    /// `path` is an absolute path.
    NotAbsolute(String),
    /// The file could not be read.
    Read {
        /// The file.
        path: String,
        /// Why.
        error: std::io::Error,
    },
}

impl fmt::Display for PlanFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAbsolute(path) => write!(
                f,
                "the plan file {path:?} is not an absolute UTF-8 path; give the file's absolute path"
            ),
            Self::Read { path, error } => write!(f, "cannot read the plan file {path}: {error}"),
        }
    }
}

impl std::error::Error for PlanFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Read { error, .. } => Some(error),
            Self::NotAbsolute(_) => None,
        }
    }
}

/// A model's plan tool calls, sent to one client session: the model loop
/// calls it on every plan tool call, and sends what it returns.
///
/// Each call is read leniently ([`ToolCall`](super::ToolCall)), made a plan with its
/// [`Scope`]'s id and the [`PlanOptions`], and given to the session's
/// [`PlanSender`], which writes what that kind of client reads (a v1
/// `plan`, a `plan_update`, with the version table's fallbacks). A plan
/// equal to the one last sent under its id is not sent again, by default.
/// A call that cannot be read changes nothing and gives the
/// [`ToolError`] to return to the model.
///
/// ```
/// use plan_core::{agent::PlanSender, tools::{ModelPlans, Scope}, wire::{ClientCapabilities, Spelling}};
///
/// let v1_plan = ClientCapabilities::from_json(r#"{"plan":{}}"#)?;
/// let mut plans = ModelPlans::new(PlanSender::new("sess_1", &v1_plan));
/// let call = r#"{"todos":[{"content":"Fix the parser","status":"in-progress","activeForm":"Fixing the parser"}]}"#;
/// let outcome = plans.todo_write(&Scope::MAIN, call).unwrap();
/// let sent = outcome.notification.as_ref().unwrap().to_json(Spelling::Acp);
/// assert!(sent.contains(r#""content":"Fixing the parser","priority":"medium","status":"in_progress""#));
/// assert_eq!(outcome.corrections[0].to_string(), r#"todos[0].status: "in-progress" read as "in_progress""#);
///
/// // The same list again: nothing to send.
/// assert!(plans.todo_write(&Scope::MAIN, call).unwrap().notification.is_none());
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ModelPlans {
    sender: PlanSender,
    options: PlanOptions,
    resend_unchanged: bool,
}

impl ModelPlans {
    /// Tool calls sent through `sender` (one per session), with the default
    /// [`PlanOptions`]; unchanged plans skipped.
    pub fn new(sender: PlanSender) -> Self {
        Self {
            sender,
            options: PlanOptions::default(),
            resend_unchanged: false,
        }
    }

    /// The same, with other options.
    #[must_use]
    pub fn with_options(mut self, options: PlanOptions) -> Self {
        self.options = options;
        self
    }

    /// Whether a plan equal to the one last sent under its id is sent again
    /// (off by default: its notification is `None`).
    #[must_use]
    pub fn resend_unchanged(mut self, resend: bool) -> Self {
        self.resend_unchanged = resend;
        self
    }

    /// The session's sender (its client kind, its live plans).
    pub fn sender(&self) -> &PlanSender {
        &self.sender
    }

    /// The session's sender, to send plans of the agent's own beside the
    /// model's, or to remove one.
    pub fn sender_mut(&mut self) -> &mut PlanSender {
        &mut self.sender
    }

    /// A `TodoWrite` call (its arguments' JSON text) for `scope`.
    ///
    /// # Errors
    /// The error to return to the model; nothing was sent.
    pub fn todo_write(&mut self, scope: &Scope, arguments: &str) -> Result<ToolOutcome, ToolError> {
        let (plan, corrections) = self.list_plan::<TodoWrite>(scope, arguments)?;
        Ok(self.send(plan, corrections))
    }

    /// [`todo_write`](Self::todo_write), its notification written to `out`
    /// as one NDJSON line in the client's spelling, without copying the
    /// plan (the outcome's `notification` is `None`; `sent` says whether a
    /// line was written).
    ///
    /// # Errors
    /// Outside, the writer's error (the plan is live all the same); inside,
    /// the error to return to the model (nothing was written).
    pub fn todo_write_to<W: Write>(
        &mut self,
        out: W,
        scope: &Scope,
        arguments: &str,
    ) -> io::Result<Result<ToolOutcome, ToolError>> {
        let made = self.list_plan::<TodoWrite>(scope, arguments);
        self.send_to(out, made)
    }

    /// An `update_plan` call (its arguments' JSON text) for `scope`.
    ///
    /// # Errors
    /// As [`todo_write`](Self::todo_write).
    pub fn update_plan(
        &mut self,
        scope: &Scope,
        arguments: &str,
    ) -> Result<ToolOutcome, ToolError> {
        let (plan, corrections) = self.list_plan::<UpdatePlan>(scope, arguments)?;
        Ok(self.send(plan, corrections))
    }

    /// [`update_plan`](Self::update_plan), written to `out` as
    /// [`todo_write_to`](Self::todo_write_to) writes.
    ///
    /// # Errors
    /// As [`todo_write_to`](Self::todo_write_to).
    pub fn update_plan_to<W: Write>(
        &mut self,
        out: W,
        scope: &Scope,
        arguments: &str,
    ) -> io::Result<Result<ToolOutcome, ToolError>> {
        let made = self.list_plan::<UpdatePlan>(scope, arguments);
        self.send_to(out, made)
    }

    /// A list tool's call for `scope`: its plan, and what reading it
    /// corrected.
    fn list_plan<T: ListTool>(
        &self,
        scope: &Scope,
        arguments: &str,
    ) -> Result<(PlanContent, Vec<Correction>), ToolError> {
        T::call_plan(arguments, scope.plan_id().clone(), &self.options)
    }

    /// A call of a [`StepsTool`]: the run's steps moved (under its rules),
    /// and the run's plan sent, under the type's plan id.
    ///
    /// # Errors
    /// As [`StepsTool::apply`]; the run is unchanged and nothing was sent.
    pub fn steps<S: Steps>(
        &mut self,
        run: &mut PlanRun<S>,
        arguments: &str,
    ) -> Result<ToolOutcome, ToolError> {
        let corrections = StepsTool::apply(run, arguments)?;
        Ok(self.send(run.content(), corrections))
    }

    /// A plan the model wrote to a file (Claude's `ExitPlanMode`): the file
    /// read, and sent as a markdown plan for `scope` (usually
    /// [`Scope::PLAN_MODE`]) with its absolute `path`, as the stabilized
    /// protocol has it. A client that reads no markdown plan gets the
    /// sender's fallback (a v1 `plan` of its checklist).
    ///
    /// # Errors
    /// A path that is not absolute, or a file that cannot be read; nothing
    /// was sent.
    pub fn plan_file(&mut self, scope: &Scope, path: &Path) -> Result<ToolOutcome, PlanFileError> {
        let shown = path.display().to_string();
        let absolute = path
            .to_str()
            .filter(|_| path.is_absolute())
            .and_then(|p| AbsolutePath::new(p.to_owned()).ok())
            .ok_or_else(|| PlanFileError::NotAbsolute(shown.clone()))?;
        let text = std::fs::read_to_string(path)
            .map_err(|error| PlanFileError::Read { path: shown, error })?;
        let plan = PlanContent::markdown_at(scope.plan_id().clone(), Cow::Owned(text), absolute);
        Ok(self.send(plan, Vec::new()))
    }

    fn send(&mut self, plan: PlanContent, corrections: Vec<Correction>) -> ToolOutcome {
        let notification = if self.resend_unchanged {
            Some(self.sender.update(plan))
        } else {
            self.sender.update_if_changed(plan)
        };
        ToolOutcome {
            sent: notification.is_some(),
            notification,
            corrections,
        }
    }

    /// The plan a call made written to `out` as its line, without a copy
    /// ([`PlanSender::send_update`]), unless it is skipped; a call that made
    /// none writes nothing.
    fn send_to<W: Write>(
        &mut self,
        out: W,
        made: Result<(PlanContent, Vec<Correction>), ToolError>,
    ) -> io::Result<Result<ToolOutcome, ToolError>> {
        let (plan, corrections) = match made {
            Ok(made) => made,
            Err(error) => return Ok(Err(error)),
        };
        let sent = self.resend_unchanged || !self.sender.is_unchanged(&plan);
        if sent {
            self.sender.send_update(out, plan)?;
        } else {
            // Nothing new for this client (worked out once, above); the
            // plan is live all the same.
            self.sender.keep_live(plan);
        }
        Ok(Ok(ToolOutcome {
            notification: None,
            sent,
            corrections,
        }))
    }

    /// The plan as it stands under `id` (a [`Scope`]'s
    /// [`plan_id`](Scope::plan_id), or a `Steps` type's `ID`), as the last
    /// call made it; `None` if there is none, or it was removed.
    pub fn plan(&self, id: &PlanId) -> Option<&PlanContent> {
        self.sender.live_plans().iter().find(|p| p.id() == id)
    }
}
