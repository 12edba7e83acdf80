//! The sender's side of the rules: what a conforming peer must not send,
//! even though a tolerant reader keeps it.

use std::borrow::Cow;
use std::fmt;

use crate::error::Path;
use crate::protocol::content::PlanContent;
use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::SessionUpdate;
use crate::protocol::version::{ClientKind, ProtocolVersion};
use crate::rules::{self, NameProblem, NotInV1, check_content};

/// One thing in a message that a conforming peer must not send, or that a
/// published SDK reader of the protocol version would reject or drop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    path: String,
    message: String,
    rule: &'static str,
    fix: Option<Cow<'static, str>>,
}

impl Violation {
    /// A violation of `rule` at `path` (for checks of your own, beside these).
    pub fn new(path: impl Into<String>, rule: &'static str, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
            rule,
            fix: None,
        }
    }

    /// What to send instead: for a rule whose value
    /// [`PlanSender`](crate::agent::PlanSender) maps, its fallback, in the
    /// version table's words; for a reserved name, the value read made
    /// right (the known name it likely meant, or its `_` form).
    pub fn fix(&self) -> Option<&str> {
        self.fix.as_deref()
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

    /// The names of every rule `check` applies (the version table's, in
    /// `rules/versions.rs`):
    /// - `blank-content`: an entry whose content is empty or white space
    ///   (readers keep it; it tells the user nothing);
    /// - `reserved-name`: a non-`_` name that is not known (reserved for ACP);
    /// - `v1-no-opt-in`: `plan_update` or `plan_removed` to a v1 client that
    ///   did not send `clientCapabilities.plan` (only with
    ///   [`check_for_client`](SessionUpdate::check_for_client));
    /// - `v1-values`: `cancelled` or a custom `_x` value where v1 is read
    ///   (a v1 `plan`; any plan under protocol v1): the v1 reader drops the entry;
    /// - `v1-plan-types`: a custom plan type under protocol v1, which has
    ///   only `items` and `markdown`: the v1 reader rejects the message;
    /// - `v2-no-v1-plan`: a v1 `plan` under protocol v2, an unknown update there;
    /// - `pre-stable-file`: a `file` plan, which the protocol stabilized on
    ///   2026-11-20 no longer has (send `markdown` with a `path`);
    /// - `absolute-path`: a markdown `path` that is not absolute (only a
    ///   message read leniently can hold one);
    /// - `blank-plan-id`: a plan id that is empty or white space (only a
    ///   message read leniently can hold one).
    pub const RULES: &'static [&'static str] = &{
        let mut names = [""; rules::CHECK_RULES.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = rules::CHECK_RULES[i].name;
            i += 1;
        }
        names
    };
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at `{}`: {}", self.path, self.message)
    }
}

impl std::error::Error for Violation {}

struct Checker {
    found: Vec<Violation>,
    /// The client the message is for, if known: its row of the version table.
    kind: Option<ClientKind>,
}

impl Checker {
    fn new(kind: Option<ClientKind>) -> Self {
        Self {
            found: Vec::new(),
            kind,
        }
    }

    fn report(&mut self, at: &Path<'_>, rule: rules::CheckRule, message: impl fmt::Display) {
        let mut violation = Violation::new(at.render(), rule.name, message.to_string());
        violation.fix = rule
            .fallback
            .map(|fallback| Cow::Borrowed(fallback.wording));
        self.found.push(violation);
    }

