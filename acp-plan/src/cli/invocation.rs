//! What a parsed command line asks for: each subcommand's options, from
//! clap's matches, and the mistakes clap cannot see (flags that do not go
//! together), reported with the subcommand's usage.

use std::time::Duration;

use clap::{ArgMatches, Command};
use plan_core::fixtures::{ClientProfile, Scenario};
use plan_core::tools::Scope;
use plan_core::wire::{ProtocolVersion, Spelling};

use super::grammar::id;
use crate::check::{CheckFilesOptions, conformance};
use crate::model::{ModelChoice, ModelSetup};
use crate::{board, fixtures, model, tool};

/// What one command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Invocation {
    /// `board`: drive an agent or read a stream, and draw its plans.
    Board(board::BoardOptions),
    /// `check FILE...`: judge recorded transcripts.
    CheckFiles(CheckFilesOptions),
    /// `check -- COMMAND`: judge an agent as every kind of client.
    CheckAgent(conformance::CheckAgentOptions),
    /// `fixtures`: a scripted stream, or the boards it ends with.
    Fixtures(fixtures::FixturesOptions),
    /// `tool`: what a model's plan tool call (on standard input) becomes.
    Tool(tool::ToolOptions),
    /// `model`: serve a scripted model until stopped.
    Model(model::ModelOptions),
    /// `proxy -- COMMAND`: stand between a client and the agent.
    Proxy(crate::proxy::ProxyOptions),
}

/// `model`'s options.
pub(super) fn model_request(m: &ArgMatches) -> Invocation {
    Invocation::Model(model::ModelOptions {
        port: m.get_one::<u16>(id::PORT).copied().unwrap_or(0),
        script: m
            .get_one::<String>(id::SCRIPT)
            .map_or(ModelChoice::BuiltIn, |path| ModelChoice::File(path.into())),
        plan_mode: m.get_flag(id::PLAN_MODE),
    })
}

/// `proxy`'s options.
pub(super) fn proxy_request(m: &ArgMatches) -> Invocation {
    Invocation::Proxy(crate::proxy::ProxyOptions {
        command: strings(m, id::COMMAND),
        plan_opt_in: !m.get_flag(id::NO_PLAN_OPT_IN),
    })
}

