//! A client's `initialize` request, as an agent reads it: its `params`, or
//! the whole JSON-RPC request (its envelope judged by the rules every reader
//! of messages shares), each parsed once.

use serde_json::{Map, Value};

use crate::codec::fields;
use crate::codec::reading::{Mode, Reading, Skipped};
use crate::error::{Error, Path};
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::version::ProtocolVersion;
use crate::rules::{KEY_JSONRPC, KEY_PARAMS};

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
/// assert_eq!(v1.negotiated(), ProtocolVersion::V1);
/// assert!(v1.capabilities.supports_plan_operations());
///
/// // A whole JSON-RPC request reads too; a malformed capability is absent, and said so.
/// let v2 = InitializeRequest::from_json(
///     r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,
///         "info":{"name":"zed","version":"1.0"},"capabilities":{"plan":42}}}"#,
/// )?;
/// assert_eq!(v2.negotiated(), ProtocolVersion::V2);
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
    /// The protocol version the agent answers with; see
    /// [`ProtocolVersion::negotiate`].
    pub fn negotiated(&self) -> ProtocolVersion {
        ProtocolVersion::negotiate(self.protocol_version)
    }

    /// Reads the request's `params`, or a whole JSON-RPC `initialize` request.
    ///
    /// # Errors
    /// Text that is not JSON, a malformed JSON-RPC envelope, a request of
    /// another method, or a `protocolVersion` that is missing or not a whole
    /// number.
    pub fn from_json(json: &str) -> Result<Self, Error> {
        let value: Value = serde_json::from_str(json).map_err(|e| Error::syntax(&e))?;
        Self::from_value(value)
    }

    /// [`from_json`](Self::from_json) for a parsed value, read where it is.
    ///
    /// # Errors
    /// As [`from_json`](Self::from_json).
    pub fn from_value(value: Value) -> Result<Self, Error> {
        let root = Path::Root;
        let mut object = fields::expect_object(value, &root)?;
        if !object.contains_key(KEY_JSONRPC) {
            return read_params(object, &root);
        }
        // A whole message: its envelope by the rules of every message reader.
        match super::envelope::method_of_object(&object)? {
            Some(INITIALIZE) => {}
            Some(method) => {
                return Err(root.key(crate::rules::KEY_METHOD).invalid(format_args!(
                    "expected method `{INITIALIZE}`, found `{method}`"
                )));
            }
            None => return Err(root.missing(crate::rules::KEY_METHOD)),
        }
        let at = root.key(KEY_PARAMS);
        let params = object
            .remove(KEY_PARAMS)
            .ok_or_else(|| root.missing(KEY_PARAMS))?;
        read_params(fields::expect_object(params, &at)?, &at)
    }
}

/// The params: the version, then the capabilities under the key of that
/// version first (v1 `clientCapabilities`, v2 `capabilities`), read leniently
/// as the SDKs read them (a malformed one is absent, and said so).
fn read_params(mut params: Map<String, Value>, at: &Path<'_>) -> Result<InitializeRequest, Error> {
    let version_at = at.key(KEY_PROTOCOL_VERSION);
    let protocol_version = match params.remove(KEY_PROTOCOL_VERSION) {
        Some(Value::Number(n)) => n.as_u64().ok_or_else(|| {
            version_at.invalid(format_args!("expected a whole number from 0, found {n}"))
        })?,
        Some(other) => return Err(crate::error::type_error(&version_at, "a number", &other)),
        None => return Err(at.missing(KEY_PROTOCOL_VERSION)),
    };
    let keys = if ProtocolVersion::negotiate(protocol_version) == ProtocolVersion::V1 {
        ["clientCapabilities", "capabilities"]
    } else {
        ["capabilities", "clientCapabilities"]
    };
    let mut reading = Reading::new(Mode::Lenient);
    let mut capabilities = ClientCapabilities::default();
    if let Some((key, value)) = keys
        .into_iter()
        .find_map(|key| params.remove(key).map(|value| (key, value)))
    {
        let at = at.key(key);
        let read = match value {
            Value::Null => Ok(None),
            value @ Value::Object(_) => {
                <ClientCapabilities as crate::codec::wire_type::WireType>::read(
                    value,
                    &mut reading,
                    &at,
                )
                .map(Some)
            }
            other => Err(crate::error::type_error(&at, "an object", &other)),
        };
        match read {
            Ok(Some(read)) => capabilities = read,
            Ok(None) => {}
            // Lenient: recorded as skipped, the defaults stay.
            Err(err) => reading.skip_or_fail::<()>(err).map(|_| ())?,
        }
    }
    Ok(InitializeRequest {
        protocol_version,
        capabilities,
        skipped: reading.into_skipped(),
    })
}
