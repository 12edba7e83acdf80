//! Guides to plan-core, one for each of its users. They hold no items: each
//! is a page of documentation whose examples run as tests.

#[doc = include_str!("docs/guide/agents.md")]
pub mod agents {}

#[doc = include_str!("docs/guide/clients.md")]
pub mod clients {}

#[doc = include_str!("docs/guide/testing.md")]
pub mod testing {}

#[doc = include_str!("docs/guide/sdk.md")]
pub mod sdk {}

#[doc = include_str!("docs/guide/wire.md")]
pub mod wire {}

#[cfg(feature = "tools")]
#[cfg_attr(docsrs, doc(cfg(feature = "tools")))]
#[doc = include_str!("docs/guide/models.md")]
pub mod models {}
