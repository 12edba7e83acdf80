//! Every class of bad input in `docs/reliability.md`, and what the user gets.
//! (The fuzzing of `fuzz/` and the property tests of `tests/roundtrip.rs`
//! cover arbitrary input; these pin down each class by name.)

use plan_core::{SessionNotification, SessionUpdate, client::PlanBoard, wire::Spelling};

fn message(update: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{update}}}}}"#
    )
}

fn items(entries: &str) -> String {
    message(&format!(
        r#"{{"sessionUpdate":"plan_update","plan":{{"type":"items","planId":"p","entries":[{entries}]}}}}"#
    ))
}

#[test]
fn truncated_json_is_a_syntax_error_with_its_place() {
    let whole = items(r#"{"content":"a","priority":"high","status":"pending"}"#);
    for cut in 0..whole.len() {
        let err = SessionNotification::from_json(&whole[..cut]).unwrap_err();
        assert!(
            err.to_string().starts_with("invalid JSON at line 1"),
            "{cut}: {err}"
        );
    }
}

#[test]
fn wrong_types_name_what_was_expected_and_where() {
    let err = SessionNotification::from_json(&items(
        r#"{"content":1,"priority":"high","status":"pending"}"#,
    ))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "at `params.update.plan.entries[0].content`: expected a string, found a number"
    );
}

#[test]
fn unknown_variants_are_kept_not_rejected() {
    let read = SessionNotification::from_json(&items(
        r#"{"content":"a","priority":"urgent","status":"_blocked"}"#,
    ))
    .unwrap();
    assert!(read.check().is_err(), "kept, and flagged as nonconforming");
    let other = SessionUpdate::from_json(r#"{"sessionUpdate":"future_thing","x":[1]}"#).unwrap();
    assert_eq!(other.kind(), "future_thing");
}

#[test]
fn invalid_utf8_is_an_error_that_says_where() {
    let mut bytes = items(r#"{"content":"a","priority":"high","status":"pending"}"#).into_bytes();
    bytes[120] = 0xff;
    let err = SessionNotification::from_slice(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "in the message: the message is not UTF-8 text: invalid byte at offset 120"
    );
}

#[test]
fn a_deep_meta_is_read_exactly_as_deep_as_serde_json_reads() {
    // `_meta` is kept as raw text, which serde_json captures without its
    // recursion limit; the reader applies the limit itself, at the same depth.
    for depth in 115..=130 {
        let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        for text in [
            message(&format!(
                r#"{{"sessionUpdate":"plan_removed","planId":"p","_meta":{{"x":{nested}}}}}"#
            )),
            items(&format!(
                r#"{{"content":"a","priority":"high","status":"pending","_meta":{{"x":{nested}}}}}"#
            )),
        ] {
            let serde = serde_json::from_str::<serde_json::Value>(&text).is_ok();
            let ours = SessionNotification::from_json(&text);
            assert_eq!(ours.is_ok(), serde, "depth {depth}: {ours:?}");
            if let Ok(read) = ours {
                // What was read writes back and converts to a value.
                assert_eq!(read.to_json(plan_core::wire::Spelling::Acp), text);
                let _ = read.to_value(plan_core::wire::Spelling::Acp);
            }
        }
    }
}

#[test]
fn deep_nesting_stops_at_serde_jsons_recursion_limit() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let meta = message(&format!(
        r#"{{"sessionUpdate":"plan_removed","planId":"p","_meta":{{"x":{deep}}}}}"#
    ));
    let err = SessionNotification::from_json(&meta).unwrap_err();
    assert!(
        err.to_string().contains("recursion limit exceeded"),
        "{err}"
    );
    let other = message(&format!(r#"{{"sessionUpdate":"x","y":{deep}}}"#));
    assert!(SessionNotification::from_json(&other).is_err());
}

#[test]
fn huge_inputs_read_whole() {
    let big = "x".repeat(1 << 20);
    let one_mb = SessionNotification::from_json(&items(&format!(
        r#"{{"content":"{big}","priority":"high","status":"pending"}}"#
    )))
    .unwrap();
    let SessionUpdate::PlanUpdate { plan, .. } = &one_mb.update else {
        panic!()
    };
    assert_eq!(plan.entries().unwrap()[0].content.len(), 1 << 20);
    let many = vec![r#"{"content":"a","priority":"low","status":"pending"}"#; 100_000].join(",");
    let read = SessionNotification::from_json(&items(&many)).unwrap();
    assert_eq!(read.to_json(Spelling::Acp).len(), items(&many).len());
}

#[test]
fn duplicate_ids_and_keys() {
    // The same plan id twice in a stream: the second replaces the first (SPEC).
    let mut board = PlanBoard::new("s");
    board
        .apply_json(&items(
            r#"{"content":"a","priority":"high","status":"pending"}"#,
        ))
        .unwrap();
    board
        .apply_json(&items(
            r#"{"content":"b","priority":"high","status":"pending"}"#,
        ))
        .unwrap();
    assert_eq!(board.plans().len(), 1);
    // Both spellings of the id in one plan, or one key twice: ambiguous, an error.
    let both = message(r#"{"sessionUpdate":"plan_removed","id":"a","planId":"b"}"#);
    assert!(
        SessionNotification::from_json(&both)
            .unwrap_err()
            .to_string()
            .contains("both `id` and `planId`")
    );
    let twice = message(r#"{"sessionUpdate":"plan_removed","planId":"a","planId":"b"}"#);
    assert!(
        SessionNotification::from_json(&twice)
            .unwrap_err()
            .to_string()
            .contains("appears twice")
    );
}

#[test]
fn meta_is_written_back_byte_for_byte() {
    let meta = r#"{"z":1,"a":123456789012345678901234567890,"m":{"y":1.50,"b":[],"e":-0.0e5}}"#;
    let texts = [
        message(&format!(
            r#"{{"sessionUpdate":"plan_removed","planId":"p","_meta":{meta}}}"#
        )),
        items(&format!(
            r#"{{"content":"a","priority":"high","status":"pending","_meta":{meta}}}"#
        )),
        format!(
            r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"plan","entries":[],"_meta":{meta}}},"_meta":{meta}}}}}"#
        ),
    ];
    for text in texts {
        let read = SessionNotification::from_json(&text).unwrap();
        assert_eq!(read.to_json(plan_core::wire::Spelling::Acp), text);
        assert_eq!(
            serde_json::to_string(&read).unwrap(),
            text,
            "through serde too"
        );
    }
    // Pretty-printed `_meta` comes back compact (one NDJSON line), in its order.
    let pretty = message(
        "{\"sessionUpdate\":\"plan_removed\",\"planId\":\"p\",\"_meta\":{\n  \"z\": [1, 2],\n  \"a\": \"x y\"\n}}",
    );
    let read = SessionNotification::from_json(&pretty).unwrap();
    assert!(
        read.to_json(plan_core::wire::Spelling::Acp)
            .ends_with(r#""_meta":{"z":[1,2],"a":"x y"}}}}"#)
    );
}

#[test]
fn meta_declared_in_plan_keeps_its_source_order() {
    let plan: plan_core::PlanContent = plan_core::plan! {
        id: "p",
        items: [high pending "a" meta: { "z": 1, "a": { "y": true, "b": null } }],
        meta: { "owner": "ci", "attempt": 2 },
    };
    let json = plan.to_json(plan_core::wire::Spelling::Acp);
    assert!(
        json.contains(r#""_meta":{"z":1,"a":{"y":true,"b":null}}"#),
        "{json}"
    );
    assert!(
        json.ends_with(r#""_meta":{"owner":"ci","attempt":2}}"#),
        "{json}"
    );
}
