// One misuse of `#[derive(PlanContent)]` on a generic struct, and code that
// converts one instance: only the misuse is reported. The stub impls the
// derive leaves on error cover generic types too (their generics split for
// the impl), so no missing `TryFrom` impl follows.
#[derive(serde::Serialize, serde::Deserialize, plan_core::PlanContent)]
#[plan_content(type = "timeline")]
struct Timeline<T> {
    id: plan_core::PlanId,
    events: Vec<T>,
}

fn main() {
    let timeline = Timeline::<String> { id: plan_core::PlanId::new("t").unwrap(), events: Vec::new() };
    let _ = plan_core::PlanContent::try_from(&timeline);
    let _ = <Timeline<u8> as plan_core::CustomPlan>::PLAN_TYPE;
}
