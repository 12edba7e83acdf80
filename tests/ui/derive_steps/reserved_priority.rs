// One misuse of `#[derive(Steps)]`: see the `.stderr` for the error and where it points.
use plan_core::Steps;

#[derive(Steps)]
enum Refactor {
    /// Ship it
    #[step(priority = urgent)]
    Ship,
}

fn main() {}
