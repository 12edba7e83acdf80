// The derives compile under `deny(warnings)`: generated code is lint-clean.
#![deny(warnings)]

use plan_core::{PlanContent, PlanId, PlanPriority, PlanStatus, Status, Steps};
use serde::{Deserialize, Serialize};

#[derive(Steps)]
#[plan(id = "refactor")]
enum Refactor {
    /// Analyze the existing codebase structure
    #[step(priority = high)]
    Analyze,
    #[step("Ship it", priority = "_stretch")]
    Ship,
}

#[derive(PlanStatus)]
#[plan_status(rename_all = "_snake_case")]
enum Todo {
    #[status(pending)]
    Open,
    Blocked,
}

#[derive(PlanPriority)]
enum Urgency {
    #[priority(high)]
    Now,
    #[priority(r#low)]
    Later,
}

#[derive(Serialize, Deserialize, PlanContent)]
#[plan_content(type = "_timeline")]
struct Timeline {
    id: PlanId,
    events: Vec<String>,
}

fn main() {
    let mut run = Refactor::start();
    run.begin(Refactor::Analyze).unwrap();
    assert_eq!(Refactor::STEPS.len(), 2);
    assert_eq!(Status::from(Todo::Blocked).as_str(), "_blocked");
    assert_eq!(Status::from(Todo::Open), Status::Pending);
    assert_eq!(plan_core::Priority::from(Urgency::Later).as_str(), "low");
    let _ = plan_core::Priority::from(Urgency::Now);
    let timeline = Timeline { id: PlanId::new("t").unwrap(), events: Vec::new() };
    let content = plan_core::PlanContent::try_from(&timeline).unwrap();
    assert_eq!(content.type_name(), "_timeline");
}
