//! The check's run: the agent started once per kind of client (each with
//! its own process and, with `--scripted-model`, its own model), the three
//! at once, each conversation driven and judged, then the report.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use plan_core::client::SessionBoards;
use plan_core::wire::{ClientKind, Strictness};
use serde_json::Value;

use super::client_run::{ClientRun, exit_code};
use super::conversation::Conversation;
use super::options::CheckAgentOptions;
use super::report::finish;
use super::{driven, left_holding, mapping, plan_mode, session, turns};
use crate::check::rule;
use crate::model::ModelChoice;
use crate::process::connection::{AgentLink, Pending};
use crate::process::{AgentProcess, Stderr};

/// Runs the whole check: `options.command` started once per kind, each
/// kind with its own agent process and (with `--scripted-model`) its own
/// model, the three at once (one after the other where `--model-port`
/// fixes the model's port). Writes the report to standard output and the
/// transcripts to `options.record`.
///
/// An error writing the report or a transcript is said on standard error
/// (2); a reader that closed the output early ends it quietly (0).
pub fn check_agent(options: &CheckAgentOptions) -> u8 {
    crate::process::exit_status("check", report_agent(options, &mut io::stdout().lock()))
}

/// [`check_agent`], with the report written to `out`.
///
/// # Errors
/// Only an error writing the report or a transcript.
pub fn report_agent(options: &CheckAgentOptions, out: &mut impl Write) -> io::Result<u8> {
    // A script that cannot be used is the command line's mistake, said once.
    if let Some(Err(e)) = options.scripted_model.as_ref().map(ModelChoice::script) {
        eprintln!("check: scripted model: {e}");
        return Ok(2);
    }
    let runs: Vec<ClientRun> = if options.model_setup.port.is_some() {
        ClientKind::ALL
            .iter()
            .map(|&kind| check_one_kind(kind, options))
            .collect()
    } else {
        std::thread::scope(|scope| {
            let started: Vec<_> = ClientKind::ALL
                .iter()
                .map(|&kind| (kind, scope.spawn(move || check_one_kind(kind, options))))
                .collect();
            started
                .into_iter()
                .map(|(kind, run)| {
                    run.join().unwrap_or_else(|_| {
                        ClientRun::failed(
                            kind,
                            "the check of this kind of client panicked".to_owned(),
                        )
                    })
                })
                .collect()
        })
    };
    finish(options, &runs, out)?;
    Ok(exit_code(&runs))
}

/// One kind of client: its model (with `--scripted-model`), its agent
/// process, the conversation, and what the model's log says of it.
fn check_one_kind(kind: ClientKind, options: &CheckAgentOptions) -> ClientRun {
    let began = Instant::now();
    let model = options
        .scripted_model
        .as_ref()
        .map(|choice| choice.start(&options.command, &options.setup()))
        .transpose();
    let mut run = match (model, options.command.split_first()) {
        (Err(e), _) => ClientRun::failed(kind, e),
        (Ok(_), None) => ClientRun::failed(kind, "no agent command to start".to_owned()),
        (Ok(model), Some((program, args))) => {
            let env = model
                .as_ref()
                .map_or(&[][..], |(_, pointing)| &pointing.env[..]);
            match AgentProcess::start(program, args, env, Stderr::Keep) {
                Err(e) => ClientRun::failed(kind, format!("cannot start `{program}`: {e}")),
                Ok((agent, input, output)) => {
                    let hold = |on: bool| {
                        if let Some((model, _)) = &model {
                            model.hold(on);
                        }
                    };
                    let mut run = run_kind_holding(
                        kind,
                        options,
                        io::BufReader::new(output),
                        input,
                        Some(&hold),
                    );
                    if let Some((model, pointing)) = &model
                        && run.failure.is_none()
                    {
                        let log = model.take_log();
                        match driven::not_driven(&run, &log, &pointing.env) {
                            Some(reason) => {
                                // Not judged, so nothing is found there.
                                run.findings.clear();
                                run.failure = Some(reason);
                            }
                            None => {
                                mapping::judge_mapping(&mut run, &log);
                                plan_mode::judge_plan_mode(&mut run, &log);
                            }
                        }
                    }
                    // Its own words on the way out, where it could not be driven.
                    if run.failure.is_some() {
                        std::thread::sleep(Duration::from_millis(100));
                        run.stderr_tail = agent.stderr_tail();
                    }
                    agent.end(Duration::from_millis(500));
                    run
                }
            }
        }
    };
    run.elapsed = began.elapsed();
    run
}

/// Drives one kind of client over `agent_out`/`agent_in` and judges what
/// the agent writes.
pub fn run_kind<R: BufRead + Send + 'static, W: Write>(
    kind: ClientKind,
    options: &CheckAgentOptions,
    agent_out: R,
    agent_in: W,
) -> ClientRun {
    run_kind_holding(kind, options, agent_out, agent_in, None)
}

/// [`run_kind`], with `hold` called `true` as the turn the client cancels
/// starts and `false` once the cancel is sent (the scripted model holds
/// its answers in between, so the cancel lands mid-turn).
fn run_kind_holding<R: BufRead + Send + 'static, W: Write>(
    kind: ClientKind,
    options: &CheckAgentOptions,
    agent_out: R,
    agent_in: W,
    hold: Option<&dyn Fn(bool)>,
) -> ClientRun {
    let mut talk = Conversation {
        hold,
        options,
        link: AgentLink::new(agent_out, agent_in, Strictness::Lenient, options.plan_mode)
            .recording(),
        run: ClientRun::failed(kind, String::new()),
        boards: SessionBoards::new(),
        auth_methods: Value::Null,
        progress: false,
    };
    talk.run.failure = None;
    if let Err(reason) = session::drive(&mut talk) {
        talk.run.failure = Some(reason);
    }
    talk.plans_seen();
    talk.run.transcript = talk.link.take_transcript();
    let pending = talk.link.take_pending();
    if talk.run.failure.is_some() {
        // Not driven: nothing is judged there, so nothing is found either
        // (what such a run saw depends on when the agent went away).
        talk.run.findings.clear();
        return talk.run;
    }
    left_holding::judge_left_holding(&mut talk.run);
    for (id, Pending { method, line }) in pending {
        if method == turns::CANCEL_PROBE {
            // Ours, not the protocol's: never answered is a note.
            talk.run.notes.push(format!(
                "the request sent right after `session/cancel` (`{method}`, id {id}) was never answered (JSON-RPC answers every request; ACP answers an unknown `_` method with \"Method not found\")"
            ));
            continue;
        }
        let message = format!(
            "the client's `{method}` request (id {id}) was never answered; every JSON-RPC request gets a response"
        );
        talk.find(rule::UNANSWERED, line, String::new(), message, None);
    }
    talk.run
}
