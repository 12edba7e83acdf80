// One misuse of `#[derive(plan_core::PlanStatus)]` or `#[derive(plan_core::PlanPriority)]`: see the `.stderr`.
#[derive(plan_core::PlanStatus)]
enum Todo {
    #[status(completed)]
    Done,
    #[status(completed)]
    Finished,
}

fn main() {}
