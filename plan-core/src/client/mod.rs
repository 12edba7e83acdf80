//! The client's side: applying updates to boards, and drawing plans for
//! people.

pub(crate) mod board;
pub(crate) mod changes;
pub(crate) mod markdown;
pub(crate) mod render;
