// One misuse of `#[derive(PlanContent)]`, and code that converts: only the
// misuse is reported, not a missing `TryFrom` impl.
#[derive(serde::Serialize, serde::Deserialize, plan_core::PlanContent)]
#[plan_content(type = "timeline")]
struct Timeline {
    id: plan_core::PlanId,
}

fn main() {
    let timeline = Timeline { id: plan_core::PlanId::new("t").unwrap() };
    let _ = plan_core::PlanContent::try_from(&timeline);
    let _ = <Timeline as plan_core::CustomPlan>::PLAN_TYPE;
}
