//! The collector that lets a macro report all its errors at once.

use proc_macro2::Span;

/// Where a mistake was written: a token of the call, or a place in a file a
/// macro read (`include_plan!`). A file's mistakes are reported on the
/// macro's path argument, the place (`file:line:column: json.path: `)
/// leading the message, and in the file's order.
#[derive(Clone)]
pub(crate) struct Site {
    span: Span,
    /// The place in a file, as text, and its line and column.
    place: Option<(String, (usize, usize))>,
}

impl Site {
    /// A place in a file: `file:line:column: path: `, reported at `span`.
    pub(crate) fn in_file(span: Span, file: &str, line: usize, column: usize, path: &str) -> Self {
        let path = if path.is_empty() {
            String::new()
        } else {
            format!("{path}: ")
        };
        Self {
            span,
            place: Some((format!("{file}:{line}:{column}: {path}"), (line, column))),
        }
    }
}

impl From<Span> for Site {
    fn from(span: Span) -> Self {
        Self { span, place: None }
    }
}

impl From<&Site> for Site {
    fn from(site: &Site) -> Self {
        site.clone()
    }
}

/// Errors collected across one macro call. It must be consumed with
/// [`finish`](Self::finish), in every build: dropping one unfinished is a
/// bug of ours (errors it held would never reach the user), and it panics,
/// as `serde_derive`'s `Ctxt` does. A proc macro's panic is a compile error
/// naming the macro, so the bug cannot pass silently; the no-panic tests
/// (`test_support.rs`) drive every path that could reach it.
pub(crate) struct Errors {
    /// Each error with its place in a file (line, column), if it has one.
    errors: Vec<(Option<(usize, usize)>, syn::Error)>,
    finished: bool,
}

impl Errors {
    pub(crate) fn new(errors: Vec<syn::Error>) -> Self {
        Self {
            errors: errors.into_iter().map(|e| (None, e)).collect(),
            finished: false,
        }
    }

    /// Reports `message` where `site` says: a token, or a place in a file.
    pub(crate) fn at(&mut self, site: impl Into<Site>, message: impl std::fmt::Display) {
        let site = site.into();
        match site.place {
            None => self
                .errors
                .push((None, syn::Error::new(site.span, message))),
            Some((place, position)) => {
                let error = syn::Error::new(site.span, format_args!("{place}{message}"));
                self.errors.push((Some(position), error));
            }
        }
    }

    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push((None, error));
    }

    /// `value` if nothing was reported, else every error combined. A check
    /// that gives neither a value nor an error is a bug of ours, and says so.
    pub(crate) fn finish<T>(mut self, value: Option<T>) -> Result<T, syn::Error> {
        self.finished = true;
        let mut all = std::mem::take(&mut self.errors);
        // A file's mistakes in the file's order, whichever stage found them;
        // the sort is stable, so the rest keep the order they were found in.
        if all.iter().all(|(position, _)| position.is_some()) {
            all.sort_by_key(|(position, _)| *position);
        }
        let mut all = all.into_iter().map(|(_, error)| error);
        match (all.next(), value) {
            (None, Some(value)) => Ok(value),
            (first, _) => {
                let mut first = first.unwrap_or_else(|| {
                    debug_assert!(false, "a check gave no value and reported no error");
                    syn::Error::new(
                        Span::call_site(),
                        "plan-macros could not read this and gave no reason; please report it",
                    )
                });
                all.for_each(|e| first.combine(e));
                Err(first)
            }
        }
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        assert!(
            self.finished || std::thread::panicking(),
            "plan-macros: an error collector was dropped without `finish` ({} error(s) unreported); this is a bug of plan-macros, please report it",
            self.errors.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_collectors_drop_quietly() {
        let mut errors = Errors::new(Vec::new());
        errors.at(Span::call_site(), "a problem");
        assert!(errors.finish(Some(())).is_err());
        assert_eq!(Errors::new(Vec::new()).finish(Some(7)).ok(), Some(7));
    }

    #[test]
    #[should_panic(expected = "dropped without `finish`")]
    fn an_unfinished_collector_panics_in_every_build() {
        let _ = Errors::new(Vec::new());
    }
}
