//! The protocol versions this crate speaks.

use std::fmt;

use crate::protocol::capabilities::ClientCapabilities;
use crate::rules;

/// An ACP protocol version this crate speaks.
///
/// The two differ in what a plan message may carry (see [`ClientKind`] and
/// [`PlanSender`]), as the protocol stabilized on 2026-11-20 says:
/// - **v1** (stable, the default): the `plan` update; with the client's plan
///   capability (`clientCapabilities.plan`), `plan_update` (`items` and
///   `markdown`) and `plan_removed` too, always with v1's closed sets of
///   priorities and statuses.
/// - **v2** (a draft in every SDK): `plan_update` with `items`, `markdown`
///   and custom `_x` types, `plan_removed`, `cancelled` and custom `_x`
///   values, all without opt-in. There is no plan capability, and a v1
///   `plan` is an unknown update to a v2 reader.
///
/// [`PlanSender`]: crate::agent::PlanSender
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    /// Protocol version 1.
    V1,
    /// Protocol version 2.
    V2,
}

impl ProtocolVersion {
    /// The newest version this crate speaks.
    pub const LATEST: Self = Self::V2;

    /// The version number on the wire.
    pub const fn number(self) -> u16 {
        match self {
            Self::V1 => 1,
            Self::V2 => 2,
        }
    }

    /// The version an agent whose newest version is `agent_newest` answers
    /// a client that asked for `requested` (the client's newest): the same
    /// if the agent speaks it, else the agent's newest, as ACP's version
    /// negotiation says. A client that cannot speak the answer disconnects.
    /// The agent says what it speaks, so a v1 agent is never signed up for
    /// the v2 draft by a client that offers it.
    ///
    /// ```
    /// use plan_core::wire::ProtocolVersion::{self, V1, V2};
    ///
    /// assert_eq!(ProtocolVersion::negotiate(1, V2), V1);
    /// assert_eq!(ProtocolVersion::negotiate(2, V2), V2);
    /// assert_eq!(ProtocolVersion::negotiate(7, V2), V2);
    /// assert_eq!(ProtocolVersion::negotiate(2, V1), V1);
    /// ```
    pub const fn negotiate(requested: u64, agent_newest: Self) -> Self {
        match (requested, agent_newest) {
            (1, _) | (_, Self::V1) => Self::V1,
            _ => Self::V2,
        }
    }
}

/// The kinds of client that receive plans differently: one row each of the
/// protocol's version table (see [`PlanSender`] for what each is sent).
///
/// ```
/// use plan_core::{wire::{ClientCapabilities, ClientKind, ProtocolVersion, Spelling}};
///
/// let caps = ClientCapabilities::with_plan_support(Spelling::Acp);
/// assert_eq!(ClientKind::of(ProtocolVersion::V1, &caps), ClientKind::V1Plan);
/// assert_eq!(ClientKind::of(ProtocolVersion::V2, &caps), ClientKind::V2);
/// assert!(ClientKind::V1Plan.may_receive("plan_removed"));
/// assert!(!ClientKind::V1.may_receive("plan_update"));
/// assert_eq!(ClientKind::V1Plan.to_string(), "v1 with `plan`");
/// ```
///
/// [`PlanSender`]: crate::agent::PlanSender
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClientKind {
    /// v1, without the plan capability: the v1 `plan` update only.
    V1,
    /// v1, with `clientCapabilities.plan` (or the RFD's `planCapabilities`):
    /// `plan_update` and `plan_removed` with v1's closed values.
    V1Plan,
    /// v2 (a draft): `plan_update` and `plan_removed` with every v2 value.
    V2,
}

impl ClientKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [Self; 3] = [Self::V1, Self::V1Plan, Self::V2];

    /// The kind of a client of `protocol` with these capabilities (v2 has no
    /// plan capability; they are not consulted).
    pub fn of(protocol: ProtocolVersion, client: &ClientCapabilities) -> Self {
        match protocol {
            ProtocolVersion::V1 if client.supports_plan_operations() => Self::V1Plan,
            ProtocolVersion::V1 => Self::V1,
            ProtocolVersion::V2 => Self::V2,
        }
    }

    /// The kind a client turns out to be once the agent has answered its
    /// `initialize`: the client offered protocol `offered` with
    /// `capabilities` (its v1 keys, which a v2 offer may carry too) and the
    /// agent answered `answered`. An agent answers the client's version or
    /// an older one it speaks: an answer of 1 makes a v1 client, with or
    /// without plan operations by its capabilities; 2, to a client that
    /// offered 2 or more, a v2 client. Anything else (a version newer than
    /// offered, or one neither side knows) is no kind: the handshake broke.
    ///
    /// ```
    /// use plan_core::wire::{ClientCapabilities, ClientKind, Spelling};
    ///
    /// let plan = ClientCapabilities::with_plan_support(Spelling::Acp);
    /// let none = ClientCapabilities::default();
    /// assert_eq!(ClientKind::after_initialize(1, &none, 1), Some(ClientKind::V1));
    /// assert_eq!(ClientKind::after_initialize(1, &plan, 1), Some(ClientKind::V1Plan));
    /// // A v2 offer that carries v1's keys, answered by an agent of v1.
    /// assert_eq!(ClientKind::after_initialize(2, &plan, 1), Some(ClientKind::V1Plan));
    /// assert_eq!(ClientKind::after_initialize(2, &none, 2), Some(ClientKind::V2));
    /// assert_eq!(ClientKind::after_initialize(1, &plan, 2), None);
    /// ```
    pub fn after_initialize(
        offered: u64,
        capabilities: &ClientCapabilities,
        answered: u64,
    ) -> Option<Self> {
        match answered {
            1 if offered >= 1 => Some(Self::of(ProtocolVersion::V1, capabilities)),
            2 if offered >= 2 => Some(Self::V2),
            _ => None,
        }
    }

    /// The protocol version.
    pub const fn protocol(self) -> ProtocolVersion {
        match self {
            Self::V1 | Self::V1Plan => ProtocolVersion::V1,
            Self::V2 => ProtocolVersion::V2,
        }
    }

    /// Whether this client may be sent the `sessionUpdate` named `update`
    /// (`plan`, `plan_update` or `plan_removed`).
    pub fn may_receive(self, update: &str) -> bool {
        self.rules().allows_update(update)
    }

    /// This kind's row of the version table.
    pub(crate) const fn rules(self) -> &'static rules::VersionRow {
        match self {
            Self::V1 => &rules::V1,
            Self::V1Plan => &rules::V1_PLAN,
            Self::V2 => &rules::V2,
        }
    }
}

impl fmt::Display for ClientKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rules().label)
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.number())
    }
}
