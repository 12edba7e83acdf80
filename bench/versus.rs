//! plan-core against the official SDK's types (`agent-client-protocol` 5.2.0,
//! its schema 1.17.0, through the SDK's re-exports) and
//! against `serde_json::json!`, side by side in one run, for a 10-entry and a
//! 100-entry `items` plan in a `session/update` notification:
//!
//! 1. build + serialize a notification from run-time data;
//! 2. emit a literal plan (`plan_json!`) vs (1) and vs copying the same bytes;
//! 3. parse a notification into owned values;
//! 4. a client board applying 1k to 1M updates across 20 plans (time per
//!    update must stay flat);
//! 5. through the official SDK (`agent-client-protocol` 5.2.0), its whole
//!    pipeline: sending is `to_untyped_message`, the raw message and
//!    `TransportFrame::to_json`; receiving is `TransportFrame::parse_json`
//!    and `parse_message`: our notification as the SDK's message, our types
//!    through `TryFrom`, and the SDK's own types; `to_json` against
//!    `serde_json::to_string`; the `acp-schema` conversions alone;
//! 6. how the board scales: one update of a plan of 10 to 10,000 entries
//!    (applying it, against parsing it), and one update among 1 to 10,000
//!    live plans.
//! 7. a model's `TodoWrite` call (its arguments' text) to the notification's
//!    text: `plan_core::tools::ModelPlans` (lenient reading, both labels in
//!    `_meta`) against the mapping an agent writes by hand on the published
//!    crate's types (serde into a struct, statuses matched, every priority
//!    `medium`, as claude-agent-acp does).
//!
//! `cargo bench -p plan-harness --bench versus`; the README quotes the ratios.
//!
//! Why one file over 500 lines: the groups are measured side by side in one
//! run on purpose (the ratios are only fair from one run on this noisy
//! machine), and one bench target is one file of Criterion groups.

use std::hint::black_box;
use std::time::Duration;

use agent_client_protocol::v1::schema as acp;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use plan_core::{
    PlanContent, PlanEntry, PlanId, Priority, SessionNotification, SessionUpdate, Status,
    agent::StaticUpdate, client::PlanBoard, plan_json, wire::Spelling,
};
use serde::Deserialize;

mod sdk;
use sdk::{Envelope, SESSION, data, ours, sdk_receive, sdk_send, theirs};

fn with_json_macro(data: &[(String, usize, usize)]) -> serde_json::Value {
    const PRIORITIES: [&str; 3] = ["high", "medium", "low"];
    const STATUSES: [&str; 3] = ["completed", "in_progress", "pending"];
    let entries: Vec<serde_json::Value> = data
        .iter()
        .map(|(content, p, s)| serde_json::json!({"content": content, "priority": PRIORITIES[*p], "status": STATUSES[*s]}))
        .collect();
    serde_json::json!({
        "jsonrpc": "2.0",
        "method": "session/update",
        "params": {"sessionId": SESSION, "update": {"sessionUpdate": "plan_update",
            "plan": {"type": "items", "planId": "plan-1", "entries": entries}}}
    })
}

fn build_and_serialize(c: &mut Criterion) {
    let mut group = c.benchmark_group("1 build + serialize");
    let mut out = Vec::with_capacity(64 * 1024);
    for size in [10, 100] {
        let input = data(size);
        group.bench_with_input(BenchmarkId::new("plan-core", size), &input, |b, input| {
            b.iter(|| {
                out.clear();
                ours(black_box(input))
                    .write_json(&mut out, Spelling::Acp)
                    .unwrap();
                black_box(out.len())
            });
        });
        group.bench_with_input(
            BenchmarkId::new("agent-client-protocol-schema", size),
            &input,
            |b, input| {
                b.iter(|| {
                    out.clear();
                    serde_json::to_writer(&mut out, &theirs(black_box(input))).unwrap();
                    black_box(out.len())
                });
            },
        );
        group.bench_with_input(
            BenchmarkId::new("serde_json::json!", size),
            &input,
            |b, input| {
                b.iter(|| {
                    out.clear();
                    serde_json::to_writer(&mut out, &with_json_macro(black_box(input))).unwrap();
                    black_box(out.len())
                });
            },
        );
    }
    group.finish();
}

