//! Plan content: the `plan` object of a `plan_update`, one variant per `type`.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::error::{Error, Path};
use crate::protocol::entry::PlanEntry;
use crate::protocol::id::{AbsolutePath, FileUri, PlanId};
use crate::protocol::meta::Meta;
use crate::protocol::naming::{CustomName, ReservedName};

pub(crate) use crate::rules::OWN_KEYS;

/// The content of one plan, as carried by a `plan_update`: a tagged union on
/// `type`. Every variant has a plan id, unique within the session.
///
/// ```
/// use plan_core::{PlanContent, PlanEntry, PlanId, Priority, Status, wire::Spelling};
///
/// let plan = PlanContent::items(
///     PlanId::new("plan-1")?,
///     [PlanEntry::new("Step 1", Priority::High, Status::Pending)],
/// );
/// assert_eq!(
///     plan.to_json(Spelling::Rfd),
///     r#"{"type":"items","id":"plan-1","entries":[{"content":"Step 1","priority":"high","status":"pending"}]}"#
/// );
/// # Ok::<(), plan_core::wire::InvalidPlanId>(())
/// ```
///
/// `#[non_exhaustive]`, as are its variants: the protocol may define more plan
/// types and give a type more fields, so plans are made with the
/// constructors ([`items`](Self::items), [`markdown`](Self::markdown),
/// [`markdown_at`](Self::markdown_at), ...) or `plan!`, and a `match` has an
/// arm for what it does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlanContent {
    /// `type: "items"`: a list of entries, replaced whole on every update.
    Items {
        /// The plan's id.
        id: PlanId,
        /// Every entry, with its current status.
        entries: Vec<PlanEntry>,
        /// `_meta` of the plan.
        meta: Option<Meta>,
    },
    /// `type: "file"`: the plan lives in a file the client can open.
    ///
    /// **Pre-stable.** The drafts had it; the protocol stabilized on
    /// 2026-11-20 has no `file` type (a plan in a file is a
    /// [`Markdown`](Self::Markdown) plan with a `path`). Older agents still
    /// send it, so it is read and kept; [`PlanSender`](crate::agent::PlanSender)
    /// sends it as markdown unless told the client reads it
    /// ([`Fallback::file`](crate::agent::Fallback::file)).
    File {
        /// The plan's id.
        id: PlanId,
        /// Where the file is.
        uri: FileUri,
        /// `_meta` of the plan.
        meta: Option<Meta>,
    },
    /// `type: "markdown"`: the plan as markdown text.
    Markdown {
        /// The plan's id.
        id: PlanId,
        /// The markdown: the whole plan, what a client shows whether or not
        /// `path` is set.
        content: Cow<'static, str>,
        /// The absolute path of the file that holds the plan, if there is
        /// one: a client can open it. Not written when `None` (`null` and
        /// absent both mean no file).
        path: Option<AbsolutePath>,
        /// `_meta` of the plan.
        meta: Option<Meta>,
    },
    /// An implementation-specific type (`_timeline`), with its own fields.
    Custom {
        /// The type name, `_` included.
        kind: CustomName,
        /// The plan's id.
        id: PlanId,
        /// The other fields, as they came (never `type`, `id`, `planId` or `_meta`).
        fields: Map<String, Value>,
        /// `_meta` of the plan.
        meta: Option<Meta>,
    },
    /// A type received from a peer that is neither known nor custom: reserved
    /// for future ACP versions. Kept so the message round-trips; never send one.
    Reserved {
        /// The type name as received.
        kind: ReservedName,
        /// The plan's id.
        id: PlanId,
        /// The other fields, as they came.
        fields: Map<String, Value>,
        /// `_meta` of the plan.
        meta: Option<Meta>,
    },
}

impl PlanContent {
    /// An items plan.
    pub fn items(id: PlanId, entries: impl IntoIterator<Item = PlanEntry>) -> Self {
        Self::Items {
            id,
            entries: entries.into_iter().collect(),
            meta: None,
        }
    }

    /// A file plan (pre-stable: see [`PlanContent::File`]).
    pub fn file(id: PlanId, uri: FileUri) -> Self {
        Self::File {
            id,
            uri,
            meta: None,
        }
    }

    /// A markdown plan with no file.
    pub fn markdown(id: PlanId, content: impl Into<Cow<'static, str>>) -> Self {
        Self::Markdown {
            id,
            content: content.into(),
            path: None,
            meta: None,
        }
    }

