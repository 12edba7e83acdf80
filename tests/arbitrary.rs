//! The `arbitrary` feature: any bytes give a valid value. Thousands of inputs
//! (empty, short, long, all-zero, all-ones, pseudo-random) each give values
//! that pass `check`, read back equal from what we write, and, through a
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

/// Inputs of every kind a fuzzer starts from: empty, constant, and
/// pseudo-random of growing length.
fn inputs() -> Vec<Vec<u8>> {
    let mut inputs = vec![Vec::new(), vec![0; 64], vec![0xff; 64], vec![7; 3]];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for n in 0..2000 {
        let len = n % 600;
        let bytes = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state.to_le_bytes()[0]
            })
            .collect();
        inputs.push(bytes);
    }
    inputs
}

#[test]
fn any_bytes_give_a_valid_notification() {
    for data in inputs() {
        let mut u = Unstructured::new(&data);
        let message =
            SessionNotification::arbitrary(&mut u).unwrap_or_else(|e| panic!("{data:?}: {e}"));
        assert!(message.check().is_ok(), "{:?}", message.check());
        for spelling in [Spelling::Acp, Spelling::Rfd] {
            let line = message.to_json(spelling);
            assert_eq!(
                SessionNotification::from_json(&line).unwrap(),
                message,
                "{line}"
            );
        }
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
    for (n, data) in inputs().iter().enumerate().step_by(4) {
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
