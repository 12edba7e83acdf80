//! A plan update whose JSON was written at compile time (`plan_json!`).

use std::io::{self, Write};

use crate::id::SessionId;
use crate::wire::Spelling;

/// The wire JSON of one `session/update`'s `update` object, in both
/// spellings, written by `plan_json!` at compile time.
///
/// Sending it costs writing bytes: no value is built, nothing is serialized
/// and nothing is allocated.
///
/// ```
/// use plan_core::{plan, plan_json, SessionId, SessionNotification, Spelling};
///
/// const KICKOFF: plan_core::StaticUpdate = plan_json! {
///     id: "plan-1",
///     items: [high pending "Analyze the existing codebase structure"],
/// };
/// let session = SessionId::new("sess_1");
/// let mut line = Vec::new();
/// KICKOFF.write_notification(&mut line, &session, Spelling::Acp)?;
///
/// // Byte for byte what building the plan and serializing it gives.
/// let built = plan! { id: "plan-1", items: [high pending "Analyze the existing codebase structure"] };
/// let message = SessionNotification::new(session, built.into());
/// assert_eq!(String::from_utf8(line).unwrap(), message.to_json(Spelling::Acp));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaticUpdate {
    rfd: &'static str,
    acp: &'static str,
}

impl StaticUpdate {
    /// Wraps the two texts; `plan_json!` is the way to make one.
    #[doc(hidden)]
    pub const fn new(rfd: &'static str, acp: &'static str) -> Self {
        Self { rfd, acp }
    }

    /// The `update` object's JSON in `spelling`.
    pub const fn json(&self, spelling: Spelling) -> &'static str {
        match spelling {
            Spelling::Rfd => self.rfd,
            Spelling::Acp => self.acp,
        }
    }

    /// Writes the whole `session/update` notification for `session`, as
    /// [`SessionNotification::write_json`](crate::SessionNotification::write_json)
    /// would for the same update.
    ///
    /// # Errors
    /// The writer's I/O error.
    pub fn write_notification<W: Write>(
        &self,
        mut writer: W,
        session: &SessionId,
        spelling: Spelling,
    ) -> io::Result<()> {
        writer
            .write_all(br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"#)?;
        crate::emit::json_string(&mut writer, session.as_str())?;
        writer.write_all(br#","update":"#)?;
        writer.write_all(self.json(spelling).as_bytes())?;
        writer.write_all(b"}}")
    }
}
