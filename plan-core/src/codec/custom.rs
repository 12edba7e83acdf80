//! What `#[derive(PlanStatus)]`, `#[derive(PlanPriority)]` and
//! `#[derive(PlanContent)]` generate code against.

use std::fmt;

use serde_core::Serialize;
use serde_core::de::DeserializeOwned;
use serde_json::Value;

use crate::protocol::content::PlanContent;
use crate::protocol::id::PlanId;

/// A custom plan type of the agent's own: what `#[derive(PlanContent)]`
/// implements, with the type's name on the wire. A trait, not an inherent
/// item on your type, so nothing of ours can clash with your own names.
///
/// ```
/// use plan_core::{CustomPlan, PlanContent, PlanId};
///
/// #[derive(serde::Serialize, serde::Deserialize, PlanContent)]
/// #[plan_content(type = "_timeline")]
/// struct Timeline {
///     id: PlanId,
///     events: Vec<String>,
/// }
/// assert_eq!(Timeline::PLAN_TYPE, "_timeline");
/// ```
pub trait CustomPlan {
    /// The plan's `type` on the wire: a custom name (`_` and more).
    const PLAN_TYPE: &'static str;
}

/// A protocol value that an enum deriving `PlanStatus` or `PlanPriority` has
/// no variant for.
///
/// ```
/// use plan_core::{PlanStatus, Status};
///
/// #[derive(Debug, PlanStatus)]
/// enum Todo {
///     #[status(pending)] Open,
///     #[status(completed)] Done,
/// }
/// let err = Todo::try_from(&Status::Cancelled).unwrap_err();
/// assert_eq!(err.to_string(), "status `cancelled` has no variant in `Todo`");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnmappedValue {
    what: &'static str,
    value: String,
    target: &'static str,
}

impl UnmappedValue {
    #[doc(hidden)]
    pub fn new(what: &'static str, value: &str, target: &'static str) -> Self {
        Self {
            what,
            value: value.to_owned(),
            target,
        }
    }

    /// The value that has no variant.
    pub fn value(&self) -> &str {
        &self.value
    }
}

impl fmt::Display for UnmappedValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} `{}` has no variant in `{}`",
            self.what, self.value, self.target
        )
    }
}

impl std::error::Error for UnmappedValue {}

/// Carried into an [`Error`](crate::Error) by `?` (as
/// [`ErrorKind::Value`](crate::ErrorKind::Value)).
impl From<UnmappedValue> for crate::error::Error {
    fn from(error: UnmappedValue) -> Self {
        Self::of_value(&error)
    }
}

/// A custom plan type that could not be converted to or from [`PlanContent`](enum@PlanContent).
#[derive(Debug)]
pub enum CustomContentError {
    /// The content is of another type.
    WrongType {
        /// The type the struct is for.
        expected: &'static str,
        /// The content's type.
        found: String,
    },
    /// The struct's fields do not fit (serde's message).
    Fields(serde_json::Error),
    /// The struct did not serialize to a JSON object with a valid `id`.
    NotAPlan(&'static str),
}

impl fmt::Display for CustomContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WrongType { expected, found } => {
                write!(f, "expected a `{expected}` plan, found a `{found}` plan")
            }
            Self::Fields(e) => write!(f, "the plan's fields do not fit: {e}"),
            Self::NotAPlan(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for CustomContentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Fields(e) => Some(e),
            _ => None,
        }
    }
}

/// Carried into an [`Error`](crate::Error) by `?` (as
/// [`ErrorKind::Value`](crate::ErrorKind::Value)).
impl From<CustomContentError> for crate::error::Error {
    fn from(error: CustomContentError) -> Self {
        Self::of_value(&error)
    }
}

/// Serializes a `#[derive(PlanContent)]` struct into custom content of `kind`.
pub(crate) fn to_custom<T: Serialize>(
    value: &T,
    kind: &'static str,
) -> Result<PlanContent, CustomContentError> {
    let Value::Object(mut fields) =
        serde_json::to_value(value).map_err(CustomContentError::Fields)?
    else {
        return Err(CustomContentError::NotAPlan(
            "a custom plan must serialize to a JSON object",
        ));
    };
    let id = match fields.remove("id") {
        Some(Value::String(id)) => PlanId::new(id)
            .map_err(|_| CustomContentError::NotAPlan("a custom plan's `id` cannot be blank"))?,
        _ => {
            return Err(CustomContentError::NotAPlan(
                "a custom plan must serialize its `id` as a string",
            ));
        }
    };
    let meta = fields
        .remove(crate::rules::KEY_META)
        .and_then(|m| crate::protocol::meta::Meta::from_value(m).ok());
    fields.remove(crate::rules::KEY_TYPE);
    fields.remove("planId");
    let kind = crate::protocol::naming::CustomName::new_unchecked(std::borrow::Cow::Borrowed(kind));
    Ok(PlanContent::Custom {
        kind,
        id,
        fields,
        meta,
    })
}

/// Deserializes custom content of `kind` into a `#[derive(PlanContent)]` struct.
pub(crate) fn from_custom<T: DeserializeOwned>(
    content: &PlanContent,
    kind: &'static str,
) -> Result<T, CustomContentError> {
    let PlanContent::Custom {
        kind: found,
        id,
        fields,
        meta,
    } = content
    else {
        return Err(CustomContentError::WrongType {
            expected: kind,
            found: content.type_name().to_owned(),
        });
    };
    if found.as_str() != kind {
        return Err(CustomContentError::WrongType {
            expected: kind,
            found: found.as_str().to_owned(),
        });
    }
    let mut object = fields.clone();
    object.insert("id".into(), Value::from(id.as_str()));
    if let Some(meta) = meta {
        object.insert(
            crate::rules::KEY_META.into(),
            serde_json::to_value(meta).map_err(CustomContentError::Fields)?,
        );
    }
    serde_json::from_value(Value::Object(object)).map_err(CustomContentError::Fields)
}
