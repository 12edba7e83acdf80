//! The sender's side of the rules: what a conforming peer must not send,
//! even though a tolerant reader keeps it.

use std::fmt;

use crate::error::Path;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::SessionUpdate;
use crate::protocol::version::ProtocolVersion;
use crate::rules::{ExplainName, NameProblem, NotInV1, check_content};

/// One thing in a message that a conforming peer must not send, or that a
/// published SDK reader of the protocol version would reject or drop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    path: String,
    message: String,
    rule: &'static str,
}

impl Violation {
    /// A violation of `rule` at `path` (for checks of your own, beside these).
    pub fn new(path: impl Into<String>, rule: &'static str, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
            rule,
        }
    }

    /// Where it is, e.g. `plan.entries[0].priority`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong, in one sentence.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The rule's name, one of [`Violation::RULES`].
    pub fn rule(&self) -> &'static str {
        self.rule
    }

    /// Every rule `check` applies, by name:
    /// - `blank-content`: an entry whose content is empty or white space
    ///   (readers keep it; it tells the user nothing);
    /// - `reserved-name`: a non-`_` name that is not known (reserved for ACP);
    /// - `v1-values`: `cancelled` or a custom `_x` value where v1 is read
    ///   (a v1 `plan`; any plan under protocol v1): the v1 reader drops the entry;
    /// - `v1-plan-types`: a plan type v1 does not have (custom or reserved)
    ///   under protocol v1: the v1 reader rejects the message;
    /// - `v2-no-v1-plan`: a v1 `plan` under protocol v2, an unknown update there;
    /// - `v2-unstable`: `file`, `markdown` or `plan_removed` under protocol
    ///   v2, read only by readers of v2's unstable schema.
    pub const RULES: &'static [&'static str] = &[
        BLANK_CONTENT,
        RESERVED,
        V1_VALUES,
        V1_PLAN_TYPES,
        V2_NO_V1_PLAN,
        V2_UNSTABLE,
    ];
}

const BLANK_CONTENT: &str = "blank-content";
const RESERVED: &str = "reserved-name";
const V1_VALUES: &str = "v1-values";
const V1_PLAN_TYPES: &str = "v1-plan-types";
const V2_NO_V1_PLAN: &str = "v2-no-v1-plan";
const V2_UNSTABLE: &str = "v2-unstable";

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at `{}`: {}", self.path, self.message)
    }
}

impl std::error::Error for Violation {}

struct Checker {
    found: Vec<Violation>,
    protocol: Option<ProtocolVersion>,
}

impl Checker {
    fn new(protocol: Option<ProtocolVersion>) -> Self {
        Self {
            found: Vec::new(),
            protocol,
        }
    }

    fn report(&mut self, at: &Path<'_>, rule: &'static str, message: impl fmt::Display) {
        self.found
            .push(Violation::new(at.render(), rule, message.to_string()));
    }

    fn reserved(&mut self, at: &Path<'_>, name: &str) {
        self.report(
            at,
            RESERVED,
            ExplainName {
                problem: NameProblem::Reserved,
                name,
            },
        );
    }

    fn not_in_v1(&mut self, at: &Path<'_>, what: &str, name: &str) {
        self.report(
            at,
            V1_VALUES,
            format_args!(
                "{}; a v1 reader drops this entry without a word",
                NotInV1 { what, name }
            ),
        );
    }

    fn entries(&mut self, entries: &[PlanEntry], v1: bool, at: &Path<'_>) {
        for (index, entry) in entries.iter().enumerate() {
            let at = at.index(index);
            if let Err(problem) = check_content(&entry.content) {
                self.report(&at.key("content"), BLANK_CONTENT, problem);
            }
            self.priority(&entry.priority, v1, &at.key("priority"));
            self.status(&entry.status, v1, &at.key("status"));
        }
    }

    fn priority(&mut self, priority: &Priority, v1: bool, at: &Path<'_>) {
        match priority {
            Priority::Reserved(name) => self.reserved(at, name.as_str()),
            Priority::Custom(name) if v1 => self.not_in_v1(at, "priority", name.as_str()),
            _ => {}
        }
    }

    fn status(&mut self, status: &Status, v1: bool, at: &Path<'_>) {
        match status {
            Status::Reserved(name) => self.reserved(at, name.as_str()),
            Status::Cancelled if v1 => self.not_in_v1(at, "status", status.as_str()),
            Status::Custom(name) if v1 => self.not_in_v1(at, "status", name.as_str()),
            _ => {}
        }
    }

