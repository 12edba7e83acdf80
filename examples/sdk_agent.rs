//! An ACP agent written with the official Rust SDK's own agent API
//! (`agent-client-protocol` 5.0.0 to 5.2.x, its v1 API: the stable protocol), which
//! shows its plans with plan-core: declared with `plan!` and
//! `#[derive(Steps)]`, shaped for the client by a `SessionPlans` built from
//! the `initialize` the SDK hands the agent, and sent through the SDK's
//! connection as they are (plan-core's `acp` feature).
//!
//! ```text
//! cargo run -p acp-plan -- board -- cargo run -q --features sdk --example sdk_agent
//! ```
//!
//! The `sdk` feature of this package brings in the SDK and a `futures`
//! executor; the README's main command does not build them. The glue the
//! agent needs is plan-core's: `SessionPlans` (a sender per session, for
//! the session's life), `From` conversions of the SDK's session ids, and
//! plan-core's errors as the SDK's (`?` with no `map_err`).

use std::collections::HashSet;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::schema::{
    AgentCapabilities, CancelNotification, Implementation, InitializeRequest, InitializeResponse,
    NewSessionRequest, NewSessionResponse, PromptRequest, PromptResponse, SessionId, StopReason,
};
use agent_client_protocol::v1::{ConnectionTo, Responder};
use agent_client_protocol::{Agent, Client, ConnectTo, Stdio};
use plan_core::{
    PlanContent, Steps,
    agent::{PlanRun, SessionPlans},
    plan,
};

/// The agent's name, as `initialize` reports it.
pub const NAME: &str = "plan-core-sdk-agent";

/// What `--help` prints.
pub const USAGE: &str = "\
usage: cargo run --features sdk --example sdk_agent [-- [--fast]]
An ACP agent built on the official Rust SDK, on standard input and output.

  --fast       no pause between the steps of a turn
  -h, --help   this text
";

/// The release a prompt works through, declared as a type: the compiler
/// knows every step, and the turn can only name these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Steps)]
#[plan(id = "release")]
pub enum Release {
    /// Bump the version
    #[step(priority = high)]
    Bump,
    /// Build the artifacts
    #[step(priority = high)]
    Build,
    /// Publish the crates
    #[step(priority = medium)]
    Publish,
    /// Announce the release
    #[step(priority = low)]
    Announce,
}

/// The release notes: a markdown plan kept in a file, whose absolute path a
/// client may open.
fn notes(done: bool) -> PlanContent {
    if done {
        plan! { id: "notes", markdown: "# Release notes\n- [x] Summarize the changes", path: "/tmp/release-notes.md" }
    } else {
        plan! { id: "notes", markdown: "# Release notes\n- [ ] Summarize the changes", path: "/tmp/release-notes.md" }
    }
}

