// One misuse of `plan!`: see the `.stderr` for the error and where it points.
use plan_core::plan;

fn main() {
    let _ = plan! { id: "p", items: [ high pending "a",, low pending "b" ] };
}
