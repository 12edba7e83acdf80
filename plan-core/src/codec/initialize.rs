//! A client's `initialize` request, as an agent reads it: its `params`, or
//! the whole JSON-RPC request (its envelope judged by the rules every reader
//! of messages shares), each parsed once.

use std::fmt;

use serde_core::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::codec::envelope::{self, Message, Shape};
use crate::codec::read::shared::{KeySeed, KeysRead, wrong};
use crate::codec::read::{self, shared::ReadState};
use crate::codec::strictness::{ReadNotes, Skipped, Strictness};
use crate::codec::wire_type::WireType;
use crate::error::{Error, Path};
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::version::{ClientKind, ProtocolVersion};
use crate::rules::{KEY_JSONRPC, KEY_PARAMS, KEY_PLAN};

/// The method of the request.
const INITIALIZE: &str = "initialize";
/// The version's key in the params.
const KEY_PROTOCOL_VERSION: &str = "protocolVersion";

/// A client's `initialize` request, as far as plans are concerned: the
/// protocol version it asked for and its capabilities.
///
/// v1 clients send their capabilities as `clientCapabilities`, v2 clients as
/// `capabilities`; both are read (the one of the requested version first).
/// Like the published SDKs, a malformed capability is read as absent
/// (`x-deserialize-default-on-error` in the schema): it does not fail the
/// request, and [`skipped`](Self::skipped) says what was dropped.
///
/// ```
/// use plan_core::{agent::InitializeRequest, wire::ProtocolVersion};
///
/// let v1 = InitializeRequest::from_json(
///     r#"{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true},"plan":{}}}"#,
/// )?;
/// assert_eq!(v1.negotiated(ProtocolVersion::V2), ProtocolVersion::V1);
/// assert!(v1.capabilities.supports_plan_operations());
///
/// // A whole JSON-RPC request reads too; a malformed capability is absent, and said so.
/// let v2 = InitializeRequest::from_json(
///     r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,
///         "info":{"name":"zed","version":"1.0"},"capabilities":{"plan":42}}}"#,
/// )?;
/// assert_eq!(v2.negotiated(ProtocolVersion::V2), ProtocolVersion::V2);
/// assert!(!v2.capabilities.supports_plan_operations());
/// assert_eq!(v2.skipped[0].to_string(), "skipped `params.capabilities.plan`: expected an object or null, found a number");
/// # Ok::<(), plan_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitializeRequest {
    /// The newest protocol version the client speaks, as it sent it.
    pub protocol_version: u64,
    /// The client's capabilities (defaults if it sent none).
    pub capabilities: ClientCapabilities,
    /// What was malformed and read as absent, as the SDKs read it.
    pub skipped: Vec<Skipped>,
}

impl InitializeRequest {
    /// The protocol version an agent whose newest version is `agent_newest`
    /// answers with (see [`ProtocolVersion::negotiate`]): an agent that
    /// speaks only v1 answers `1`, whatever the client offered.
    ///
    /// ```
    /// use plan_core::{agent::InitializeRequest, wire::ProtocolVersion};
    ///
    /// let offer = InitializeRequest::from_json(r#"{"protocolVersion":2,"clientCapabilities":{"plan":{}}}"#)?;
    /// assert_eq!(offer.negotiated(ProtocolVersion::V1), ProtocolVersion::V1);
    /// assert_eq!(offer.negotiated(ProtocolVersion::V2), ProtocolVersion::V2);
    /// // What a v1 agent needs to hear is read from `clientCapabilities`.
    /// assert!(offer.capabilities.supports_plan_operations());
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    pub fn negotiated(&self, agent_newest: ProtocolVersion) -> ProtocolVersion {
        ProtocolVersion::negotiate(self.protocol_version, agent_newest)
    }

    /// The kind of client this request makes once the agent answered
    /// `answered` (see [`ClientKind::after_initialize`]); `None` when the
    /// answer broke the handshake.
    ///
    /// ```
    /// use plan_core::{agent::InitializeRequest, wire::ClientKind};
    ///
    /// let offer = InitializeRequest::from_json(r#"{"protocolVersion":2,"clientCapabilities":{"plan":{}}}"#)?;
    /// assert_eq!(offer.client_kind(1), Some(ClientKind::V1Plan));
    /// assert_eq!(offer.client_kind(2), Some(ClientKind::V2));
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    pub fn client_kind(&self, answered: u64) -> Option<ClientKind> {
        ClientKind::after_initialize(self.protocol_version, &self.capabilities, answered)
    }

