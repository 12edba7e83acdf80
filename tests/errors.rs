//! Bad input is an `Err` that says what is wrong and where, never a panic,
//! and builders refuse what the protocol forbids.

use plan_core::{
    PlanId, Priority, SessionNotification, SessionUpdate, Status,
    wire::{ClientCapabilities, CustomName, FileUri},
};

/// A notification around `update`.
fn message(update: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{update}}}}}"#
    )
}

// Over 80 lines: one table of cases, each with what its error says.
#[test]
#[allow(clippy::too_many_lines)] // one table of cases
fn malformed_notifications_say_what_and_where() {
    let entry = |status: &str| format!(r#"{{"content":"a","priority":"high","status":{status}}}"#);
    let items = |entries: &str| {
        message(&format!(
            r#"{{"sessionUpdate":"plan_update","plan":{{"type":"items","planId":"p","entries":[{entries}]}}}}"#
        ))
    };
    let cases: Vec<(String, &str)> = vec![
        (
            String::new(),
            "invalid JSON at line 1, column 0: EOF while parsing a value",
        ),
        (
            "{\"jsonrpc\":".into(),
            "invalid JSON at line 1, column 11: EOF while parsing a value",
        ),
        (
            "[]".into(),
            "in the message: expected an object, found an array",
        ),
        (
            "{}".into(),
            "in the message: missing required field `jsonrpc`",
        ),
        (
            r#"{"jsonrpc":"1.0","method":"session/update","params":{}}"#.into(),
            "at `jsonrpc`: expected JSON-RPC version \"2.0\", found \"1.0\"",
        ),
        (
            r#"{"jsonrpc":"2.0","method":"session/prompt","params":{}}"#.into(),
            "at `method`: expected method `session/update`, found `session/prompt`",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"session/update","params":{}}"#.into(),
            "at `id`: a `session/update` is a notification and carries no `id`; this is a request",
        ),
        (
            r#"{"jsonrpc":"2.0","method":"session/update"}"#.into(),
            "in the message: missing required field `params`",
        ),
        (
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"update":{}}}"#.into(),
            "at `params`: missing required field `sessionId`",
        ),
        (
            message("{}"),
            "at `params.update`: missing required field `sessionUpdate`",
        ),
        (
            message(r#"{"sessionUpdate":7}"#),
            "at `params.update.sessionUpdate`: expected a string, found a number",
        ),
        (
            items(&format!(
                "{},{},{}",
                entry("\"pending\""),
                entry("\"pending\""),
                entry("null")
            )),
            "at `params.update.plan.entries[2].status`: expected a string, found null",
        ),
        (
            items(r#"{"content":"a","status":"pending"}"#),
            "at `params.update.plan.entries[0]`: missing required field `priority`",
        ),
        (
            items(&entry("\"pending\",\"_meta\":[]")),
            "at `params.update.plan.entries[0]._meta`: expected an object or null, found an array",
        ),
        (
            message(
                r#"{"sessionUpdate":"plan_update","plan":{"type":"items","id":"a","planId":"a","entries":[]}}"#,
            ),
            "at `params.update.plan`: both `id` and `planId` are present; they are two spellings of one field, keep one",
        ),
        (
            message(
                r#"{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"","entries":[]}}"#,
            ),
            "at `params.update.plan.planId`: a plan id cannot be empty",
        ),
        (
            message(
                r#"{"sessionUpdate":"plan_update","plan":{"type":"file","id":"f","uri":"plan.md"}}"#,
            ),
            "at `params.update.plan.uri`: a file plan's URI must be absolute, with a scheme, e.g. `file:///tmp/plan.md`",
        ),
        (
            message(r#"{"sessionUpdate":"plan_update","plan":{"planId":"p"}}"#),
            "at `params.update.plan`: missing required field `type`",
        ),
        (
            message(r#"{"sessionUpdate":"plan_update"}"#),
            "at `params.update`: missing required field `plan`",
        ),
        (
            message(r#"{"sessionUpdate":"plan","entries":{}}"#),
            "at `params.update.entries`: expected an array, found an object",
        ),
    ];
    for (input, expected) in cases {
        let err = SessionNotification::from_json(&input).expect_err(&input);
        assert_eq!(err.to_string(), expected, "{input}");
    }
}

#[test]
fn other_session_updates_pass_through_untouched() {
    let chunk = r#"{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"},"x":[1,2.5,null]}"#;
    let update = SessionUpdate::from_json(chunk).unwrap();
    let SessionUpdate::Other(other) = &update else {
        panic!("not Other: {update:?}")
    };
    assert_eq!(other.kind(), "agent_message_chunk");
    let written: serde_json::Value =
        serde_json::from_str(&update.to_json(plan_core::wire::Spelling::Acp)).unwrap();
    assert_eq!(
        written,
        serde_json::from_str::<serde_json::Value>(chunk).unwrap()
    );
}

#[test]
fn lenient_reading_drops_bad_meta_and_bad_capabilities_and_reports_them() {
    let caps = ClientCapabilities::from_json_lenient(r#"{"plan":true,"fs":{}}"#).unwrap();
    assert!(!caps.value.supports_plan_operations());
    assert_eq!(caps.skipped.len(), 1);
    assert_eq!(
        caps.skipped[0].to_string(),
        "skipped `plan`: expected an object or null, found a boolean"
    );
    assert!(ClientCapabilities::from_json(r#"{"plan":true}"#).is_err());

    let update = r#"{"sessionUpdate":"plan_removed","id":"p","_meta":"oops"}"#;
    let read = SessionUpdate::from_json_lenient(update).unwrap();
    assert!(matches!(
        read.value,
        SessionUpdate::PlanRemoved { meta: None, .. }
    ));
    assert_eq!(read.skipped[0].path(), "_meta");
}

#[test]
fn builders_refuse_what_the_protocol_forbids() {
    assert_eq!(
        CustomName::new("urgent").unwrap_err().to_string(),
        "custom names must begin with `_`; `urgent` is reserved for future ACP versions (write `_urgent`)"
    );
    assert_eq!(
        Priority::custom("_").unwrap_err().to_string(),
        "`_` alone is not a custom name; add at least one character after the `_`, e.g. `_blocked`"
    );
    assert_eq!(
        Status::custom("").unwrap_err().to_string(),
        "a custom name cannot be empty; custom values are `_` followed by at least one character, e.g. `_blocked`"
    );
    assert_eq!(
        PlanId::new("").unwrap_err().to_string(),
        "a plan id cannot be empty"
    );
    assert_eq!(
        FileUri::new("C:\\plans\\a.md").unwrap_err().to_string(),
        "this looks like a Windows path, not a URI; write it as `file:///C:/path/plan.md`"
    );
    assert_eq!(
        "in-progress".parse::<Status>().unwrap_err().to_string(),
        "unknown status `in-progress`; did you mean `in_progress`?"
    );
}

#[test]
fn a_repeated_key_is_ambiguous_and_an_error() {
    // Found by the fuzzer (fuzz/, target parse_message): the text reader
    // took the first `type`, `serde_json::Value` the last.
    let twice = r#"{"type": "fi@e", "type": "file", "planId": "plan-1"}"#;
    let err = plan_core::PlanContent::from_json(twice).unwrap_err();
    assert_eq!(
        err.to_string(),
        "in the message: `type` appears twice; a message with a repeated key is ambiguous"
    );
    // Also when the tag is not first (the fallback reader), and in an entry.
    let late = r#"{"planId": "p", "type": "markdown", "content": "a", "content": "b"}"#;
    assert!(
        plan_core::PlanContent::from_json(late)
            .unwrap_err()
            .to_string()
            .contains("`content` appears twice")
    );
    let entry = r#"{"sessionUpdate":"plan","entries":[{"content":"a","status":"pending","priority":"high","status":"completed"}]}"#;
    let err = SessionUpdate::from_json(entry).unwrap_err();
    assert_eq!(err.path(), "entries[0]");
    let other = r#"{"sessionUpdate":"agent_message_chunk","x":1,"x":2}"#;
    assert!(SessionUpdate::from_json(other).is_err());
}

#[test]
fn a_blank_entry_is_read_and_reported_by_check() {
    let update = plan_core::SessionUpdate::from_json(
        r#"{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"p","entries":[{"content":"  ","priority":"high","status":"pending"}]}}"#,
    )
    .unwrap();
    let violations = update.check().unwrap_err();
    assert_eq!(violations[0].rule(), "blank-content");
    assert_eq!(violations[0].path(), "plan.entries[0].content");
    assert_eq!(
        violations[0].message(),
        "an entry's content cannot be empty; say what the step does"
    );
}

#[test]
fn a_string_of_the_wrong_type_is_named_alike_by_both_readers() {
    // The text reader reads `jsonrpc`, `method`, `sessionId`, `sessionUpdate`,
    // `type` and the plan id without a JSON value in between; its errors must be the reference
    // reader's, word for word, whatever stands where the string should.
    for found in ["2", "true", "null", "[1, [2]]", r#"{"a": {"b": 1}}"#, "1.5"] {
        let plan = r#"{"type":"items","planId":"p","entries":[]}"#;
        let cases = [
            format!(
                r#"{{"jsonrpc":{found},"method":"session/update","params":{{"sessionId":"s","update":{{"sessionUpdate":"plan_update","plan":{plan}}}}}}}"#
            ),
            format!(
                r#"{{"jsonrpc":"2.0","method":{found},"params":{{"sessionId":"s","update":{{"sessionUpdate":"plan_update","plan":{plan}}}}}}}"#
            ),
            message(&format!(r#"{{"sessionUpdate":{found},"plan":{plan}}}"#)),
            message(&format!(
                r#"{{"sessionUpdate":"plan_update","plan":{{"type":{found},"planId":"p","entries":[]}}}}"#
            )),
            message(&format!(
                r#"{{"sessionUpdate":"plan_update","plan":{{"type":"items","planId":{found},"entries":[]}}}}"#
            )),
            message(&format!(
                r#"{{"sessionUpdate":"plan_removed","id":{found}}}"#
            )),
            format!(
                r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":{found},"update":{{"sessionUpdate":"plan_update","plan":{plan}}}}}}}"#
            ),
        ];
        for text in cases {
            let fast = SessionNotification::from_json(&text).unwrap_err();
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            let reference = SessionNotification::from_value(value).unwrap_err();
            assert_eq!(fast.to_string(), reference.to_string(), "{text}");
            assert!(fast.to_string().contains("expected a string"), "{fast}");
        }
    }
}

#[test]
fn the_errors_of_one_value_are_carried_into_error_by_question_mark() {
    use plan_core::agent::PlanRun;
    use plan_core::wire::{CustomName, FileUri};
    use plan_core::{AbsolutePath, Error, ErrorKind, PlanId, Status};

    #[derive(Debug, Clone, Copy, PartialEq, Eq, plan_core::Steps)]
    #[plan(id = "two")]
    enum Two {
        /// One
        One,
        /// Two
        Two,
    }

    // Each value error, as its own type says it and as `Error` carries it.
    fn carried<E: std::fmt::Display + Into<Error>>(error: E) -> (String, Error) {
        (error.to_string(), error.into())
    }
    let mut run = PlanRun::<Two>::new().one_at_a_time();
    run.begin(Two::One).unwrap();
    let cases = [
        carried(PlanId::new(" ").unwrap_err()),
        carried(FileUri::new("plan.md").unwrap_err()),
        carried(AbsolutePath::new("PLAN.md").unwrap_err()),
        carried(CustomName::new("urgent").unwrap_err()),
        carried("in_progess".parse::<Status>().unwrap_err()),
        carried(run.begin(Two::Two).unwrap_err()),
    ];
    for (said, error) in cases {
        assert!(matches!(error.kind(), ErrorKind::Value { .. }), "{error:?}");
        assert_eq!(error.path(), "");
        assert_eq!(error.to_string(), said, "the value's own words, no place");
    }
    // `?` does it in a function that returns `plan_core::Error`.
    let id = |text: &str| -> Result<PlanId, Error> { Ok(PlanId::new(text.to_owned())?) };
    assert!(id("p").is_ok());
    assert!(matches!(
        id("").unwrap_err().kind(),
        ErrorKind::Value { .. }
    ));
}
