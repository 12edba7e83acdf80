//! Interop with other crates, each behind its feature: the official SDK
//! (`acp`), the published schema crate (`acp-schema`), JSON Schema
//! (`schemars`).

#[cfg(feature = "acp")]
pub mod acp;
#[cfg(feature = "acp-schema")]
pub mod acp_schema;
#[cfg(feature = "schemars")]
mod schema;
