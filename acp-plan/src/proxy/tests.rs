//! The relay held to its promise: every line it does not change passes
//! byte for byte, in order; the lines it changes are the ones it must.

use super::*;
use serde_json::{Value, json};

fn init(version: u64, plan: bool) -> String {
    let mut caps = json!({ "fs": { "readTextFile": false } });
    if plan {
        caps["plan"] = json!({});
    }
    json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "protocolVersion": version, "clientCapabilities": caps } })
    .to_string()
}

/// A relay that has seen the client's `initialize` and the agent's answer.
fn shaken(version: u64, plan: bool) -> Relay {
    let mut relay = Relay::new(true);
    let _ = relay.upstream(init(version, plan).as_bytes());
    let answer = json!({ "jsonrpc": "2.0", "id": 0, "result": { "protocolVersion": version } });
    let mut out = Vec::new();
    relay.downstream(answer.to_string().as_bytes(), &mut out);
    relay
}

fn update(update: &Value) -> String {
    json!({ "jsonrpc": "2.0", "method": "session/update",
        "params": { "sessionId": "s", "update": update } })
    .to_string()
}

fn lines(bytes: &[u8]) -> Vec<Value> {
    bytes
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

#[test]
fn odd_lines_pass_byte_for_byte_both_ways_in_order() {
    let odd: Vec<Vec<u8>> = vec![
        br#"{"jsonrpc":"2.0","id":"a-string-id","method":"_ext/thing","params":{"_meta":{"x":1e400}}}"#.to_vec(),
        br#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"session/prompt","params":{}}"#.to_vec(),
        b"this is not JSON at all".to_vec(),
        b"{\"half\": ".to_vec(),
        br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a plan, \"planned\""}}}}"#.to_vec(),
        b"\xff\xfe not utf-8".to_vec(),
        b"line with CR\r".to_vec(),
        vec![b'x'; 5 * 1024 * 1024],
        Vec::new(),
    ];
    let mut input = odd.join(&b'\n');
    input.extend_from_slice(b"\nlast line without a newline");
    for downstream in [false, true] {
        let mut relay = shaken(1, true);
        let out = relayed(&input, &mut relay, downstream);
        assert_eq!(out.len(), input.len(), "downstream {downstream}");
        assert!(out == input, "downstream {downstream}: changed");
    }
}

#[test]
fn a_v1_initialize_without_plan_gets_it_and_one_with_it_or_v2_passes() {
    let mut relay = Relay::new(true);
    let line = init(1, false);
    let sent: Value = serde_json::from_slice(&relay.upstream(line.as_bytes())).unwrap();
    assert_eq!(sent["params"]["clientCapabilities"]["plan"], json!({}));
    assert_eq!(
        sent["params"]["clientCapabilities"]["fs"],
        json!({ "readTextFile": false })
    );
    for line in [init(1, true), init(2, false)] {
        assert_eq!(
            &*Relay::new(true).upstream(line.as_bytes()),
            line.as_bytes()
        );
    }
    // Turned off, nothing changes.
    let line = init(1, false);
    assert_eq!(
        &*Relay::new(false).upstream(line.as_bytes()),
        line.as_bytes()
    );
}

#[test]
fn the_opt_in_changes_the_params_alone_and_every_other_byte_stays() {
    let before = r#"{ "method" : "initialize", "id":7, "x-trace":{"b":2,"a":1.50}, "params":"#;
    let after = r#" , "jsonrpc": "2.0" }"#;
    let params = r#"{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":false}}}"#;
    let line = format!("{before}{params}{after}");
    let sent = Relay::new(true).upstream(line.as_bytes()).into_owned();
    let sent = String::from_utf8(sent).unwrap();
    assert!(sent.starts_with(before), "{sent}");
    assert!(sent.ends_with(after), "{sent}");
    let changed: Value =
        serde_json::from_str(&sent[before.len()..sent.len() - after.len()]).unwrap();
    assert_eq!(changed["clientCapabilities"]["plan"], json!({}));
    assert_eq!(changed["protocolVersion"], 1);
}