/// The writer alone: a message built once, written on each iteration
/// (`to_json`'s work against serde's `to_string` on the SDK's types).
fn serialize(c: &mut Criterion) {
    let mut group = c.benchmark_group("1 serialize a built message");
    let mut out = Vec::with_capacity(64 * 1024);
    for size in [10, 100] {
        let (built_ours, built_theirs) = (ours(&data(size)), theirs(&data(size)));
        group.bench_function(BenchmarkId::new("plan-core", size), |b| {
            b.iter(|| {
                out.clear();
                black_box(&built_ours)
                    .write_json(&mut out, Spelling::Acp)
                    .unwrap();
                black_box(out.len())
            });
        });
        group.bench_function(
            BenchmarkId::new("agent-client-protocol-schema", size),
            |b| {
                b.iter(|| {
                    out.clear();
                    serde_json::to_writer(&mut out, black_box(&built_theirs)).unwrap();
                    black_box(out.len())
                });
            },
        );
        let text = built_ours.to_json(Spelling::Acp);
        group.bench_function(
            BenchmarkId::new("copy the same bytes (the limit)", size),
            |b| {
                b.iter(|| {
                    out.clear();
                    out.extend_from_slice(black_box(text.as_bytes()));
                    black_box(out.len())
                });
            },
        );
    }
    group.finish();
}

const LITERAL: StaticUpdate = plan_json! {
    id: "plan-1",
    items: [
        high completed "Step 0: refactor the module number 0 of the codebase",
        medium in_progress "Step 1: refactor the module number 1 of the codebase",
        low pending "Step 2: refactor the module number 2 of the codebase",
        high completed "Step 3: refactor the module number 3 of the codebase",
        medium in_progress "Step 4: refactor the module number 4 of the codebase",
        low pending "Step 5: refactor the module number 5 of the codebase",
        high completed "Step 6: refactor the module number 6 of the codebase",
        medium in_progress "Step 7: refactor the module number 7 of the codebase",
        low pending "Step 8: refactor the module number 8 of the codebase",
        high completed "Step 9: refactor the module number 9 of the codebase",
    ],
};

fn emit_literal(c: &mut Criterion) {
    let mut group = c.benchmark_group("2 emit a literal 10-entry plan");
    let session = plan_core::SessionId::new(SESSION);
    let mut out = Vec::with_capacity(64 * 1024);
    let mut line = Vec::new();
    LITERAL
        .write_notification(&mut line, &session, Spelling::Acp)
        .unwrap();
    assert_eq!(
        line,
        ours(&data(10)).to_json(Spelling::Acp).into_bytes(),
        "the same bytes"
    );

    group.bench_function("plan_json!", |b| {
        b.iter(|| {
            out.clear();
            LITERAL
                .write_notification(&mut out, black_box(&session), Spelling::Acp)
                .unwrap();
            black_box(out.len())
        });
    });
    group.bench_function("copy the same bytes (the limit)", |b| {
        b.iter(|| {
            out.clear();
            out.extend_from_slice(black_box(&line));
            black_box(out.len())
        });
    });
    let input = data(10);
    group.bench_function("build + serialize (plan-core)", |b| {
        b.iter(|| {
            out.clear();
            ours(black_box(&input))
                .write_json(&mut out, Spelling::Acp)
                .unwrap();
            black_box(out.len())
        });
    });
    group.finish();
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("3 parse into owned values");
    for size in [10, 100] {
        let text = ours(&data(size)).to_json(Spelling::Acp);
        group.bench_with_input(BenchmarkId::new("plan-core", size), &text, |b, text| {
            b.iter(|| SessionNotification::from_json(black_box(text)).unwrap());
        });
        group.bench_with_input(
            BenchmarkId::new("agent-client-protocol-schema", size),
            &text,
            |b, text| {
                b.iter(|| {
                    serde_json::from_str::<Envelope<acp::SessionNotification>>(black_box(text))
                        .unwrap()
                });
            },
        );
        group.bench_with_input(
            BenchmarkId::new("serde_json::Value", size),
            &text,
            |b, text| {
                b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(text)).unwrap());
            },
        );
    }
    group.finish();
}

/// The update lines of a stream across 20 plans of 5 entries, statuses
/// moving on: line `i` of the stream is `pool[i % 120]` (after 120 updates
/// every plan has gone through its six states), so a stream of a million
/// updates needs no million strings.
fn stream_pool() -> Vec<String> {
    (0..120)
        .map(|i| update_line(i % 20, 5, (i / 20) % 6))
        .collect()
}

fn board(c: &mut Criterion) {
    let mut group = c.benchmark_group("4 board applies a stream (time per update)");
    group.sample_size(10);
    let pool = stream_pool();
    for n in [1_000, 10_000, 100_000, 1_000_000] {
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("plan-core PlanBoard", n), &n, |b, &n| {
            b.iter(|| {
                let mut board = PlanBoard::new(SESSION);
                for line in pool.iter().cycle().take(n) {
                    board.apply_json(line).unwrap();
                }
                black_box(board.plans().len())
            });
        });
    }
    group.finish();
}

