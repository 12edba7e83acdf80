// One misuse of `#[derive(plan_core::PlanStatus)]` or `#[derive(plan_core::PlanPriority)]`: see the `.stderr`.
#[derive(plan_core::PlanStatus)]
#[plan_status(rename = "snake_case")]
enum Todo {
    #[status(pending)]
    Pending,
}

fn main() {}
