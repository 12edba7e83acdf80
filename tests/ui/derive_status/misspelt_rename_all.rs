// One misuse of `#[derive(plan_core::PlanStatus)]`: a misspelt container key is
// reported once, not once more per variant.
#[derive(plan_core::PlanStatus)]
#[plan_status(rename = "_snake_case")]
enum Todo {
    Open,
    Doing,
    Done,
}

fn main() {}