/// One update of plan `plan` with `entries` entries, the first `done` completed.
fn update_line(plan: usize, entries: usize, done: usize) -> String {
    let entries = (0..entries).map(|e| {
        let status = if e < done {
            Status::Completed
        } else {
            Status::Pending
        };
        PlanEntry::new(
            format!("Plan {plan} step {e}: do the thing"),
            Priority::Medium,
            status,
        )
    });
    let content = PlanContent::items(PlanId::new(format!("plan-{plan}")).unwrap(), entries);
    SessionNotification::new(SESSION, content.into()).to_json(Spelling::Acp)
}

/// How the board scales: one update of a plan with N entries (applying it
/// against parsing it), and one update among N live plans.
fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("6 board scaling");
    group.sample_size(20);
    for n in [10, 100, 1_000, 10_000] {
        // Two versions of the plan, one step apart, applied in turn: every
        // update changes a status, as real updates do.
        let lines = [update_line(0, n, n / 2), update_line(0, n, n / 2 + 1)];
        group.bench_with_input(BenchmarkId::new("entries: parse", n), &lines, |b, lines| {
            b.iter(|| black_box(SessionNotification::from_json(black_box(&lines[0])).unwrap()));
        });
        group.bench_with_input(BenchmarkId::new("entries: apply", n), &lines, |b, lines| {
            let mut board = PlanBoard::new(SESSION);
            board.apply_json(&lines[0]).unwrap();
            let mut turn = 0;
            b.iter(|| {
                turn ^= 1;
                black_box(board.apply_json(black_box(&lines[turn])).unwrap());
            });
        });
    }
    for plans in [1, 100, 10_000] {
        // `plans` live plans of 5 entries; the updates go round them.
        let lines: Vec<String> = (0..plans.max(64))
            .map(|i| update_line(i % plans, 5, i % 6))
            .collect();
        group.bench_with_input(
            BenchmarkId::new("live plans: apply", plans),
            &lines,
            |b, lines| {
                let mut board = PlanBoard::new(SESSION);
                for plan in 0..plans {
                    board.apply_json(&update_line(plan, 5, 0)).unwrap();
                }
                let mut next = 0;
                b.iter(|| {
                    next = (next + 1) % lines.len();
                    black_box(board.apply_json(black_box(&lines[next])).unwrap());
                });
            },
        );
    }
    group.finish();
}

