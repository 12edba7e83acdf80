//! The collector that lets a macro report all its errors at once.

use proc_macro2::Span;

/// Errors collected across one macro call. It must be consumed with
/// [`finish`](Self::finish), in every build: dropping one unfinished is a
/// bug of ours (errors it held would never reach the user), and it panics,
/// as `serde_derive`'s `Ctxt` does. A proc macro's panic is a compile error
/// naming the macro, so the bug cannot pass silently; the no-panic tests
/// (`test_support.rs`) drive every path that could reach it.
pub(crate) struct Errors {
    errors: Vec<syn::Error>,
    finished: bool,
}

impl Errors {
    pub(crate) fn new(errors: Vec<syn::Error>) -> Self {
        Self {
            errors,
            finished: false,
        }
    }

    pub(crate) fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// `value` if nothing was reported, else every error combined. A check
    /// that gives neither a value nor an error is a bug of ours, and says so.
    pub(crate) fn finish<T>(mut self, value: Option<T>) -> Result<T, syn::Error> {
        self.finished = true;
        let mut all = std::mem::take(&mut self.errors).into_iter();
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
