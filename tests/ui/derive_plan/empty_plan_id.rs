// One misuse of `#[derive(Plan)]`: see the `.stderr` for the error and where it points.
use plan_core::Plan;

#[derive(Plan)]
#[plan(id = "")]
enum Refactor {
    /// Analyze
    Analyze,
}

fn main() {}