/// Each row says the path it measures; a user's two ways through the SDK
/// are our notification as the SDK's message (`send`/`receive: plan-core`)
/// and our types converted with `TryFrom` (`... via TryFrom`), each against
/// the SDK's own types through the same pipeline.
fn through_the_sdk(c: &mut Criterion) {
    let mut group = c.benchmark_group("5 through the SDK");
    for size in [10, 100] {
        let input = data(size);
        group.bench_with_input(
            BenchmarkId::new("send: plan-core", size),
            &input,
            |b, input| b.iter(|| black_box(sdk_send(&ours(black_box(input))))),
        );
        group.bench_with_input(
            BenchmarkId::new("send: plan-core via TryFrom", size),
            &input,
            |b, input| {
                b.iter(|| {
                    let theirs = acp::SessionNotification::try_from(ours(black_box(input)));
                    black_box(sdk_send(&theirs.unwrap()))
                });
            },
        );
        group.bench_with_input(
            BenchmarkId::new("send: SDK's own types", size),
            &input,
            |b, input| b.iter(|| black_box(sdk_send(&theirs(black_box(input)).params))),
        );
        let line = sdk_send(&theirs(&input).params);
        group.bench_with_input(
            BenchmarkId::new("receive: plan-core", size),
            &line,
            |b, line| b.iter(|| black_box(sdk_receive::<SessionNotification>(black_box(line)))),
        );
        group.bench_with_input(
            BenchmarkId::new("receive: plan-core via TryFrom", size),
            &line,
            |b, line| {
                b.iter(|| {
                    let theirs = sdk_receive::<acp::SessionNotification>(black_box(line));
                    black_box(SessionNotification::try_from(theirs).unwrap())
                });
            },
        );
        group.bench_with_input(
            BenchmarkId::new("receive: SDK's own types", size),
            &line,
            |b, line| {
                b.iter(|| black_box(sdk_receive::<acp::SessionNotification>(black_box(line))));
            },
        );
        // A message already built, written as text: `to_json` (a fresh
        // `String`) against serde_json's `to_string` of the SDK's types.
        let (built_ours, built_theirs) = (ours(&input), theirs(&input));
        group.bench_function(BenchmarkId::new("to_json: plan-core", size), |b| {
            b.iter(|| black_box(black_box(&built_ours).to_json(Spelling::Acp)));
        });
        group.bench_function(BenchmarkId::new("to_string: SDK's own types", size), |b| {
            b.iter(|| black_box(serde_json::to_string(black_box(&built_theirs)).unwrap()));
        });
        // The `acp-schema` conversions alone, borrowed (the guide's
        // example): what `via TryFrom` adds, owned, above.
        let their_value = built_theirs.params;
        group.bench_with_input(
            BenchmarkId::new("convert: plan-core -> SDK types, borrowed", size),
            &built_ours,
            |b, value| {
                b.iter(|| black_box(acp::SessionNotification::try_from(black_box(value)).unwrap()));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("convert: SDK types -> plan-core, borrowed", size),
            &their_value,
            |b, value| {
                b.iter(|| black_box(SessionNotification::try_from(black_box(value)).unwrap()));
            },
        );
    }
    group.finish();
}

/// A `TodoWrite` call of `todos` items, the one in the middle in progress.
fn todo_write_call(todos: usize) -> String {
    let items: Vec<serde_json::Value> = (0..todos)
        .map(|i| {
            let status = match i.cmp(&(todos / 2)) {
                std::cmp::Ordering::Less => "completed",
                std::cmp::Ordering::Equal => "in_progress",
                std::cmp::Ordering::Greater => "pending",
            };
            serde_json::json!({"content": format!("Refactor module {i} of the codebase"),
                "status": status, "activeForm": format!("Refactoring module {i} of the codebase")})
        })
        .collect();
    serde_json::json!({ "todos": items }).to_string()
}

/// What an agent writes by hand on the published types.
#[derive(Deserialize)]
struct HandTodoWrite {
    todos: Vec<HandTodo>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HandTodo {
    content: String,
    status: String,
    active_form: String,
}

fn by_hand(arguments: &str, out: &mut Vec<u8>) -> Result<(), String> {
    let call: HandTodoWrite = serde_json::from_str(arguments).map_err(|e| e.to_string())?;
    let entries = call
        .todos
        .into_iter()
        .map(|todo| {
            let status = hand_status(&todo.status)?;
            let label = match status {
                acp::PlanEntryStatus::InProgress => todo.active_form,
                _ => todo.content,
            };
            Ok(acp::PlanEntry::new(
                label,
                acp::PlanEntryPriority::Medium,
                status,
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    hand_line(entries, out)
}

/// A tool's status on the SDK's type, by hand.
fn hand_status(status: &str) -> Result<acp::PlanEntryStatus, String> {
    match status {
        "pending" => Ok(acp::PlanEntryStatus::Pending),
        "in_progress" => Ok(acp::PlanEntryStatus::InProgress),
        "completed" => Ok(acp::PlanEntryStatus::Completed),
        other => Err(format!("unknown status {other}")),
    }
}

/// The line of these entries' notification on the SDK's types, by hand.
fn hand_line(entries: Vec<acp::PlanEntry>, out: &mut Vec<u8>) -> Result<(), String> {
    let content = acp::PlanUpdateContent::items(String::from("plan"), entries);
    let update = acp::SessionUpdate::PlanUpdate(acp::PlanUpdate::new(content));
    let envelope = Envelope {
        jsonrpc: "2.0".into(),
        method: "session/update".into(),
        params: acp::SessionNotification::new(SESSION, update),
    };
    serde_json::to_writer(out, &envelope).map_err(|e| e.to_string())
}

/// An `update_plan` call of `steps` steps, the one in the middle in progress.
fn update_plan_call(steps: usize) -> String {
    let items: Vec<serde_json::Value> = (0..steps)
        .map(|i| {
            let status = match i.cmp(&(steps / 2)) {
                std::cmp::Ordering::Less => "completed",
                std::cmp::Ordering::Equal => "in_progress",
                std::cmp::Ordering::Greater => "pending",
            };
            serde_json::json!({"step": format!("Refactor module {i} of the codebase"), "status": status})
        })
        .collect();
    serde_json::json!({ "explanation": "Refactoring, module by module", "plan": items }).to_string()
}

/// What an agent writes by hand on the published types for `update_plan`.
#[derive(Deserialize)]
struct HandUpdatePlan {
    #[allow(dead_code)]
    explanation: Option<String>,
    plan: Vec<HandStep>,
}

#[derive(Deserialize)]
struct HandStep {
    step: String,
    status: String,
}

fn by_hand_update_plan(arguments: &str, out: &mut Vec<u8>) -> Result<(), String> {
    let call: HandUpdatePlan = serde_json::from_str(arguments).map_err(|e| e.to_string())?;
    let entries = call
        .plan
        .into_iter()
        .map(|step| {
            let status = hand_status(&step.status)?;
            Ok(acp::PlanEntry::new(
                step.step,
                acp::PlanEntryPriority::Medium,
                status,
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    hand_line(entries, out)
}

fn model_tool_call(c: &mut Criterion) {
    use plan_core::fixtures::ClientProfile;
    use plan_core::tools::{ModelPlans, Scope};
    let mut group = c.benchmark_group("7 a model's tool call");
    let mut out = Vec::with_capacity(64 * 1024);
    for size in [10, 100] {
        let (todos, steps) = (todo_write_call(size), update_plan_call(size));
        // Every call sent, as by hand: the skip of an unchanged plan is off.
        let mut plans = ModelPlans::new(ClientProfile::v1().sender(SESSION)).resend_unchanged(true);
        let mut line = |name: &str, write: &mut dyn FnMut(&mut Vec<u8>)| {
            group.bench_function(BenchmarkId::new(name, size), |b| {
                b.iter(|| {
                    out.clear();
                    write(&mut out);
                    black_box(out.len())
                });
            });
        };
        line("TodoWrite: plan-core, to its line", &mut |out| {
            let sent = plans.todo_write_to(out, &Scope::MAIN, black_box(&todos));
            assert!(sent.unwrap().unwrap().sent);
        });
        line(
            "TodoWrite: plan-core, its notification written",
            &mut |out| {
                let outcome = plans.todo_write(&Scope::MAIN, black_box(&todos)).unwrap();
                let sent = outcome.notification.unwrap();
                sent.write_json(out, Spelling::Acp).unwrap();
            },
        );
        line(
            "TodoWrite: by hand on agent-client-protocol-schema",
            &mut |out| {
                by_hand(black_box(&todos), out).unwrap();
            },
        );
        line("update_plan: plan-core, to its line", &mut |out| {
            let sent = plans.update_plan_to(out, &Scope::MAIN, black_box(&steps));
            assert!(sent.unwrap().unwrap().sent);
        });
        line(
            "update_plan: by hand on agent-client-protocol-schema",
            &mut |out| {
                by_hand_update_plan(black_box(&steps), out).unwrap();
            },
        );
    }
    group.finish();
}

/// The sender alone: a plan of run-time strings given to a `PlanSender`
/// for a v1 client with the plan capability and for a v2 client (the plan
/// built before each run, outside the time): `update` (a notification of
/// its own, so a copy), and `send_update` (the line written, no copy where
/// the fallback leaves the plan), beside `update` then `write_line`, what
/// `send_update` did before.
fn sender(c: &mut Criterion) {
    use criterion::BatchSize;
    use plan_core::fixtures::ClientProfile;
    let mut group = c.benchmark_group("8 the sender alone");
    let mut out = Vec::with_capacity(64 * 1024);
    for size in [10, 100] {
        let SessionUpdate::PlanUpdate { plan, .. } = ours(&data(size)).update else {
            unreachable!("ours() builds a plan_update")
        };
        for (name, profile) in [
            ("v1 with plan", ClientProfile::v1()),
            ("v2", ClientProfile::v2()),
        ] {
            let mut sender = profile.sender(SESSION);
            group.bench_function(BenchmarkId::new(format!("{name}: update"), size), |b| {
                b.iter_batched(
                    || plan.clone(),
                    |plan| black_box(sender.update(plan)),
                    BatchSize::SmallInput,
                );
            });
            group.bench_function(
                BenchmarkId::new(format!("{name}: update + write_line"), size),
                |b| {
                    b.iter_batched(
                        || plan.clone(),
                        |plan| {
                            out.clear();
                            let sent = sender.update(plan);
                            sent.write_line(&mut out, Spelling::Acp).unwrap();
                            black_box(out.len())
                        },
                        BatchSize::SmallInput,
                    );
                },
            );
            group.bench_function(
                BenchmarkId::new(format!("{name}: send_update"), size),
                |b| {
                    b.iter_batched(
                        || plan.clone(),
                        |plan| {
                            out.clear();
                            sender.send_update(&mut out, plan).unwrap();
                            black_box(out.len())
                        },
                        BatchSize::SmallInput,
                    );
                },
            );
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = build_and_serialize, serialize, emit_literal, parse, board, through_the_sdk, scaling, model_tool_call, sender
}
criterion_main!(benches);
