// The user crate `tests/editor.rs` opens in rust-analyzer: the same plans
// written with `plan!` and the derives, and with plan-core's builders in
// plain Rust, the baseline the macro's editor support is held to. Each
// probe finds its place by a unique line of this file; keep them unique.
#![allow(dead_code)]

use plan_core::agent::StaticUpdate;
use plan_core::{
    PlanContent, PlanEntry, PlanId, PlanStatus, Priority, Status, Steps, include_plan, plan,
    plan_json,
};

pub fn literal() -> PlanContent {
    plan! { id: "literal", items: [ high pending "Read the parser", low completed "Ship it" ] }
}

pub fn braced(my_status: Status) -> PlanContent {
    plan! { id: "braced", items: [ medium in_progress "Fix it", low { my_status } "Then this" ] }
}

pub fn markdown() -> PlanContent {
    plan! { id: "notes", markdown: "# Plan", path: "/work/PLAN.md" }
}

pub const WRITTEN: StaticUpdate = plan_json! { id: "json", items: [ low cancelled "Old" ] };

pub fn included() -> PlanContent {
    include_plan!("plan.json")
}

pub fn builders(my_status: Status) -> PlanContent {
    let id = PlanId::new("braced").unwrap();
    PlanContent::items(id, [
        PlanEntry::new("Fix it", Priority::Medium, Status::InProgress),
        PlanEntry::new("Then this", Priority::Low, my_status),
    ])
}

#[derive(Clone, Copy, Steps)]
#[plan(id = "release")]
enum Release {
    /// Build the release
    #[step(priority = high)]
    Build,
}

#[derive(Clone, Copy, PlanStatus)]
enum Mine {
    #[status(in_progress)]
    Working,
    #[status(pending)]
    Waiting,
}

// The partial derives the completion probes type are written after this
// line by the test, one at a time, as a user would type them.
// ITEMS

// The partial calls the completion probes type are written here by the
// test, one at a time, as a user would type them.
pub fn typing(my_status: Status) -> PlanContent {
    TYPING
}
