//! The `proptest` feature's strategies (`plan_core::fixtures::Generate`):
//! everything they generate passes our own `check` for its version,
//! validates against that version's public schema and is read by the
//! published SDK's reader of that version with nothing dropped (that it reads
//! back equal is `tests/roundtrip.rs`'s one property, over every generator);
//! a failing property shrinks to a small, readable case.

mod common;

use common::sdk::Judges;
use plan_core::fixtures::{ClientProfile, Generate};
use plan_core::{
    Status,
    agent::PlanSender,
    wire::{ClientCapabilities, ProtocolVersion, Spelling},
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};

/// Strategies for every kind of client, and one with no custom values or
/// types and no `_meta`.
fn clients() -> Vec<(String, Generate)> {
    let mut all: Vec<(String, Generate)> = ClientProfile::every_kind()
        .into_iter()
        .map(|client| (format!("{client:?}"), Generate::new(client)))
        .collect();
    all.push((
        "v2, no custom values or types, no _meta".into(),
        Generate::new(ClientProfile::v2())
            .custom_values(false)
            .custom_types(false)
            .meta(false),
    ));
    all
}

#[test]
fn every_generated_message_is_valid_for_its_client() {
    let judges = Judges::new();
    for (name, generate) in clients() {
        let client = generate.client();
        let mut runner = TestRunner::new(Config::with_cases(300));
        runner
            .run(&generate.notification(), |message| {
                // That it reads back and validates is the one property of
                // tests/roundtrip.rs; here, that this client may be sent it.
                judges.may_send(&message, client, &name);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn generated_capabilities_describe_the_same_client() {
    for (client, generate) in clients() {
        let protocol = generate.client().protocol();
        let mut runner = TestRunner::new(Config::with_cases(64));
        runner
            .run(&generate.client_capabilities(), |caps| {
                let json = caps.to_json(generate.client().spelling());
                let back = ClientCapabilities::from_json(&json)
                    .map_err(|e| TestCaseError::fail(format!("{client}: {json}: {e}")))?;
                prop_assert_eq!(&back, &caps);
                // A sender for a client with these capabilities writes what
                // the strategies generate for.
                let sender = PlanSender::with_protocol("s", protocol, &caps);
                prop_assert_eq!(
                    sender.spelling(),
                    generate.client().spelling(),
                    "{}",
                    client
                );
                prop_assert_eq!(
                    sender.supports_plan_operations(),
                    protocol == ProtocolVersion::V2 || generate.client().capability().is_some(),
                    "{}",
                    client
                );
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{client}: {e}"));
    }
}

#[test]
fn a_failing_property_shrinks_to_a_small_readable_case() {
    // A client bug: it cannot show a plan with a finished step in it.
    let generate = Generate::new(ClientProfile::v2());
    let mut runner = TestRunner::new(Config::with_cases(500));
    let result = runner.run(&generate.notification(), |message| {
        let finished = message
            .to_json(Spelling::Acp)
            .contains(r#""status":"completed""#);
        prop_assert!(!finished);
        Ok(())
    });
    let Err(TestError::Fail(_, minimal)) = result else {
        panic!("the property should fail: {result:?}");
    };
    let line = minimal.to_json(Spelling::Acp);
    // One entry, a short id and text, no `_meta`: a case a person reads at a glance.
    let plan = match &minimal.update {
        plan_core::SessionUpdate::PlanUpdate { plan, meta } => {
            assert!(meta.is_none(), "{line}");
            plan
        }
        other => panic!("{other:?}"),
    };
    let entries = plan.entries().unwrap();
    assert_eq!(entries.len(), 1, "{line}");
    assert_eq!(entries[0].status, Status::Completed);
    assert!(entries[0].meta.is_none() && plan.meta().is_none(), "{line}");
    assert!(entries[0].content.len() <= 2, "{line}");
    assert!(line.len() < 240, "{} bytes: {line}", line.len());
}
