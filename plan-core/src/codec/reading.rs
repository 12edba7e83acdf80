//! Strict and lenient reading: the mode a reader runs in ([`Reading`]),
//! what lenient reading drops or lets through ([`Skipped`]), and the value it
//! gives with that list ([`Lenient`]).

use std::fmt;

use crate::error::Error;

/// Something lenient reading dropped instead of failing the message.
///
/// See [`Lenient`] for what lenient reading skips.
/// It is also how lenient reading reports a departure from the protocol that
/// it let through because the published SDKs read it (an empty plan id, a
/// file URI with a space): then [`kept`](Self::kept) is `true`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    path: String,
    reason: String,
    kept: bool,
}

impl Skipped {
    /// Where the value was, e.g. `params.update.plan.entries[0]`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong with it: the error strict reading would have reported.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// `true` if the value was kept as it came (the SDKs read it), `false`
    /// if it was dropped.
    pub fn kept(&self) -> bool {
        self.kept
    }
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if self.kept { "let through" } else { "skipped" };
        write!(f, "{verb} `{}`: {}", self.path, self.reason)
    }
}

/// The result of lenient reading: the value, and what was dropped to get it.
///
/// Strict reading (`from_json`) rejects a message with any malformed part.
/// Lenient reading (`from_json_lenient`) follows the hints the public ACP
/// schema gives SDKs and drops, instead of failing:
/// - a malformed entry inside `entries` (`x-deserialize-skip-invalid-items`);
/// - a `_meta` that is not an object or `null` (`x-deserialize-default-on-error`);
/// - a plan capability that is not an object or `null` (read as absent).
///
/// and keeps, reporting each as [`Skipped::kept`], what breaks a rule of
/// ours that the SDKs do not enforce on reading: an empty or blank plan id,
/// a file URI that is not an RFC 3986 URI.
///
/// Everything else (a missing plan id, `entries` that is not an array, a known
/// plan type without its fields) is an error in both modes.
#[derive(Debug, Clone, PartialEq)]
pub struct Lenient<T> {
    /// The value read.
    pub value: T,
    /// What was dropped, in message order. Empty when strict reading would
    /// have succeeded too.
    pub skipped: Vec<Skipped>,
}

/// Reading state: the mode and what lenient reading has dropped so far.
pub(crate) struct Reading {
    lenient: bool,
    skipped: Vec<Skipped>,
}

impl Reading {
    pub(crate) fn strict() -> Self {
        Self {
            lenient: false,
            skipped: Vec::new(),
        }
    }

    pub(crate) fn lenient() -> Self {
        Self {
            lenient: true,
            skipped: Vec::new(),
        }
    }

    /// In lenient mode, records `err` as skipped and returns `None`; in strict
    /// mode, returns the error.
    pub(crate) fn skip_or_fail<T>(&mut self, err: Error) -> Result<Option<T>, Error> {
        self.record(err, false)?;
        Ok(None)
    }

    /// In lenient mode, records `err` as let through (the value is kept);
    /// in strict mode, returns the error.
    pub(crate) fn let_through(&mut self, err: Error) -> Result<(), Error> {
        self.record(err, true)
    }

    fn record(&mut self, err: Error, kept: bool) -> Result<(), Error> {
        if self.lenient {
            let reason = err.kind().to_string();
            self.skipped.push(Skipped {
                path: err.path().to_owned(),
                reason,
                kept,
            });
            Ok(())
        } else {
            Err(err)
        }
    }

    pub(crate) fn into_skipped(self) -> Vec<Skipped> {
        self.skipped
    }
}
