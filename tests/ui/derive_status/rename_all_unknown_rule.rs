// One misuse of `#[derive(plan_core::PlanStatus)]` or `#[derive(plan_core::PlanPriority)]`: see the `.stderr`.
#[derive(plan_core::PlanStatus)]
#[plan_status(rename_all = "camelCase")]
enum Todo {
    Pending,
}

fn main() {}
