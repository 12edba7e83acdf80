// `session/update` is a notification: an `id` makes it a request, refused
// as the runtime reader refuses it.
use plan_core::include_plan;

fn main() {
    let plan = include_plan!("../../../../tests/ui/include_plan/request_with_id.json");
    println!("{plan:?}");
}
