//! Reading and writing the `session/update` notification.

use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::codec::{self, Reading, Spelling, Wire};
use crate::error::{Error, Path};
use crate::protocol::notification::{METHOD, SessionNotification};

/// Framing, beside the `Wire` methods every type has.
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

/// Writes the `params` object.
pub(crate) struct Params<'a>(pub(crate) &'a SessionNotification, pub(crate) Spelling);

impl serde::Serialize for Params<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Params(notification, spelling) = self;
        let len = 2 + usize::from(notification.meta.is_some());
        let mut map = s.serialize_map(Some(len))?;
        map.serialize_entry(
            crate::rules::KEY_SESSION_ID,
            notification.session_id.as_str(),
        )?;
        map.serialize_entry(
            crate::rules::KEY_UPDATE,
            &codec::Spelled(&notification.update, *spelling),
        )?;
        codec::write_meta(&mut map, notification.meta.as_ref())?;
        map.end()
    }
}

impl Wire for SessionNotification {
    fn write<S: Serializer>(&self, spelling: Spelling, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry(crate::rules::KEY_JSONRPC, "2.0")?;
        map.serialize_entry(crate::rules::KEY_METHOD, METHOD)?;
        map.serialize_entry(crate::rules::KEY_PARAMS, &Params(self, spelling))?;
        map.end()
    }

    fn emit<W: std::io::Write>(&self, out: W, spelling: Spelling) -> std::io::Result<()> {
        crate::codec::text_writer::Emitter::new(out, spelling).notification(self)
    }

    fn read_str(json: &str, reading: &mut Reading) -> Result<Self, Error> {
        crate::codec::text_reader::notification(json, reading)
    }

    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        crate::codec::text_reader::notification_value(value, reading, at)
    }
}

codec::wire_methods!(SessionNotification, "a whole `session/update` notification");
