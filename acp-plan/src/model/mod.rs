//! A scripted model: a loopback HTTP server that stands in for a model API,
//! so that a real agent runs a whole turn offline, with no key, and makes
//! the plans of a script with its own plan tool.
//!
//! It speaks the APIs the agents people use call, as they call them
//! (`docs/ci.md` says how each agent is pointed at it):
//! - the Anthropic Messages API (`POST /v1/messages` or `/messages`, and
//!   `count_tokens`): Claude Code ([`anthropic`]);
//! - the OpenAI Responses API (`POST /v1/responses`, and `GET /v1/models`):
//!   codex, opencode ([`openai`]);
//! - the OpenAI Chat Completions API (`POST /v1/chat/completions`):
//!   qwen-code ([`chat`]);
//! - the Gemini API (`POST /v1beta/models/M:streamGenerateContent?alt=sse`
//!   and `:generateContent`): Gemini CLI ([`gemini`]).
//!
//! Each request is read into one form ([`request::Request`]) and answered by
//! one script ([`turn::decide`]), with the agent's own plan tool
//! ([`plan_tool`]): the next plan of the script, counted from the plan
//! calls already in the conversation since the user's prompt; after the
//! last, a short text that ends the turn. A request that offers no plan
//! tool (a title, a suggestion) gets a short text, or JSON where it asks
//! for JSON. The server binds 127.0.0.1 only, keeps no state between
//! requests but a [`Log`] of what it did (for `check`), and stops
//! when dropped.

pub(crate) mod anthropic;
mod api;
pub(crate) mod chat;
pub(crate) mod gemini;
pub(crate) mod log;
pub(crate) mod openai;
pub(crate) mod plan_tool;
pub(crate) mod point;
pub(crate) mod request;
mod route;
mod schema;
mod script;
mod server;
mod setup;
pub(crate) mod tasks;
pub(crate) mod turn;

pub(crate) use log::Log;
pub use point::ModelSetup;
pub use script::{Script, ScriptError};

mod choice;
mod serve;

pub use choice::ModelChoice;
pub use serve::{ModelOptions, serve};
