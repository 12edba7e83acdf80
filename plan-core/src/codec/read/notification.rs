//! A `session/update` notification read: its JSON-RPC envelope, then its
//! `params` (the session id, the update, `_meta`).

use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::codec::Readable;
use crate::error::{ErrorKind, Path};
use crate::protocol::id::SessionId;
use crate::protocol::notification::SessionNotification;
use crate::protocol::update::SessionUpdate;
use crate::rules::{EnvelopeProblem, JSONRPC_VERSION, SESSION_UPDATE, check_envelope};
use serde_json::value::RawValue;

use super::ReadState;
use super::shared::{KeySeed, Seen, StrSeed, next_str, read_meta, wrong};
use super::update::UpdateSeed;

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
        let mut seen = Seen::default();
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
        let mut seen = Seen::default();
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
