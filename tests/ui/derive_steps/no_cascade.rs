// One misuse of `#[derive(Steps)]`, and code that runs the plan: only the
// misuse is reported, not a missing `Steps` impl.
use plan_core::Steps;

#[derive(Steps)]
#[plan(id = "")]
enum Refactor {
    /// Analyze
    Analyze,
}

fn main() {
    let mut run = Refactor::start();
    let _ = run.begin(Refactor::Analyze);
    let _ = run.update();
}
