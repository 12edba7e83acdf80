//! The client's side of the handshake, once for `board` and `check`: the
//! ids of its requests, and what it sends in `initialize`, `authenticate`
//! and `session/new` (each driver keeps its own control flow: the board's
//! a state machine that draws as it goes, `check`'s calls in turn). The
//! proxy drives no handshake: it passes the client's own.

use plan_core::wire::ProtocolVersion;
use serde_json::{Value, json};

/// The ids of the client's requests, the same in `board` and `check`.
pub(crate) mod id {
    /// `initialize`.
    pub(crate) const INITIALIZE: u64 = 0;
    /// `session/new`.
    pub(crate) const SESSION_NEW: u64 = 1;
    /// The first turn's `session/prompt`.
    pub(crate) const PROMPT: u64 = 2;
    /// The turn `check --cancel` cancels.
    pub(crate) const CANCELLED_PROMPT: u64 = 3;
    /// `authenticate` (`--auth`).
    pub(crate) const AUTHENTICATE: u64 = 4;
    /// The request that sets plan mode (`--plan-mode`).
    pub(crate) const PLAN_MODE: u64 = 5;
}

/// The `initialize` params a client of `protocol` sends, with
/// `clientCapabilities.plan` when `plan_capability`. v1 (the default): the
/// stable protocol. v2 (a draft) has no plan capability (`plan_update` is
/// baseline there); an agent that speaks only v1 answers v1 and reads v1's
/// keys, so the same request also carries them (v2's schema allows extra
/// keys, and a v2 reader ignores them). The Python SDK 0.12.1 reads them;
/// the TypeScript SDK 2.4.0 gives a v1 agent `plan: {}` for any v2 offer;
/// the Rust SDK 5.0.0 rebuilds the request from v2's keys and drops them,
/// so its v1 agents fall back to the v1 `plan`: why v1 is the default.
pub(crate) fn initialize_params(protocol: ProtocolVersion, plan_capability: bool) -> Value {
    let info = json!({ "name": "acp-plan", "version": env!("CARGO_PKG_VERSION") });
    let mut v1_capabilities =
        json!({ "fs": { "readTextFile": false, "writeTextFile": false }, "terminal": false });
    if plan_capability {
        v1_capabilities["plan"] = json!({});
    }
    match protocol {
        ProtocolVersion::V1 => {
            json!({ "protocolVersion": 1, "clientCapabilities": v1_capabilities, "clientInfo": info })
        }
        ProtocolVersion::V2 => json!({
            "protocolVersion": 2,
            "info": info,
            "capabilities": {},
            "clientCapabilities": v1_capabilities,
            "clientInfo": info,
        }),
    }
}

/// The `authenticate` params for the agent's method `method` (`--auth ID`).
pub(crate) fn authenticate_params(method: &str) -> Value {
    json!({ "methodId": method })
}

/// The `session/new` params: this directory, no MCP servers.
///
/// # Errors
/// There is no current directory.
pub(crate) fn session_new_params() -> Result<Value, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?;
    Ok(json!({ "cwd": cwd, "mcpServers": [] }))
}

/// One request of the handshake: its id, method and params.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HandshakeRequest {
    pub(crate) id: u64,
    pub(crate) method: &'static str,
    pub(crate) params: Value,
    /// What the client waits for while it is out, for a message that says
    /// so ("the answer to `session/new`").
    pub(crate) waiting: &'static str,
}

/// What the handshake does after an answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Next {
    /// Send this request; give its answer to [`Handshake::answered`].
    Send(HandshakeRequest),
    /// The session is ready for its first prompt.
    Ready(String),
}

/// The handshake both `board` and `check` drive, one step per answer:
/// `initialize`, `authenticate` where asked (`--auth`), `session/new`, the
/// request that sets plan mode where asked (`--plan-mode`). Each driver
/// sends the requests its own way, judges the answers its own way (the
/// board refuses a version it does not speak, `check` makes a finding of
/// it) and says a refusal in its own words; the order, the ids and the
/// params are this.
#[derive(Debug)]
pub(crate) struct Handshake {
    auth: Option<String>,
    plan_mode: bool,
    /// Whether the agent answered `initialize` with v2.
    v2: bool,
    /// The session, while the switch to plan mode is out.
    session_after_plan_mode: Option<String>,
}

