//! The example agent's message handling (examples/agent.rs, compiled here as
//! a module) on any input: a prefix of a valid conversation followed by any
//! bytes, or any bytes alone. Never a panic; it ends when its input does;
//! every line it writes is a JSON-RPC 2.0 message; every `session/update`
//! it writes reads back with plan-core's strict reader.
#![no_main]
#![allow(dead_code)]

#[path = "../../examples/agent.rs"]
mod agent;

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// A conversation the fuzzer can cut and extend: the agent gets far with it.
const OPENING: &str = concat!(
    r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}"#,
    "\n",
);

fuzz_target!(|data: &[u8]| {
    let (opening, rest) = data.split_first().map_or((0, data), |(n, rest)| (*n, rest));
    let mut input = OPENING.as_bytes()[..usize::from(opening).min(OPENING.len())].to_vec();
    input.extend_from_slice(rest);
    let mut out = Vec::new();
    let options = agent::Options { pause: Duration::ZERO, ..agent::Options::default() };
    agent::serve(std::io::Cursor::new(input), &mut out, std::io::sink(), options)
        .expect("writing to a Vec cannot fail");
    for line in String::from_utf8(out).expect("the agent writes UTF-8").lines() {
        let message: Value = serde_json::from_str(line).expect("the agent writes JSON");
        assert_eq!(message["jsonrpc"], "2.0", "{line}");
        if message["method"] == "session/update" && message["params"]["update"]["sessionUpdate"] != "state_update" {
            plan_core::SessionNotification::from_json(line).expect("what the agent sends reads back");
        }
    }
});
