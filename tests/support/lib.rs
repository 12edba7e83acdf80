//! Shared helpers for the integration tests and examples (an unpublished crate).
