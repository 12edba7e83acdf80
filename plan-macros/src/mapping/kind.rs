//! Which derive a mapping is: its names, attributes and the plan-core type
//! and trait it maps onto (`STATUS`, `PRIORITY`).

use crate::name_check::NameKind;
use crate::symbol;

/// Which derive this is.
pub(crate) struct MappingKind {
    /// `PlanStatus`
    pub(crate) derive: &'static str,
    /// `status`: the variant attribute.
    pub(crate) attr: &'static str,
    /// `plan_status`: the enum attribute.
    pub(crate) container: &'static str,
    pub(crate) names: NameKind,
    /// `Status`: the plan-core type.
    pub(crate) ty: &'static str,
    /// `IntoStatus`: the trait `plan!` expressions go through.
    pub(crate) expression_trait: &'static str,
}

pub(crate) const STATUS: MappingKind = MappingKind {
    derive: "PlanStatus",
    attr: symbol::STATUS,
    container: symbol::PLAN_STATUS,
    names: NameKind::Status,
    ty: "Status",
    expression_trait: "IntoStatus",
};

pub(crate) const PRIORITY: MappingKind = MappingKind {
    derive: "PlanPriority",
    attr: symbol::PRIORITY,
    container: symbol::PLAN_PRIORITY,
    names: NameKind::Priority,
    ty: "Priority",
    expression_trait: "IntoPriority",
};
