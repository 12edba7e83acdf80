//! What the `arbitrary` feature promises a client author: from any input,
//! messages a client of each kind may be sent, which our own strict board
//! reads without an error or a skipped part, in the client's spelling, and
//! that the version table allows for that kind of client (no `file` plan, no
//! relative path, only the updates and values its row has).
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use plan_core::fixtures::ClientProfile;
use plan_core::client::SessionBoards;

fuzz_target!(|data: &[u8]| {
    for client in ClientProfile::every_kind() {
        let mut u = Unstructured::new(data);
        let mut boards = SessionBoards::new().strict();
        while !u.is_empty() {
            let message = client.arbitrary_notification(&mut u).expect("any input gives a message");
            let line = message.to_json(client.spelling());
            let applied = boards.apply_json(&line).expect("a sendable message reads");
            assert!(applied.skipped.is_empty(), "{line}");
            assert!(message.check().is_ok(), "{line}");
            assert!(message.check_for_client(client.kind()).is_ok(), "{line}");
            assert!(!line.contains(r#""type":"file""#), "{line}");
        }
    }
});
