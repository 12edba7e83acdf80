// One misuse of `#[derive(PlanContent)]`: see the `.stderr`.
#[derive(serde::Serialize, serde::Deserialize, plan_core::PlanContent)]
#[plan_content(kind = "_timeline")]
struct Timeline {
    id: plan_core::PlanId,
}

fn main() {}
