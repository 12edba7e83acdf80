//! What an agent learns in `initialize`: the protocol version the client
//! asked for, and its capabilities, read as either version writes them.

use serde_json::{Map, Value};

use crate::codec::envelope::Message;
use crate::codec::{self, Reading, Skipped};
use crate::error::{Error, Path};
use crate::protocol::capabilities::ClientCapabilities;
use crate::protocol::version::ProtocolVersion;

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
    /// Text that is not JSON, a request of another method, or a
    /// `protocolVersion` that is missing or not a whole number.
    pub fn from_json(json: &str) -> Result<Self, Error> {
        let value: Value = serde_json::from_str(json).map_err(|e| Error::syntax(&e))?;
        if value.get(crate::rules::KEY_JSONRPC).is_none() {
            let root = Path::Root;
            return Self::read_params(codec::expect_object(value, &root)?, &root);
        }
        // A whole message: read by the one reader of messages.
        let message = Message::parse(json)?;
        let root = Path::Root;
        match message.method() {
            Some("initialize") => {}
            Some(method) => {
                return Err(root.key(crate::rules::KEY_METHOD).invalid(format_args!(
                    "expected method `initialize`, found `{method}`"
                )));
            }
            None => return Err(root.missing(crate::rules::KEY_METHOD)),
        }
        let at = root.key(crate::rules::KEY_PARAMS);
        let params = message
            .params()
            .ok_or_else(|| root.missing(crate::rules::KEY_PARAMS))?;
        let params: Value = serde_json::from_str(params.get()).map_err(|e| Error::syntax(&e))?;
        Self::read_params(codec::expect_object(params, &at)?, &at)
    }

    /// [`from_json`](Self::from_json) for a parsed value.
    ///
    /// # Errors
    /// As [`from_json`](Self::from_json).
    pub fn from_value(value: Value) -> Result<Self, Error> {
        if value.get(crate::rules::KEY_JSONRPC).is_some() {
            return Self::from_json(&value.to_string());
        }
        let root = Path::Root;
        Self::read_params(codec::expect_object(value, &root)?, &root)
    }

    fn read_params(mut params: Map<String, Value>, at: &Path<'_>) -> Result<Self, Error> {
        let version_at = at.key("protocolVersion");
        let protocol_version = match params.remove("protocolVersion") {
            Some(Value::Number(n)) => n.as_u64().ok_or_else(|| {
                version_at.invalid(format_args!("expected a whole number from 0, found {n}"))
            })?,
            Some(other) => return Err(codec::type_error(&version_at, "a number", &other)),
            None => return Err(at.missing("protocolVersion")),
        };
        let keys = if ProtocolVersion::negotiate(protocol_version) == ProtocolVersion::V1 {
            ["clientCapabilities", "capabilities"]
        } else {
            ["capabilities", "clientCapabilities"]
        };
        let mut reading = Reading::lenient();
        let mut capabilities = ClientCapabilities::default();
        if let Some((key, value)) = keys
            .into_iter()
            .find_map(|key| params.remove(key).map(|value| (key, value)))
        {
            let at = at.key(key);
            let read = match value {
                Value::Null => Ok(None),
                value @ Value::Object(_) => {
                    <ClientCapabilities as codec::Readable>::read(value, &mut reading, &at)
                        .map(Some)
                }
                other => Err(codec::type_error(&at, "an object", &other)),
            };
            match read {
                Ok(Some(read)) => capabilities = read,
                Ok(None) => {}
                // Lenient: recorded as skipped, the defaults stay.
                Err(err) => reading.skip_or_fail::<()>(err).map(|_| ())?,
            }
        }
        Ok(Self {
            protocol_version,
            capabilities,
            skipped: reading.into_skipped(),
        })
    }
}
