//! The match arms and impls both versions' conversions share (`v1.rs`,
//! `v2.rs`), as macros: their crate's v1 and v2 types have the same
//! variant and field names in distinct modules, which no generic function
//! can name. Each macro says what it writes; the logic is in the parent
//! module's functions and the versions' `stamp!`s.

/// One of their values, built by `$value` (its `_meta` unset), with its
/// `_meta` set from ours (`$meta`, an `Option<Meta>`) in place: their
/// builders' `.meta()` takes and returns the whole value, a move of over
/// 500 bytes for a notification and one per entry of a list.
///
/// Why a macro: each of their types has its own `meta` field, which no
/// generic function can name.
macro_rules! with_their_meta {
    ($value:expr, $meta:expr) => {{
        let mut value = $value;
        value.meta = their_meta($meta.as_ref());
        value
    }};
}

/// `TryFrom` both ways, owned and borrowed, between one of our types and
/// one of theirs, from the functions of the same name in the version's
/// `owned` and `borrowed` stamps (`$to_theirs`, `$to_ours`), which convert
/// a value at a path. Owned, the strings move across (an entry's text is
/// not copied); borrowed, each is copied once.
///
/// Why a macro: four impls of one shape for each of six type pairs; the
/// logic is in the named functions.
macro_rules! conversions {
    ($ours:ty, $theirs:ty, $to_theirs:ident, $to_ours:ident) => {
        impl TryFrom<$ours> for $theirs {
            type Error = ConversionError;
            fn try_from(value: $ours) -> Result<Self, ConversionError> {
                owned::$to_theirs(value, &Path::Root)
            }
        }

        impl TryFrom<$theirs> for $ours {
            type Error = ConversionError;
            fn try_from(value: $theirs) -> Result<Self, ConversionError> {
                owned::$to_ours(value, &Path::Root)
            }
        }

        impl TryFrom<&$ours> for $theirs {
            type Error = ConversionError;
            fn try_from(value: &$ours) -> Result<Self, ConversionError> {
                borrowed::$to_theirs(value, &Path::Root)
            }
        }

        impl TryFrom<&$theirs> for $ours {
            type Error = ConversionError;
            fn try_from(value: &$theirs) -> Result<Self, ConversionError> {
                borrowed::$to_ours(value, &Path::Root)
            }
        }
    };
}

/// The plan types both versions of their crate share (`items`, `markdown`,
/// and `file` in the SDK's pre-stable schema), from ours: `match` arms for
/// `$plan` at `$at`, the entries converted by `$entries`, a markdown path by
/// `$path` (`&str` to theirs), then the version's own arms.
///
/// Why a macro: the v1 and v2 crates have distinct types with the same
/// variant names, which no generic function can name; the arms are written
/// once here, for both.
macro_rules! their_plan {
    ($acp:ident, $plan:expr, $at:expr, $entries:expr, $path:expr, { $($rest:tt)* }) => {{
        let at: &Path<'_> = $at;
        match $plan {
            PlanContent::Items { id, entries, meta } => $acp::PlanUpdateContent::Items(
                with_their_meta!(
                    $acp::PlanItems::new(std::sync::Arc::<str>::from(id.as_str()), $entries(entries)?),
                    meta
                ),
            ),
            #[cfg(feature = "acp")]
            PlanContent::File { id, uri, meta } => $acp::PlanUpdateContent::File(
                with_their_meta!($acp::PlanFile::new(std::sync::Arc::<str>::from(id.as_str()), uri.as_str()), meta),
            ),
            #[cfg(not(feature = "acp"))]
            PlanContent::File { .. } => return Err(no_file(at)),
            PlanContent::Markdown { id, content, path, meta } => {
                let markdown = $acp::PlanMarkdown::new(std::sync::Arc::<str>::from(id.as_str()), their_text(content));
                #[cfg(not(feature = "acp"))]
                let markdown = markdown.path(path.as_ref().map(|path| $path(path.as_str())));
                #[cfg(feature = "acp")]
                if path.is_some() {
                    return Err(no_path(at));
                }
                $acp::PlanUpdateContent::Markdown(with_their_meta!(markdown, meta))
            }
            $($rest)*
        }
    }};
}

