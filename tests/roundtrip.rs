//! Property tests: the one property of what we write (it reads back equal,
//! in both spellings, and validates against the public schema) over every
//! generator of values there is; the readers agree, and refuse what the
//! schema refuses.

mod common;

use arbitrary::{Arbitrary, Unstructured};
use common::{Schema, Version};
use plan_core::fixtures::{ClientProfile, Generate, Scenario};
use plan_core::{PlanContent, SessionNotification, SessionUpdate, wire::Spelling};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::Value;

/// Any message we can build: the one generator of values, in its mode for
/// every value a reader reads back (`Generate::any`).
fn notification() -> impl Strategy<Value = SessionNotification> {
    Generate::any().notification()
}

fn update() -> impl Strategy<Value = SessionUpdate> {
    Generate::any().update()
}

/// The one property every generator of values is held to, in one place:
/// what we write, in either spelling, reads back unchanged (and lenient
/// reading skips nothing), and in the ACP spelling validates against the
/// published schema of its version (a v1 `plan` with v1's closed sets
/// against v1's; a v1 `plan` with values v1 lacks is no v1 message, and
/// `check` says so elsewhere).
fn writes_and_reads_back(message: &SessionNotification) -> Result<(), String> {
    thread_local! {
        static V2: common::Validator = Schema::unstable(Version::V2).notification_validator();
        static V1: common::Validator = Schema::unstable(Version::V1).notification_validator();
    }
    for spelling in [Spelling::Rfd, Spelling::Acp] {
        let json = message.to_json(spelling);
        let read = SessionNotification::from_json(&json).map_err(|e| format!("{json}: {e}"))?;
        if &read != message {
            return Err(format!("{json} in {spelling} read back as {read:?}"));
        }
        let lenient = SessionNotification::from_json_lenient(&json).map_err(|e| e.to_string())?;
        if !lenient.skipped.is_empty() {
            return Err(format!(
                "{json}: lenient reading skipped {:?}",
                lenient.skipped
            ));
        }
    }
    let written = message.to_value(Spelling::Acp);
    let errors = match message.update {
        SessionUpdate::Plan(_) if message.check().is_ok() => {
            V1.with(|v| v.notification_errors(&written))
        }
        SessionUpdate::Plan(_) => Vec::new(),
        _ => V2.with(|v| v.notification_errors(&written)),
    };
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{written}\n{errors:#?}"))
    }
}

