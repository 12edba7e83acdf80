//! Guides to plan-core, one for each of its users. They hold no items: each
//! is a page of documentation. Their examples are whole programs a reader
//! can paste; they run as the harness's doc tests (`tests/common/lib.rs`),
//! with every feature they use, not as this crate's (whose default build
//! lacks those features).

// Whole programs, `fn main` included, so a reader pastes them as they are.
#![allow(clippy::needless_doctest_main)]

#[cfg_attr(not(doctest), doc = include_str!("docs/guide/agents.md"))]
pub mod agents {}

#[cfg_attr(not(doctest), doc = include_str!("docs/guide/clients.md"))]
pub mod clients {}

#[cfg_attr(not(doctest), doc = include_str!("docs/guide/testing.md"))]
pub mod testing {}

#[cfg_attr(not(doctest), doc = include_str!("docs/guide/sdk.md"))]
pub mod sdk {}

#[cfg_attr(not(doctest), doc = include_str!("docs/guide/wire.md"))]
pub mod wire {}

#[cfg(feature = "tools")]
#[cfg_attr(docsrs, doc(cfg(feature = "tools")))]
#[cfg_attr(not(doctest), doc = include_str!("docs/guide/models.md"))]
pub mod models {}
