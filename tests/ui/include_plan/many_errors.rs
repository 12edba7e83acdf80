// Every mistake in one fixture is reported together, each with its line,
// column and JSON path; no warning follows them.
use plan_core::include_plan;

fn main() {
    let plan = include_plan!("../../../../tests/ui/include_plan/many_errors.json");
    println!("{plan:?}");
}
