//! What it costs an agent to put one plan update on the wire: a plan fixed at
//! compile time (`plan_json!`), the same plan built by `plan!` and serialized,
//! and the same plan built at run time from owned strings.
//!
//! `cargo bench -p plan-harness --bench emit`; the README quotes the ratios.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use plan_core::{PlanContent, SessionId, SessionNotification, wire::Spelling};
use plan_harness::{STEPS_JSON, steps_by_hand, steps_by_macro};

fn emit(c: &mut Criterion) {
    let session = SessionId::new("sess_abc123def456");
    let mut line: Vec<u8> = Vec::with_capacity(1024);
    let mut group = c.benchmark_group("emit a 4-step plan_update line");

    group.bench_function("plan_json! (written at compile time)", |b| {
        b.iter(|| {
            line.clear();
            STEPS_JSON
                .write_notification(&mut line, black_box(&session), Spelling::Acp)
                .unwrap();
            black_box(line.len())
        });
    });

    let mut build_and_write = |name: &str, build: fn() -> PlanContent| {
        group.bench_function(name, |b| {
            b.iter(|| {
                line.clear();
                SessionNotification::new(black_box(session.clone()), build().into())
                    .write_json(&mut line, Spelling::Acp)
                    .unwrap();
                black_box(line.len())
            });
        });
    };
    build_and_write("plan! then write_json", steps_by_macro);
    build_and_write(
        "run-time builders (owned strings) then write_json",
        steps_by_hand,
    );
    group.finish();
}

criterion_group!(benches, emit);
criterion_main!(benches);