#[test]
fn a_markdown_plan_reaches_a_v1_client_without_plan_as_its_checklist() {
    let mut relay = shaken(1, false);
    let markdown = update(
        &json!({ "sessionUpdate": "plan_update", "plan": { "type": "markdown",
        "planId": "plan-mode", "content": "# Plan\n\n- [x] Read\n- [ ] Fix\n" } }),
    );
    let out = relayed(format!("{markdown}\n").as_bytes(), &mut relay, true);
    let sent = lines(&out);
    assert_eq!(sent.len(), 1);
    let update = &sent[0]["params"]["update"];
    assert_eq!(update["sessionUpdate"], "plan");
    assert_eq!(update["entries"][0]["content"], "Read");
    assert_eq!(update["entries"][0]["status"], "completed");
    assert_eq!(update["entries"][1]["status"], "pending");
    // A client that advertised `plan` itself gets it unchanged.
    let mut relay = shaken(1, true);
    let out = relayed(format!("{markdown}\n").as_bytes(), &mut relay, true);
    assert_eq!(out, format!("{markdown}\n").into_bytes());
}

#[test]
fn a_todo_tool_call_is_followed_by_its_plan_unless_the_agent_plans_itself() {
    let call = update(&json!({ "sessionUpdate": "tool_call", "toolCallId": "c1",
        "title": "todowrite", "kind": "other", "status": "pending" }));
    let todos = |status: &str| {
        update(
            &json!({ "sessionUpdate": "tool_call_update", "toolCallId": "c1",
            "status": "completed", "rawInput": { "todos": [
                { "content": "Fix the parser", "status": status, "priority": "high" } ] } }),
        )
    };
    let stream = format!(
        "{call}\n{}\n{}\n{}\n",
        todos("pending"),
        todos("pending"),
        todos("completed")
    );
    for (version, plan, sent_as) in [
        (1, false, "plan"),
        (1, true, "plan_update"),
        (2, false, "plan_update"),
    ] {
        let mut relay = shaken(version, plan);
        let out = lines(&relayed(stream.as_bytes(), &mut relay, true));
        // The four tool calls unchanged, and two plans: one per change.
        let kinds: Vec<&str> = out
            .iter()
            .map(|l| l["params"]["update"]["sessionUpdate"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds,
            [
                "tool_call",
                "tool_call_update",
                sent_as,
                "tool_call_update",
                "tool_call_update",
                sent_as
            ],
            "v{version} plan {plan}"
        );
        let last = &out[5]["params"]["update"];
        let entry = if sent_as == "plan" {
            &last["entries"][0]
        } else {
            &last["plan"]["entries"][0]
        };
        assert_eq!(entry["content"], "Fix the parser");
        assert_eq!(entry["priority"], "high");
        assert_eq!(entry["status"], "completed");
        if sent_as == "plan_update" {
            assert_eq!(last["plan"]["planId"], "todowrite");
        }
    }
    // An agent that sends plans of its own in that session: nothing added.
    let own = update(&json!({ "sessionUpdate": "plan", "entries": [
        { "content": "Mine", "priority": "low", "status": "pending" } ] }));
    let mut relay = shaken(1, true);
    let stream = format!("{own}\n{call}\n{}\n", todos("pending"));
    let out = relayed(stream.as_bytes(), &mut relay, true);
    assert_eq!(out, stream.into_bytes());
}

#[test]
fn each_request_the_agent_leaves_unanswered_gets_an_error_with_its_own_id() {
    let mut relay = shaken(1, true);
    for line in [
        r#"{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":"x-1","method":"session/new","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":8,"method":"session/prompt","params":{}}"#,
    ] {
        let _ = relay.upstream(line.as_bytes());
    }
    let mut out = Vec::new();
    relay.downstream(
        br#"{"jsonrpc":"2.0","id":8,"result":{"stopReason":"end_turn"}}"#,
        &mut out,
    );
    // An answer whose result holds a `"method"` key is still an answer.
    relay.downstream(
        br#"{"jsonrpc":"2.0","id":"x-1","result":{"method":"kept"}}"#,
        &mut out,
    );
    let errors: Vec<Value> = relay
        .unanswered("the agent exited")
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<&Value> = errors.iter().map(|e| &e["id"]).collect();
    assert_eq!(ids, [&json!(7)]);
    assert_eq!(errors[0]["error"]["message"], "the agent exited");
    assert!(relay.unanswered("again").is_empty());
}
