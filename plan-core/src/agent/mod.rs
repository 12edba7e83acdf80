//! The agent's side: sending each client the plans it can read
//! ([`PlanSender`], [`SessionPlans`], with the [`Fallback`]s of the version
//! table), plans declared as types ([`PlanRun`] over a [`Steps`] type), the
//! messages the macros write at compile time ([`StaticUpdate`],
//! [`StaticStream`]), what a client said in `initialize`
//! ([`InitializeRequest`]), and the rules a sender keeps ([`Violation`]).

pub(crate) mod check;
pub(crate) mod fallback;
pub(crate) mod run;
pub(crate) mod sender;
pub(crate) mod sessions;
pub(crate) mod static_stream;
pub(crate) mod static_update;

pub use crate::codec::initialize::InitializeRequest;
pub use check::Violation;
pub use fallback::{Fallback, View};
pub use run::{PlanRun, Step, StepError, Steps};
pub use sender::PlanSender;
pub use sessions::SessionPlans;
pub use static_stream::StaticStream;
pub use static_update::StaticUpdate;
