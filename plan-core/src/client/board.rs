//! The client's side: apply `session/update` notifications and keep the plans.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::codec::line::Line;
use crate::codec::{Parsed, Spelling, Strictness};
use crate::error::Error;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Status};
use crate::protocol::id::{PlanId, SessionId};
use crate::protocol::notification::SessionNotification;
use crate::protocol::progress::Progress;

use crate::client::changes::Changes;
use crate::protocol::update::SessionUpdate;

/// The plans of one session, as a client shows them.
///
/// Plans are kept by id in order of first appearance; `plan_update` replaces
/// a plan's content whole, `plan_removed` dismisses it, and a v1 `plan`
/// replaces the v1 plan, shown with the id `main` (as the public ACP
/// schema maps it) but kept apart from a v2 plan whose id is `"main"`.
/// Other updates are ignored; plans of custom and reserved types are kept as
/// they came.
///
/// **Reading is lenient by default**, as the published SDKs read: a
/// malformed entry is skipped and the rest of the message applied, an empty
/// plan id or a file URI with a space is kept; each is reported in
/// [`Parsed::skipped`]. JSON-RPC responses, requests and notifications
/// other than `session/update` are recognised and ignored
/// ([`Applied::OtherMessage`]), so an agent's raw output can be piped in.
/// [`strict`](Self::strict) refuses all of that instead. Text that is not
/// JSON, and a `session/update` with no usable plan, are errors in both
/// modes, and leave the board as it was.
///
/// ```
/// use plan_core::{client::{Applied, PlanBoard}};
///
/// let mut board = PlanBoard::new("sess_1");
/// let line = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1",
///   "update":{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[
///   {"content":"Analyze","priority":"high","status":"in_progress"}]}}}}"#;
/// assert!(matches!(board.apply_json(line)?.value, Applied::Updated { created: true, .. }));
/// let plan = board.plans().next().unwrap();
/// assert_eq!(plan.in_progress().unwrap().content, "Analyze");
/// assert_eq!(plan.progress().unwrap().to_string(), "0/1");
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PlanBoard {
    session: SessionId,
    plans: Vec<TrackedPlan>,
    /// Where each plan of `plan_update`s is in `plans`, by id, so that an
    /// update costs the same with one live plan or ten thousand.
    index: HashMap<PlanId, usize>,
    /// Where the v1 plan is in `plans`, if there is one.
    v1_plan: Option<usize>,
    strictness: Strictness,
}

/// One plan on a board: its content now, and what the last update changed.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackedPlan {
    content: PlanContent,
    version: u32,
    repeats: u32,
    changes: Changes,
    v1_plan: bool,
}

/// What applying one notification did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Applied {
    /// A plan was created (`created`) or replaced.
    Updated {
        /// The plan's id (`main` for a v1 `plan`).
        id: PlanId,
        /// Whether the plan is new on the board.
        created: bool,
    },
    /// An update equal to the plan's current content (its id, type,
    /// entries and `_meta` alike): the plan is as it was, and what its last
    /// real update changed still stands ([`TrackedPlan::changes`]); the
    /// repeat is counted ([`TrackedPlan::repeats`]). A client need not redraw.
    Unchanged {
        /// The plan's id (`main` for a v1 `plan`).
        id: PlanId,
    },
    /// A plan was dismissed.
    Removed {
        /// The plan's id.
        id: PlanId,
    },
    /// A `plan_removed` named a plan the board does not have; nothing changed.
    RemovedUnknown {
        /// The id that was named.
        id: PlanId,
    },
    /// Not a plan update (`agent_message_chunk`, ...); nothing changed.
    Ignored {
        /// The `sessionUpdate` value.
        kind: String,
    },
    /// The notification is for another session; nothing changed.
    OtherSession {
        /// The session it is for.
        session: SessionId,
    },
    /// A JSON-RPC message that is not a `session/update` notification;
    /// nothing changed.
    OtherMessage {
        /// The method of a request or notification; `None` for a response.
        method: Option<String>,
    },
}

/// Reads one JSON-RPC line once (`wire::Line`: the envelope reader splits
/// it, the notification's reader reads its params) and hands a
/// `session/update` to `apply`; other JSON-RPC messages are recognised and
/// ignored.
fn apply_line(
    line: &str,
    strictness: Strictness,
    apply: impl FnOnce(SessionNotification) -> Applied,
) -> Result<Parsed<Applied>, Error> {
    let read = Line::read_message(line, strictness);
    if let Some(plan) = read.plan {
        // A `session/update` (a broken one stays an error).
        // A peer's line is read as a whole notification, never an update alone.
        let notification = plan?
            .into_notification()
            .ok_or_else(|| Error::of_value(&"not a `session/update` notification"))?;
        return Ok(Parsed {
            value: apply(notification.value),
            skipped: notification.skipped,
            plan_id: notification.plan_id,
        });
    }
    match (
        read.envelope.problems.into_iter().next(),
        read.envelope.message,
    ) {
        (Some(problem), _) => Err(problem),
        (None, Some(message)) => Ok(Parsed {
            value: Applied::OtherMessage {
                method: message.method().map(str::to_owned),
            },
            skipped: Vec::new(),
            plan_id: None,
        }),
        // The envelope reader says why a line is no message; never here.
        (None, None) => Err(Error::of_value(&"not a JSON-RPC message")),
    }
}

