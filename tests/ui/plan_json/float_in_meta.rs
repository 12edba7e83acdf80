// One misuse of `plan_json!`: see the `.stderr`.
use plan_core::plan_json;

fn main() {
    let _ = plan_json! { id: "p", markdown: "notes", meta: { "score": 0.5 } };
}