    /// Reads the request's `params`, or a whole JSON-RPC `initialize` request.
    ///
    /// # Errors
    /// Text that is not JSON, a malformed JSON-RPC envelope, a request of
    /// another method, or a `protocolVersion` that is missing or not a whole
    /// number.
    pub fn from_json(json: &str) -> Result<Self, Error> {
        read_text(json, false).map(|(request, _)| request)
    }

    /// [`from_json`](Self::from_json) for `initialize`'s params alone, read
    /// once, and, where a v1 client has not opted in to plans, those params
    /// with `clientCapabilities.plan` written in, every other byte as the
    /// client wrote it (a `plan` it wrote as `null` is replaced, its
    /// capabilities' other members kept in their order): what a proxy sends
    /// on, so that a v1 agent sends it plan updates the proxy can map for
    /// the client.
    ///
    /// The params come back `None` (they go on as they came) when the client
    /// offered another version, already accepts plans (under either
    /// spelling), or wrote a malformed capability (see
    /// [`skipped`](Self::skipped)).
    ///
    /// ```
    /// use plan_core::agent::InitializeRequest;
    ///
    /// let params = r#"{"protocolVersion":1, "clientCapabilities":{"fs":{"readTextFile":true}}}"#;
    /// let (offer, opted_in) = InitializeRequest::opting_in_to_plans(params)?;
    /// assert!(!offer.capabilities.supports_plan_operations());
    /// assert_eq!(
    ///     opted_in.as_deref(),
    ///     Some(r#"{"protocolVersion":1, "clientCapabilities":{"fs":{"readTextFile":true},"plan":{}}}"#)
    /// );
    ///
    /// let (_, as_it_came) = InitializeRequest::opting_in_to_plans(
    ///     r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#,
    /// )?;
    /// assert_eq!(as_it_came, None);
    /// # Ok::<(), plan_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`from_json`](Self::from_json), and a whole JSON-RPC request (its
    /// params are what this reads).
    pub fn opting_in_to_plans(params: &str) -> Result<(Self, Option<String>), Error> {
        read_text(params, true)
    }

    /// [`from_json`](Self::from_json) for a parsed value, read where it is.
    ///
    /// # Errors
    /// As [`from_json`](Self::from_json).
    pub fn from_value(value: Value) -> Result<Self, Error> {
        let mut reading = ReadNotes::new(Strictness::Lenient);
        let root = Path::Root;
        let (value, at) = match value {
            Value::Object(mut object) if object.contains_key(KEY_JSONRPC) => {
                // A whole message: its envelope by the rules of every
                // message reader.
                let method = envelope::method_of_object(&object)?.map(str::to_owned);
                let params = object.remove(KEY_PARAMS);
                (
                    initialize_params(method.as_deref(), params)?,
                    root.key(KEY_PARAMS),
                )
            }
            value => (value, Path::Root),
        };
        let read = read::from_value(value, &mut reading, &at, None, |state, input| {
            input.read(ParamsSeed { state, at: &at })
        })?;
        Ok(read.0.with(reading))
    }

    /// The request as read, with what reading dropped.
    fn with(mut self, reading: ReadNotes) -> Self {
        self.skipped = reading.into_skipped();
        self
    }
}

/// The request in `json` (its params, or a whole request unless
/// `opting_in`), read once: the envelope reader splits the text, and the
/// params (the text itself, or its `params`) go to their visitor; with
/// `opting_in`, the params with `plan` written in where a v1 client lacks it.
fn read_text(json: &str, opting_in: bool) -> Result<(InitializeRequest, Option<String>), Error> {
    let mut members = Vec::new();
    let split = envelope::read_keeping(json, Some(&mut members));
    // Not JSON: what the one reading said (the members read before the
    // text broke off are no request).
    let syntax = |e: &&Error| matches!(e.kind(), crate::error::ErrorKind::Syntax { .. });
    if let Some(broken) = split.problems.iter().find(syntax) {
        return Err(broken.clone());
    }
    let mut reading = ReadNotes::new(Strictness::Lenient);
    let at = Path::Root;
    let read = match split.shape {
        Shape::JsonRpc if opting_in => Err(Path::Root
            .invalid("expected the params of `initialize`, found a whole JSON-RPC message")),
        Shape::JsonRpc => {
            if let Some(problem) = split.problems.into_iter().next() {
                return Err(problem);
            }
            let method = split.message.as_ref().and_then(Message::method);
            let at = Path::Root.key(KEY_PARAMS);
            let params =
                initialize_params(method, split.message.as_ref().and_then(Message::params))?;
            read::run(params.get(), &mut reading, |state, de| {
                ParamsSeed { state, at: &at }.deserialize(de)
            })
        }
        // Not an object: what its visitor says of it.
        _ if !json.trim_start().starts_with('{') => read::run(json, &mut reading, |state, de| {
            ParamsSeed { state, at: &at }.deserialize(de)
        }),
        _ => {
            // Where `clientCapabilities` is, found before the members go to
            // their visitors (only to write `plan` in).
            let written = opting_in.then(|| Written::of(json, &members)).flatten();
            let read = read::from_members(members, &mut reading, None, |state, input| {
                ParamsSeed { state, at: &at }.deserialize(input)
            })?;
            let request = read.0.with(reading);
            let opt_in = opting_in
                && request.protocol_version == 1
                && !request.capabilities.supports_plan_operations()
                && request.skipped.is_empty();
            let params = written
                .filter(|_| opt_in)
                .and_then(|written| written.plan_in(read.1));
            return Ok((request, params));
        }
    };
    read.map(|(request, _)| (request.with(reading), None))
}

