// One misuse of `#[derive(Plan)]`: see the `.stderr` for the error and where it points.
use plan_core::Plan;

#[derive(Plan)]
enum Refactor {
    #[step("")]
    Analyze,
}

fn main() {}
