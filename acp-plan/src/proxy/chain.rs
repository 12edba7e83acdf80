//! `acp-plan proxy` as a link of the ACP SDK's conductor
//! (`agent-client-protocol-conductor agent "acp-plan proxy" "opencode
//! acp"`): no agent of its own; the conductor is its one peer, and speaks
//! for both sides. What comes from the client comes plain (its `initialize`
//! renamed `proxy/initialize`); what goes to the agent, and what comes from
//! it, is wrapped in a `proxy/successor` request or notification (`method`
//! and `params` inside), as the Proxy Chains RFD and the SDK's Proxy role
//! (5.0) define them. Each line is read once, by plan-core's envelope
//! reader; its parts (a request's id, method and params; an answer's
//! outcome; an update's params, to the notification's reader) go to the
//! same [`Relay`] as the stdio proxy's lines, and what passes is wrapped
//! again, `params` and results as the text they came in.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, BufReader};

use plan_core::SessionNotification;
use plan_core::wire::{Message, Strictness};
use serde_json::value::RawValue;

use super::lines::{BUFFER, relay_lines};
use super::relay::{Relay, plan_or_tool_call};

/// The one method of the successor envelope.
const SUCCESSOR: &str = "proxy/successor";
/// How the conductor initializes a proxy.
const PROXY_INITIALIZE: &str = "proxy/initialize";

/// A link's state: the relay, and which of its own requests stand for
/// whose.
#[derive(Debug)]
pub(crate) struct Link {
    relay: Relay,
    next: u64,
    /// Our `proxy/successor` requests: the id (JSON text) of the client's
    /// request each carries.
    to_agent: HashMap<String, String>,
    /// Our requests to the client: the id of the conductor's
    /// `proxy/successor` request each answers.
    to_client: HashMap<String, String>,
}

impl Link {
    pub(crate) fn new(relay: Relay) -> Self {
        Self {
            relay,
            next: 0,
            to_agent: HashMap::new(),
            to_client: HashMap::new(),
        }
    }

    /// A line from the conductor: the lines to send it back, in order.
    /// Read once, by plan-core's envelope reader; `params` and results
    /// pass on as the text they came in.
    pub(crate) fn line(&mut self, line: &[u8]) -> Vec<Vec<u8>> {
        let Some(message) = std::str::from_utf8(line)
            .ok()
            .and_then(|text| Message::read(text).message)
        else {
            return Vec::new(); // not a message: nothing to route
        };
        let id = message.id().map(|id| id.get().to_owned());
        let params = message.params();
        match &message {
            Message::Request { method, .. } | Message::Notification { method, .. } => {
                if method == SUCCESSOR {
                    self.agents_message(id, params.map_or("null", RawValue::get))
                } else {
                    self.clients_message(method, id, params)
                }
            }
            Message::Response { id, outcome } => self.answer(id.get(), *outcome),
            // `Message` may grow; what this link does not know it cannot route.
            _ => Vec::new(),
        }
    }

    /// A message of the agent's, through the conductor (`params` holds it,
    /// its `method` and `params`): a request goes to the client as ours, a
    /// notification through the relay.
    fn agents_message(&mut self, id: Option<String>, params: &str) -> Vec<Vec<u8>> {
        // The inner message has no `jsonrpc`: its method and params are
        // what is read of it.
        let Some(inner) = Message::read(params).message else {
            return Vec::new();
        };
        let method = inner
            .method()
            .and_then(|m| serde_json::to_string(m).ok())
            .unwrap_or_else(|| "null".to_owned());
        let params = inner.params().map_or("null", RawValue::get);
        match id {
            Some(id) => {
                let ours = self.id("c");
                self.to_client.insert(ours.clone(), id);
                vec![request(&ours, &method, params).into_bytes()]
            }
            None => {
                // The relay is handed the parts: the update's params go to
                // the notification's reader, not the line made of them.
                let plain = notification(&method, params);
                let changed = if inner.method() == Some("session/update")
                    && plan_or_tool_call(params.as_bytes())
                {
                    self.relay.changed_update(plain.as_bytes(), || {
                        SessionNotification::from_params(params, Strictness::Lenient).ok()
                    })
                } else {
                    self.relay.changed_other(plain.as_bytes())
                };
                match changed {
                    Some(lines) => lines.into_iter().map(Cow::into_owned).collect(),
                    None => vec![plain.into_bytes()],
                }
            }
        }
    }

