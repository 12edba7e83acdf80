//! Property tests: any plan message we can build reads back equal from what
//! we write, in both spellings, and what we write in the ACP spelling
//! validates against the public schema.

mod common;

use common::{Schema, Version};
use plan_core::{
    Meta, PlanContent, PlanEntry, PlanId, Priority, SessionNotification, SessionUpdate, Status,
    wire::{CustomName, FileUri, Spelling},
};
use proptest::prelude::*;
use serde_json::{Map, Value};

fn custom_name() -> impl Strategy<Value = CustomName> {
    "_[a-z][a-z_]{0,8}".prop_map(|name| CustomName::new(name).unwrap())
}

fn priority() -> impl Strategy<Value = Priority> {
    prop_oneof![
        Just(Priority::High),
        Just(Priority::Medium),
        Just(Priority::Low),
        custom_name().prop_map(Priority::Custom),
    ]
}

fn status() -> impl Strategy<Value = Status> {
    prop_oneof![
        Just(Status::Pending),
        Just(Status::InProgress),
        Just(Status::Completed),
        Just(Status::Cancelled),
        custom_name().prop_map(Status::Custom),
    ]
}

/// JSON leaves that round-trip exactly (no floats).
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        Just(Value::Null),
    ]
}

fn fields() -> impl Strategy<Value = Map<String, Value>> {
    proptest::collection::btree_map("[a-zA-Z][a-zA-Z0-9]{0,6}", leaf(), 0..4).prop_map(|m| {
        m.into_iter()
            .filter(|(k, _)| !["type", "id", "planId"].contains(&k.as_str()))
            .collect()
    })
}

fn meta() -> impl Strategy<Value = Option<Meta>> {
    prop_oneof![
        Just(None),
        Just(Some(Meta::null())),
        fields().prop_map(|m| Some(Meta::new(m)))
    ]
}

fn plan_id() -> impl Strategy<Value = PlanId> {
    "[a-z0-9][a-z0-9 _-]{0,12}".prop_map(|id| PlanId::new(id).unwrap())
}

fn entry() -> impl Strategy<Value = PlanEntry> {
    (".{0,30}", priority(), status(), meta()).prop_map(|(content, priority, status, meta)| {
        let entry = PlanEntry::new(content, priority, status);
        match meta {
            Some(meta) => entry.with_meta(meta),
            None => entry,
        }
    })
}

fn content() -> impl Strategy<Value = PlanContent> {
    let entries = proptest::collection::vec(entry(), 0..6);
    prop_oneof![
        (plan_id(), entries).prop_map(|(id, e)| PlanContent::items(id, e)),
        (
            plan_id(),
            "(file:///|https://example\\.com/)[a-z0-9/._~-]{1,20}(%[0-9A-F]{2})?"
        )
            .prop_map(|(id, uri)| PlanContent::file(id, FileUri::new(uri).unwrap())),
        (plan_id(), ".{0,40}").prop_map(|(id, md)| PlanContent::markdown(id, md)),
        (custom_name(), plan_id(), fields())
            .prop_map(|(kind, id, f)| PlanContent::custom(kind, id, f).unwrap()),
    ]
    .prop_flat_map(|plan| meta().prop_map(move |m| with_meta(plan.clone(), m)))
}

fn with_meta(plan: PlanContent, meta: Option<Meta>) -> PlanContent {
    match meta {
        Some(meta) => plan.with_meta(meta),
        None => plan,
    }
}

fn update() -> impl Strategy<Value = SessionUpdate> {
    prop_oneof![
        (proptest::collection::vec(entry(), 0..6), meta())
            .prop_map(|(entries, meta)| { SessionUpdate::Plan(plan_core::Plan { entries, meta }) }),
        (content(), meta()).prop_map(|(plan, meta)| SessionUpdate::PlanUpdate { plan, meta }),
        (plan_id(), meta()).prop_map(|(id, meta)| SessionUpdate::PlanRemoved { id, meta }),
    ]
}

fn notification() -> impl Strategy<Value = SessionNotification> {
    (".{0,16}", update(), meta()).prop_map(|(session, update, meta)| SessionNotification {
        session_id: session.into(),
        update,
        meta,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn notifications_round_trip_in_both_spellings(message in notification()) {
        for spelling in [Spelling::Rfd, Spelling::Acp] {
            let json = message.to_json(spelling);
            let read = SessionNotification::from_json(&json);
            prop_assert_eq!(read.as_ref(), Ok(&message), "{} in {}", json, spelling);
            // Lenient reading of a well-formed message skips nothing.
            let lenient = SessionNotification::from_json_lenient(&json).unwrap();
            prop_assert!(lenient.skipped.is_empty());
        }
    }

    #[test]
    fn the_two_spellings_differ_only_in_the_id_key(update in update()) {
        let rfd = update.to_json(Spelling::Rfd);
        let acp = update.to_json(Spelling::Acp);
        prop_assert_eq!(rfd.replace("\"id\":", "\"planId\":"), acp.replace("\"id\":", "\"planId\":"));
    }
}

proptest! {
    // Each case compiles nothing new, but validation walks the whole schema: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn what_we_write_in_the_acp_spelling_validates(message in notification()) {
        thread_local! {
            static V2: common::Validator = Schema::unstable(Version::V2).notification_validator();
            static V1: common::Validator = Schema::unstable(Version::V1).notification_validator();
        }
        let written = message.to_value(Spelling::Acp);
        let errors = match message.update {
            // A v1 plan belongs to v1, and there only with v1's closed sets.
            SessionUpdate::Plan(_) if message.check().is_ok() => V1.with(|v| v.notification_errors(&written)),
            SessionUpdate::Plan(_) => Vec::new(),
            _ => V2.with(|v| v.notification_errors(&written)),
        };
        prop_assert!(errors.is_empty(), "{}\n{:#?}", written, errors);
    }
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
    leaf().prop_recursive(4, 32, 6, move |inner| {
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

/// The text reader (`from_json`) and the reference reader
/// (`from_value`) agree: the same value or both an error, in both modes.
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
    fn the_streaming_reader_agrees_with_the_reference_reader(message in notification(), junk in any_json()) {
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
