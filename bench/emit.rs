//! What it costs an agent to put one plan update on the wire: a plan fixed at
//! compile time (`plan_json!`), the same plan built by `plan!` and serialized,
//! and the same plan built at run time from owned strings.
//!
//! `cargo bench --bench emit`; the README quotes the ratios.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use plan_core::{
    PlanContent, PlanEntry, PlanId, Priority, SessionId, SessionNotification, Spelling,
    StaticUpdate, Status, plan, plan_json,
};

const STEPS: StaticUpdate = plan_json! {
    id: "plan-1",
    items: [
        high completed "Analyze the existing codebase structure",
        high in_progress "Identify components that need refactoring",
        medium pending "Create unit tests for critical functions",
        low pending "Update the changelog",
    ],
};

fn emit(c: &mut Criterion) {
    let session = SessionId::new("sess_abc123def456");
    let mut line: Vec<u8> = Vec::with_capacity(1024);
    let mut group = c.benchmark_group("emit a 4-step plan_update line");

    group.bench_function("plan_json! (written at compile time)", |b| {
        b.iter(|| {
            line.clear();
            STEPS.write_notification(&mut line, black_box(&session), Spelling::Acp).unwrap();
            black_box(line.len())
        });
    });

    group.bench_function("plan! then write_json", |b| {
        b.iter(|| {
            line.clear();
            let plan = plan! {
                id: "plan-1",
                items: [
                    high completed "Analyze the existing codebase structure",
                    high in_progress "Identify components that need refactoring",
                    medium pending "Create unit tests for critical functions",
                    low pending "Update the changelog",
                ],
            };
            SessionNotification::new(black_box(session.clone()), plan.into())
                .write_json(&mut line, Spelling::Acp)
                .unwrap();
            black_box(line.len())
        });
    });

    group.bench_function("run-time builders (owned strings) then write_json", |b| {
        b.iter(|| {
            line.clear();
            let plan = PlanContent::items(PlanId::new(String::from("plan-1")).unwrap(), vec![
                PlanEntry::new(String::from("Analyze the existing codebase structure"), Priority::High, Status::Completed),
                PlanEntry::new(String::from("Identify components that need refactoring"), Priority::High, Status::InProgress),
                PlanEntry::new(String::from("Create unit tests for critical functions"), Priority::Medium, Status::Pending),
                PlanEntry::new(String::from("Update the changelog"), Priority::Low, Status::Pending),
            ]);
            SessionNotification::new(black_box(session.clone()), plan.into())
                .write_json(&mut line, Spelling::Acp)
                .unwrap();
            black_box(line.len())
        });
    });
    group.finish();
}

criterion_group!(benches, emit);
criterion_main!(benches);
