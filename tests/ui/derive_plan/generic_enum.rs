// One misuse of `#[derive(Plan)]`: see the `.stderr` for the error and where it points.
use plan_core::Plan;

#[derive(Plan)]
enum Refactor<const N: usize> {
    /// Analyze
    Analyze,
}

fn main() {}
