// One misuse of `#[derive(Steps)]`: see the `.stderr` for the error and where it points.
use plan_core::Steps;

#[derive(Steps)]
enum Refactor {
    /// Analyze
    Analyze(u8),
}

fn main() {}
