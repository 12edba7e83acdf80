//! The protocol's types: what a plan message is, with no JSON code. Reading
//! and writing them is the codec's job (`crate::codec`).

pub(crate) mod capabilities;
pub(crate) mod content;
pub(crate) mod entry;
pub(crate) mod id;
pub(crate) mod meta;
pub(crate) mod names;
pub(crate) mod notification;
pub(crate) mod spelling;
pub(crate) mod update;
pub(crate) mod version;
