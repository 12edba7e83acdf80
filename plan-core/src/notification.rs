//! The JSON-RPC `session/update` notification that carries every update.

use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;

use crate::error::{Error, ErrorKind, Path};
use crate::id::SessionId;
use crate::meta::Meta;
use crate::update::SessionUpdate;
use crate::wire::{self, Cx, Spelling, Wire};

/// The JSON-RPC method of every session update.
pub const METHOD: &str = "session/update";

/// A whole `session/update` notification: a session id and one update,
/// in the JSON-RPC 2.0 envelope.
///
/// ```
/// use plan_core::{PlanContent, PlanId, SessionNotification, SessionUpdate, Spelling};
///
/// let plan = PlanContent::markdown(PlanId::new("notes")?, "- [ ] Refactor");
/// let message = SessionNotification::new("sess_1", plan.into());
/// let json = message.to_json(Spelling::Acp);
/// assert_eq!(
///     json,
///     r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_1","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"notes","content":"- [ ] Refactor"}}}}"#
/// );
/// assert_eq!(SessionNotification::from_json(&json)?, message);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionNotification {
    /// The session the update belongs to.
    pub session_id: SessionId,
    /// The update.
    pub update: SessionUpdate,
    /// `_meta` of the notification's `params`.
    pub meta: Option<Meta>,
}

impl SessionNotification {
    /// A notification of `update` for `session_id`.
    pub fn new(session_id: impl Into<SessionId>, update: SessionUpdate) -> Self {
        Self {
            session_id: session_id.into(),
            update,
            meta: None,
        }
    }

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
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("sessionId", notification.session_id.as_str())?;
        map.serialize_entry("update", &wire::Spelled(&notification.update, *spelling))?;
        wire::write_meta(&mut map, notification.meta.as_ref())?;
        map.end()
    }
}

impl Wire for SessionNotification {
    fn write<S: Serializer>(&self, spelling: Spelling, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("method", METHOD)?;
        map.serialize_entry("params", &Params(self, spelling))?;
        map.end()
    }

    fn emit<W: std::io::Write>(&self, out: W, spelling: Spelling) -> std::io::Result<()> {
        crate::emit::Emitter::new(out, spelling).notification(self)
    }

    fn read_str(json: &str, cx: &mut Cx) -> Result<Self, Error> {
        crate::stream::notification(json, cx)
    }

    fn read(value: Value, cx: &mut Cx, at: &Path<'_>) -> Result<Self, Error> {
        let mut envelope = wire::expect_object(value, at)?;
        let version = wire::take_string(&mut envelope, "jsonrpc", at)?;
        if version != "2.0" {
            return Err(at.key("jsonrpc").invalid(format_args!(
                "expected JSON-RPC version \"2.0\", found {version:?}"
            )));
        }
        let method = wire::take_string(&mut envelope, "method", at)?;
        if method != METHOD {
            return Err(at
                .key("method")
                .invalid(format_args!("expected method `{METHOD}`, found `{method}`")));
        }
        if envelope.contains_key("id") {
            return Err(at.key("id").invalid(
                "a `session/update` is a notification and carries no `id`; this is a request",
            ));
        }
        let params = envelope
            .remove("params")
            .ok_or_else(|| at.error(ErrorKind::Missing { field: "params" }))?;
        read_params(params, cx, &at.key("params"))
    }
}

/// Reads the `params` object of a `session/update` (`at` is where it is).
pub(crate) fn read_params(
    params: Value,
    cx: &mut Cx,
    at: &Path<'_>,
) -> Result<SessionNotification, Error> {
    let mut params = wire::expect_object(params, at)?;
    let session_id = wire::take_string(&mut params, "sessionId", at)?;
    let update = params
        .remove("update")
        .ok_or_else(|| at.missing("update"))?;
    let update = SessionUpdate::read(update, cx, &at.key("update"))?;
    let meta = wire::take_meta(&mut params, cx, at)?;
    Ok(SessionNotification {
        session_id: SessionId::new(session_id),
        update,
        meta,
    })
}

wire::wire_methods!(SessionNotification, "a whole `session/update` notification");
