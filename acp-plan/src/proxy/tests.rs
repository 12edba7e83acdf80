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
    // A plan capability under the RFD's key, or one malformed (read as
    // absent, and said so): the client's words, left as they are.
    for capability in [r#""planCapabilities":{}"#, r#""plan":42"#] {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":1,"clientCapabilities":{{{capability}}}}}}}"#
        );
        assert_eq!(
            &*Relay::new(true).upstream(line.as_bytes()),
            line.as_bytes(),
            "{capability}"
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
    let params = r#"{"protocolVersion":1, "clientCapabilities":{ "fs":{"readTextFile":false} }}"#;
    let line = format!("{before}{params}{after}");
    let sent = Relay::new(true).upstream(line.as_bytes()).into_owned();
    let sent = String::from_utf8(sent).unwrap();
    // The one member written in; every byte of the params' own kept too.
    let opted_in =
        r#"{"protocolVersion":1, "clientCapabilities":{ "fs":{"readTextFile":false} ,"plan":{}}}"#;
    assert_eq!(sent, format!("{before}{opted_in}{after}"));
    let changed: Value = serde_json::from_str(opted_in).unwrap();
    assert_eq!(changed["clientCapabilities"]["plan"], json!({}));
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

fn todo_call(id: &str) -> String {
    update(&json!({ "sessionUpdate": "tool_call", "toolCallId": id,
        "title": "todowrite", "kind": "other", "status": "pending" }))
}

fn todo_update(id: &str, content: &str, status: &str) -> String {
    update(
        &json!({ "sessionUpdate": "tool_call_update", "toolCallId": id,
        "status": "completed", "rawInput": { "todos": [
            { "content": content, "status": status, "priority": "high" } ] } }),
    )
}

fn chunk() -> String {
    update(&json!({ "sessionUpdate": "agent_message_chunk",
        "content": { "type": "text", "text": "Working on it." } }))
}

fn own_plan(content: &str) -> String {
    update(&json!({ "sessionUpdate": "plan", "entries": [
        { "content": content, "priority": "low", "status": "pending" } ] }))
}

/// The three kinds of client: (protocol version offered and answered,
/// whether it advertised `plan`, what a derived plan reaches it as).
const KINDS: [(u64, bool, &str); 3] = [
    (1, false, "plan"),
    (1, true, "plan_update"),
    (2, false, "plan_update"),
];

fn kinds_of(out: &[Value]) -> Vec<&str> {
    out.iter()
        .map(|l| {
            l["params"]["update"]["sessionUpdate"]
                .as_str()
                .unwrap_or("answer")
        })
        .collect()
}

#[test]
fn a_todo_tool_call_makes_a_plan_when_the_agent_moves_on_without_one() {
    let stream = [
        todo_call("c1"),
        todo_update("c1", "Fix the parser", "pending"),
        todo_update("c1", "Fix the parser", "pending"),
        chunk(),
        todo_call("c2"),
        todo_update("c2", "Fix the parser", "completed"),
        r#"{"jsonrpc":"2.0","id":5,"result":{"stopReason":"end_turn"}}"#.to_owned(),
    ]
    .join("\n")
        + "\n";
    for (version, plan, sent_as) in KINDS {
        let mut relay = shaken(version, plan);
        let out = lines(&relayed(stream.as_bytes(), &mut relay, true));
        // Every line unchanged, and a plan before the first line that is
        // not about its call: one per state.
        assert_eq!(
            kinds_of(&out),
            [
                "tool_call",
                "tool_call_update",
                "tool_call_update",
                sent_as,
                "agent_message_chunk",
                "tool_call",
                "tool_call_update",
                sent_as,
                "answer",
            ],
            "v{version} plan {plan}"
        );
        let last = &out[7]["params"]["update"];
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
}

/// For each order of an agent's own plan against its todo tool call, and
/// each kind of client: the client ends holding exactly one plan, the
/// agent's last, and is sent no plan message twice.
#[test]
fn a_client_ends_each_order_holding_one_plan_the_agents_last() {
    let (call, todos, own) = (
        todo_call("c1"),
        todo_update("c1", "Derived", "pending"),
        own_plan("Own"),
    );
    let chunk = chunk();
    let orders: [(&str, Vec<&str>, &str); 4] = [
        ("own plan first", vec![&own, &call, &todos, &chunk], "Own"),
        (
            "own plan right after the call",
            vec![&call, &todos, &own, &chunk],
            "Own",
        ),
        (
            "own plan after other lines",
            vec![&call, &todos, &chunk, &own],
            "Own",
        ),
        ("no plan of its own", vec![&call, &todos, &chunk], "Derived"),
    ];
    for (order, stream, last) in orders {
        let stream = stream.join("\n") + "\n";
        for (version, plan, _) in KINDS {
            let mut relay = shaken(version, plan);
            let out = relayed(stream.as_bytes(), &mut relay, true);
            let mut boards = plan_core::client::SessionBoards::new();
            let mut plan_messages = Vec::new();
            for line in String::from_utf8(out).unwrap().lines() {
                boards.apply_json(line).unwrap();
                if line.contains(r#""sessionUpdate":"plan"#) {
                    plan_messages.push(line.to_owned());
                }
            }
            let board = boards.get(&"s".into()).expect("a board");
            let held: Vec<String> = board
                .plans()
                .filter_map(|p| p.content().entries().map(|e| e[0].content.to_string()))
                .collect();
            assert_eq!(held, [last], "{order}, v{version} plan {plan}");
            let mut unique = plan_messages.clone();
            unique.dedup();
            assert_eq!(unique, plan_messages, "{order}, v{version} plan {plan}");
        }
    }
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
