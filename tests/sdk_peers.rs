//! The official Rust SDK (`agent-client-protocol` 5.2.0, as `cargo add` gives it) on the other end:
//! a client written with the SDK's API alone drives our agent, and an agent
//! written with the SDK's API alone is driven by our client. With the `acp`
//! feature the SDK carries our `SessionNotification` as it is, both ways.
//! Each conversation runs over OS pipes and is bounded by a timeout.
//!
//! Why one file over 500 lines: an integration test file is a binary of its
//! own, linked against the harness's dependencies (the SDK, proptest and
//! the rest), so each split costs CI a link; the tests here share
//! one subject and one set of helpers, and read best together.

#[allow(dead_code, unreachable_pub)]
#[path = "../examples/agent.rs"]
mod agent;
#[allow(dead_code, unreachable_pub)]
#[path = "../examples/sdk_agent.rs"]
mod sdk_agent;

use std::io::{self, BufRead, BufReader, Write};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use agent_client_protocol::{Agent, Client, Lines};
use futures::SinkExt;
use plan_core::{
    SessionNotification, SessionUpdate, agent::PlanSender, client::PlanBoard, plan,
    wire::ProtocolVersion,
};
use serde_json::Value;

const TIMEOUT: Duration = Duration::from_mins(1);

/// An SDK transport over a pair of OS pipes: lines the SDK sends go to
/// `to_peer`, lines `from_peer` yields come to the SDK.
fn lines_over(
    to_peer: io::PipeWriter,
    from_peer: io::PipeReader,
) -> Lines<
    impl futures::Sink<String, Error = io::Error> + Send + 'static,
    impl futures::Stream<Item = io::Result<String>> + Send + 'static,
> {
    let (outgoing, mut to_write) = futures::channel::mpsc::unbounded::<String>();
    std::thread::spawn(move || {
        let mut to_peer = to_peer;
        while let Some(line) = futures::executor::block_on(futures::StreamExt::next(&mut to_write))
        {
            if writeln!(to_peer, "{line}")
                .and_then(|()| to_peer.flush())
                .is_err()
            {
                break;
            }
        }
    });
    let (read, incoming) = futures::channel::mpsc::unbounded::<io::Result<String>>();
    std::thread::spawn(move || {
        for line in BufReader::new(from_peer).lines() {
            let failed = line.is_err();
            if read.unbounded_send(line).is_err() || failed {
                break;
            }
        }
    });
    Lines::new(outgoing.sink_map_err(io::Error::other), incoming)
}

/// Our agent on a thread (no pauses), and the pipe ends to talk to it.
fn our_agent() -> (
    std::thread::JoinHandle<io::Result<()>>,
    io::PipeWriter,
    io::PipeReader,
) {
    let (agent_reads, to_agent) = io::pipe().unwrap();
    let (from_agent, agent_writes) = io::pipe().unwrap();
    let agent = std::thread::spawn(move || {
        let options = agent::Options {
            pause: Duration::ZERO,
            ..agent::Options::default()
        };
        agent::serve(
            BufReader::new(agent_reads),
            agent_writes,
            io::sink(),
            options,
        )
    });
    (agent, to_agent, from_agent)
}

/// Each plan on `board` as (id, progress; empty for plans without entries).
fn progress_by_plan(board: &PlanBoard) -> Vec<(String, String)> {
    board
        .plans()
        .map(|p| {
            let progress = p.progress().map(|p| p.to_string()).unwrap_or_default();
            (p.id().to_string(), progress)
        })
        .collect()
}

/// Runs `work` on a thread and waits at most [`TIMEOUT`] for its result.
fn bounded<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let (done, result) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(work());
    });
    result
        .recv_timeout(TIMEOUT)
        .expect("the conversation did not end in time")
}

