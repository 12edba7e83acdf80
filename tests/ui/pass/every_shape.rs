// Every plan shape compiles, under `deny(warnings)`: generated code is lint-clean.
#![deny(warnings)]

use plan_core::{plan, plan_json, Plan, PlanContent, PlanId, Priority, SessionUpdate, Status, agent::StaticUpdate};

const STATIC: StaticUpdate = plan_json! { id: "s", items: [ high pending "a", _x _y "b" ] };

fn main() {
    let module = "auth";
    let id = PlanId::new("dynamic").unwrap();
    let items: PlanContent = plan! {
        id: "plan-1",
        items: [
            high pending "Analyze",
            medium in_progress { format!("Fix {module}") },
            { Priority::Low } { Status::Cancelled } "Dynamic names",
            _urgent "_on hold" "Custom names" meta: { "by": module },
        ],
        meta: { "turn": 1 },
    };
    let markdown = plan! { id: { id }, markdown: "## Steps" };
    let file = plan! { id: "doc", markdown: "# Doc", path: "/tmp/plan.md" };
    let custom = plan! { id: "t", type: _timeline, fields: { "events": [] } };
    let v1: Plan = plan! { entries: [ low completed "Old-style plan" ] };
    let updates: Vec<SessionUpdate> = vec![items.into(), markdown.into(), file.into(), custom.into(), v1.into()];
    assert_eq!(updates.len(), 5);
    assert!(STATIC.json(plan_core::wire::Spelling::Acp).contains("planId"));
}