/// What `clientCapabilities` held, as far as writing `plan` into it goes.
pub(in crate::codec) enum V1Seen {
    Absent,
    /// `null`, or an object with no member.
    Empty,
    /// An object with members, `plan` not among them.
    Members,
    /// An object with `plan` (read as absent: `null`), to be replaced.
    WithPlan,
    /// Not an object: malformed, so no `plan` is written.
    Other,
}

impl V1Seen {
    fn of(value: Option<&Value>) -> Self {
        match value {
            None => Self::Absent,
            Some(Value::Null) => Self::Empty,
            Some(Value::Object(o)) if o.contains_key(KEY_PLAN) => Self::WithPlan,
            Some(Value::Object(o)) if o.is_empty() => Self::Empty,
            Some(Value::Object(_)) => Self::Members,
            Some(_) => Self::Other,
        }
    }
}

/// The member a v1 client opts in to plans with.
const PLAN_OFFERED: &str = r#""plan":{}"#;

/// The params' text and where its `clientCapabilities` is in it (a member
/// the envelope reader split off, borrowed from the text).
struct Written<'a> {
    params: &'a str,
    capabilities: Option<std::ops::Range<usize>>,
}

impl<'a> Written<'a> {
    fn of(params: &'a str, members: &[envelope::Member<'a>]) -> Option<Self> {
        let capabilities = match members.iter().rfind(|(key, _)| key == KEY_V1_CAPABILITIES) {
            // A member's text is a slice of the params' text.
            Some((_, raw)) => {
                let start = raw
                    .get()
                    .as_ptr()
                    .addr()
                    .checked_sub(params.as_ptr().addr())?;
                let end = start + raw.get().len();
                Some(start..end).filter(|_| end <= params.len())
            }
            None => None,
        };
        Some(Written {
            params,
            capabilities,
        })
    }

    /// The params with `clientCapabilities.plan` (`{}`) written in: the one
    /// member added, or `clientCapabilities` replaced where it was empty or
    /// held a `plan` read as absent; every other byte as it came.
    fn plan_in(self, seen: V1Seen) -> Option<String> {
        let text = self.params;
        let (range, insert) = match (seen, self.capabilities) {
            (V1Seen::Absent, _) => {
                // Before the `}` that closes the params (they hold a
                // `protocolVersion`, so a comma goes first).
                let close = text.trim_end().len().checked_sub(1)?;
                (
                    close..close,
                    format!(r#","{KEY_V1_CAPABILITIES}":{{{PLAN_OFFERED}}}"#),
                )
            }
            (V1Seen::Empty, Some(range)) => (range, format!("{{{PLAN_OFFERED}}}")),
            (V1Seen::Members, Some(range)) => {
                let close = range.end.checked_sub(1)?;
                (close..close, format!(",{PLAN_OFFERED}"))
            }
            (V1Seen::WithPlan, Some(range)) => {
                let replaced = without_plan(&text[range.clone()])?;
                (range, replaced)
            }
            _ => return None,
        };
        let mut out = String::with_capacity(text.len() + insert.len());
        out.push_str(&text[..range.start]);
        out.push_str(&insert);
        out.push_str(&text[range.end..]);
        Some(out)
    }
}

/// A capabilities object whose `plan` was read as absent, written again
/// with `plan` last as `{}`: the one case that splits the object's text once
/// more (its members kept as they came, in their order).
fn without_plan(capabilities: &str) -> Option<String> {
    let mut members = Vec::new();
    envelope::read_keeping(capabilities, Some(&mut members));
    let mut out = String::from("{");
    for (key, raw) in members.iter().filter(|(key, _)| key != KEY_PLAN) {
        out.push_str(&serde_json::to_string(key).ok()?);
        out.push(':');
        out.push_str(raw.get());
        out.push(',');
    }
    out.push_str(PLAN_OFFERED);
    out.push('}');
    Some(out)
}

