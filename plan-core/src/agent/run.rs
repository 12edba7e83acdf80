//! Plans declared as types: `#[derive(Steps)]` on an enum of steps, and the
//! run that tracks their statuses.

use std::fmt;
use std::marker::PhantomData;

use crate::codec::Spelling;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::id::{PlanId, SessionId};
use crate::protocol::notification::SessionNotification;
use crate::protocol::progress::Progress;
use crate::protocol::update::SessionUpdate;

/// One step of a plan declared as a type: its content and priority, fixed at
/// compile time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// What the step does, for a person.
    pub content: &'static str,
    /// How important it is.
    pub priority: Priority,
}

/// A plan whose steps are the variants of an enum. Implemented by
/// `#[derive(Steps)]`; see its documentation.
pub trait Steps: Sized + 'static {
    /// The plan's id.
    const ID: PlanId;
    /// Every step, in declaration order.
    const STEPS: &'static [Step];
    /// Every variant, in declaration order.
    const ALL: &'static [Self];

    /// The step's position in [`Steps::STEPS`].
    fn index(&self) -> usize;

    /// A run of this plan with every step pending.
    fn start() -> PlanRun<Self> {
        PlanRun::new()
    }

    /// The step's content and priority.
    fn step(&self) -> &'static Step {
        &Self::STEPS[self.index()]
    }

    /// The whole lifecycle of a run, as a client test fixture: the plan
    /// created with every step pending, then each step in order going
    /// `in_progress` and `completed`, then the plan removed.
    fn lifecycle(session: &SessionId) -> Vec<SessionNotification> {
        let mut run = Self::start();
        let mut updates = vec![run.update()];
        for index in 0..Self::STEPS.len() {
            run.statuses[index] = Status::InProgress;
            updates.push(run.update());
            run.statuses[index] = Status::Completed;
            updates.push(run.update());
        }
        updates.push(run.removed());
        updates
            .into_iter()
            .map(|u| SessionNotification::new(session.clone(), u))
            .collect()
    }

    /// [`Steps::lifecycle`] as NDJSON text in `spelling`, one message per line.
    fn lifecycle_ndjson(session: &SessionId, spelling: Spelling) -> String {
        Self::lifecycle(session)
            .iter()
            .map(|n| n.to_json(spelling) + "\n")
            .collect()
    }
}

/// The statuses of one run of a [`Steps`] plan: a small array, one status
/// per step, addressed by the enum (never by a number or a string, so a step
/// that does not exist cannot be named).
///
/// By default any status can follow any other. Opt-in rules
/// ([`one_at_a_time`](Self::one_at_a_time), [`forward_only`](Self::forward_only))
/// make the transitions that break them return a [`StepError`].
#[derive(Debug, PartialEq, Eq)]
pub struct PlanRun<T: Steps> {
    statuses: Box<[Status]>,
    one_at_a_time: bool,
    forward_only: bool,
    steps: PhantomData<T>,
}

/// A run is its statuses and rules: it clones whether or not the step type does.
impl<T: Steps> Clone for PlanRun<T> {
    fn clone(&self) -> Self {
        Self {
            statuses: self.statuses.clone(),
            one_at_a_time: self.one_at_a_time,
            forward_only: self.forward_only,
            steps: PhantomData,
        }
    }
}

/// A transition a run's rules forbid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// `one_at_a_time`: another step is in progress.
    AnotherInProgress {
        /// The step that was to begin.
        step: &'static str,
        /// The step in progress.
        running: &'static str,
    },
    /// `forward_only`: the step is already settled (completed or cancelled).
    Settled {
        /// The step.
        step: &'static str,
        /// Its status.
        status: Status,
    },
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AnotherInProgress { step, running } => write!(
                f,
                "cannot begin \"{step}\": \"{running}\" is in progress and this run allows one step at a time"
            ),
            Self::Settled { step, status } => {
                write!(
                    f,
                    "\"{step}\" is already {status}; this run only moves forward"
                )
            }
        }
    }
}

impl std::error::Error for StepError {}

/// Carried into an [`Error`](crate::Error) by `?` (as
/// [`ErrorKind::Value`](crate::ErrorKind::Value)).
impl From<StepError> for crate::error::Error {
    fn from(error: StepError) -> Self {
        Self::of_value(&error)
    }
}

impl<T: Steps> Default for PlanRun<T> {
    fn default() -> Self {
        Self::new()
    }
}

// Steps are taken by value so a call reads `run.begin(Refactor::Analyze)`;
// they are unit variants, so nothing is lost.
#[allow(clippy::needless_pass_by_value)]
impl<T: Steps> PlanRun<T> {
    /// Every step pending, no rules.
    pub fn new() -> Self {
        Self {
            statuses: vec![Status::Pending; T::STEPS.len()].into_boxed_slice(),
            one_at_a_time: false,
            forward_only: false,
            steps: PhantomData,
        }
    }

    /// Rule: at most one step in progress; beginning a second is an error.
    #[must_use]
    pub fn one_at_a_time(mut self) -> Self {
        self.one_at_a_time = true;
        self
    }

