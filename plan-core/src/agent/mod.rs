//! The agent's side: sending plans the client can read, plans as types, and
//! the sender's rules.

pub(crate) mod check;
pub(crate) mod fallback;
pub(crate) mod initialize;
pub(crate) mod run;
pub(crate) mod sender;
pub(crate) mod sessions;
pub(crate) mod static_stream;
pub(crate) mod static_update;
