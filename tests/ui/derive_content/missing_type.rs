// One misuse of `#[derive(PlanContent)]`: see the `.stderr`.
#[derive(serde::Serialize, serde::Deserialize, plan_core::PlanContent)]
struct Timeline {
    id: plan_core::PlanId,
}

fn main() {}