impl PlanBoard {
    /// An empty board for `session`.
    pub fn new(session: impl Into<SessionId>) -> Self {
        Self {
            session: session.into(),
            plans: Vec::new(),
            index: HashMap::new(),
            v1_plan: None,
            strictness: Strictness::Lenient,
        }
    }

    /// The same board, reading strictly: a message with any malformed part,
    /// or a value that breaks a rule of the protocol, is an error.
    #[must_use]
    pub fn strict(mut self) -> Self {
        self.strictness = Strictness::Strict;
        self
    }

    /// The session this board belongs to.
    pub fn session(&self) -> &SessionId {
        &self.session
    }

    /// The plans, in order of first appearance.
    pub fn plans(&self) -> impl ExactSizeIterator<Item = &TrackedPlan> {
        self.plans.iter()
    }

    /// One plan of `plan_update`s by id (not the v1 plan; see [`v1_plan`](Self::v1_plan)).
    pub fn get(&self, id: &PlanId) -> Option<&TrackedPlan> {
        self.index.get(id).map(|&i| &self.plans[i])
    }

    /// The v1 plan, from `plan` updates, if there was one.
    pub fn v1_plan(&self) -> Option<&TrackedPlan> {
        self.v1_plan.map(|i| &self.plans[i])
    }

    /// Reads one JSON-RPC line and applies it; what lenient reading skipped
    /// or let through is in [`Parsed::skipped`].
    ///
    /// # Errors
    /// A malformed message, with where it is wrong; the board is unchanged.
    pub fn apply_json(&mut self, line: &str) -> Result<Parsed<Applied>, Error> {
        apply_line(line, self.strictness, |notification| {
            self.apply(notification)
        })
    }

    /// Applies one notification, in order.
    pub fn apply(&mut self, notification: SessionNotification) -> Applied {
        if notification.session_id != self.session {
            return Applied::OtherSession {
                session: notification.session_id,
            };
        }
        self.apply_update(notification.update)
    }

    /// Applies one update (the caller has checked it belongs to this session).
    pub fn apply_update(&mut self, update: SessionUpdate) -> Applied {
        match update {
            SessionUpdate::Plan(plan) => self.replace(
                PlanContent::Items {
                    id: PlanId::V1_PLAN,
                    entries: plan.entries,
                    meta: plan.meta,
                },
                true,
            ),
            SessionUpdate::PlanUpdate { plan, .. } => self.replace(plan, false),
            SessionUpdate::PlanRemoved { id, .. } => match self.index.remove(&id) {
                Some(at) => {
                    // Later plans move up one place: the board keeps order.
                    self.plans.remove(at);
                    for i in self.index.values_mut().chain(self.v1_plan.as_mut()) {
                        if *i > at {
                            *i -= 1;
                        }
                    }
                    Applied::Removed { id }
                }
                None => Applied::RemovedUnknown { id },
            },
            SessionUpdate::Other(other) => Applied::Ignored {
                kind: other.kind().to_owned(),
            },
        }
    }

    fn replace(&mut self, content: PlanContent, v1_plan: bool) -> Applied {
        let id = content.id().clone();
        let at = if v1_plan {
            self.v1_plan
        } else {
            self.index.get(&id).copied()
        };
        if let Some(at) = at {
            let plan = &mut self.plans[at];
            if plan.content == content {
                // Agents send the same plan again (Claude's task tools do,
                // about every other update): nothing changed, nothing to redraw.
                plan.version += 1;
                plan.repeats += 1;
                return Applied::Unchanged { id };
            }
            plan.changes = Changes::between_versions(plan.content.entries(), content.entries());
            plan.content = content;
            plan.version += 1;
            Applied::Updated { id, created: false }
        } else {
            let at = self.plans.len();
            if v1_plan {
                self.v1_plan = Some(at);
            } else {
                self.index.insert(id.clone(), at);
            }
            let changes = Changes::between_versions(None, content.entries());
            self.plans.push(TrackedPlan {
                content,
                version: 1,
                repeats: 0,
                changes,
                v1_plan,
            });
            Applied::Updated { id, created: true }
        }
    }

    /// The board as JSON: the session, and every plan in order with its
    /// type, its content in `spelling`, and its progress; the v1 plan has
    /// `"v1Plan": true`.
    pub fn to_json_value(&self, spelling: Spelling) -> Value {
        let plans = self
            .plans
            .iter()
            .map(|p| (&p.content, p.version, p.v1_plan));
        board_json(&self.session, plans, spelling)
    }
}

