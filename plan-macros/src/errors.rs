//! The collector that lets a macro report all its errors at once.

use proc_macro2::Span;

/// Errors collected across one macro call. It must be consumed with
/// [`finish`](Self::finish): dropping one that holds errors is a bug of ours
/// (the user would never see them), caught in debug builds and tests, as
/// `serde_derive`'s `Ctxt` does.
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
        if !self.finished && !self.errors.is_empty() && !std::thread::panicking() {
            debug_assert!(false, "errors were collected and never reported");
        }
    }
}