    /// Rule: a completed or cancelled step stays so; moving it is an error.
    #[must_use]
    pub fn forward_only(mut self) -> Self {
        self.forward_only = true;
        self
    }

    /// A step's status.
    pub fn status(&self, step: T) -> &Status {
        &self.statuses[step.index()]
    }

    /// Sets a step's status, whatever the rules (for custom statuses too).
    pub fn set(&mut self, step: T, status: Status) {
        self.statuses[step.index()] = status;
    }

    /// Every step with its status, in order.
    pub fn steps(&self) -> impl Iterator<Item = (&'static T, &Status)> {
        T::ALL.iter().zip(self.statuses.iter())
    }

    /// Marks a step in progress.
    ///
    /// # Errors
    /// With `one_at_a_time`, if another step is in progress; with
    /// `forward_only`, if the step is settled.
    pub fn begin(&mut self, step: T) -> Result<(), StepError> {
        self.begin_at(step.index())
    }

    /// Moves the step at `index` of [`Steps::STEPS`] to `status`, under the
    /// run's rules: `in_progress` as [`begin`](Self::begin), `completed` and
    /// `cancelled` as [`finish`](Self::finish) and [`cancel`](Self::cancel),
    /// any other status as a step not yet settled may be moved. (For the
    /// tool of a `Steps` type, which names steps by their position.)
    #[cfg(feature = "tools")]
    pub(crate) fn move_at(&mut self, index: usize, status: Status) -> Result<(), StepError> {
        match status {
            Status::InProgress => self.begin_at(index),
            status => self.settle(index, status),
        }
    }

    fn begin_at(&mut self, index: usize) -> Result<(), StepError> {
        self.check_open(index)?;
        if self.one_at_a_time
            && let Some(running) = (0..self.statuses.len())
                .find(|i| *i != index && self.statuses[*i] == Status::InProgress)
        {
            return Err(StepError::AnotherInProgress {
                step: T::STEPS[index].content,
                running: T::STEPS[running].content,
            });
        }
        self.statuses[index] = Status::InProgress;
        Ok(())
    }

    /// Marks a step completed.
    ///
    /// # Errors
    /// With `forward_only`, if the step is already settled.
    pub fn finish(&mut self, step: T) -> Result<(), StepError> {
        self.settle(step.index(), Status::Completed)
    }

    /// Marks a step cancelled (protocol v2; a v1 client sees it through the
    /// sender's fallback).
    ///
    /// # Errors
    /// With `forward_only`, if the step is already settled.
    pub fn cancel(&mut self, step: T) -> Result<(), StepError> {
        self.settle(step.index(), Status::Cancelled)
    }

    fn settle(&mut self, index: usize, status: Status) -> Result<(), StepError> {
        self.check_open(index)?;
        self.statuses[index] = status;
        Ok(())
    }

    fn check_open(&self, index: usize) -> Result<(), StepError> {
        match &self.statuses[index] {
            status @ (Status::Completed | Status::Cancelled) if self.forward_only => {
                Err(StepError::Settled {
                    step: T::STEPS[index].content,
                    status: status.clone(),
                })
            }
            _ => Ok(()),
        }
    }

    /// Ends a turn without leaving a step in progress forever: steps in
    /// progress go back to pending (the work is not done; the next turn can
    /// pick it up). Returns the update to send.
    pub fn finish_turn(&mut self) -> SessionUpdate {
        for status in &mut self.statuses {
            if *status == Status::InProgress {
                *status = Status::Pending;
            }
        }
        self.update()
    }

    /// Gives the plan up: every step not completed is cancelled. Returns the
    /// update to send.
    pub fn abandon(&mut self) -> SessionUpdate {
        for status in &mut self.statuses {
            if *status != Status::Completed {
                *status = Status::Cancelled;
            }
        }
        self.update()
    }

    /// The step in progress, if any (the first, without `one_at_a_time`).
    pub fn in_progress(&self) -> Option<&'static T> {
        T::ALL
            .iter()
            .find(|s| self.statuses[s.index()] == Status::InProgress)
    }

    /// How far the run has come.
    pub fn progress(&self) -> Progress {
        Progress::of(&self.entries())
    }

    /// Every step as an entry, with its current status.
    pub fn entries(&self) -> Vec<PlanEntry> {
        T::STEPS
            .iter()
            .zip(self.statuses.iter())
            .map(|(step, status)| {
                PlanEntry::new(step.content, step.priority.clone(), status.clone())
            })
            .collect()
    }

    /// The plan as content: an items plan with every entry.
    pub fn content(&self) -> PlanContent {
        PlanContent::items(T::ID, self.entries())
    }

    /// The `plan_update` to send now: the full entry list.
    pub fn update(&self) -> SessionUpdate {
        SessionUpdate::plan_update(self.content())
    }

    /// The `plan_removed` that dismisses the plan.
    pub fn removed(&self) -> SessionUpdate {
        SessionUpdate::plan_removed(T::ID)
    }
}
