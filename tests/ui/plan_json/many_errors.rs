// Several mistakes in one `plan_json!` are all reported, each on its own token.
use plan_core::plan_json;

fn main() {
    let step = "dynamic";
    let _ = plan_json! {
        id: "",
        items: [
            high blocked "a",
            urgent pending { step },
            low pending "b" meta: { "weight": 0.5 },
        ],
    };
}