/// The params of a request whose method is `method`: an error unless it is
/// `initialize` with params.
fn initialize_params<P>(method: Option<&str>, params: Option<P>) -> Result<P, Error> {
    let root = Path::Root;
    match method {
        Some(INITIALIZE) => params.ok_or_else(|| root.missing(KEY_PARAMS)),
        Some(method) => Err(root.key(crate::rules::KEY_METHOD).invalid(format_args!(
            "expected method `{INITIALIZE}`, found `{method}`"
        ))),
        None => Err(root.missing(crate::rules::KEY_METHOD)),
    }
}

// ---- reading: the one reader's visitor for the params ----

object_keys! {
    /// The keys of `initialize`'s params a plan reader looks at.
    ParamsKey {
        Version(0) = KEY_PROTOCOL_VERSION,
        V1Capabilities(1) = KEY_V1_CAPABILITIES,
        V2Capabilities(2) = KEY_V2_CAPABILITIES,
    }
}

/// Where each version's client puts its capabilities.
const KEY_V1_CAPABILITIES: &str = "clientCapabilities";
const KEY_V2_CAPABILITIES: &str = "capabilities";

seed!(ParamsSeed, (InitializeRequest, V1Seen), "an object");

impl<'de> Visitor<'de> for ParamsSeed<'_, '_, '_> {
    type Value = (InitializeRequest, V1Seen);
    not_an_object!("an object");

    /// The version, then the capabilities under the key of that version
    /// first (v1 `clientCapabilities`, v2 `capabilities`). Each capability
    /// object is kept until the version is known, then read by its own
    /// visitor, leniently as the SDKs read them (a malformed one is absent,
    /// and said so).
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let at = self.at;
        let (mut version, mut v1, mut v2) = (None, None, None);
        let mut seen = KeysRead::default();
        while let Some(key) = map.next_key_seed(KeySeed::<ParamsKey>::new())? {
            seen.check(&key, self.state, at)?;
            match key {
                ParamsKey::Version => version = Some(map.next_value::<Value>()?),
                ParamsKey::V1Capabilities => v1 = Some(map.next_value::<Value>()?),
                ParamsKey::V2Capabilities => v2 = Some(map.next_value::<Value>()?),
                ParamsKey::Other(_) => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let protocol_version = protocol_version(version, at).map_err(|e| self.state.fail(e))?;
        let v1_seen = V1Seen::of(v1.as_ref());
        // `clientCapabilities` first, whatever the version offered: a client
        // that offers v2 and also accepts v1 says there what a v1 agent
        // needs to hear (`plan`), and v2's `capabilities` has no plan
        // capability for a v2 agent to read.
        let found = v1
            .map(|v| (KEY_V1_CAPABILITIES, v))
            .or(v2.map(|v| (KEY_V2_CAPABILITIES, v)));
        let capabilities = match found {
            Some((key, value)) => capabilities(value, self.state.reading, &at.key(key))
                .map_err(|e| self.state.fail(e))?,
            None => ClientCapabilities::default(),
        };
        let request = InitializeRequest {
            protocol_version,
            capabilities,
            skipped: Vec::new(),
        };
        Ok((request, v1_seen))
    }
}

/// The version the client asked for: a whole number from 0.
fn protocol_version(value: Option<Value>, at: &Path<'_>) -> Result<u64, Error> {
    let version_at = at.key(KEY_PROTOCOL_VERSION);
    match value {
        Some(Value::Number(n)) => n.as_u64().ok_or_else(|| {
            version_at.invalid(format_args!("expected a whole number from 0, found {n}"))
        }),
        Some(other) => Err(crate::error::type_error(&version_at, "a number", &other)),
        None => Err(at.missing(KEY_PROTOCOL_VERSION)),
    }
}

/// The capabilities under their key (at `at`), read by their own visitor;
/// `null` is the defaults, and a malformed one is read as absent (the
/// reading is lenient), said in what it skipped.
fn capabilities(
    value: Value,
    reading: &mut ReadNotes,
    at: &Path<'_>,
) -> Result<ClientCapabilities, Error> {
    let read = match value {
        Value::Null => Ok(ClientCapabilities::default()),
        value @ Value::Object(_) => ClientCapabilities::read(value, reading, at),
        other => Err(crate::error::type_error(at, "an object", &other)),
    };
    match read {
        Ok(read) => Ok(read),
        Err(err) => reading
            .skip_or_fail::<()>(err)
            .map(|_| ClientCapabilities::default()),
    }
}
