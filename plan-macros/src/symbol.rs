//! Every name a derive reads in the user's code, in one place (as
//! `serde_derive`'s `symbol.rs`): the attributes and the keys inside them.
//! `lib.rs` must spell the attributes again in `#[proc_macro_derive(...,
//! attributes(...))]`, which takes identifiers only; a test below holds the
//! two together.

/// `#[plan(id = "...")]` on a `Steps` enum.
pub(crate) const PLAN: &str = "plan";
/// `#[step("content", priority = name)]` on a step.
pub(crate) const STEP: &str = "step";
/// `#[status(name)]` on a `PlanStatus` variant.
pub(crate) const STATUS: &str = "status";
/// `#[plan_status(rename_all = "...")]` on a `PlanStatus` enum.
pub(crate) const PLAN_STATUS: &str = "plan_status";
/// `#[priority(name)]` on a `PlanPriority` variant; also the key of `#[step(priority = ...)]`.
pub(crate) const PRIORITY: &str = "priority";
/// `#[plan_priority(rename_all = "...")]` on a `PlanPriority` enum.
pub(crate) const PLAN_PRIORITY: &str = "plan_priority";
/// `#[plan_content(type = "_name")]` on a `PlanContent` struct.
pub(crate) const PLAN_CONTENT: &str = "plan_content";
/// Doc comments, a step's content when it gives none.
pub(crate) const DOC: &str = "doc";

/// The key of `#[plan(id = ...)]`, and the field a `PlanContent` struct needs.
pub(crate) const ID: &str = "id";
/// The key of `#[plan_content(type = ...)]`.
pub(crate) const TYPE: &str = "type";
/// The key of `#[plan_status(rename_all = ...)]`/`#[plan_priority(...)]`.
pub(crate) const RENAME_ALL: &str = "rename_all";

#[cfg(test)]
mod tests {
    use super::*;

    /// The attributes `lib.rs` declares for each derive, as written there.
    fn declared(derive: &str) -> Vec<String> {
        let lib = include_str!("lib.rs");
        let start = lib
            .find(&format!("#[proc_macro_derive({derive}, attributes("))
            .unwrap_or_else(|| panic!("lib.rs declares {derive}"));
        let list = &lib[start..];
        let list = &list[list.find("attributes(").unwrap() + "attributes(".len()..];
        list[..list.find(')').unwrap()]
            .split(',')
            .map(|a| a.trim().to_owned())
            .collect()
    }

    #[test]
    fn lib_declares_the_attributes_this_file_names() {
        assert_eq!(declared("Steps"), [PLAN, STEP]);
        assert_eq!(declared("PlanStatus"), [STATUS, PLAN_STATUS]);
        assert_eq!(declared("PlanPriority"), [PRIORITY, PLAN_PRIORITY]);
        assert_eq!(declared("PlanContent"), [PLAN_CONTENT]);
    }
}
