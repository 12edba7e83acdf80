//! `include_plan!` builds, at compile time, exactly what the runtime reader
//! reads from the same file.

use plan_core::{Plan, PlanContent, SessionNotification, SessionUpdate, include_plan};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/fixtures/plans/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn plan_content_in_the_acp_spelling() {
    let included: PlanContent = include_plan!("fixtures/plans/refactor.json");
    assert_eq!(
        included,
        PlanContent::from_json(&fixture("refactor.json")).unwrap()
    );
    assert_eq!(
        included.entries().unwrap()[1]
            .meta
            .as_ref()
            .unwrap()
            .get("ratio"),
        Some(serde_json::json!(0.5))
    );
}

#[test]
fn plan_content_in_the_rfd_spelling() {
    let included: PlanContent = include_plan!("fixtures/plans/file-rfd.json");
    assert_eq!(
        included,
        PlanContent::from_json(&fixture("file-rfd.json")).unwrap()
    );
}

#[test]
fn a_whole_notification_gives_its_plan() {
    let included: PlanContent = include_plan!("fixtures/plans/notification-acp.json");
    let message = SessionNotification::from_json(&fixture("notification-acp.json")).unwrap();
    let SessionUpdate::PlanUpdate { plan, .. } = message.update else {
        panic!()
    };
    assert_eq!(included, plan);
}

#[test]
fn a_v1_update_gives_a_v1_plan() {
    let included: Plan = include_plan!("fixtures/plans/v1-update.json");
    let SessionUpdate::Plan(plan) = SessionUpdate::from_json(&fixture("v1-update.json")).unwrap()
    else {
        panic!()
    };
    assert_eq!(included, plan);
    // The update's `_meta` comes along, in the file's order (it used to be dropped).
    assert_eq!(
        included.meta.as_ref().map(plan_core::Meta::as_json),
        Some(r#"{"source":"v1-agent","turn":3}"#)
    );
}

#[test]
fn a_custom_plan_keeps_its_fields() {
    let included: PlanContent = include_plan!("fixtures/plans/timeline.json");
    assert_eq!(
        included,
        PlanContent::from_json(&fixture("timeline.json")).unwrap()
    );
}

#[test]
fn a_markdown_plan_keeps_its_path() {
    // The stabilized protocol's markdown plan with its file (ACP vector 32).
    let included: PlanContent = include_plan!("fixtures/plans/markdown-path.json");
    assert_eq!(
        included.path().map(plan_core::AbsolutePath::as_str),
        Some("/home/user/project/PLAN.md")
    );
    let message = SessionNotification::from_json(&fixture("markdown-path.json")).unwrap();
    let SessionUpdate::PlanUpdate { plan, .. } = message.update else {
        panic!("a plan_update")
    };
    assert_eq!(included, plan);
}
