//! The two spellings of the same messages.

use std::fmt;

use crate::rules::PLAN_ID_KEYS;

/// Which of the two spellings in use today a message is written in.
///
/// The source documents (the Plan Operations RFD) and the ACP schema as
/// published today name two fields differently:
///
/// | | [`Spelling::Rfd`] | [`Spelling::Acp`] |
/// |---|---|---|
/// | plan id in `plan_update`'s `plan` and in `plan_removed` | `id` | `planId` |
/// | the client capability | `planCapabilities` | `plan` |
///
/// Readers accept both; writers take the spelling as a parameter, and where
/// none is given (`Serialize`, `Default`) write the ACP spelling: it is what
/// every published SDK reads (they all refuse a plan id spelled `id`).
///
/// ```
/// use plan_core::{SessionUpdate, PlanId, wire::Spelling};
///
/// let removed = SessionUpdate::plan_removed(PlanId::new("plan-1")?);
/// assert_eq!(removed.to_json(Spelling::Rfd), r#"{"sessionUpdate":"plan_removed","id":"plan-1"}"#);
/// assert_eq!(removed.to_json(Spelling::Acp), r#"{"sessionUpdate":"plan_removed","planId":"plan-1"}"#);
/// # Ok::<(), plan_core::wire::InvalidPlanId>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Spelling {
    /// The source documents' spelling: `id`, `planCapabilities`. No published
    /// SDK reads it; write it only to a peer that asked for it.
    Rfd,
    /// The published ACP schema's spelling: `planId`, `plan`. The default.
    #[default]
    Acp,
}

impl Spelling {
    /// The key of a plan's id.
    pub const fn plan_id_key(self) -> &'static str {
        match self {
            Self::Rfd => PLAN_ID_KEYS[0],
            Self::Acp => PLAN_ID_KEYS[1],
        }
    }

    /// The key of the plan capability in `ClientCapabilities`.
    pub const fn capability_key(self) -> &'static str {
        match self {
            Self::Rfd => "planCapabilities",
            Self::Acp => "plan",
        }
    }
}

impl fmt::Display for Spelling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Rfd => "rfd",
            Self::Acp => "acp",
        })
    }
}