    /// A markdown plan that also lives in a file, at an absolute `path`.
    ///
    /// ```
    /// use plan_core::{AbsolutePath, PlanContent, PlanId, wire::Spelling};
    ///
    /// let plan = PlanContent::markdown_at(
    ///     PlanId::new("design")?,
    ///     "## Steps\n- [ ] Refactor",
    ///     AbsolutePath::new("/home/dev/project/PLAN.md")?,
    /// );
    /// assert_eq!(
    ///     plan.to_json(Spelling::Acp),
    ///     r###"{"type":"markdown","planId":"design","content":"## Steps\n- [ ] Refactor","path":"/home/dev/project/PLAN.md"}"###
    /// );
    /// // A relative path is refused where it is made.
    /// assert!(AbsolutePath::new("docs/PLAN.md").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn markdown_at(
        id: PlanId,
        content: impl Into<Cow<'static, str>>,
        path: AbsolutePath,
    ) -> Self {
        Self::Markdown {
            id,
            content: content.into(),
            path: Some(path),
            meta: None,
        }
    }

    /// A plan of a custom type with its own fields.
    ///
    /// ```
    /// use plan_core::{PlanContent, PlanId, wire::{CustomName, Spelling}};
    /// use serde_json::json;
    ///
    /// let fields = json!({"events": []}).as_object().unwrap().clone();
    /// let plan = PlanContent::custom(CustomName::new("_timeline")?, PlanId::new("t")?, fields)?;
    /// assert_eq!(plan.to_json(Spelling::Acp), r#"{"type":"_timeline","planId":"t","events":[]}"#);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// If `fields` holds `type`, `id`, `planId` or `_meta`: the plan writes
    /// those itself.
    pub fn custom(kind: CustomName, id: PlanId, fields: Map<String, Value>) -> Result<Self, Error> {
        if let Some(key) = OWN_KEYS.iter().find(|k| fields.contains_key(**k)) {
            return Err(Path::Root.key("fields").key(key).invalid(format_args!(
                "`{key}` is written by the plan itself; a custom plan's fields cannot hold it"
            )));
        }
        Ok(Self::Custom {
            kind,
            id,
            fields,
            meta: None,
        })
    }

    /// The same plan with `_meta` set.
    #[must_use]
    pub fn with_meta(mut self, meta: impl Into<Meta>) -> Self {
        *self.meta_mut() = Some(meta.into());
        self
    }

    /// The plan's id.
    pub fn id(&self) -> &PlanId {
        match self {
            Self::Items { id, .. }
            | Self::File { id, .. }
            | Self::Markdown { id, .. }
            | Self::Custom { id, .. }
            | Self::Reserved { id, .. } => id,
        }
    }

    /// The plan's `_meta`.
    pub fn meta(&self) -> Option<&Meta> {
        match self {
            Self::Items { meta, .. }
            | Self::File { meta, .. }
            | Self::Markdown { meta, .. }
            | Self::Custom { meta, .. }
            | Self::Reserved { meta, .. } => meta.as_ref(),
        }
    }

    fn meta_mut(&mut self) -> &mut Option<Meta> {
        match self {
            Self::Items { meta, .. }
            | Self::File { meta, .. }
            | Self::Markdown { meta, .. }
            | Self::Custom { meta, .. }
            | Self::Reserved { meta, .. } => meta,
        }
    }

    /// The `type` on the wire: `items`, `file`, `markdown` or the custom name.
    pub fn type_name(&self) -> &str {
        match self {
            Self::Items { .. } => crate::rules::PlanType::Items.name(),
            Self::File { .. } => crate::rules::PlanType::File.name(),
            Self::Markdown { .. } => crate::rules::PlanType::Markdown.name(),
            Self::Custom { kind, .. } => kind.as_str(),
            Self::Reserved { kind, .. } => kind.as_str(),
        }
    }

    /// The file path of a markdown plan, if it has one; `None` for other types.
    pub fn path(&self) -> Option<&AbsolutePath> {
        match self {
            Self::Markdown { path, .. } => path.as_ref(),
            _ => None,
        }
    }

    /// The entries of an items plan; `None` for other types.
    pub fn entries(&self) -> Option<&[PlanEntry]> {
        match self {
            Self::Items { entries, .. } => Some(entries),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_types_are_read_in_the_shared_order() {
        assert_eq!(
            crate::rules::KNOWN_PLAN_TYPES,
            ["items", "file", "markdown"]
        );
    }

    #[test]
    fn a_known_type_missing_its_field_is_an_error_not_custom() {
        let err = PlanContent::from_json(r#"{"type":"markdown","id":"p"}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "in the message: missing required field `content`"
        );
    }

    #[test]
    fn custom_fields_cannot_hold_the_plans_own_keys() {
        let mut fields = Map::new();
        fields.insert("planId".into(), Value::from("other"));
        let kind = CustomName::new("_x").unwrap();
        let err = PlanContent::custom(kind, PlanId::new("p").unwrap(), fields).unwrap_err();
        assert_eq!(err.path(), "fields.planId");
    }
}
