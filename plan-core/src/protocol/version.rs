//! The protocol versions this crate speaks.

use std::fmt;

/// An ACP protocol version this crate speaks.
///
/// The two differ in what a plan message may carry (see [`PlanSender`]):
/// - **v1**: the `plan` update; with the client's plan capability,
///   `plan_update` and `plan_removed` too (unstable in v1), but always with
///   v1's closed sets of priorities and statuses and only the `items`,
///   `file` and `markdown` types.
/// - **v2**: `plan_update` with `items` is stable, with `cancelled` and
///   custom `_x` values and types; `file`, `markdown` and `plan_removed` are
///   still unstable. There is no plan capability, and a v1 `plan` is an
///   unknown update to a v2 reader.
///
/// [`PlanSender`]: crate::PlanSender
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

    /// The version an agent answers a client that asked for `requested`
    /// (its latest): the same if this crate speaks it, else the newest one
    /// this crate speaks, as ACP's version negotiation says. A client that
    /// cannot speak the answer disconnects.
    ///
    /// ```
    /// use plan_core::ProtocolVersion;
    ///
    /// assert_eq!(ProtocolVersion::negotiate(1), ProtocolVersion::V1);
    /// assert_eq!(ProtocolVersion::negotiate(2), ProtocolVersion::V2);
    /// assert_eq!(ProtocolVersion::negotiate(7), ProtocolVersion::V2);
    /// ```
    pub const fn negotiate(requested: u64) -> Self {
        match requested {
            1 => Self::V1,
            _ => Self::LATEST,
        }
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.number())
    }
}
