//! `acp-plan proxy`'s line handling fed arbitrary bytes from both sides,
//! after a handshake (so every rule of the relay is live): never a panic;
//! upstream, a line comes out as it went in unless it is an `initialize`;
//! downstream, a line comes out first and as it went in unless it is a
//! `session/update`, and what the relay adds is one JSON message a line.
#![no_main]

use acp_plan::harness::Relay;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut relay = Relay::new(true);
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#;
    let _ = relay.upstream(init);
    let mut out = Vec::new();
    relay.downstream(br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#, &mut out);
    // The first byte says which way each line goes, in turn.
    let Some((&ways, rest)) = data.split_first() else { return };
    for (i, line) in rest.split(|b| *b == b'\n').enumerate() {
        if ways >> (i % 8) & 1 == 0 {
            let sent = relay.upstream(line);
            if *sent != *line {
                assert!(line.windows(12).any(|w| w == b"\"initialize\""), "changed upstream");
            }
        } else {
            let mut out = Vec::new();
            relay.downstream(line, &mut out);
            let first_unchanged = out.first().is_some_and(|first| **first == *line);
            if !first_unchanged {
                assert!(line.windows(16).any(|w| w == b"\"session/update\""), "changed downstream");
            }
            for added in out.iter().skip(1) {
                assert!(serde_json::from_slice::<serde_json::Value>(added).is_ok(), "an added line is JSON");
                assert!(!added.contains(&b'\n'), "one message a line");
            }
        }
    }
    let _ = relay.unanswered("gone");
});