#[test]
fn a_client_written_with_the_sdk_drives_our_agent() {
    use agent_client_protocol::schema::ProtocolVersion as SdkVersion;
    use agent_client_protocol::v1::ConnectionTo;
    use agent_client_protocol::v1::schema::{
        ClientCapabilities, ContentBlock, InitializeRequest, NewSessionRequest, PlanCapabilities,
        PromptRequest, StopReason, TextContent,
    };

    let (board, stop) = bounded(|| {
        let (agent, sdk_writes, sdk_reads) = our_agent();
        let board = Arc::new(Mutex::new(PlanBoard::new("")));
        let seen = Arc::clone(&board);
        let stop = Arc::new(Mutex::new(None));
        let stopped = Arc::clone(&stop);
        let run = Client
            .v1()
            .on_receive_notification(
                // The SDK hands the client our type: no conversion by hand.
                async move |notification: SessionNotification, _cx| {
                    let mut board = seen.lock().unwrap();
                    if board.session().as_str().is_empty() {
                        *board = PlanBoard::new(notification.session_id.clone());
                    }
                    board.apply(notification);
                    Ok(())
                },
                agent_client_protocol::on_receive_notification!(),
            )
            .connect_with(
                lines_over(sdk_writes, sdk_reads),
                async move |connection: ConnectionTo<Agent>| {
                    let capabilities = ClientCapabilities::new().plan(PlanCapabilities::new());
                    connection
                        .send_request(
                            InitializeRequest::new(SdkVersion::V1)
                                .client_capabilities(capabilities),
                        )
                        .block_task()
                        .await?;
                    let session = connection
                        .send_request(NewSessionRequest::new("/tmp"))
                        .block_task()
                        .await?;
                    let prompt = vec![ContentBlock::Text(TextContent::new("refactor"))];
                    let response = connection
                        .send_request(PromptRequest::new(session.session_id, prompt))
                        .block_task()
                        .await?;
                    *stopped.lock().unwrap() = Some(response.stop_reason);
                    Ok(())
                },
            );
        futures::executor::block_on(run).expect("the SDK client failed");
        drop(agent);
        let board = board.lock().unwrap().clone();
        let stop = *stop.lock().unwrap();
        (board, stop)
    });
    assert_eq!(stop, Some(StopReason::EndTurn));
    assert_eq!(
        progress_by_plan(&board),
        [
            ("refactor".to_owned(), "5/5".to_owned()),
            // A markdown plan with its path.
            ("design-doc".to_owned(), String::new()),
            ("verify".to_owned(), "2/2".to_owned()),
        ]
    );
}

/// `examples/sdk_agent.rs` (an agent written with the SDK's own v1 API)
/// on a thread, driven by our board with `options` over OS pipes; the
/// board's final state as JSON.
fn sdk_agent_driven_by_our_board(options: acp_plan::BoardOptions) -> Value {
    let (outcome, out, err) = bounded(move || {
        let (sdk_reads, client_writes) = io::pipe().unwrap();
        let (client_reads, sdk_writes) = io::pipe().unwrap();
        let sdk_agent = std::thread::spawn(move || {
            futures::executor::block_on(sdk_agent::serve(
                lines_over(sdk_writes, sdk_reads),
                Duration::ZERO,
            ))
        });
        let options = {
            let mut opts = options;
            opts.json = true;
            opts.timeout = Duration::from_secs(20);
            opts
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let outcome = acp_plan::harness::board_connected(
            &options,
            BufReader::new(client_reads),
            client_writes,
            &mut out,
            &mut err,
            plan_core::client::TerminalStyle::PLAIN,
            false,
        );
        drop(sdk_agent);
        (
            outcome,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    });
    assert_eq!(outcome, Ok(()), "{err}");
    let state: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(state["sessions"][0]["sessionId"], "sess_1");
    state
}

#[test]
fn an_agent_written_with_the_sdk_is_driven_by_our_client() {
    // The board's defaults: v1, `clientCapabilities.plan: {}`. So the agent
    // sends its identified plans; the notes (markdown with a path) were
    // removed at the end of the turn.
    let state = sdk_agent_driven_by_our_board(acp_plan::BoardOptions::default());
    let plans = &state["sessions"][0]["plans"];
    assert_eq!(plans.as_array().unwrap().len(), 1, "{plans}");
    assert_eq!(plans[0]["id"], "release");
    // v1 has no `cancelled`: the sender mapped it before the SDK sent it.
    assert_eq!(
        plans[0]["content"]["entries"][3]["content"],
        "Announce the release (cancelled)"
    );
    assert_eq!(plans[0]["progress"]["completed"], 4);
}

/// Starts `examples/sdk_agent.rs` on a thread with `pause` between steps;
/// the pipe ends to write lines to it and read its lines.
fn sdk_agent_raw(pause: Duration) -> (io::PipeWriter, mpsc::Receiver<Value>) {
    let (sdk_reads, to_agent) = io::pipe().unwrap();
    let (from_agent, sdk_writes) = io::pipe().unwrap();
    std::thread::spawn(move || {
        futures::executor::block_on(sdk_agent::serve(lines_over(sdk_writes, sdk_reads), pause))
    });
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(from_agent).lines().map_while(Result::ok) {
            if lines.send(serde_json::from_str(&line).unwrap()).is_err() {
                break;
            }
        }
    });
    (to_agent, received)
}