    fn update(&mut self, update: &SessionUpdate, at: &Path<'_>) {
        let v1 = self.protocol == Some(ProtocolVersion::V1);
        let v2 = self.protocol == Some(ProtocolVersion::V2);
        match update {
            SessionUpdate::Plan(plan) => {
                if v2 {
                    self.report(
                        &at.key("sessionUpdate"),
                        V2_NO_V1_PLAN,
                        "a v2 reader takes the v1 `plan` update for an unknown update and shows nothing; send `plan_update` with an `items` plan",
                    );
                }
                self.entries(&plan.entries, true, &at.key("entries"));
            }
            SessionUpdate::PlanUpdate { plan, .. } => {
                let at = at.key("plan");
                match plan {
                    PlanContent::Items { entries, .. } => {
                        self.entries(entries, v1, &at.key("entries"));
                    }
                    PlanContent::Reserved { kind, .. } => {
                        self.reserved(&at.key("type"), kind.as_str());
                    }
                    PlanContent::Custom { kind, .. } if v1 => self.report(
                        &at.key("type"),
                        V1_PLAN_TYPES,
                        format_args!("protocol v1 knows only the plan types `items`, `file` and `markdown`; a v1 reader rejects the custom type `{kind}`"),
                    ),
                    PlanContent::File { .. } | PlanContent::Markdown { .. } if v2 => self.report(
                        &at.key("type"),
                        V2_UNSTABLE,
                        format_args!("`{}` plans are unstable in protocol v2: only a reader of v2's unstable schema shows them", plan.type_name()),
                    ),
                    _ => {}
                }
            }
            SessionUpdate::PlanRemoved { .. } if v2 => self.report(
                &at.key("sessionUpdate"),
                V2_UNSTABLE,
                "`plan_removed` is unstable in protocol v2: only a reader of v2's unstable schema acts on it",
            ),
            SessionUpdate::PlanRemoved { .. } | SessionUpdate::Other(_) => {}
        }
    }

    fn finish(self) -> Result<(), Vec<Violation>> {
        if self.found.is_empty() {
            Ok(())
        } else {
            Err(self.found)
        }
    }
}

impl SessionUpdate {
    /// Checks what a conforming agent may send under any protocol version:
    /// no reserved (non-`_`) names, and in a v1 `plan` update, only v1's
    /// closed sets of priorities and statuses (no `cancelled`, no custom
    /// values). [`check_for`](Self::check_for) adds the rules of one version.
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
    /// assert_eq!(violations[0].rule(), "v1-values");
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// Every violation, in message order.
    pub fn check(&self) -> Result<(), Vec<Violation>> {
        let mut checker = Checker::new(None);
        checker.update(self, &Path::Root);
        checker.finish()
    }

    /// [`check`](Self::check), plus what the published SDK reader of
    /// `protocol` would reject, drop or not understand: under v1, v2-only
    /// values and custom plan types; under v2, the v1 `plan` update and the
    /// variants still unstable there.
    ///
    /// ```
    /// use plan_core::{ProtocolVersion, SessionUpdate};
    ///
    /// let update = SessionUpdate::from_json(
    ///     r#"{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[{"content":"a","priority":"_p","status":"pending"}]}}"#,
    /// )?;
    /// assert!(update.check_for(ProtocolVersion::V2).is_ok());
    /// assert_eq!(update.check_for(ProtocolVersion::V1).unwrap_err()[0].rule(), "v1-values");
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// Every violation, in message order.
    pub fn check_for(&self, protocol: ProtocolVersion) -> Result<(), Vec<Violation>> {
        let mut checker = Checker::new(Some(protocol));
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
        self.checked(None)
    }

    /// [`SessionUpdate::check_for`] for the notification's update; paths
    /// start at `params.update`.
    ///
    /// # Errors
    /// Every violation, in message order.
    pub fn check_for(&self, protocol: ProtocolVersion) -> Result<(), Vec<Violation>> {
        self.checked(Some(protocol))
    }

    fn checked(&self, protocol: Option<ProtocolVersion>) -> Result<(), Vec<Violation>> {
        let mut checker = Checker::new(protocol);
        let params = Path::Root;
        let params = params.key("params");
        checker.update(&self.update, &params.key("update"));
        checker.finish()
    }
}
