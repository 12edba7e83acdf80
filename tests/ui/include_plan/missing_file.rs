// A path that names no file says which path, and where it was looked for.
use plan_core::include_plan;

fn main() {
    let plan = include_plan!("plans/no-such-plan.json");
    println!("{plan:?}");
}
