//! The harness library (`plan_harness`): the README's and docs' examples as
//! doc tests, and the plans the integration tests and benchmarks share. The other helpers in `tests/common/` are modules each
//! test includes (`mod common;`, `#[path = "common/talk.rs"] mod talk;`).

/// The README's examples, compiled and run as this library's doc tests (with
/// the harness's dev-dependencies: the `fixtures` feature among them), so
/// every example a reader could copy from the front page is checked.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;

/// plan-core's guides (`plan_core::guide`), each example a whole program,
/// compiled and run here with every feature they use.
#[cfg(doctest)]
#[doc = include_str!("../../plan-core/src/docs/guide/agents.md")]
pub struct AgentsGuide;

/// The clients guide's examples.
#[cfg(doctest)]
#[doc = include_str!("../../plan-core/src/docs/guide/clients.md")]
pub struct ClientsGuide;

/// The testing guide's examples (features `fixtures`, `proptest`, `arbitrary`).
#[cfg(doctest)]
#[doc = include_str!("../../plan-core/src/docs/guide/testing.md")]
pub struct TestingGuide;

/// The SDK guide's examples (feature `acp`).
#[cfg(doctest)]
#[doc = include_str!("../../plan-core/src/docs/guide/sdk.md")]
pub struct SdkGuide;

/// The wire guide's examples.
#[cfg(doctest)]
#[doc = include_str!("../../plan-core/src/docs/guide/wire.md")]
pub struct WireGuide;

/// The models guide's examples (feature `tools`).
#[cfg(doctest)]
#[doc = include_str!("../../plan-core/src/docs/guide/models.md")]
pub struct ModelsGuide;

/// The examples and figures pages' code blocks (`docs/`): shell and text
/// only today; a Rust block added there is compiled too.
#[cfg(doctest)]
#[doc = include_str!("../../docs/examples.md")]
pub struct DocsExamples;

use plan_core::{
    PlanContent, PlanEntry, PlanId, Priority, Status, agent::StaticUpdate, plan, plan_json,
};

/// One four-step plan, handed to `plan!` or `plan_json!` as the same tokens.
macro_rules! four_steps {
    ($macro:ident) => {
        $macro! {
            id: "plan-1",
            items: [
                high completed "Analyze the existing codebase structure",
                high in_progress "Identify components that need refactoring",
                medium pending "Create unit tests for critical functions",
                low pending "Update the changelog",
            ],
        }
    };
}

/// A four-step plan's update, written at compile time.
pub const STEPS_JSON: StaticUpdate = four_steps!(plan_json);

/// The same plan, built by `plan!` (literal strings are borrowed).
pub fn steps_by_macro() -> PlanContent {
    four_steps!(plan)
}

/// The same plan built at run time from owned strings, as code without the
/// macro does (and as the published crate, whose strings are all `String`, must).
///
/// # Panics
/// Never: the id is a valid literal.
pub fn steps_by_hand() -> PlanContent {
    let entry =
        |content: &str, priority, status| PlanEntry::new(content.to_owned(), priority, status);
    PlanContent::items(
        PlanId::new(String::from("plan-1")).expect("a valid id"),
        vec![
            entry(
                "Analyze the existing codebase structure",
                Priority::High,
                Status::Completed,
            ),
            entry(
                "Identify components that need refactoring",
                Priority::High,
                Status::InProgress,
            ),
            entry(
                "Create unit tests for critical functions",
                Priority::Medium,
                Status::Pending,
            ),
            entry("Update the changelog", Priority::Low, Status::Pending),
        ],
    )
}
