// One misuse of `#[derive(Steps)]`: see the `.stderr` for the error and where it points.
use plan_core::Steps;

#[derive(Steps)]
enum Refactor {
    #[step("Analyze")]
    #[step(priority = high)]
    Analyze,
}

fn main() {}
