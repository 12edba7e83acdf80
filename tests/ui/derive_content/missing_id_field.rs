// One misuse of `#[derive(PlanContent)]`: see the `.stderr`.
#[derive(serde::Serialize, serde::Deserialize, plan_core::PlanContent)]
#[plan_content(type = "_timeline")]
struct Timeline {
    events: Vec<String>,
}

fn main() {}
