// One misuse of `#[derive(Steps)]`: see the `.stderr` for the error and where it points.
use plan_core::Steps;

#[derive(Steps)]
enum Refactor {
    /// Write tests
    Tests,
    #[step("Write tests")]
    MoreTests,
}

fn main() {}
