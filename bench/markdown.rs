//! The one reading of a markdown plan (`plan_core::client::MarkdownSteps`)
//! on a 1 MB plan, side by side in one run with `pulldown-cmark`'s own
//! parse of the same text (every event drained: the floor under any reader
//! built on it), for three shapes: numbered steps under headings (a plan
//! as Claude Code writes one, repeated), a bulleted checklist with nested
//! items and code blocks, and prose. Also the v1 fallback a client without
//! plan operations is sent (`PlanSender::update` with a markdown plan of
//! 4 KB), the path the proxy and every agent take on each delta.
//!
//! `cargo bench -p plan-harness --bench markdown`; docs/figures.md quotes
//! the ratios.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use plan_core::{
    PlanContent, PlanId, agent::PlanSender, client::MarkdownSteps, wire::ClientCapabilities,
};
use pulldown_cmark::{Options, Parser};

const STEPS: &str = "## Phase\n\nContext for the phase, a `code span` and a [link](x).\n\n1. Add **limit** and `cursor` to the query\n2. Page the SQL\n   - keep the order stable\n3. Return the next cursor\n\n";
const CHECKLIST: &str = "- [x] 1. Create the schema\n  - tables for orders\n  ```sql\n  - create table orders;\n  ```\n- [ ] 2. Implement the repository\n  - [ ] 2.1 insert\n";
const PROSE: &str = "I'll read how the cache key is built, include the locale in it, and add a test with two locales. ";

/// `unit` repeated to about `bytes`.
fn sized(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len() + 1)
}

fn floor(text: &str) -> usize {
    Parser::new_ext(
        text,
        Options::ENABLE_TASKLISTS | Options::ENABLE_STRIKETHROUGH,
    )
    .count()
}

fn reading(c: &mut Criterion) {
    let mut group = c.benchmark_group("markdown_1mb");
    group.sample_size(20);
    for (shape, unit) in [("steps", STEPS), ("checklist", CHECKLIST), ("prose", PROSE)] {
        let text = sized(unit, 1 << 20);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(
            BenchmarkId::new("pulldown_cmark_events", shape),
            &text,
            |b, t| {
                b.iter(|| floor(black_box(t)));
            },
        );
        group.bench_with_input(BenchmarkId::new("markdown_steps", shape), &text, |b, t| {
            b.iter(|| MarkdownSteps::read(black_box(t)).entries.len());
        });
    }
    group.finish();
}

fn fallback(c: &mut Criterion) {
    let mut group = c.benchmark_group("v1_fallback_4kb");
    let text = sized(STEPS, 4 << 10);
    let id = PlanId::new("plan-mode").expect("a valid id");
    let caps = ClientCapabilities::default();
    group.bench_function("sender_update", |b| {
        let mut sender = PlanSender::new("s", &caps);
        b.iter(|| sender.update(PlanContent::markdown(id.clone(), text.clone())));
    });
    group.bench_function("parse_floor", |b| b.iter(|| floor(black_box(&text))));
    group.finish();
}

criterion_group!(benches, reading, fallback);
criterion_main!(benches);
