// One misuse of `#[derive(Steps)]`: see the `.stderr` for the error and where it points.
use plan_core::Steps;

#[derive(Steps)]
#[plan(id = refactor)]
enum Refactor {
    /// Analyze
    Analyze,
}

fn main() {}