/// `--model-env`, `--model-file`, `--model-port` and `--allow-network`:
/// each `NAME=VALUE` split at its first `=`; they go with `--scripted-model`.
fn model_setup(m: &ArgMatches, cmd: &mut Command) -> Result<ModelSetup, clap::Error> {
    let pairs = |cmd: &mut Command, flag: &str| {
        strings(m, flag)
            .into_iter()
            .map(|pair| match pair.split_once('=') {
                Some((name, value)) if !name.is_empty() => Ok((name.to_owned(), value.to_owned())),
                _ => Err(invalid(
                    cmd,
                    format!("`--{flag} {pair}`: write NAME=VALUE (`--model-env MY_AGENT_URL={{url}}/v1`, `--model-file .my-agent/config.toml=ci/my-agent.toml`)"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let setup = ModelSetup {
        env: pairs(cmd, id::MODEL_ENV)?,
        files: pairs(cmd, id::MODEL_FILE)?
            .into_iter()
            .map(|(path, file)| (path.into(), file.into()))
            .collect(),
        port: m.get_one::<u16>(id::MODEL_PORT).copied(),
        allow_network: m.get_flag(id::ALLOW_NETWORK),
        plan_mode: false,
    };
    let given = setup != ModelSetup::default();
    if given && model_choice(m).is_none() {
        return Err(invalid(
            cmd,
            "`--model-env`, `--model-file`, `--model-port` and `--allow-network` point an agent at the scripted model: add `--scripted-model`".to_owned(),
        ));
    }
    Ok(setup)
}

/// `--scripted-model`'s choice: the built-in script, or a file's.
fn model_choice(m: &ArgMatches) -> Option<ModelChoice> {
    m.get_one::<String>(id::SCRIPTED_MODEL).map(|script| {
        if script.is_empty() {
            ModelChoice::BuiltIn
        } else {
            ModelChoice::File(script.into())
        }
    })
}

/// A mistake clap cannot see: two flags that do not go together.
fn invalid(cmd: &mut Command, message: String) -> clap::Error {
    cmd.error(clap::error::ErrorKind::ArgumentConflict, message)
}

pub(super) fn board_options(
    m: &ArgMatches,
    cmd: &mut Command,
) -> Result<board::BoardOptions, clap::Error> {
    let mut options = board::BoardOptions {
        json: m.get_flag(id::JSON),
        strict: m.get_flag(id::STRICT),
        plan_capability: !m.get_flag(id::NO_PLAN_CAPABILITY),
        auth: m.get_one::<String>(id::AUTH).cloned(),
        scripted_model: model_choice(m),
        plan_mode: m.get_flag(id::PLAN_MODE),
        model_setup: model_setup(m, cmd)?,
        ..board::BoardOptions::default()
    };
    if let Some(version) = version(m) {
        options.protocol = version;
    }
    if let Some(prompt) = m.get_one::<String>(id::PROMPT) {
        options.prompt.clone_from(prompt);
    }
    if let Some(timeout) = m.get_one::<Duration>(id::TIMEOUT) {
        options.timeout = *timeout;
    }
    let (files, command) = (strings(m, id::FILES), strings(m, id::COMMAND));
    match (files.as_slice(), command.is_empty()) {
        ([], _) => options.command = command,
        ([one], true) if is_program(one) => options.command = files,
        ([one], true) => options.path = Some(one.clone()),
        ([_], false) => {
            return Err(invalid(
                cmd,
                "give a FILE to read or an agent's command after `--`, not both".to_owned(),
            ));
        }
        _ => {
            return Err(invalid(
                cmd,
                format!(
                    "the board reads one FILE, not {}; to start an agent with arguments, give them after `--` (acp-plan board -- {})",
                    files.len(),
                    files.join(" ")
                ),
            ));
        }
    }
    for (set, flag) in [
        (options.scripted_model.is_some(), id::SCRIPTED_MODEL),
        (options.plan_mode, id::PLAN_MODE),
    ] {
        if set && options.command.is_empty() {
            return Err(invalid(
                cmd,
                format!(
                    "`--{flag}` is for an agent: give its command after `--` (acp-plan board --{flag} -- COMMAND)"
                ),
            ));
        }
    }
    Ok(options)
}

pub(super) fn check_request(m: &ArgMatches, cmd: &mut Command) -> Result<Invocation, clap::Error> {
    let (files, command) = (strings(m, id::FILES), strings(m, id::COMMAND));
    if !files.is_empty() && !command.is_empty() {
        return Err(invalid(
            cmd,
            "give transcripts to judge or an agent's command after `--`, not both".to_owned(),
        ));
    }
    if !command.is_empty() {
        if m.contains_id(id::PROTOCOL) && m.get_one::<String>(id::PROTOCOL).is_some() {
            return Err(invalid(
                cmd,
                "`--protocol` is for files: an agent is checked as every kind of client".to_owned(),
            ));
        }
        let mut options = conformance::CheckAgentOptions {
            json: m.get_flag(id::JSON),
            cancel: m.get_flag(id::CANCEL),
            expect_plans: m.get_flag(id::EXPECT_PLANS),
            record: m.get_one::<String>(id::RECORD).map(Into::into),
            summary: m.get_one::<String>(id::SUMMARY).map(Into::into),
            github_annotations: m.get_flag(id::GITHUB_ANNOTATIONS),
            command,
            scripted_model: model_choice(m),
            auth: m.get_one::<String>(id::AUTH).cloned(),
            plan_mode: m.get_flag(id::PLAN_MODE),
            model_setup: model_setup(m, cmd)?,
            ..conformance::CheckAgentOptions::default()
        };
        if let Some(prompt) = m.get_one::<String>(id::PROMPT) {
            options.prompt.clone_from(prompt);
        }
        if let Some(timeout) = m.get_one::<Duration>(id::TIMEOUT) {
            options.timeout = *timeout;
        }
        return Ok(Invocation::CheckAgent(options));
    }
    for agent_only in [
        id::CANCEL,
        id::RECORD,
        id::SUMMARY,
        id::GITHUB_ANNOTATIONS,
        id::PROMPT,
        id::TIMEOUT,
        id::SCRIPTED_MODEL,
        id::AUTH,
        id::PLAN_MODE,
        id::MODEL_ENV,
        id::MODEL_FILE,
        id::MODEL_PORT,
        id::ALLOW_NETWORK,
    ] {
        if m.value_source(agent_only) == Some(clap::parser::ValueSource::CommandLine) {
            return Err(invalid(
                cmd,
                format!(
                    "`--{agent_only}` is for checking an agent: give its command after `--` (acp-plan check [OPTIONS] -- COMMAND)"
                ),
            ));
        }
    }
    Ok(Invocation::CheckFiles(CheckFilesOptions {
        protocol: version(m),
        expect_plans: m.get_flag(id::EXPECT_PLANS),
        paths: files,
        json: m.get_flag(id::JSON),
    }))
}

pub(super) fn fixtures_request(
    m: &ArgMatches,
    cmd: &mut Command,
) -> Result<Invocation, clap::Error> {
    let number = |name: &str| m.get_one::<u64>(name).copied();
    let count = |cmd: &mut Command, name: &str| {
        number(name)
            .map(|n| {
                usize::try_from(n).map_err(|_| invalid(cmd, format!("`--{name}` {n} is too large")))
            })
            .transpose()
    };
    let mut scenario = Scenario::new(number(id::SEED).unwrap_or(0));
    if let Some(n) = count(cmd, id::SESSIONS)? {
        scenario = scenario.sessions(n);
    }
    if let Some(n) = count(cmd, id::PLANS)? {
        scenario = scenario.plans(n);
    }
    if let Some(n) = count(cmd, id::STEPS)? {
        scenario = scenario.steps(n);
    }
    let capability = if m.get_flag(id::NO_PLAN_CAPABILITY) {
        None
    } else if m.get_flag(id::RFD) {
        Some(Spelling::Rfd)
    } else {
        Some(Spelling::Acp)
    };
    let client = ClientProfile::of(version(m).unwrap_or(ProtocolVersion::V1))
        .plan_capability(capability)
        .pre_stable_file(m.get_flag(id::PRE_STABLE_FILE));
    Ok(Invocation::Fixtures(fixtures::FixturesOptions {
        scenario: scenario
            .custom_values(!m.get_flag(id::NO_CUSTOM))
            .for_client(client),
        expected: m.get_flag(id::EXPECTED),
    }))
}

pub(super) fn tool_request(m: &ArgMatches, cmd: &mut Command) -> Result<Invocation, clap::Error> {
    let scope = match m.get_one::<String>(id::SCOPE).map(String::as_str) {
        None | Some("main") => Scope::MAIN,
        Some("plan-mode") => Scope::PLAN_MODE,
        Some(other) => {
            let id = other.strip_prefix("subagent:").ok_or_else(|| {
                invalid(
                    cmd,
                    format!("`--scope {other}`: main, plan-mode or subagent:ID"),
                )
            })?;
            Scope::subagent(id)
                .map_err(|e| invalid(cmd, format!("`--scope {other}`: the subagent id: {e}")))?
        }
    };
    let mut options = tool::ToolOptions {
        // Required, and clap's parser gives no other value.
        tool: m
            .get_one::<tool::Tool>(id::TOOL)
            .copied()
            .unwrap_or(tool::Tool::TodoWrite),
        protocol: version(m).unwrap_or(ProtocolVersion::V1),
        plan_capability: !m.get_flag(id::NO_PLAN_CAPABILITY),
        scope,
        json: m.get_flag(id::JSON),
        ..tool::ToolOptions::default()
    };
    if let Some(session) = m.get_one::<String>(id::SESSION) {
        options.session.clone_from(session);
    }
    Ok(Invocation::Tool(options))
}

fn version(m: &ArgMatches) -> Option<ProtocolVersion> {
    m.get_one::<String>(id::PROTOCOL).map(|v| match v.as_str() {
        "2" => ProtocolVersion::V2,
        _ => ProtocolVersion::V1,
    })
}

fn strings(m: &ArgMatches, id: &str) -> Vec<String> {
    m.get_many::<String>(id)
        .map(|values| values.cloned().collect())
        .unwrap_or_default()
}

/// Whether `path` is a file this user may run (on Unix: a file with an
/// execute bit), which the board starts as an agent rather than reads.
fn is_program(path: &str) -> bool {
    let Ok(metadata) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        metadata.is_file()
            && std::path::Path::new(path)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("exe"))
    }
}
