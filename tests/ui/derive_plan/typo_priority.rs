// One misuse of `#[derive(Plan)]`: see the `.stderr` for the error and where it points.
use plan_core::Plan;

#[derive(Plan)]
enum Refactor {
    /// Ship it
    #[step(priority = hgih)]
    Ship,
}

fn main() {}
