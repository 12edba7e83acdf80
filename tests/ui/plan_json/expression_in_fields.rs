// One misuse of `plan_json!`: see the `.stderr`.
use plan_core::plan_json;

fn main() {
    let n = 3;
    let _ = plan_json! { id: "t", type: _timeline, fields: { "count": n } };
}
