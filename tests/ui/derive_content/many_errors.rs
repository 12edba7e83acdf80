// Several mistakes in one `#[derive(PlanContent)]` are all reported, each on its own token.
#[derive(serde::Serialize, serde::Deserialize, plan_core::PlanContent)]
#[plan_content(type = "timeline", colour = "red")]
struct Timeline {
    events: Vec<u32>,
}

fn main() {}