/// [`sdk_agent_raw`], initialized as a v1 client with `plan` (the SDK
/// serves nothing else until `initialize` is answered).
fn initialized_sdk_agent(pause: Duration) -> (io::PipeWriter, mpsc::Receiver<Value>) {
    let (mut to_agent, received) = sdk_agent_raw(pause);
    let initialize = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": 1, "clientCapabilities": {"plan": {}}}});
    writeln!(to_agent, "{initialize}").unwrap();
    recv_until(&received, |m| m["id"] == 0);
    (to_agent, received)
}

/// Reads the agent's lines until one for which `last` holds (each wait
/// bounded by [`TIMEOUT`]); every line read, that one last.
fn recv_until(received: &mpsc::Receiver<Value>, last: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let line = received
            .recv_timeout(TIMEOUT)
            .expect("the agent went quiet");
        let done = last(&line);
        seen.push(line);
        if done {
            return seen;
        }
    }
}

#[test]
fn the_sdk_agent_refuses_a_prompt_for_a_session_it_never_made() {
    let (mut to_agent, received) = initialized_sdk_agent(Duration::ZERO);
    let mut send = |line: Value| writeln!(to_agent, "{line}").unwrap();
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "session/prompt",
        "params": {"sessionId": "sess_typo", "prompt": [{"type": "text", "text": "release"}]}}),
    );
    let answer = recv_until(&received, |m| m["id"] == 1);
    // Nothing ran: the only line is the error, invalid params naming the session.
    assert_eq!(answer.len(), 1, "{answer:#?}");
    assert_eq!(answer[0]["error"]["code"], -32602);
    assert!(
        answer[0]["error"]["data"]
            .as_str()
            .is_some_and(|d| d.contains("sess_typo")),
        "{answer:#?}"
    );
    // The agent keeps serving.
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "session/new",
        "params": {"cwd": "/tmp", "mcpServers": []}}),
    );
    assert_eq!(
        recv_until(&received, |m| m["id"] == 2)[0]["result"]["sessionId"],
        "sess_1"
    );
}

#[test]
fn the_sdk_agent_answers_cancel_and_cancels_what_is_unfinished() {
    let (mut to_agent, received) = initialized_sdk_agent(Duration::from_millis(200));
    let mut send = |line: Value| writeln!(to_agent, "{line}").unwrap();
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "session/new",
        "params": {"cwd": "/tmp", "mcpServers": []}}),
    );
    assert_eq!(
        recv_until(&received, |m| m["id"] == 1)[0]["result"]["sessionId"],
        "sess_1"
    );
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "session/prompt",
        "params": {"sessionId": "sess_1", "prompt": [{"type": "text", "text": "release"}]}}),
    );
    // The markdown notes arrive with their absolute path; then the client cancels.
    let start = recv_until(&received, |m| {
        m["params"]["update"]["plan"]["type"] == "markdown"
    });
    let notes = &start.last().unwrap()["params"]["update"]["plan"];
    assert_eq!(notes["path"], "/tmp/release-notes.md");
    send(
        serde_json::json!({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "sess_1"}}),
    );
    let rest = recv_until(&received, |m| m["id"] == 2);
    assert_eq!(rest.last().unwrap()["result"]["stopReason"], "cancelled");
    let release = rest
        .iter()
        .rev()
        .find(|m| m["params"]["update"]["plan"]["planId"] == "release")
        .expect("the cancelled release plan");
    // Nothing is left pending or in progress (v1 shows `cancelled` as
    // completed, marked), and the turn stopped before publishing.
    let entries = release["params"]["update"]["plan"]["entries"]
        .as_array()
        .unwrap();
    assert!(
        entries.iter().all(|e| e["status"] == "completed"),
        "{release}"
    );
    assert_eq!(entries[2]["content"], "Publish the crates (cancelled)");
    // The agent keeps serving: a new prompt runs a whole turn.
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "session/prompt",
        "params": {"sessionId": "sess_1", "prompt": [{"type": "text", "text": "again"}]}}),
    );
    let again = recv_until(&received, |m| m["id"] == 3);
    assert_eq!(again.last().unwrap()["result"]["stopReason"], "end_turn");
}