proptest! {
    // Validation walks the whole schema: a few hundred cases.
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_message_we_can_build_writes_and_reads_back(message in notification()) {
        writes_and_reads_back(&message).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn the_two_spellings_differ_only_in_the_id_key(update in update()) {
        let rfd = update.to_json(Spelling::Rfd);
        let acp = update.to_json(Spelling::Acp);
        prop_assert_eq!(rfd.replace("\"id\":", "\"planId\":"), acp.replace("\"id\":", "\"planId\":"));
    }
}

/// The same property over every other generator: `Generate` for each kind
/// of client, `Arbitrary` from raw bytes (alone and through each client),
/// and the scripted streams of `Scenario`.
#[test]
fn every_generator_of_values_is_held_to_the_one_property() {
    let mut checked = 0;
    let mut hold = |message: &SessionNotification, from: &str| {
        writes_and_reads_back(message).unwrap_or_else(|e| panic!("{from}: {e}"));
        checked += 1;
    };
    for client in ClientProfile::every_kind() {
        let mut runner = TestRunner::new(Config::with_cases(64));
        let generate = Generate::new(client);
        runner
            .run(&generate.notification(), |message| {
                writes_and_reads_back(&message).map_err(TestCaseError::fail)
            })
            .unwrap_or_else(|e| panic!("Generate::new({client:?}): {e}"));
        for seed in 0..8 {
            let stream = Scenario::new(seed)
                .for_client(client)
                .sessions(2)
                .generate();
            for line in stream.lines() {
                let message = SessionNotification::from_json(&line).unwrap();
                hold(&message, &format!("Scenario {seed} for {client:?}"));
            }
        }
    }
    for (n, data) in common::fuzz_inputs().iter().enumerate().step_by(8) {
        let mut u = Unstructured::new(data);
        let message = SessionNotification::arbitrary(&mut u).unwrap();
        hold(&message, &format!("Arbitrary, input {n}"));
        for client in ClientProfile::every_kind() {
            let mut u = Unstructured::new(data);
            let message = client.arbitrary_notification(&mut u).unwrap();
            hold(&message, &format!("Arbitrary for {client:?}, input {n}"));
        }
    }
    assert!(checked > 1000, "{checked} messages held to the property");
}

/// Any JSON value, nested a few levels, biased toward the keys plans use.
fn any_json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("sessionUpdate".to_owned()),
        Just("plan".to_owned()),
        Just("type".to_owned()),
        Just("id".to_owned()),
        Just("planId".to_owned()),
        Just("entries".to_owned()),
        Just("status".to_owned()),
        Just("_meta".to_owned()),
        "[a-z]{1,5}",
    ];
    // Leaves that round-trip exactly (no floats).
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        Just(Value::Null),
    ];
    leaf.prop_recursive(4, 32, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            proptest::collection::btree_map(key.clone(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn no_input_panics_a_reader(text in ".{0,64}", value in any_json()) {
        let _ = SessionNotification::from_json(&text);
        let _ = SessionUpdate::from_json_lenient(&text);
        let _ = SessionUpdate::from_value(value.clone());
        let _ = SessionUpdate::from_json_lenient(&value.to_string());
        let _ = PlanContent::from_value(value.clone());
        let _ = plan_core::wire::ClientCapabilities::from_value(value);
    }

    /// A proxy's opt-in (`InitializeRequest::opting_in_to_plans`) on any
    /// capabilities a client may write, compact or spread over lines: it
    /// reads them as `from_json` does, writes `plan` in exactly when a v1
    /// client lacks it and wrote nothing malformed, and what it writes is
    /// the same value as `plan` written into a parsed copy.
    #[test]
    fn opting_in_writes_plan_in_and_nothing_else(
        capabilities in any_json(),
        version in 0u64..3,
        null_plan in any::<bool>(),
        spread in any::<bool>(),
    ) {
        use plan_core::agent::InitializeRequest;
        let mut capabilities = capabilities;
        if let (true, Value::Object(members)) = (null_plan, &mut capabilities) {
            members.insert("plan".to_owned(), Value::Null);
        }
        let text = if spread {
            serde_json::to_string_pretty(&capabilities).unwrap()
        } else {
            capabilities.to_string()
        };
        let params = format!("{{\"protocolVersion\":{version}, \"clientCapabilities\": {text} }}");
        let (offer, written) = InitializeRequest::opting_in_to_plans(&params).unwrap();
        prop_assert_eq!(&offer, &InitializeRequest::from_json(&params).unwrap());
        let lacks_plan = version == 1
            && !offer.capabilities.supports_plan_operations()
            && offer.skipped.is_empty();
        prop_assert_eq!(written.is_some(), lacks_plan, "{}", params);
        if let Some(written) = written {
            let mut value: Value = serde_json::from_str(&params).unwrap();
            if !value["clientCapabilities"].is_object() {
                value["clientCapabilities"] = serde_json::json!({});
            }
            value["clientCapabilities"]["plan"] = serde_json::json!({});
            prop_assert_eq!(serde_json::from_str::<Value>(&written).unwrap(), value);
            let again = InitializeRequest::from_json(&written).unwrap();
            prop_assert!(again.capabilities.supports_plan_operations(), "{}", written);
        }
    }

    #[test]
    fn what_a_reader_accepts_it_writes_back_readably(value in any_json()) {
        // Whatever reads, reads back to the same value from what we write.
        if let Ok(update) = SessionUpdate::from_value(value) {
            for spelling in [Spelling::Rfd, Spelling::Acp] {
                let again = SessionUpdate::from_json(&update.to_json(spelling));
                prop_assert_eq!(again.as_ref(), Ok(&update));
            }
        }
    }
}

/// The same JSON with every object's keys in reverse order: the tag comes
/// last, so the text reader takes its fallback.
fn reversed(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.reverse();
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), reversed(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(reversed).collect()),
        other => other.clone(),
    }
}

