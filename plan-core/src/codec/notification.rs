//! Reading and writing the `session/update` notification.

use serde_json::Value;

use crate::codec::{self, Members, Out, Readable, Reading, Spelling};
use crate::error::{Error, Path};
use crate::protocol::notification::{METHOD, SessionNotification};

/// Framing, beside the `Readable` methods every type has.
impl SessionNotification {
    /// Writes the notification as one NDJSON line (compact JSON and `\n`),
    /// the framing ACP uses over stdio, and flushes.
    ///
    /// # Errors
    /// The writer's error; a closed pipe is `BrokenPipe`, never a panic.
    pub fn write_line<W: std::io::Write>(
        &self,
        mut out: W,
        spelling: Spelling,
    ) -> std::io::Result<()> {
        self.write_json(&mut out, spelling)?;
        out.write_all(b"\n")?;
        out.flush()
    }
}

/// The `params` object.
pub(crate) struct Params<'a>(pub(crate) &'a SessionNotification);

impl Members for Params<'_> {
    fn members<O: Out>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
        // Every field named: one this writer forgets does not compile.
        let SessionNotification {
            session_id,
            update,
            meta,
        } = self.0;
        out.str(crate::rules::KEY_SESSION_ID, session_id.as_str())?;
        out.object(crate::rules::KEY_UPDATE, update, spelling)?;
        out.meta(meta.as_ref())
    }
}

impl Members for SessionNotification {
    fn members<O: Out>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
        out.word(crate::rules::KEY_JSONRPC, crate::rules::JSONRPC_VERSION)?;
        out.word(crate::rules::KEY_METHOD, METHOD)?;
        out.object(crate::rules::KEY_PARAMS, &Params(self), spelling)
    }
}

impl Readable for SessionNotification {
    fn read_str(json: &str, reading: &mut Reading) -> Result<Self, Error> {
        crate::codec::read::notification(json, reading)
    }

    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        crate::codec::read::notification_value(value, reading, at)
    }
}

codec::wire_methods!(SessionNotification, "a whole `session/update` notification");
