// One misuse of `plan!` under `deny(warnings)`: only its own error shows; the
// code after the call is not reported unreachable.
#![deny(warnings)]
use plan_core::plan;

fn main() {
    let plan = plan! { id: "", markdown: "notes" };
    let after = plan.id().clone();
    drop(after);
}
