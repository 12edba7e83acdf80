// One misuse of `#[derive(Plan)]`: see the `.stderr` for the error and where it points.
use plan_core::Plan;

#[derive(Plan)]
enum Refactor {
    /// Write tests
    Tests,
    #[step("Write tests")]
    MoreTests,
}

fn main() {}
