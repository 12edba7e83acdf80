// One misuse of `plan!`: see the `.stderr` for the error and where it points.
use plan_core::{PlanEntry, Priority, Status, plan};

fn main() {
    let entries = vec![PlanEntry::new("Ship it", Priority::High, Status::Pending)];
    let _ = plan! { id: "p", items: entries };
}
