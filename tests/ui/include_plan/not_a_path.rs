// The macro takes one string literal: the fixture's path.
use plan_core::include_plan;

fn main() {
    let plan = include_plan!(plans / refactor);
    println!("{plan:?}");
}
