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