#[test]
fn offering_v2_to_a_rust_sdk_v1_agent_loses_plan_which_is_why_v1_is_the_default() {
    // Measured, not wished: the Rust SDK (5.0.0, and 5.2.0) rebuilds a v2 `initialize`
    // for its v1 agents from v2's keys alone (`normalize_v1_initialize_request`
    // keeps `auth`, `elicitation`, `_meta`), so the `clientCapabilities.plan`
    // the board also sends never reaches the agent, which answers v1 and
    // falls back to the v1 checklist plan `main`. The board's default (v1 with
    // `plan: {}`) gives the identified plans (the test above). If a newer SDK
    // carries `plan` across, this test fails: then `--protocol 2` loses
    // nothing and this can say so.
    let state = sdk_agent_driven_by_our_board({
        let mut opts = acp_plan::BoardOptions::default();
        opts.protocol = ProtocolVersion::V2;
        opts
    });
    let ids: Vec<&str> = state["sessions"][0]["plans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["main"]);
}

#[test]
fn without_the_plan_capability_a_v1_sdk_agent_falls_back_to_the_v1_plan() {
    let state = sdk_agent_driven_by_our_board({
        let mut opts = acp_plan::BoardOptions::default();
        opts.plan_capability = false;
        opts
    });
    let plans = state["sessions"][0]["plans"].as_array().unwrap();
    assert_eq!(plans.len(), 1);
    assert_eq!(plans[0]["id"], "main");
    assert_eq!(plans[0]["v1Plan"], true);
}

#[test]
fn the_sdks_v2_client_sees_our_agents_turn_end() {
    use agent_client_protocol::schema::ProtocolVersion as SdkVersion;
    use agent_client_protocol::v2::{ConnectionTo, schema};

    let (board, stop) = bounded(|| {
        let (agent, sdk_writes, sdk_reads) = our_agent();
        let (updates, mut received) = futures::channel::mpsc::unbounded::<SessionNotification>();
        let run = Client
            .v2()
            .on_receive_notification(
                async move |notification: SessionNotification, _connection: ConnectionTo<Agent>| {
                    updates
                        .unbounded_send(notification)
                        .map_err(agent_client_protocol::Error::into_internal_error)
                },
                agent_client_protocol::on_receive_notification!(),
            )
            .connect_with(lines_over(sdk_writes, sdk_reads), async move |connection| {
                let initialize = connection
                    .send_request(schema::InitializeRequest::new(
                        SdkVersion::V2,
                        schema::Implementation::new("sdk-v2-test-client", "1"),
                    ))
                    .block_task()
                    .await?;
                assert!(
                    initialize.capabilities.session.is_some(),
                    "the v2 session capability"
                );
                let opened = connection
                    .build_session_cwd()?
                    .start_session()
                    .block_task()
                    .await?;
                let session = opened.session;
                session.send_prompt("refactor").block_task().await?;
                // The turn ends with a `state_update` to `idle`, after the plans.
                let mut board = PlanBoard::new(session.session_id().to_string());
                loop {
                    let Some(notification) = futures::StreamExt::next(&mut received).await else {
                        return Err(agent_client_protocol::Error::internal_error());
                    };
                    if let SessionUpdate::Other(other) = &notification.update {
                        let state = other.as_object();
                        if other.kind() == "state_update" && state["state"] == "idle" {
                            return Ok((board, state["stopReason"].clone()));
                        }
                    }
                    board.apply(notification);
                }
            });
        let result = futures::executor::block_on(run).expect("the SDK v2 client failed");
        drop(agent);
        result
    });
    assert_eq!(stop, "end_turn");
    assert_eq!(
        progress_by_plan(&board),
        [
            ("refactor".to_owned(), "4/5, 1 cancelled".to_owned()),
            // Markdown and `plan_removed` are baseline in v2: the notes are gone.
            ("design-doc".to_owned(), String::new()),
            ("verify".to_owned(), "2/2".to_owned()),
        ]
    );
}

#[test]
fn a_sender_is_shaped_by_the_sdks_initialize_request_in_one_call() {
    use agent_client_protocol::schema::ProtocolVersion as SdkVersion;
    use agent_client_protocol::v1::schema as v1;
    use agent_client_protocol::v2::schema as v2;

    let with_plan = v1::InitializeRequest::new(SdkVersion::V1)
        .client_capabilities(v1::ClientCapabilities::new().plan(v1::PlanCapabilities::new()));
    let sender = PlanSender::for_client("s", &(&with_plan).into(), ProtocolVersion::V2);
    assert_eq!(
        (sender.protocol(), sender.supports_plan_operations()),
        (ProtocolVersion::V1, true)
    );

    let without = v1::InitializeRequest::new(SdkVersion::V1);
    let sender = PlanSender::for_client("s", &(&without).into(), ProtocolVersion::V2);
    assert_eq!(
        (sender.protocol(), sender.supports_plan_operations()),
        (ProtocolVersion::V1, false)
    );

    let v2 = v2::InitializeRequest::new(SdkVersion::V2, v2::Implementation::new("c", "1"));
    let mut sender = PlanSender::for_client("s", &(&v2).into(), ProtocolVersion::V2);
    assert_eq!(sender.protocol(), ProtocolVersion::V2);
    let sent = sender.update(plan! { id: "p", items: [high cancelled "x"] });
    assert!(
        sent.to_json(plan_core::wire::Spelling::Acp)
            .contains("cancelled"),
        "v2 carries `cancelled`"
    );
}

#[test]
fn the_sdk_agent_passes_the_conformance_check_for_every_kind_of_client() {
    // `check --cancel -- sdk_agent`, with the agent on a thread.
    let options = {
        let mut opts = acp_plan::CheckAgentOptions::default();
        opts.cancel = true;
        opts.timeout = Duration::from_secs(20);
        opts
    };
    let runs = bounded(move || {
        plan_core::wire::ClientKind::ALL
            .into_iter()
            .map(|kind| {
                let (sdk_reads, to_agent) = io::pipe().unwrap();
                let (from_agent, sdk_writes) = io::pipe().unwrap();
                std::thread::spawn(move || {
                    futures::executor::block_on(sdk_agent::serve(
                        lines_over(sdk_writes, sdk_reads),
                        Duration::from_millis(50),
                    ))
                });
                acp_plan::harness::check_kind(kind, &options, BufReader::new(from_agent), to_agent)
            })
            .collect::<Vec<_>>()
    });
    let report = acp_plan::harness::report_text(&acp_plan::CheckAgentOptions::default(), &runs);
    assert_eq!(acp_plan::harness::exit_code(&runs), 0, "{report}");
    for run in &runs {
        assert_eq!(run.stop_reasons, ["end_turn", "cancelled"], "{report}");
    }
    // An SDK v1 agent answers a v2 offer with v1, reading the v1 keys the
    // offer carries: judged as a v1 client with `plan` (its SDK drops `plan`,
    // so it sends the v1 `plan`, which such a client reads).
    assert_eq!(runs[2].answered, Some(1));
    assert_eq!(runs[2].judged_as, plan_core::wire::ClientKind::V1Plan);
}
