//! The conversation of `check -- AGENT` up to its turns (a module of
//! `conformance.rs`): `initialize` and the version the agent answers,
//! `authenticate` where asked, `session/new`, the session's plan mode where
//! asked; then the turns ([`turns`](super::turns)). And what to tell the
//! user when the agent refuses one of them.

use std::io::Write;

use plan_core::wire::ClientKind;

use super::{Conversation, agent_process, offer, rule};
use crate::process::handshake::{self, id};

impl<W: Write> Conversation<'_, W> {
    /// The conversation up to the first turn and the turns: `initialize`,
    /// `authenticate` (`--auth`), `session/new`, plan mode (`--plan-mode`).
    pub(super) fn drive(&mut self) -> Result<(), String> {
        let kind = self.run.kind;
        let init = self.call(id::INITIALIZE, "initialize", &offer(kind), "`initialize`")?;
        let answered = init["protocolVersion"].as_u64();
        self.run.answered = answered;
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
                return Ok(());
            }
        };
        self.auth_methods = init["authMethods"].clone();
        if let Some(method) = self.options.auth.clone() {
            self.call(
                id::AUTHENTICATE,
                "authenticate",
                &handshake::authenticate_params(&method),
                "`authenticate`",
            )
            .map_err(|e| e + &agent_process::auth_help(&self.auth_methods))?;
        }
        let params = handshake::session_new_params()?;
        let new = self
            .call(id::SESSION_NEW, "session/new", &params, "`session/new`")
            .map_err(|e| self.what_to_do(e))?;
        let Some(session) = new["sessionId"].as_str().map(str::to_owned) else {
            return Err("the agent answered `session/new` without a `sessionId`".to_owned());
        };
        if self.options.plan_mode {
            let Some((method, params)) = agent_process::plan_mode_request(
                &session,
                &new,
                self.run.judged_as == ClientKind::V2,
            ) else {
                return Err(
                    "`--plan-mode`: the agent advertises no mode for planning (no mode or config option `plan` in its answer to `session/new`), so its plan mode cannot be judged"
                        .to_owned(),
                );
            };
            self.call(
                id::PLAN_MODE,
                method,
                &params,
                &format!("`{method}` (plan mode)"),
            )?;
            self.run.notes.push(format!(
                "plan mode: set with `{method}` {params}; the switch out of it approved"
            ));
        }
        if self.turn(id::PROMPT, &session, false)? && self.options.cancel {
            self.turn(id::CANCELLED_PROMPT, &session, true)?;
        }
        Ok(())
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