    /// A reserved `name` of `what` (known names `known`): the one wording
    /// of the rules folder, its "did you mean" included, and a fix that
    /// names the value read.
    fn reserved(&mut self, at: &Path<'_>, what: &str, name: &str, known: &[&'static str]) {
        let suggestion = rules::suggest(name, known);
        self.report(
            at,
            rules::RULE_RESERVED_NAME,
            rules::UnknownName {
                what,
                name,
                problem: NameProblem::Reserved,
                suggestion,
            },
        );
        let fix = match suggestion {
            Some(near) => format!("write `{near}` (or `_{name}` for a {what} of your own)"),
            None => format!("write `_{name}`: a {what} of your own begins with `_`"),
        };
        if let Some(last) = self.found.last_mut() {
            last.fix = Some(Cow::Owned(fix));
        }
    }

    fn not_in_v1(&mut self, at: &Path<'_>, what: &str, name: &str) {
        // The rule's fallback is for `cancelled`; a custom value has its own.
        let rule = if name.starts_with('_') {
            rules::CheckRule {
                fallback: Some(rules::FALLBACK_CUSTOM_VALUE),
                ..rules::RULE_V1_VALUES
            }
        } else {
            rules::RULE_V1_VALUES
        };
        self.report(
            at,
            rule,
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
                self.report(
                    &at.key(rules::KEY_CONTENT),
                    rules::RULE_BLANK_CONTENT,
                    problem,
                );
            }
            self.priority(&entry.priority, v1, &at.key(crate::rules::KEY_PRIORITY));
            self.status(&entry.status, v1, &at.key(crate::rules::KEY_STATUS));
        }
    }

    fn priority(&mut self, priority: &Priority, v1: bool, at: &Path<'_>) {
        match priority {
            Priority::Reserved(name) => {
                self.reserved(at, "priority", name.as_str(), &rules::KNOWN_PRIORITIES);
            }
            Priority::Custom(name) if v1 => self.not_in_v1(at, "priority", name.as_str()),
            _ => {}
        }
    }

    fn status(&mut self, status: &Status, v1: bool, at: &Path<'_>) {
        match status {
            Status::Reserved(name) => {
                self.reserved(at, "status", name.as_str(), &rules::KNOWN_STATUSES);
            }
            Status::Cancelled if v1 => self.not_in_v1(at, "status", status.as_str()),
            Status::Custom(name) if v1 => self.not_in_v1(at, "status", name.as_str()),
            _ => {}
        }
    }

    fn update(&mut self, update: &SessionUpdate, at: &Path<'_>) {
        let row = self.kind.map(ClientKind::rules);
        let v1 = row.is_some_and(|row| !row.custom_values);
        let name = match update {
            SessionUpdate::Plan(_) => rules::TAG_PLAN,
            SessionUpdate::PlanUpdate { .. } => rules::TAG_PLAN_UPDATE,
            SessionUpdate::PlanRemoved { .. } => rules::TAG_PLAN_REMOVED,
            SessionUpdate::Other(_) => return,
        };
        if let Some(row) = row.filter(|row| !row.allows_update(name)) {
            let at = at.key(rules::KEY_SESSION_UPDATE);
            if row.protocol == 1 {
                self.report(&at, rules::RULE_NO_OPT_IN, format_args!(
                    "`{name}` goes only to a v1 client that sent `clientCapabilities.plan`; a client without it ignores the update (send the v1 `plan`, as `PlanSender` does)"
                ));
            } else {
                self.report(&at, rules::RULE_V2_NO_V1_PLAN,
                    "a v2 reader takes the v1 `plan` update for an unknown update and shows nothing; send `plan_update` with an `items` plan",
                );
            }
        }
        match update {
            SessionUpdate::Plan(plan) => {
                self.entries(&plan.entries, true, &at.key(rules::KEY_ENTRIES));
            }
            SessionUpdate::PlanUpdate { plan, .. } => {
                let at = at.key(rules::KEY_PLAN);
                self.plan_id(plan.id().as_str(), &at);
                self.plan(plan, v1, &at);
            }
            SessionUpdate::PlanRemoved { id, .. } => self.plan_id(id.as_str(), at),
            SessionUpdate::Other(_) => {}
        }
    }

    /// A blank plan id (a lenient reader keeps one, as the SDKs do).
    fn plan_id(&mut self, id: &str, at: &Path<'_>) {
        if let Err(problem) = rules::check_plan_id(id) {
            self.report(&at.key(rules::KEY_PLAN_ID), rules::RULE_BLANK_ID, problem);
        }
    }

    fn plan(&mut self, plan: &PlanContent, v1: bool, at: &Path<'_>) {
        let type_at = at.key(rules::KEY_TYPE);
        match plan {
            PlanContent::Items { entries, .. } => {
                self.entries(entries, v1, &at.key(rules::KEY_ENTRIES));
            }
            PlanContent::Reserved { kind, .. } => {
                self.reserved(&type_at, "plan type", kind.as_str(), &rules::KNOWN_PLAN_TYPES);
            }
            PlanContent::Custom { kind, .. } if v1 => self.report(
                &type_at,
                rules::RULE_V1_PLAN_TYPES,
                format_args!("protocol v1 knows only the plan types `items` and `markdown`; a v1 reader rejects the custom type `{kind}`"),
            ),
            PlanContent::File { .. } => self.report(
                &type_at,
                rules::RULE_FILE_PLAN,
                "`file` plans are not in the protocol stabilized on 2026-11-20, and a client on a current SDK cannot read them; send a `markdown` plan with an absolute `path` (`PlanSender` does)",
            ),
            PlanContent::Markdown { path: Some(path), .. } => {
                if let Err(problem) = rules::check_absolute_path(path.as_str()) {
                    self.report(&at.key(rules::KEY_PATH), rules::RULE_PATH, problem);
                }
            }
            PlanContent::Custom { .. } | PlanContent::Markdown { .. } => {}
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

    /// [`check`](Self::check), plus what a reader of `protocol` would
    /// reject, drop or not understand: under v1, v2-only values and custom
    /// plan types; under v2, the v1 `plan` update. Under v1 it takes the
    /// client to have sent `plan`; [`check_for_client`](Self::check_for_client)
    /// also knows a client that did not.
    ///
    /// ```
    /// use plan_core::{SessionUpdate, wire::ProtocolVersion};
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
        self.check_for_client(for_protocol(protocol))
    }

    /// [`check`](Self::check), plus what a client of `kind` may not be sent,
    /// as the version table says: every rule of [`check_for`](Self::check_for),
    /// and `plan_update`/`plan_removed` to a v1 client without `plan`.
    ///
    /// ```
    /// use plan_core::{SessionUpdate, wire::ClientKind};
    ///
    /// let update = SessionUpdate::from_json(r#"{"sessionUpdate":"plan_removed","planId":"p"}"#)?;
    /// assert!(update.check_for_client(ClientKind::V1Plan).is_ok());
    /// assert_eq!(update.check_for_client(ClientKind::V1).unwrap_err()[0].rule(), "v1-no-opt-in");
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// Every violation, in message order.
    pub fn check_for_client(&self, kind: ClientKind) -> Result<(), Vec<Violation>> {
        let mut checker = Checker::new(Some(kind));
        checker.update(self, &Path::Root);
        checker.finish()
    }
}

/// The kind `check_for(protocol)` judges for: under v1, a client that sent `plan`.
fn for_protocol(protocol: ProtocolVersion) -> ClientKind {
    match protocol {
        ProtocolVersion::V1 => ClientKind::V1Plan,
        ProtocolVersion::V2 => ClientKind::V2,
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
        self.checked(Some(for_protocol(protocol)))
    }

    /// [`SessionUpdate::check_for_client`] for the notification's update;
    /// paths start at `params.update`.
    ///
    /// # Errors
    /// Every violation, in message order.
    pub fn check_for_client(&self, kind: ClientKind) -> Result<(), Vec<Violation>> {
        self.checked(Some(kind))
    }

    fn checked(&self, kind: Option<ClientKind>) -> Result<(), Vec<Violation>> {
        let mut checker = Checker::new(kind);
        let params = Path::Root;
        let params = params.key(crate::rules::KEY_PARAMS);
        checker.update(&self.update, &params.key(crate::rules::KEY_UPDATE));
        checker.finish()
    }
}
