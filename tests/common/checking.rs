//! `check -- AGENT` run in-process: an agent given as a function, on a
//! thread behind OS pipes per kind of client (`tests/conformance.rs`,
//! `tests/check_cancel.rs`).

use std::io::{self, BufReader};
use std::sync::mpsc;
use std::time::Duration;

use acp_plan::CheckAgentOptions as Options;
use acp_plan::harness::{self as conformance, ClientRun};
use plan_core::wire::ClientKind;

/// Runs `agent` (reading the client's lines, writing its own) once per kind
/// of client, as `check -- AGENT` does with a process.
pub fn check_agent<A>(agent: A, options: &Options) -> Vec<ClientRun>
where
    A: Fn(BufReader<io::PipeReader>, io::PipeWriter) + Clone + Send + 'static,
{
    let options = options.clone();
    let (done, result) = mpsc::channel();
    std::thread::spawn(move || {
        let runs: Vec<ClientRun> = ClientKind::ALL
            .into_iter()
            .map(|kind| {
                let (agent_reads, to_agent) = io::pipe().unwrap();
                let (from_agent, agent_writes) = io::pipe().unwrap();
                let agent = agent.clone();
                std::thread::spawn(move || agent(BufReader::new(agent_reads), agent_writes));
                conformance::check_kind(kind, &options, BufReader::new(from_agent), to_agent)
            })
            .collect();
        let _ = done.send(runs);
    });
    result
        .recv_timeout(Duration::from_mins(2))
        .expect("the check ended in time")
}

/// Each kind's findings as rule names, `kind: rule`, sorted.
pub fn rules(runs: &[ClientRun]) -> Vec<String> {
    let mut found: Vec<String> = runs
        .iter()
        .flat_map(|run| {
            run.findings
                .iter()
                .map(|f| format!("{}: {}", conformance::kind_name(run.kind), f.rule))
        })
        .collect();
    found.sort();
    found
}
