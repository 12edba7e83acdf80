//! The `arbitrary` feature: any bytes give a valid value. Thousands of inputs
//! (empty, short, long, all-zero, all-ones, pseudo-random) each give values
//! that pass `check` (and read back equal: `tests/roundtrip.rs`), and, through a
//! `ClientProfile`, are messages that client may be sent (our rules for its
//! version, its public schema, the SDK reader).

mod common;

use arbitrary::{Arbitrary, Unstructured};
use common::sdk::Judges;
use plan_core::fixtures::ClientProfile;
use plan_core::{
    PlanContent, SessionNotification,
    client::SessionBoards,
    wire::{ClientCapabilities, Spelling},
};

#[test]
fn any_bytes_give_a_valid_notification() {
    for data in common::fuzz_inputs() {
        let mut u = Unstructured::new(&data);
        let message =
            SessionNotification::arbitrary(&mut u).unwrap_or_else(|e| panic!("{data:?}: {e}"));
        // That it reads back is `tests/roundtrip.rs`'s one property.
        assert!(message.check().is_ok(), "{:?}", message.check());
        let caps = ClientCapabilities::arbitrary(&mut u).unwrap();
        let json = caps.to_json(caps.plan_spelling().unwrap_or(Spelling::Acp));
        assert_eq!(
            ClientCapabilities::from_json(&json).unwrap(),
            caps,
            "{json}"
        );
        let plan = PlanContent::arbitrary(&mut u).unwrap();
        assert!(
            plan.entries()
                .is_none_or(|e| e.iter().all(|e| !e.content.trim().is_empty()))
        );
    }
}

#[test]
fn through_a_client_every_message_is_one_it_may_be_sent() {
    let judges = Judges::new();
    for (n, data) in common::fuzz_inputs().iter().enumerate().step_by(4) {
        for client in ClientProfile::every_kind() {
            let mut u = Unstructured::new(data);
            let mut boards = SessionBoards::new().strict();
            // A fuzz target's loop: messages until the input runs out.
            for _ in 0..8 {
                let message = client.arbitrary_notification(&mut u).unwrap();
                judges.may_send(&message, client, &format!("{client:?}, input {n}"));
                let line = message.to_json(client.spelling());
                let applied = boards.apply_json(&line).unwrap();
                assert!(applied.skipped.is_empty(), "{line}");
                if u.is_empty() {
                    break;
                }
            }
        }
    }
}
