//! The `session/update` notification: written (`Members`, `write_line`)
//! and read (`WireType`, the one reader's visitors: its envelope, then its
//! `params`).

use std::fmt;

use serde_core::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::codec::envelope::Member;
use crate::codec::read::shared::{KeySeed, KeysRead, StrSeed, next_str, read_meta, wrong};
use crate::codec::read::{self, shared::ReadState};
use crate::codec::strictness::ReadNotes;
use crate::codec::update::UpdateSeed;
use crate::codec::wire_type::WireType;
use crate::codec::writer::{Members, Sink};
use crate::error::{Error, ErrorKind, Path};
use crate::protocol::id::SessionId;
use crate::protocol::notification::{METHOD, SessionNotification};
use crate::protocol::spelling::Spelling;
use crate::protocol::update::SessionUpdate;
use crate::rules::{EnvelopeProblem, JSONRPC_VERSION, SESSION_UPDATE, check_envelope};

/// Framing, beside the `WireType` methods every type has.
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

    /// Reads a `session/update`'s `params` alone, in `strictness`: for a
    /// reader that took them from an envelope it read itself (a proxy
    /// unwrapping another message), so the envelope is not read again.
    /// Errors and skipped parts are at `params.…`, as in a whole message.
    ///
    /// ```
    /// use plan_core::{SessionNotification, wire::Strictness};
    ///
    /// let read = SessionNotification::from_params(
    ///     r#"{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}"#,
    ///     Strictness::Strict,
    /// )?;
    /// assert_eq!(read.value.session_id.as_str(), "s");
    /// let err = SessionNotification::from_params(r#"{"update":{}}"#, Strictness::Lenient).unwrap_err();
    /// assert!(err.to_string().starts_with("at `params"), "{err}");
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error`](crate::Error) as for a whole message's params: not JSON, or
    /// what the protocol forbids (what `strictness` does not drop).
    pub fn from_params(
        params: &str,
        strictness: crate::codec::strictness::Strictness,
    ) -> Result<crate::codec::strictness::Parsed<Self>, Error> {
        let mut reading = ReadNotes::new(strictness);
        let value = params_text(params, &mut reading)?;
        Ok(reading.into_parsed(value))
    }
}

/// The `params` object.
pub(crate) struct Params<'a>(pub(crate) &'a SessionNotification);

impl Members for Params<'_> {
    fn members<O: Sink>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
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
    fn members<O: Sink>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
        out.word(crate::rules::KEY_JSONRPC, crate::rules::JSONRPC_VERSION)?;
        out.word(crate::rules::KEY_METHOD, METHOD)?;
        out.object(crate::rules::KEY_PARAMS, &Params(self), spelling)
    }
}

impl WireType for SessionNotification {
    fn read_str(json: &str, reading: &mut ReadNotes) -> Result<Self, Error> {
        notification(json, reading)
    }

    fn read(value: Value, reading: &mut ReadNotes, at: &Path<'_>) -> Result<Self, Error> {
        notification_value(value, reading, at)
    }
}

super::wire_type::wire_methods!(SessionNotification, "a whole `session/update` notification");

// ---- reading: the one reader's visitors for this message, and its ways in ----

/// [`WireType::read`] of a notification: the visitors over a `Value`.
pub(in crate::codec) fn notification_value(
    value: Value,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<SessionNotification, Error> {
    read::from_value(value, reading, at, None, |state, input| {
        input.read(NotificationSeed { state, at })
    })
}

/// The `params` of a `session/update` (`at` is where they are): what the
/// SDK's untyped notification holds (feature `acp`).
#[cfg(feature = "acp")]
pub(crate) fn params_value(
    value: Value,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<SessionNotification, Error> {
    read::from_value(value, reading, at, None, |state, input| {
        input.read(ParamsSeed { state, at })
    })
}

/// A notification from JSON text: [`WireType::read_str`]'s way in.
pub(in crate::codec) fn notification(
    json: &str,
    reading: &mut ReadNotes,
) -> Result<SessionNotification, Error> {
    read::run(json, reading, |state, de| {
        NotificationSeed {
            state,
            at: &Path::Root,
        }
        .deserialize(de)
    })
}

/// A notification's `params` from their text, which the line's router took
/// from the envelope it read (`codec/line.rs`): the envelope is not read
/// again.
pub(in crate::codec) fn params_text(
    json: &str,
    reading: &mut ReadNotes,
) -> Result<SessionNotification, Error> {
    let at = Path::Root.key(crate::rules::KEY_PARAMS);
    read::run(json, reading, |state, de| {
        ParamsSeed { state, at: &at }.deserialize(de)
    })
}

/// An object of no known form, from the members the line's router split it
/// into, read as a notification: its error says what a notification misses.
pub(in crate::codec) fn notification_members(
    members: Vec<Member<'_>>,
    reading: &mut ReadNotes,
) -> Result<SessionNotification, Error> {
    read::from_members(members, reading, None, |state, input| {
        NotificationSeed {
            state,
            at: &Path::Root,
        }
        .deserialize(input)
    })
}

object_keys! {
    /// The keys of the notification's envelope.
    EnvelopeKey {
        JsonRpc(0) = crate::rules::KEY_JSONRPC,
        Method(1) = crate::rules::KEY_METHOD,
        Params(2) = crate::rules::KEY_PARAMS,
        Id(3) = crate::rules::KEY_ID,
    }
}

object_keys! {
    /// The keys of the notification's `params`.
    ParamsKey {
        SessionId(0) = crate::rules::KEY_SESSION_ID,
        Update(1) = crate::rules::KEY_UPDATE,
        Meta(2) = crate::rules::KEY_META,
    }
}

seed!(NotificationSeed, SessionNotification, "an object");

impl<'de> Visitor<'de> for NotificationSeed<'_, '_, '_> {
    type Value = SessionNotification;
    not_an_object!("an object");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SessionNotification, A::Error> {
        let at = self.at;
        let (mut version, mut method, mut params) = (false, false, None);
        let params_at = at.key(crate::rules::KEY_PARAMS);
        let mut seen = KeysRead::default();
        while let Some(key) = map.next_key_seed(KeySeed::new())? {
            seen.check(&key, self.state, self.at)?;
            match key {
                // The envelope is checked as it comes, so its mistakes are
                // reported before those of `params`, whatever the key order.
                EnvelopeKey::JsonRpc => {
                    let at = at.key(crate::rules::KEY_JSONRPC);
                    let version_text = next_str(&mut map, self.state, &at)?;
                    check_envelope(&version_text, SESSION_UPDATE)
                        .map_err(|problem| self.state.fail(at.invalid(problem)))?;
                    version = true;
                }
                EnvelopeKey::Method => {
                    let at = at.key(crate::rules::KEY_METHOD);
                    let method_text = next_str(&mut map, self.state, &at)?;
                    check_envelope(JSONRPC_VERSION, &method_text)
                        .map_err(|problem| self.state.fail(at.invalid(problem)))?;
                    method = true;
                }
                EnvelopeKey::Id => {
                    return Err(self
                        .state
                        .fail(at.key("id").invalid(EnvelopeProblem::HasId)));
                }
                EnvelopeKey::Params => {
                    params = Some(map.next_value_seed(ParamsSeed {
                        state: self.state,
                        at: &params_at,
                    })?);
                }
                EnvelopeKey::Other(_) => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        for (seen, field) in [(version, "jsonrpc"), (method, "method")] {
            if !seen {
                return Err(self.state.fail(at.error(ErrorKind::Missing { field })));
            }
        }
        params.ok_or_else(|| {
            self.state
                .fail(at.error(ErrorKind::Missing { field: "params" }))
        })
    }
}

seed!(ParamsSeed, SessionNotification, "an object");

impl<'de> Visitor<'de> for ParamsSeed<'_, '_, '_> {
    type Value = SessionNotification;
    not_an_object!("an object");

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SessionNotification, A::Error> {
        let at = self.at;
        let (mut session, mut update, mut early_update, mut meta) = (None, None, None, None);
        let update_at = at.key(crate::rules::KEY_UPDATE);
        let mut seen = KeysRead::default();
        while let Some(key) = map.next_key_seed(KeySeed::new())? {
            seen.check(&key, self.state, self.at)?;
            match key {
                ParamsKey::SessionId => session = Some(map.next_value_seed(StrSeed)?),
                // Before the session id, keep the update to read after it, so
                // a missing id is reported first, whatever the key order.
                ParamsKey::Update if session.is_none() => {
                    early_update = Some(map.next_value::<Value>()?);
                }
                ParamsKey::Update => {
                    update = Some(map.next_value_seed(UpdateSeed {
                        state: self.state,
                        at: &update_at,
                    })?);
                }
                ParamsKey::Meta => meta = Some(map.next_value::<Box<RawValue>>()?),
                ParamsKey::Other(_) => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let session = match session {
            Some(Ok(session)) => session.into_owned(),
            Some(Err(found)) => {
                return Err(wrong(
                    self.state,
                    &at.key(crate::rules::KEY_SESSION_ID),
                    "a string",
                    found,
                ));
            }
            None => return Err(self.state.fail(at.missing(crate::rules::KEY_SESSION_ID))),
        };
        let update = match (update, early_update) {
            (Some(update), _) => update,
            (None, Some(value)) => SessionUpdate::read(value, self.state.reading, &update_at)
                .map_err(|err| self.state.fail(err))?,
            (None, None) => return Err(self.state.fail(at.missing(crate::rules::KEY_UPDATE))),
        };
        let meta = read_meta(self.state, meta, at)?;
        Ok(SessionNotification {
            session_id: SessionId::new(session),
            update,
            meta,
        })
    }
}
