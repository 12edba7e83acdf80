//! Reading and writing the `session/update` notification.

use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::codec::{self, Reading, Spelling, Wire};
use crate::error::{Error, ErrorKind, Path};
use crate::protocol::id::SessionId;
use crate::protocol::notification::{METHOD, SessionNotification};
use crate::protocol::update::SessionUpdate;
use crate::rules::{EnvelopeProblem, check_envelope};

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
        let mut envelope = codec::expect_object(value, at)?;
        let version = codec::take_string(&mut envelope, crate::rules::KEY_JSONRPC, at)?;
        let method = codec::take_string(&mut envelope, crate::rules::KEY_METHOD, at)?;
        if let Err(problem) = check_envelope(&version, &method) {
            let key = match problem {
                EnvelopeProblem::Version(_) => "jsonrpc",
                EnvelopeProblem::Method(_) | EnvelopeProblem::HasId => "method",
            };
            return Err(at.key(key).invalid(problem));
        }
        if envelope.contains_key("id") {
            return Err(at.key("id").invalid(EnvelopeProblem::HasId));
        }
        let params = envelope
            .remove(crate::rules::KEY_PARAMS)
            .ok_or_else(|| at.error(ErrorKind::Missing { field: "params" }))?;
        read_params(params, reading, &at.key(crate::rules::KEY_PARAMS))
    }
}

/// Reads the `params` object of a `session/update` (`at` is where it is).
pub(crate) fn read_params(
    params: Value,
    reading: &mut Reading,
    at: &Path<'_>,
) -> Result<SessionNotification, Error> {
    let mut params = codec::expect_object(params, at)?;
    let session_id = codec::take_string(&mut params, crate::rules::KEY_SESSION_ID, at)?;
    let update = params
        .remove(crate::rules::KEY_UPDATE)
        .ok_or_else(|| at.missing(crate::rules::KEY_UPDATE))?;
    let update = SessionUpdate::read(update, reading, &at.key(crate::rules::KEY_UPDATE))?;
    let meta = codec::take_meta(&mut params, reading, at)?;
    Ok(SessionNotification {
        session_id: SessionId::new(session_id),
        update,
        meta,
    })
}

codec::wire_methods!(SessionNotification, "a whole `session/update` notification");