    /// A message of the client's: through the relay, then to the agent,
    /// wrapped in `proxy/successor` (`proxy/initialize` is `initialize`).
    fn clients_message(
        &mut self,
        method: &str,
        id: Option<String>,
        params: Option<&RawValue>,
    ) -> Vec<Vec<u8>> {
        let method = if method == PROXY_INITIALIZE {
            "initialize"
        } else {
            method
        };
        let method_json = serde_json::to_string(method).unwrap_or_default();
        // The relay is handed the request's parts; what it changes is the
        // params alone.
        let changed = id
            .as_deref()
            .and_then(|id| self.relay.request(id, method, params));
        let params = changed
            .as_deref()
            .unwrap_or_else(|| params.map_or("null", RawValue::get));
        let inner = format!(r#"{{"method":{method_json},"params":{params}}}"#);
        let quoted = serde_json::to_string(SUCCESSOR).unwrap_or_default();
        match id {
            Some(id) => {
                let ours = self.id("a");
                self.to_agent.insert(ours.clone(), id);
                vec![request(&ours, &quoted, &inner).into_bytes()]
            }
            None => vec![notification(&quoted, &inner).into_bytes()],
        }
    }

    /// An answer to one of our requests (its `result` or its `error`): to
    /// the client through the relay, or to the conductor under its own id.
    fn answer(&mut self, id: &str, outcome: Result<&RawValue, &RawValue>) -> Vec<Vec<u8>> {
        let (key, value) = match outcome {
            Ok(result) => ("result", result.get()),
            Err(error) => ("error", error.get()),
        };
        if let Some(client) = self.to_agent.remove(id) {
            self.relay.response(&client, outcome);
            let plain = format!(r#"{{"jsonrpc":"2.0","id":{client},"{key}":{value}}}"#);
            return match self.relay.changed_other(plain.as_bytes()) {
                Some(lines) => lines.into_iter().map(Cow::into_owned).collect(),
                None => vec![plain.into_bytes()],
            };
        }
        match self.to_client.remove(id) {
            Some(conductor) => {
                vec![
                    format!(r#"{{"jsonrpc":"2.0","id":{conductor},"{key}":{value}}}"#).into_bytes(),
                ]
            }
            None => Vec::new(),
        }
    }

    /// A fresh id of ours (JSON text), `prefix` saying whose way it goes.
    fn id(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("\"acp-plan-{prefix}{}\"", self.next)
    }
}

/// A request line; `method` and `params` are JSON text.
fn request(id: &str, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":{method},"params":{params}}}"#)
}

/// A notification line; `method` and `params` are JSON text.
fn notification(method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","method":{method},"params":{params}}}"#)
}

/// No agent command: a link of the SDK's conductor chain, the conductor on
/// standard input and output. Ends when its input does.
pub(super) fn link(plan_opt_in: bool) -> u8 {
    if io::IsTerminal::is_terminal(&io::stdin()) {
        eprintln!(
            "acp-plan proxy: no agent given, so this is a link of the ACP SDK's conductor chain, waiting for the conductor's messages on standard input.\n\
             To put the proxy in front of an agent, give its command after `--`: acp-plan proxy -- opencode acp\n\
             (Ctrl-D ends it; `acp-plan proxy --help` has examples.)"
        );
    }
    let mut link = Link::new(Relay::new(plan_opt_in));
    let input = BufReader::with_capacity(BUFFER, io::stdin());
    let relayed = relay_lines(input, io::stdout().lock(), |line| {
        Some(link.line(line).into_iter().map(Cow::Owned).collect())
    });
    match relayed {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("proxy: the conductor's input failed: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn send(link: &mut Link, message: &Value) -> Vec<Value> {
        link.line(message.to_string().as_bytes())
            .iter()
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect()
    }

    #[test]
    fn a_link_wraps_what_goes_to_the_agent_and_unwraps_what_comes_back() {
        let mut link = Link::new(Relay::new(true));
        // The client's initialize, renamed: forwarded wrapped, with `plan` added.
        let out = send(
            &mut link,
            &json!({ "jsonrpc": "2.0", "id": 1, "method": "proxy/initialize",
            "params": { "protocolVersion": 1, "clientCapabilities": {} } }),
        );
        assert_eq!(out[0]["method"], "proxy/successor");
        assert_eq!(out[0]["params"]["method"], "initialize");
        assert_eq!(
            out[0]["params"]["params"]["clientCapabilities"]["plan"],
            json!({})
        );
        let ours = out[0]["id"].clone();
        // The agent's answer comes back to the client's id, plain.
        let out = send(
            &mut link,
            &json!({ "jsonrpc": "2.0", "id": ours, "result": { "protocolVersion": 1 } }),
        );
        assert_eq!(
            out,
            [json!({ "jsonrpc": "2.0", "id": 1, "result": { "protocolVersion": 1 } })]
        );
        // A markdown plan from the agent reaches this v1 client without
        // `plan` as its checklist, unwrapped.
        let out = send(
            &mut link,
            &json!({ "jsonrpc": "2.0", "method": "proxy/successor", "params": {
            "method": "session/update", "params": { "sessionId": "s", "update": {
                "sessionUpdate": "plan_update", "plan": { "type": "markdown", "planId": "p",
                "content": "- [ ] Fix" } } } } }),
        );
        assert_eq!(out[0]["method"], "session/update");
        assert_eq!(out[0]["params"]["update"]["sessionUpdate"], "plan");
        // A request of the agent's goes to the client as ours; its answer
        // goes back to the conductor's request.
        let out = send(
            &mut link,
            &json!({ "jsonrpc": "2.0", "id": 9, "method": "proxy/successor",
            "params": { "method": "session/request_permission", "params": { "sessionId": "s" } } }),
        );
        assert_eq!(out[0]["method"], "session/request_permission");
        let ours = out[0]["id"].clone();
        let out = send(
            &mut link,
            &json!({ "jsonrpc": "2.0", "id": ours, "result": { "outcome": "x" } }),
        );
        assert_eq!(
            out,
            [json!({ "jsonrpc": "2.0", "id": 9, "result": { "outcome": "x" } })]
        );
        // A notification of the client's: wrapped.
        let out = send(
            &mut link,
            &json!({ "jsonrpc": "2.0", "method": "session/cancel", "params": { "sessionId": "s" } }),
        );
        assert_eq!(out[0]["method"], "proxy/successor");
        assert_eq!(out[0]["params"]["method"], "session/cancel");
        assert!(out[0].get("id").is_none());
    }
}