/// An entry of ours as theirs (`$entry`, taken apart by a pattern): the
/// priorities and statuses both versions have, then the version's own arms
/// for the rest (`$priority`, `$status`). Why a macro: as for `their_plan!`.
macro_rules! their_entry {
    ($acp:ident, $entry:expr, { $($priority:tt)* }, { $($status:tt)* }) => {{
        let PlanEntry { content, priority, status, meta } = $entry;
        let priority = match priority {
            Priority::High => $acp::PlanEntryPriority::High,
            Priority::Medium => $acp::PlanEntryPriority::Medium,
            Priority::Low => $acp::PlanEntryPriority::Low,
            $($priority)*
        };
        let status = match status {
            Status::Pending => $acp::PlanEntryStatus::Pending,
            Status::InProgress => $acp::PlanEntryStatus::InProgress,
            Status::Completed => $acp::PlanEntryStatus::Completed,
            $($status)*
        };
        with_their_meta!($acp::PlanEntry::new(their_text(content), priority, status), meta)
    }};
}

/// The same, to ours: the version's own arms (`$priority`, `$status`)
/// before the last, which refuses a value their crate added since.
macro_rules! our_entry {
    ($acp:ident, $entry:expr, $at:expr, { $($priority:tt)* }, { $($status:tt)* }) => {{
        let at: &Path<'_> = $at;
        let $acp::PlanEntry { content, priority, status, meta, .. } = $entry;
        let priority = match priority {
            $acp::PlanEntryPriority::High => Priority::High,
            $acp::PlanEntryPriority::Medium => Priority::Medium,
            $acp::PlanEntryPriority::Low => Priority::Low,
            $($priority)*
            other => {
                return Err(unknown(&at.key(crate::rules::KEY_PRIORITY), "priority", &other));
            }
        };
        let status = match status {
            $acp::PlanEntryStatus::Pending => Status::Pending,
            $acp::PlanEntryStatus::InProgress => Status::InProgress,
            $acp::PlanEntryStatus::Completed => Status::Completed,
            $($status)*
            other => return Err(unknown(&at.key(crate::rules::KEY_STATUS), "status", &other)),
        };
        Ok(PlanEntry {
            content: our_text(content),
            priority,
            status,
            meta: our_meta(meta),
        })
    }};
}

/// The same plan types, to ours, then the version's own arms.
macro_rules! our_plan {
    ($acp:ident, $plan:expr, $at:expr, $entries:expr, { $($rest:tt)* }) => {{
        let at: &Path<'_> = $at;
        let id_at = at.key(Spelling::Acp.plan_id_key());
        match $plan {
            $acp::PlanUpdateContent::Items($acp::PlanItems { plan_id, entries, meta, .. }) => PlanContent::Items {
                id: our_plan_id(&plan_id.0, &id_at)?,
                entries: $entries(entries, &at.key(crate::rules::KEY_ENTRIES))?,
                meta: our_meta(meta),
            },
            #[cfg(feature = "acp")]
            $acp::PlanUpdateContent::File($acp::PlanFile { plan_id, uri, meta, .. }) => PlanContent::File {
                id: our_plan_id(&plan_id.0, &id_at)?,
                uri: our_uri(&uri, &at.key(crate::rules::KEY_URI))?,
                meta: our_meta(meta),
            },
            $acp::PlanUpdateContent::Markdown(markdown) => {
                // The SDK's pre-stable schema has no `path`: there is none to read.
                #[cfg(feature = "acp")]
                let path = None;
                #[cfg(not(feature = "acp"))]
                let path = our_path(markdown.path.as_ref().map(AsRef::as_ref), at)?;
                let $acp::PlanMarkdown { plan_id, content, meta, .. } = markdown;
                PlanContent::Markdown {
                    id: our_plan_id(&plan_id.0, &id_at)?,
                    path,
                    content: our_text(content),
                    meta: our_meta(meta),
                }
            }
            $($rest)*
        }
    }};
}

