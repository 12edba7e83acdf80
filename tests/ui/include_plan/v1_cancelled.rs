// A v1 update cannot say `cancelled`: the same rule and wording as `plan!`.
use plan_core::include_plan;

fn main() {
    let plan = include_plan!("../../../../tests/ui/include_plan/v1_cancelled.json");
    println!("{plan:?}");
}
