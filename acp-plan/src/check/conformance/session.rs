//! The conversation of `check -- AGENT` up to its turns: `initialize` and
//! the version the agent answers, `authenticate` where asked,
//! `session/new`, the session's plan mode where asked; then the turns ([`turns`](super::turns)). And what to tell the
//! user when the agent refuses one of them.

use std::io::Write;

use plan_core::wire::ClientKind;
use serde_json::Value;

use super::conversation::Conversation;
use crate::check::rule;
use crate::process as agent_process;
use crate::process::handshake::{Handshake, Next, id};

impl<W: Write> Conversation<'_, W> {
    /// The conversation up to the first turn and the turns: `initialize`,
    /// `authenticate` (`--auth`), `session/new`, plan mode (`--plan-mode`).
    pub(super) fn drive(&mut self) -> Result<(), String> {
        let kind = self.run.kind;
        let options = self.options;
        let (mut handshake, mut request) =
            Handshake::start(offer(kind), options.auth.clone(), options.plan_mode);
        let session = loop {
            let what = match request.id {
                id::PLAN_MODE => format!("`{}` (plan mode)", request.method),
                _ => format!("`{}`", request.method),
            };
            let result = self
                .call(request.id, request.method, &request.params, &what)
                .map_err(|e| match request.id {
                    id::AUTHENTICATE => e + &agent_process::auth_help(&self.auth_methods),
                    id::SESSION_NEW => self.what_to_do(e),
                    _ => e,
                })?;
            match request.id {
                id::INITIALIZE if !self.negotiated(kind, &result) => return Ok(()),
                id::PLAN_MODE => self.run.notes.push(format!(
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
        if self.turn(id::PROMPT, &session, false)? && self.options.cancel {
            self.turn(id::CANCELLED_PROMPT, &session, true)?;
        }
        Ok(())
    }

    /// The agent's answer to `initialize` as `kind`: the version it
    /// answered, the client it is judged as, the ways it offers to
    /// authenticate; `false` (and a finding) when it answered a version the
    /// client did not offer and cannot speak.
    fn negotiated(&mut self, kind: ClientKind, init: &Value) -> bool {
        let answered = init["protocolVersion"].as_u64();
        self.run.answered = answered;
        self.auth_methods = init["authMethods"].clone();
        self.run.judged_as = match (kind, answered) {
            // A v2 offer carries v1's keys with `plan`: a v1 answer reads them.
            (ClientKind::V2, Some(1)) => ClientKind::V1Plan,
            (ClientKind::V2, Some(2)) | (ClientKind::V1 | ClientKind::V1Plan, Some(1)) => kind,
            _ => {
                let offered = kind.protocol().number();
                let message = format!(
                    "the client offered v{offered} and the agent answered {}; an agent answers the client's version when it speaks it (every agent speaks v1)",
                    init["protocolVersion"]
                );
                let line = self.run.transcript.len();
                self.find(
                    rule::NEGOTIATION,
                    line,
                    "result.protocolVersion".to_owned(),
                    message,
                    None,
                );
                return false;
            }
        };
        true
    }

    /// A reason the agent could not be driven, with what the user can do,
    /// as its words say: the ways it offered to authenticate, a key, or the
    /// scripted model where it wants a login or could not reach its model;
    /// the matching hint otherwise.
    pub(super) fn what_to_do(&self, mut reason: String) -> String {
        let scripted = self.options.scripted_model.is_some();
        let model = if scripted {
            "\nthe scripted model was given to it (`docs/ci.md` lists what each known agent is given); if it reads its model's address or key from elsewhere, point it there: `--model-env NAME={url}/v1` (a variable of its own), `--model-file PATH=FILE` (a configuration file in its home), `--model-port PORT` (a configuration written ahead of time); docs/ci.md, \"An agent we have no profile for\""
        } else {
            "\nin CI: run it on a scripted model with `--scripted-model` (no key, no network), or give it a key in its environment"
        };
        match agent_process::hint_for(&reason) {
            // A model it cannot reach may be one it is not logged in to; on
            // the scripted model, its own logins are beside the point.
            Some(agent_process::Hint::Auth | agent_process::Hint::Model) => {
                if !scripted {
                    reason += &agent_process::auth_help(&self.auth_methods);
                }
                reason.push_str(model);
            }
            Some(agent_process::Hint::Say(hint)) => {
                reason.push('\n');
                reason.push_str(hint);
            }
            None => reason += &agent_process::auth_help(&self.auth_methods),
        }
        reason
    }
}

/// What the client offers in `initialize` as `kind`: v1 without or with
/// `clientCapabilities.plan`; v2 with v1's keys too (with `plan`), so an
/// agent that answers v1 still knows what the client reads.
fn offer(kind: ClientKind) -> Value {
    crate::process::handshake::initialize_params(kind.protocol(), kind != ClientKind::V1)
}