#[allow(dead_code)] // `main` is unused where a test includes this file.
fn main() -> ExitCode {
    let mut pause = Duration::from_millis(400);
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--fast" => pause = Duration::ZERO,
            "--help" | "-h" => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprint!("sdk_agent: unknown argument `{other}`\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    match futures::executor::block_on(serve(Stdio::new(), pause)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sdk_agent: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Serves one client over `transport` until it goes away, pausing `pause`
/// between the steps of a turn.
///
/// # Errors
/// What the SDK reports when the connection fails.
pub async fn serve(
    transport: impl ConnectTo<Agent> + 'static,
    pause: Duration,
) -> agent_client_protocol::Result<()> {
    // The plan state of this connection: what the client said in
    // `initialize`, and a sender for each session, for the session's life.
    let plans = SessionPlans::new();
    // The sessions this agent made, and those whose turn the client cancelled.
    let (known, cancelled) = (SessionSet::default(), SessionSet::default());
    let next_session = AtomicU64::new(1);
    Agent
        .v1()
        .name(NAME)
        .on_receive_request(
            {
                let plans = plans.clone();
                async move |initialize: InitializeRequest, responder, _connection| {
                    plans.initialize(&initialize);
                    responder.respond(
                        InitializeResponse::new(ProtocolVersion::V1)
                            .agent_capabilities(AgentCapabilities::new())
                            .agent_info(Implementation::new(NAME, env!("CARGO_PKG_VERSION"))),
                    )
                }
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            {
                let known = known.clone();
                async move |_new: NewSessionRequest, responder, _connection| {
                    let n = next_session.fetch_add(1, Ordering::Relaxed);
                    let session = SessionId::new(format!("sess_{n}"));
                    known.insert(&session);
                    responder.respond(NewSessionResponse::new(session))
                }
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_request(
            {
                let (plans, cancelled) = (plans.clone(), cancelled.clone());
                async move |prompt: PromptRequest, responder, connection: ConnectionTo<Client>| {
                    // A session this agent never made (a mistyped id): no turn.
                    if !known.contains(&prompt.session_id) {
                        let unknown = format!("unknown session `{}`", prompt.session_id);
                        return responder.respond_with_error(
                            agent_client_protocol::Error::invalid_params().data(unknown),
                        );
                    }
                    // The turn runs beside the dispatch loop, which stays free
                    // to receive the client's `session/cancel`.
                    let turn = turn(
                        plans.clone(),
                        cancelled.clone(),
                        prompt.session_id,
                        responder,
                        connection.clone(),
                        pause,
                    );
                    connection.spawn(turn)
                }
            },
            agent_client_protocol::on_receive_request!(),
        )
        .on_receive_notification(
            async move |cancel: CancelNotification, _connection| {
                cancelled.insert(&cancel.session_id);
                Ok(())
            },
            agent_client_protocol::on_receive_notification!(),
        )
        .connect_to(transport)
        .await
}

/// One prompt's work: the release, step by step, and its notes. A
/// `session/cancel` stops it between two steps; what is not done is
/// cancelled, and the prompt answers `cancelled`.
async fn turn(
    plans: SessionPlans,
    cancelled: SessionSet,
    session: SessionId,
    responder: Responder<PromptResponse>,
    connection: ConnectionTo<Client>,
    pause: Duration,
) -> agent_client_protocol::Result<()> {
    cancelled.remove(&session);
    let mut release = PlanRun::<Release>::new().one_at_a_time();
    // Each plan goes through the SDK's connection as it is: the sender made
    // the notification the client can read.
    let send = |plan: PlanContent| connection.send_notification(plans.update(&session, plan));
    send(release.content())?;
    send(notes(false))?;
    for step in [Release::Bump, Release::Build, Release::Publish] {
        sleep(pause).await;
        if cancelled.remove(&session) {
            release.abandon();
            send(release.content())?;
            return responder.respond(PromptResponse::new(StopReason::Cancelled));
        }
        release.begin(step)?;
        send(release.content())?;
        sleep(pause).await;
        release.finish(step)?;
        send(release.content())?;
    }
    // Not this time: `cancelled` in v2, and for a v1 client what the
    // sender's fallback makes of it.
    release.cancel(Release::Announce)?;
    send(release.content())?;
    send(notes(true))?;
    // The notes are done: dismissed. `remove` is `None` if they are gone already.
    if let Some(removed) = plans.remove(&session, notes(true).id()) {
        connection.send_notification(removed)?;
    }
    responder.respond(PromptResponse::new(StopReason::EndTurn))
}

/// A set of sessions the handlers share (those the agent made; those whose
/// turn the client cancelled).
#[derive(Clone, Default)]
struct SessionSet(Arc<Mutex<HashSet<SessionId>>>);

impl SessionSet {
    fn insert(&self, session: &SessionId) {
        self.lock().insert(session.clone());
    }

    /// Whether `session` was in the set (and forgets it).
    fn remove(&self, session: &SessionId) -> bool {
        self.lock().remove(session)
    }

    fn contains(&self, session: &SessionId) -> bool {
        self.lock().contains(session)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<SessionId>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Waits `pause` without blocking the executor: the SDK is runtime-neutral,
/// and so is this agent (a thread sleeps, then wakes the task).
async fn sleep(pause: Duration) {
    if pause.is_zero() {
        return;
    }
    let (done, wait) = futures::channel::oneshot::channel::<()>();
    std::thread::spawn(move || {
        std::thread::sleep(pause);
        let _ = done.send(());
    });
    let _ = wait.await;
}
