//! Identifiers and other checked strings: plan ids, session ids, file URIs,
//! markdown plans' absolute paths.

use std::borrow::Cow;
use std::fmt;

use crate::rules::{self, IdProblem, PathProblem, UriProblem};

/// The id of a plan, unique within a session: a string with at least one
/// character that is not white space.
///
/// ```
/// use plan_core::PlanId;
///
/// let id = PlanId::new("plan-1").unwrap();
/// assert_eq!(id.as_str(), "plan-1");
/// assert_eq!(PlanId::new("  ").unwrap_err().to_string(), "a plan id cannot be only white space");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlanId(Cow<'static, str>);

impl PlanId {
    /// The id of the v1 plan (`plan` updates) when it stands beside v2
    /// plans: `main`, as the public ACP schema maps it.
    pub const V1_PLAN: PlanId = PlanId(Cow::Borrowed("main"));

    /// Checks and wraps a plan id.
    ///
    /// # Errors
    /// [`InvalidPlanId`] if `id` is empty or only white space.
    pub fn new(id: impl Into<Cow<'static, str>>) -> Result<Self, InvalidPlanId> {
        let id = id.into();
        match rules::check_plan_id(&id) {
            Ok(()) => Ok(Self(id)),
            Err(problem) => Err(InvalidPlanId(problem)),
        }
    }

