// One misuse of `#[derive(Plan)]`: see the `.stderr` for the error and where it points.
use plan_core::Plan;

#[derive(Plan)]
enum Refactor {
    /// Analyze
    Analyze(u8),
}

fn main() {}