/// The plan updates both versions share (`plan_update`, `plan_removed`),
/// from ours: `match` arms for `$update` at `$at`, the plan converted by
/// `$content`, then the version's own arms. Why a macro: as for
/// `their_plan!`.
macro_rules! their_update {
    ($acp:ident, $update:expr, $at:expr, $content:expr, { $($rest:tt)* }) => {{
        let at: &Path<'_> = $at;
        match $update {
            SessionUpdate::PlanUpdate { plan, meta } => $acp::SessionUpdate::PlanUpdate(
                with_their_meta!($acp::PlanUpdate::new($content(plan, &at.key(crate::rules::KEY_PLAN))?), meta),
            ),
            SessionUpdate::PlanRemoved { id, meta } => $acp::SessionUpdate::PlanRemoved(
                with_their_meta!($acp::PlanRemoved::new(std::sync::Arc::<str>::from(id.as_str())), meta),
            ),
            $($rest)*
        }
    }};
}

/// The same updates, to ours, then the version's own arms.
macro_rules! our_update {
    ($acp:ident, $update:expr, $at:expr, $content:expr, { $($rest:tt)* }) => {{
        let at: &Path<'_> = $at;
        match $update {
            $acp::SessionUpdate::PlanUpdate($acp::PlanUpdate { plan, meta, .. }) => SessionUpdate::PlanUpdate {
                plan: $content(plan, &at.key(crate::rules::KEY_PLAN))?,
                meta: our_meta(meta),
            },
            $acp::SessionUpdate::PlanRemoved($acp::PlanRemoved { plan_id, meta, .. }) => SessionUpdate::PlanRemoved {
                id: our_plan_id(&plan_id.0, &at.key(Spelling::Acp.plan_id_key()))?,
                meta: our_meta(meta),
            },
            $($rest)*
        }
    }};
}

/// A `session/update` notification of either version (`$notification`,
/// their type), both ways, its update converted by `$to_theirs` and
/// `$to_ours`: the functions `$theirs` and `$ours`.
macro_rules! notifications {
    ($notification:path, [$($by:tt)?], $theirs:ident, $to_theirs:ident, $ours:ident, $to_ours:ident) => {
        pub(super) fn $theirs(n: $($by)? SessionNotification, _: &Path<'_>) -> Result<$notification, ConversionError> {
            let SessionNotification {
                session_id,
                update,
                meta,
            } = n;
            let update = in_params(|at| $to_theirs(update, at))?;
            Ok(with_their_meta!(
                <$notification>::new(std::sync::Arc::<str>::from(session_id.as_str()), update),
                meta
            ))
        }

        pub(super) fn $ours(n: $($by)? $notification, _: &Path<'_>) -> Result<SessionNotification, ConversionError> {
            let $notification { session_id, update, meta, .. } = n;
            Ok(SessionNotification {
                session_id: crate::protocol::id::SessionId::new(session_id.0.to_string()),
                update: in_params(|at| $to_ours(update, at))?,
                meta: our_meta(meta),
            })
        }
    };
}

/// The two stamps of a version's `stamp!` (defined in its file before
/// this is called): `owned`, whose conversions take a value whole (each
/// text moves across), and `borrowed`, whose conversions copy each text.
macro_rules! stamps {
    () => {
        /// The conversions of a value taken whole: each text moves across.
        mod owned {
            #[allow(
                clippy::wildcard_imports,
                reason = "a stamp sees what its file sees, which differs by feature"
            )]
            use super::*;
            stamp!();
        }

        /// The conversions of a borrowed value: each text is copied.
        mod borrowed {
            #[allow(
                clippy::wildcard_imports,
                reason = "a stamp sees what its file sees, which differs by feature"
            )]
            use super::*;
            stamp!(&);
        }
    };
}