impl Handshake {
    /// The handshake and its first request: `initialize` with `offer`.
    pub(crate) fn start(
        offer: Value,
        auth: Option<String>,
        plan_mode: bool,
    ) -> (Self, HandshakeRequest) {
        let first = HandshakeRequest {
            id: id::INITIALIZE,
            method: "initialize",
            params: offer,
            waiting: "the answer to `initialize`",
        };
        let handshake = Self {
            auth,
            plan_mode,
            v2: false,
            session_after_plan_mode: None,
        };
        (handshake, first)
    }

    /// The agent's `result` for request `id`: what comes next.
    ///
    /// # Errors
    /// `session/new` answered without a `sessionId`; `--plan-mode` with an
    /// agent that advertises no mode for planning; an id that is no request
    /// of the handshake.
    pub(crate) fn answered(&mut self, id: u64, result: &Value) -> Result<Next, String> {
        match id {
            id::INITIALIZE => {
                self.v2 = result["protocolVersion"].as_u64() == Some(2);
                Ok(Next::Send(match &self.auth {
                    Some(method) => HandshakeRequest {
                        id: id::AUTHENTICATE,
                        method: "authenticate",
                        params: authenticate_params(method),
                        waiting: "the answer to `authenticate`",
                    },
                    None => new_session()?,
                }))
            }
            id::AUTHENTICATE => Ok(Next::Send(new_session()?)),
            id::SESSION_NEW => {
                let session = result["sessionId"].as_str().ok_or(
                    "the agent broke the protocol: `session/new` answered without a `sessionId`",
                )?;
                if !self.plan_mode {
                    return Ok(Next::Ready(session.to_owned()));
                }
                let Some((method, params)) =
                    super::answers::plan_mode_request(session, result, self.v2)
                else {
                    return Err(
                        "`--plan-mode`: the agent advertises no mode for planning (no mode or config option `plan` in its answer to `session/new`), so its plan mode cannot be run"
                            .to_owned(),
                    );
                };
                // The session waits for the answer to the switch.
                self.session_after_plan_mode = Some(session.to_owned());
                Ok(Next::Send(HandshakeRequest {
                    id: id::PLAN_MODE,
                    method,
                    params,
                    waiting: "the answer to the switch to plan mode",
                }))
            }
            id::PLAN_MODE => self
                .session_after_plan_mode
                .take()
                .map(Next::Ready)
                .ok_or_else(|| "an answer to a switch to plan mode never asked".to_owned()),
            other => Err(format!("no request {other} of the handshake")),
        }
    }
}

/// The `session/new` request.
fn new_session() -> Result<HandshakeRequest, String> {
    Ok(HandshakeRequest {
        id: id::SESSION_NEW,
        method: "session/new",
        params: session_new_params()?,
        waiting: "the answer to `session/new`",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handshake_goes_initialize_authenticate_session_plan_mode_in_one_order() {
        let (mut handshake, first) = Handshake::start(json!({}), Some("key".to_owned()), true);
        assert_eq!((first.id, first.method), (id::INITIALIZE, "initialize"));
        let Next::Send(auth) = handshake
            .answered(id::INITIALIZE, &json!({ "protocolVersion": 1 }))
            .unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (auth.id, auth.params),
            (id::AUTHENTICATE, json!({ "methodId": "key" }))
        );
        let Next::Send(new) = handshake.answered(id::AUTHENTICATE, &json!({})).unwrap() else {
            panic!()
        };
        assert_eq!(new.method, "session/new");
        let modes = json!({ "sessionId": "s", "modes": { "availableModes": [{ "id": "plan" }] } });
        let Next::Send(plan) = handshake.answered(id::SESSION_NEW, &modes).unwrap() else {
            panic!()
        };
        assert_eq!((plan.id, plan.method), (id::PLAN_MODE, "session/set_mode"));
        assert_eq!(
            handshake.answered(id::PLAN_MODE, &json!({})).unwrap(),
            Next::Ready("s".to_owned())
        );
        // Without `--auth` and `--plan-mode`: initialize, session/new, ready.
        let (mut bare, _) = Handshake::start(json!({}), None, false);
        let Next::Send(new) = bare.answered(id::INITIALIZE, &json!({})).unwrap() else {
            panic!()
        };
        assert_eq!(new.id, id::SESSION_NEW);
        assert_eq!(
            bare.answered(id::SESSION_NEW, &json!({ "sessionId": "t" }))
                .unwrap(),
            Next::Ready("t".to_owned())
        );
        assert!(
            bare.answered(id::SESSION_NEW, &json!({}))
                .unwrap_err()
                .contains("without a `sessionId`")
        );
    }
}
