//! The conversation of `check -- AGENT` up to its turns: `initialize` and
//! the version the agent answers, `authenticate` where asked,
//! `session/new`, the session's plan mode where asked; then the turns
//! (`turns.rs`). Functions that drive a [`Conversation`].

use std::io::Write;

use plan_core::wire::ClientKind;
use serde_json::Value;

use super::conversation::Conversation;
use super::turns::turn;
use crate::check::rule;
use crate::process as agent_process;
use crate::process::handshake::{Handshake, Next, id};

/// The conversation up to the first turn and the turns: `initialize`,
/// `authenticate` (`--auth`), `session/new`, plan mode (`--plan-mode`).
pub(super) fn drive<W: Write>(c: &mut Conversation<'_, W>) -> Result<(), String> {
    let kind = c.run.kind;
    let options = c.options;
    // v1 without or with `clientCapabilities.plan`; v2 with v1's keys too
    // (with `plan`), so an agent that answers v1 still knows what the
    // client reads.
    let offer = c.link.offer(kind.protocol(), kind != ClientKind::V1);
    let (mut handshake, mut request) =
        Handshake::start(offer, options.auth.clone(), options.plan_mode);
    let session = loop {
        let what = match request.id {
            id::PLAN_MODE => format!("`{}` (plan mode)", request.method),
            _ => format!("`{}`", request.method),
        };
        let result = c
            .call(request.id, request.method, &request.params, &what)
            .map_err(|e| match request.id {
                id::AUTHENTICATE => e + &agent_process::auth_help(&c.auth_methods),
                id::SESSION_NEW => c.what_to_do(e),
                _ => e,
            })?;
        match request.id {
            id::INITIALIZE if !negotiated(c, kind, &result) => return Ok(()),
            id::PLAN_MODE => c.run.notes.push(format!(
                "plan mode: set with `{}` {}; the switch out of it approved",
                request.method, request.params
            )),
            _ => {}
        }
        match handshake.answered(request.id, &result)? {
            Next::Send(next) => request = next,
            Next::Ready(session) => break session,
        }
    };
    if turn(c, id::PROMPT, &session, false)? && c.options.cancel {
        turn(c, id::CANCELLED_PROMPT, &session, true)?;
    }
    Ok(())
}

/// The agent's answer to `initialize` as `kind`: the version it
/// answered, the client it is judged as, the ways it offers to
/// authenticate; `false` (and a finding) when it answered a version the
/// client did not offer and cannot speak.
fn negotiated<W: Write>(c: &mut Conversation<'_, W>, kind: ClientKind, init: &Value) -> bool {
    c.run.answered = init["protocolVersion"].as_u64();
    c.auth_methods = init["authMethods"].clone();
    // The one rule of a handshake's outcome: a v2 offer carries v1's keys
    // with `plan`, so a v1 answer reads them.
    if let Some(judged_as) = c.link.kind() {
        c.run.judged_as = judged_as;
        return true;
    }
    let offered = kind.protocol().number();
    let message = format!(
        "the client offered v{offered} and the agent answered {}; an agent answers the client's version when it speaks it (every agent speaks v1)",
        init["protocolVersion"]
    );
    let line = c.link.lines();
    c.find(
        rule::NEGOTIATION,
        line,
        "result.protocolVersion".to_owned(),
        message,
        None,
    );
    false
}
