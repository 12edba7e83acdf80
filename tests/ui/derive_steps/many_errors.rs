// Several mistakes in one enum are all reported, each on its own token.
use plan_core::Steps;

#[derive(Steps)]
#[plan(id = "")]
enum Refactor {
    #[step(priority = urgent)]
    Analyze,
    /// Write tests
    Tests(u8),
    #[step("Write tests", colour = red)]
    MoreTests,
}

fn main() {}