/// A board as JSON, from its session and its plans (content, version, and
/// whether it is the v1 plan): the one shape of [`PlanBoard::to_json_value`],
/// also used for the boards a fixture stream expects.
pub(crate) fn board_json<'a>(
    session: &SessionId,
    plans: impl Iterator<Item = (&'a PlanContent, u32, bool)>,
    spelling: Spelling,
) -> Value {
    let plans: Vec<Value> = plans
        .map(|(content, version, v1_plan)| {
            let mut value = json!({
                "id": content.id().as_str(),
                "type": content.type_name(),
                "version": version,
                "content": content.to_value(spelling),
            });
            if v1_plan {
                value["v1Plan"] = Value::Bool(true);
            }
            if let Some(entries) = content.entries() {
                let progress = Progress::of(entries);
                value["progress"] = json!({
                    "completed": progress.completed,
                    "cancelled": progress.cancelled,
                    "total": progress.total,
                });
            }
            value
        })
        .collect();
    json!({ "sessionId": session.as_str(), "plans": plans })
}

impl TrackedPlan {
    /// The plan's content, as the last update sent it.
    pub fn content(&self) -> &PlanContent {
        &self.content
    }

    /// The plan's id.
    pub fn id(&self) -> &PlanId {
        self.content.id()
    }

    /// How many updates the plan has had (1 when just created), repeats
    /// included.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// How many of its updates were equal to the plan as it already was
    /// ([`Applied::Unchanged`]).
    pub fn repeats(&self) -> u32 {
        self.repeats
    }

    /// What the last update that changed the plan changed (for an items
    /// plan; empty otherwise), matched as [`Changes`] says.
    pub fn changes(&self) -> &Changes {
        &self.changes
    }

    /// Progress of an items plan; `None` for other types.
    pub fn progress(&self) -> Option<Progress> {
        self.content.entries().map(Progress::of)
    }

    /// The first entry in progress, if any.
    pub fn in_progress(&self) -> Option<&PlanEntry> {
        self.content
            .entries()?
            .iter()
            .find(|e| e.status == Status::InProgress)
    }

    /// Whether the plan is the v1 session plan (shown as `main`, from `plan`
    /// updates), not a v2 plan.
    pub fn is_v1_plan(&self) -> bool {
        self.v1_plan
    }
}

/// One [`PlanBoard`] per session, so a message for one session never touches
/// another's plans.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionBoards {
    boards: Vec<PlanBoard>,
    /// Where each session's board is in `boards`.
    index: HashMap<SessionId, usize>,
    strictness: Strictness,
}

/// No sessions yet, read leniently.
impl Default for SessionBoards {
    fn default() -> Self {
        Self {
            boards: Vec::new(),
            index: HashMap::new(),
            strictness: Strictness::Lenient,
        }
    }
}

impl SessionBoards {
    /// No sessions yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Boards that read strictly (see [`PlanBoard::strict`]).
    #[must_use]
    pub fn strict(mut self) -> Self {
        self.strictness = Strictness::Strict;
        self
    }

    /// Reads one JSON-RPC line and applies it to its session's board
    /// (created on first sight), leniently unless [`strict`](Self::strict),
    /// as [`PlanBoard::apply_json`] does.
    ///
    /// # Errors
    /// A malformed message, with where it is wrong; no board changes.
    pub fn apply_json(&mut self, line: &str) -> Result<Parsed<Applied>, Error> {
        apply_line(line, self.strictness, |notification| {
            self.apply(notification)
        })
    }

    /// [`apply_json`](Self::apply_json) for bytes as a transport hands them
    /// over; bytes that are not UTF-8 are an error saying where.
    ///
    /// # Errors
    /// A malformed message; no board changes.
    pub fn apply_slice(&mut self, line: &[u8]) -> Result<Parsed<Applied>, Error> {
        self.apply_json(crate::codec::wire_type::utf8(line)?)
    }

    /// Applies one notification to its session's board.
    pub fn apply(&mut self, notification: SessionNotification) -> Applied {
        let index = match self.index.get(&notification.session_id) {
            Some(&index) => index,
            None => {
                let mut board = PlanBoard::new(notification.session_id.clone());
                board.strictness = self.strictness;
                self.boards.push(board);
                let index = self.boards.len() - 1;
                self.index.insert(notification.session_id.clone(), index);
                index
            }
        };
        self.boards[index].apply(notification)
    }

    /// The boards, in order of each session's first message.
    pub fn boards(&self) -> impl ExactSizeIterator<Item = &PlanBoard> {
        self.boards.iter()
    }

    /// One session's board.
    pub fn get(&self, session: &SessionId) -> Option<&PlanBoard> {
        self.index.get(session).map(|&i| &self.boards[i])
    }

    /// Every board as JSON ([`PlanBoard::to_json_value`]), in order of each
    /// session's first message.
    pub fn to_json_value(&self, spelling: Spelling) -> Value {
        Value::Array(
            self.boards
                .iter()
                .map(|b| b.to_json_value(spelling))
                .collect(),
        )
    }
}
