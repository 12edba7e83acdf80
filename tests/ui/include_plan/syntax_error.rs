// A fixture that is not JSON: the error names the file, line and column.
// (Fixture paths are relative to the crate's directory; trybuild builds these
// cases in target/tests/trybuild/plan-harness, four levels below the repo.)
use plan_core::include_plan;

fn main() {
    let plan = include_plan!("../../../../tests/ui/include_plan/syntax_error.json");
    println!("{plan:?}");
}