/// Reading a text (`from_json`) and reading its parsed `Value`
/// (`from_value`, the same visitors with each tag moved first) agree: the
/// same value or both an error, in both modes.
fn readers_agree(text: &str) -> Result<(), TestCaseError> {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        prop_assert!(SessionNotification::from_json(text).is_err());
        return Ok(());
    };
    let streamed = SessionNotification::from_json(text);
    let reference = SessionNotification::from_value(value.clone());
    prop_assert_eq!(streamed.as_ref().ok(), reference.as_ref().ok(), "{}", text);
    prop_assert_eq!(streamed.is_ok(), reference.is_ok(), "{}", text);
    if let Ok(reference) = &reference {
        // What reads strictly reads the same leniently, skipping nothing.
        let lenient = SessionNotification::from_json_lenient(text).unwrap();
        prop_assert_eq!(&lenient.value, reference);
        prop_assert!(lenient.skipped.is_empty());
    }
    let update = SessionUpdate::from_json(text).ok();
    prop_assert_eq!(update, SessionUpdate::from_value(value).ok(), "{}", text);
    Ok(())
}

proptest! {
    #[test]
    fn reading_a_text_and_reading_its_value_agree(message in notification(), junk in any_json()) {
        let value = message.to_value(Spelling::Acp);
        readers_agree(&value.to_string())?;
        readers_agree(&reversed(&value).to_string())?;
        prop_assert_eq!(SessionNotification::from_json(&reversed(&value).to_string()), Ok(message));
        readers_agree(&junk.to_string())?;
        // A valid envelope around arbitrary JSON as the update.
        let wrapped = format!(r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{junk}}}}}"#);
        readers_agree(&wrapped)?;
    }
}

proptest! {
    #[test]
    fn the_direct_writer_writes_what_serde_writes(message in notification()) {
        for spelling in [Spelling::Rfd, Spelling::Acp] {
            let direct = message.to_json(spelling);
            let serde = serde_json::to_string(&message.spelled(spelling)).unwrap();
            prop_assert_eq!(&direct, &serde);
            let update = serde_json::to_string(&message.update.spelled(spelling)).unwrap();
            prop_assert_eq!(message.update.to_json(spelling), update);
            if let SessionUpdate::PlanUpdate { plan, .. } = &message.update {
                prop_assert_eq!(plan.to_json(spelling), serde_json::to_string(&plan.spelled(spelling)).unwrap());
            }
        }
    }
}

/// Our own JSON Schema (feature `schemars`) for a notification, compiled.
fn our_schema() -> jsonschema::Validator {
    let schema = serde_json::to_value(schemars::schema_for!(SessionNotification)).unwrap();
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn our_schema_accepts_everything_we_write_in_both_spellings(message in notification()) {
        thread_local! {
            static OURS: jsonschema::Validator = our_schema();
        }
        for spelling in [Spelling::Rfd, Spelling::Acp] {
            let written = message.to_value(spelling);
            let errors: Vec<String> = OURS.with(|v| v.iter_errors(&written).map(|e| e.to_string()).collect());
            prop_assert!(errors.is_empty(), "{}\n{:#?}", written, errors);
        }
    }
}

#[test]
fn our_schema_refuses_what_the_readers_refuse() {
    let schema = our_schema();
    let message = |update: &str| -> Value {
        serde_json::from_str(&format!(r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{update}}}}}"#)).unwrap()
    };
    for bad in [
        r#"{"sessionUpdate":"plan_update","plan":{"type":"items","entries":[]}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"items","id":"a","planId":"a","entries":[]}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"file","id":"f"}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"items","id":"p","entries":[{"content":"a","priority":"high"}]}}"#,
        r#"{"sessionUpdate":"plan_removed"}"#,
        r#"{"sessionUpdate":"plan"}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"m"}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"m","content":"x","path":"docs/PLAN.md"}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"m","content":"x","path":7}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"m","content":"x","path":"\\PLAN.md"}}"#,
    ] {
        let value = message(bad);
        assert!(!schema.is_valid(&value), "accepted {bad}");
        assert!(
            SessionNotification::from_value(value).is_err(),
            "the reader accepts {bad}"
        );
    }
    for good in [
        r#"{"sessionUpdate":"plan_removed","id":"p"}"#,
        r#"{"sessionUpdate":"agent_message_chunk","content":{}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"_timeline","planId":"t","events":[]}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"m","content":"x","path":"/abs/PLAN.md"}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"m","content":"x","path":"C:\\dev\\PLAN.md"}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"m","content":"x","path":null}}"#,
        r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"m","content":"x","path":"\\\\srv\\PLAN.md"}}"#,
    ] {
        assert!(schema.is_valid(&message(good)), "refused {good}");
    }
}
