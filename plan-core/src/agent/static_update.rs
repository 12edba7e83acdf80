//! A plan update whose JSON was written at compile time (`plan_json!`).

use std::io::{self, Write};

use crate::codec::Spelling;
use crate::protocol::id::SessionId;

/// The wire JSON of one `session/update`'s `update` object, in both
/// spellings, written by `plan_json!` at compile time.
///
/// Sending it costs writing bytes: no value is built, nothing is serialized
/// and nothing is allocated.
///
/// ```
/// use plan_core::{plan, plan_json, SessionId, SessionNotification, wire::Spelling};
///
/// const KICKOFF: plan_core::agent::StaticUpdate = plan_json! {
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
    /// `","update":{...}}}` in each spelling: everything after the session id.
    rfd_tail: &'static str,
    acp_tail: &'static str,
}

// The envelope's text is the text writer's: one place writes it.
use crate::codec::text_sink::NOTIFICATION_UPDATE as UPDATE;
use crate::codec::text_sink::{NOTIFICATION_CLOSE as CLOSE, NOTIFICATION_HEAD as HEAD};

impl StaticUpdate {
    /// Wraps the two texts; `plan_json!` is the way to make one. Each is
    /// `","update":` + the update's JSON + `}}`, so that a whole notification
    /// is three writes.
    #[doc(hidden)]
    pub const fn new(rfd_tail: &'static str, acp_tail: &'static str) -> Self {
        Self { rfd_tail, acp_tail }
    }

    fn tail(&self, spelling: Spelling) -> &'static str {
        match spelling {
            Spelling::Rfd => self.rfd_tail,
            Spelling::Acp => self.acp_tail,
        }
    }

    /// The `update` object's JSON in `spelling`.
    pub fn json(&self, spelling: Spelling) -> &'static str {
        let tail = self.tail(spelling);
        tail.get(UPDATE.len()..tail.len() - CLOSE.len())
            .unwrap_or(tail)
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
        writer.write_all(HEAD.as_bytes())?;
        crate::codec::text_sink::json_string_contents(&mut writer, session.as_str())?;
        writer.write_all(self.tail(spelling).as_bytes())
    }
}
