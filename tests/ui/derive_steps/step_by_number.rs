// A step cannot be forged: the run takes the enum, never a number or a string.
use plan_core::Steps;

#[derive(Steps)]
enum Refactor {
    /// Analyze
    Analyze,
}

fn main() {
    let mut run = Refactor::start();
    let _ = run.begin(0);
}