    /// Wraps an id the caller has already checked (the macros check at compile time).
    pub(crate) const fn new_unchecked(id: Cow<'static, str>) -> Self {
        Self(id)
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PlanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Any borrowed text, checked and copied (a `&'static str` through
/// [`PlanId::new`] is kept borrowed, with no copy).
impl TryFrom<&str> for PlanId {
    type Error = InvalidPlanId;
    fn try_from(id: &str) -> Result<Self, Self::Error> {
        Self::new(id.to_owned())
    }
}

impl TryFrom<&String> for PlanId {
    type Error = InvalidPlanId;
    fn try_from(id: &String) -> Result<Self, Self::Error> {
        Self::new(id.clone())
    }
}

/// For every call that takes `impl Into<PlanId>`: the id by reference.
impl From<&PlanId> for PlanId {
    fn from(id: &PlanId) -> Self {
        id.clone()
    }
}

impl TryFrom<String> for PlanId {
    type Error = InvalidPlanId;
    fn try_from(id: String) -> Result<Self, Self::Error> {
        Self::new(id)
    }
}

/// Writes the id as a JSON string.
impl serde_core::Serialize for PlanId {
    fn serialize<S: serde_core::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// Reads a JSON string, checked like [`PlanId::new`].
impl<'de> serde_core::Deserialize<'de> for PlanId {
    fn deserialize<D: serde_core::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = <String as serde_core::Deserialize>::deserialize(d)?;
        Self::new(id).map_err(<D::Error as serde_core::de::Error>::custom)
    }
}

/// A string that cannot be a [`PlanId`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidPlanId(IdProblem);

impl fmt::Display for InvalidPlanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for InvalidPlanId {}

/// Carried into an [`Error`](crate::Error) by `?` (as
/// [`ErrorKind::Value`](crate::ErrorKind::Value)).
impl From<InvalidPlanId> for crate::error::Error {
    fn from(error: InvalidPlanId) -> Self {
        Self::of_value(&error)
    }
}

/// The id of an ACP session, as the agent assigned it in `session/new`.
///
/// The protocol puts no rule on its form, so any string is accepted.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SessionId(Cow<'static, str>);

impl SessionId {
    /// Wraps a session id.
    pub fn new(id: impl Into<Cow<'static, str>>) -> Self {
        Self(id.into())
    }

    /// The id.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Any borrowed text, copied (a `&'static str` through [`SessionId::new`]
/// is kept borrowed, with no copy).
impl From<&str> for SessionId {
    fn from(id: &str) -> Self {
        Self::new(id.to_owned())
    }
}

impl From<&String> for SessionId {
    fn from(id: &String) -> Self {
        Self::new(id.clone())
    }
}

impl From<String> for SessionId {
    fn from(id: String) -> Self {
        Self::new(id)
    }
}

impl From<Cow<'static, str>> for SessionId {
    fn from(id: Cow<'static, str>) -> Self {
        Self::new(id)
    }
}

/// For every call that takes `impl Into<SessionId>`: the id by reference.
impl From<&SessionId> for SessionId {
    fn from(id: &SessionId) -> Self {
        id.clone()
    }
}

/// The `uri` of a file plan: an absolute URI with a scheme, such as
/// `file:///tmp/plan.md`.
///
/// ```
/// use plan_core::wire::FileUri;
///
/// assert!(FileUri::new("file:///tmp/plan.md").is_ok());
/// let err = FileUri::new("/tmp/plan.md").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "a file plan's URI must be absolute, with a scheme, e.g. `file:///tmp/plan.md`"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileUri(Cow<'static, str>);

impl FileUri {
    /// Checks and wraps a URI.
    ///
    /// # Errors
    /// [`InvalidUri`] if `uri` has no scheme, is a Windows path, or contains
    /// white space or control characters.
    pub fn new(uri: impl Into<Cow<'static, str>>) -> Result<Self, InvalidUri> {
        let uri = uri.into();
        match rules::check_uri(&uri) {
            Ok(()) => Ok(Self(uri)),
            Err(problem) => Err(InvalidUri(problem)),
        }
    }

    /// Wraps a URI the caller has already checked (the macros check at compile time).
    pub(crate) const fn new_unchecked(uri: Cow<'static, str>) -> Self {
        Self(uri)
    }

    /// The URI.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for FileUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A string that cannot be a [`FileUri`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidUri(UriProblem);

impl fmt::Display for InvalidUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for InvalidUri {}

/// Carried into an [`Error`](crate::Error) by `?` (as
/// [`ErrorKind::Value`](crate::ErrorKind::Value)).
impl From<InvalidUri> for crate::error::Error {
    fn from(error: InvalidUri) -> Self {
        Self::of_value(&error)
    }
}

/// The `path` of a markdown plan: the absolute file-system path of the file
/// that holds the plan, so a client can open it. The stabilized protocol
/// (2026-11-20) requires it to be absolute; a POSIX path (`/home/dev/PLAN.md`)
/// or a Windows drive or UNC path (`C:\dev\PLAN.md`, `\\server\share\PLAN.md`).
///
/// ```
/// use plan_core::AbsolutePath;
///
/// assert_eq!(AbsolutePath::new("/home/dev/PLAN.md")?.as_str(), "/home/dev/PLAN.md");
/// let err = AbsolutePath::new("docs/PLAN.md").unwrap_err();
/// assert!(err.to_string().starts_with("a markdown plan's `path` must be absolute"));
/// # Ok::<(), plan_core::wire::InvalidPath>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsolutePath(Cow<'static, str>);

impl AbsolutePath {
    /// Checks and wraps a path.
    ///
    /// # Errors
    /// [`InvalidPath`] if `path` is empty, relative, or a URI.
    pub fn new(path: impl Into<Cow<'static, str>>) -> Result<Self, InvalidPath> {
        let path = path.into();
        match rules::check_absolute_path(&path) {
            Ok(()) => Ok(Self(path)),
            Err(problem) => Err(InvalidPath(problem)),
        }
    }

    /// Wraps a path the caller has already checked (the macros check at
    /// compile time), or one lenient reading let through.
    pub(crate) const fn new_unchecked(path: Cow<'static, str>) -> Self {
        Self(path)
    }

    /// The path.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AbsolutePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<&'static str> for AbsolutePath {
    type Error = InvalidPath;
    fn try_from(path: &'static str) -> Result<Self, Self::Error> {
        Self::new(path)
    }
}

impl TryFrom<String> for AbsolutePath {
    type Error = InvalidPath;
    fn try_from(path: String) -> Result<Self, Self::Error> {
        Self::new(path)
    }
}

/// A string that cannot be an [`AbsolutePath`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidPath(PathProblem);

impl fmt::Display for InvalidPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for InvalidPath {}

/// Carried into an [`Error`](crate::Error) by `?` (as
/// [`ErrorKind::Value`](crate::ErrorKind::Value)).
impl From<InvalidPath> for crate::error::Error {
    fn from(error: InvalidPath) -> Self {
        Self::of_value(&error)
    }
}
