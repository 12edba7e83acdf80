//! The command line: one command, four subcommands, the same flag meaning
//! the same thing in each (`--json`, `--protocol`, `--timeout`, `--prompt`,
//! `--expect-plans`, `--no-plan-capability`).
//!
//! Exit statuses, for CI: 0 clean, 1 findings (or invalid input lines, or
//! a model's tool call that cannot be read), 2 the agent could not be
//! driven, a file could not be read, or the command line is wrong.

use std::ffi::OsString;
use std::io::{self, IsTerminal as _, Read as _, Write as _};
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, Command};
use plan_core::fixtures::{ClientProfile, Scenario};
use plan_core::tools::Scope;
use plan_core::wire::{ProtocolVersion, Spelling};

use crate::check::{FileOptions, conformance};
use crate::model::ModelChoice;
use crate::{board, check, fixtures, model, tool};

/// What one command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `board`: drive an agent or read a stream, and draw its plans.
    Board(board::Options),
    /// `check FILE...`: judge recorded transcripts.
    CheckFiles {
        /// The files and how to judge them.
        options: FileOptions,
        /// A JSON report instead of lines.
        json: bool,
    },
    /// `check -- COMMAND`: judge an agent as every kind of client.
    CheckAgent(conformance::Options),
    /// `fixtures`: a scripted stream, or the boards it ends with.
    Fixtures(fixtures::Options),
    /// `tool`: what a model's plan tool call (on standard input) becomes.
    Tool(tool::Options),
    /// `model`: serve a scripted model until stopped.
    Model(model::ServeOptions),
}

const BOARD_EXAMPLES: &str = "\
Examples:
  acp-plan board --scripted-model -- claude-agent-acp       drive an agent on a scripted model, live
  acp-plan board --protocol 2 -- ./my-agent --acp           offer the v2 draft
  acp-plan board --json -- ./my-agent                       the final state as JSON
  acp-plan board recorded.ndjson                            read a recorded stream
  acp-plan board --strict < recorded.ndjson                 refuse what the SDKs would let through

Exit status: 0 done, 1 the input had invalid lines, 2 the agent could not be
driven or the input not read.";

const CHECK_EXAMPLES: &str = "\
Examples:
  acp-plan check --scripted-model --expect-plans -- codex-acp      check an agent in CI, no model key
  acp-plan check --cancel --json -- ./my-agent --acp               a cancelled turn too; JSON
  acp-plan check transcript.ndjson                                 judge a recorded transcript
  acp-plan check --protocol 1 recorded.ndjson                      as a v1 client reads it

With an agent's command after `--`, starts it once per kind of client (v1
without `plan`, v1 with `plan`, the v2 draft), runs a turn and judges what it
sends. A file is one JSON message, a JSON array, or NDJSON; each problem is
one line, FILE:LINE: at PATH: WHAT [RULE].

Exit status: 0 clean, 1 findings, 2 the agent could not be driven or a file
could not be read.";

const FIXTURES_EXAMPLES: &str = "\
Examples:
  acp-plan fixtures --seed 7 --plans 3 --steps 20 > stream.ndjson
  acp-plan fixtures --seed 7 --plans 3 --steps 20 --expected > expected.json

Feed stream.ndjson to your client line by line, then compare its state with
expected.json: one object per session with its live plans in order of
creation, each with `id`, `type`, `version`, `content`, `progress` for items
plans and `\"v1Plan\": true` for the v1 plan. The output is JSON either way.";

const MODEL_EXAMPLES: &str = "\
Examples:
  acp-plan model                       serve the built-in script; print how to point an agent at it
  acp-plan model --port 8787 plan.json a plan file's plans, on a port of your choosing

check and board start it themselves with --scripted-model.

Exit status: 2 when it cannot start (a script that cannot be used, a port
taken); otherwise it serves until stopped.";

const TOOL_EXAMPLES: &str = "\
Examples:
  echo '{\"todos\":[{\"content\":\"Fix the parser\",\"status\":\"in_progress\",\"activeForm\":\"Fixing the parser\"}]}' \\
    | acp-plan tool todo-write                          as a v1 client with `plan` receives it
  acp-plan tool update-plan --protocol 2 < call.json    as a v2 client receives it
  acp-plan tool todo-write --no-plan-capability < call.json   a v1 client without `plan`

Reads the arguments of one call (JSON) on standard input, as the model sent
them, leniently as plan_core::tools reads them: what was corrected goes to
standard error. Prints the session/update line the client would receive.

Exit status: 0 sent, 1 the call could not be read (the error the model would
get is on standard error, nothing on standard output), 2 a wrong command line
or unreadable input.";

fn json() -> Arg {
    Arg::new("json")
        .long("json")
        .action(ArgAction::SetTrue)
        .help("Write JSON on standard output instead of text")
}

fn protocol(help: &'static str) -> Arg {
    Arg::new("protocol")
        .long("protocol")
        .value_name("1|2")
        .value_parser(["1", "2"])
        .help(help)
}

fn timeout() -> Arg {
    Arg::new("timeout")
        .long("timeout")
        .value_name("SECONDS")
        .value_parser(seconds)
        .help("How long to wait for the agent (each message; a turn for check) [default: 60]")
}

fn prompt() -> Arg {
    Arg::new("prompt")
        .long("prompt")
        .value_name("TEXT")
        .help("The prompt of the turn")
}

fn expect_plans() -> Arg {
    Arg::new("expect-plans")
        .long("expect-plans")
        .action(ArgAction::SetTrue)
        .help("No plan message at all is a finding, not a note")
}

fn no_plan_capability() -> Arg {
    Arg::new("no-plan-capability")
        .long("no-plan-capability")
        .action(ArgAction::SetTrue)
        .help("Be a v1 client that does not send `clientCapabilities.plan`")
}

/// Recorded streams to read: positional, so a mistyped option is clap's
/// error (with its suggestion), never a file name or an agent.
fn files(help: &'static str) -> Arg {
    Arg::new("files")
        .value_name("FILE")
        .num_args(0..)
        .help(help)
}

/// The agent's command: only what follows `--`, its flags its own.
fn command_after_dashes() -> Arg {
    Arg::new("command")
        .value_name("COMMAND")
        .num_args(1..)
        .last(true)
        .allow_hyphen_values(true)
        .help("The agent to start, after `--`: its program and arguments")
}

fn auth() -> Arg {
    Arg::new("auth")
        .long("auth")
        .value_name("ID")
        .help("Authenticate with the agent's method ID before `session/new`")
}

fn scripted_model() -> Arg {
    Arg::new("scripted-model")
        .long("scripted-model")
        .value_name("SCRIPT")
        .num_args(0..=1)
        .default_missing_value("")
        .help("The agent's model is a script served on 127.0.0.1 (no key, no network): the built-in one, or SCRIPT, a plan file or a stream of plans")
}

fn model_command() -> Command {
    Command::new("model")
        .about("Serve a scripted model (Anthropic Messages and OpenAI Responses, streamed) on 127.0.0.1")
        .arg(
            Arg::new("port")
                .long("port")
                .value_name("N")
                .value_parser(clap::value_parser!(u16))
                .help("The port to listen on [default: any free one]"),
        )
        .arg(
            Arg::new("script")
                .value_name("SCRIPT")
                .help("A plan file (`include_plan!`) or a stream of plans (`include_plan_stream!`, `fixtures`) [default: the built-in script]"),
        )
        .after_help(MODEL_EXAMPLES)
}

/// `--scripted-model`'s choice: the built-in script, or a file's.
fn model_choice(m: &ArgMatches) -> Option<ModelChoice> {
    m.get_one::<String>("scripted-model").map(|script| {
        if script.is_empty() {
            ModelChoice::BuiltIn
        } else {
            ModelChoice::File(script.into())
        }
    })
}

fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("a positive number of seconds, not `{text}`"))
}

/// The whole command, with every subcommand's help.
pub fn command() -> Command {
    let count = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .value_name("N")
            .value_parser(clap::value_parser!(u64))
            .help(help)
    };
    Command::new("acp-plan")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Draw, check and generate the plans ACP agents show")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(board_command())
        .subcommand(check_command())
        .subcommand(fixtures_command(count))
        .subcommand(tool_command())
        .subcommand(model_command())
}

fn tool_command() -> Command {
    Command::new("tool")
        .about("Print what a model's plan tool call (arguments on stdin) sends a client")
        .arg(
            Arg::new("tool")
                .value_name("TOOL")
                .value_parser(["todo-write", "update-plan"])
                .required(true)
                .help("todo-write: Claude Code's TodoWrite; update-plan: codex's update_plan"),
        )
        .arg(json().help(
            "Write {notification, corrections} as JSON instead of the line; a call that cannot be read: {error, problems} on standard error",
        ))
        .arg(protocol(
            "1: the stable protocol, a client that sent `plan` [default]; 2: the v2 draft",
        ))
        .arg(no_plan_capability())
        .arg(
            Arg::new("session")
                .long("session")
                .value_name("ID")
                .help("The session id of the lines [default: sess_1]"),
        )
        .arg(
            Arg::new("scope")
                .long("scope")
                .value_name("main|plan-mode|subagent:ID")
                .help(
                    "Whose plan, which gives its id: plan, plan-mode, subagent-ID [default: main]",
                ),
        )
        .after_help(TOOL_EXAMPLES)
}

fn board_command() -> Command {
    Command::new("board")
        .about("Drive an agent (or read a recorded stream) and draw its plans")
        .arg(json())
        .arg(
            Arg::new("strict")
                .long("strict")
                .action(ArgAction::SetTrue)
                .help("Refuse what the published SDKs would let through (reading a file)"),
        )
        .arg(protocol(
            "The version to offer: 1, the stable protocol [default], or the v2 draft",
        ))
        .arg(no_plan_capability())
        .arg(prompt())
        .arg(timeout())
        .arg(auth())
        .arg(files(
            "A recorded stream to read (NDJSON; standard input when absent), or a program to start",
        ))
        .arg(scripted_model())
        .arg(command_after_dashes())
        .after_help(BOARD_EXAMPLES)
}

fn check_command() -> Command {
    Command::new("check")
                .about("Judge an agent's plans as every kind of client, or recorded transcripts")
                .arg(json())
                .arg(protocol(
                    "Files: also what that version's readers reject or drop (a file that records its `initialize` is judged for that client)",
                ))
                .arg(expect_plans())
                .arg(prompt())
                .arg(timeout())
                .arg(
                    Arg::new("cancel")
                        .long("cancel")
                        .action(ArgAction::SetTrue)
                        .help("An agent: also run a turn the client cancels"),
                )
                .arg(
                    Arg::new("record")
                        .long("record")
                        .value_name("DIR")
                        .help("An agent: write each kind's transcript to DIR/KIND.ndjson"),
                )
                .arg(scripted_model())
                .arg(auth())
                .arg(files("Recorded transcripts to judge (NDJSON)"))
                .arg(command_after_dashes())
                .group(
                    clap::ArgGroup::new("what")
                        .args(["files", "command"])
                        .required(true),
                )
                .after_help(CHECK_EXAMPLES)
}

fn fixtures_command(count: impl Fn(&'static str, &'static str) -> Arg) -> Command {
    Command::new("fixtures")
        .about("Print a scripted stream of plan notifications, or the boards it ends with")
        .arg(count("seed", "The script's seed [default: 0]"))
        .arg(count("sessions", "Sessions interleaved [default: 1]"))
        .arg(count(
            "plans",
            "Most plans live at once per session [default: 3]",
        ))
        .arg(count("steps", "Notifications [default: 20]"))
        .arg(protocol(
            "1: the stable protocol, a client that sent `plan` [default]; 2: the v2 draft",
        ))
        .arg(no_plan_capability())
        .arg(
            Arg::new("rfd")
                .long("rfd")
                .action(ArgAction::SetTrue)
                .conflicts_with("no-plan-capability")
                .help("v1: a client that advertised `planCapabilities` (the RFD spelling)"),
        )
        .arg(
            Arg::new("pre-stable-file")
                .long("pre-stable-file")
                .action(ArgAction::SetTrue)
                .help("A client on a pre-stable SDK: design documents as `file` plans"),
        )
        .arg(
            Arg::new("no-custom")
                .long("no-custom")
                .action(ArgAction::SetTrue)
                .help("No custom `_x` values or types"),
        )
        .arg(
            Arg::new("expected")
                .long("expected")
                .action(ArgAction::SetTrue)
                .help("Print the boards a correct client ends with, not the stream"),
        )
        .after_help(FIXTURES_EXAMPLES)
}

/// Parses a command line (the program's name first).
///
/// # Errors
/// clap's error: a mistake in the command line, or `--help`/`--version`
/// (which clap reports as errors that print to standard output).
pub fn parse<I, T>(args: I) -> Result<Request, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut cmd = command();
    let matches = cmd.try_get_matches_from_mut(&args)?;
    let Some((name, m)) = matches.subcommand() else {
        return Err(cmd.error(
            clap::error::ErrorKind::MissingSubcommand,
            "a subcommand: board, check, fixtures, tool or model",
        ));
    };
    // A mistake found below shows its own subcommand's usage.
    let Some(sub) = cmd.find_subcommand_mut(name) else {
        return Err(cmd.error(
            clap::error::ErrorKind::InvalidSubcommand,
            format!("no subcommand `{name}`"),
        ));
    };
    match name {
        "board" => board_options(m, sub).map(Request::Board),
        "check" => check_request(m, sub),
        "fixtures" => fixtures_request(m, sub),
        "tool" => tool_request(m, sub),
        _ => Ok(Request::Model(model::ServeOptions {
            port: m.get_one::<u16>("port").copied().unwrap_or(0),
            script: m
                .get_one::<String>("script")
                .map_or(ModelChoice::BuiltIn, |path| ModelChoice::File(path.into())),
        })),
    }
}

/// A mistake clap cannot see: two flags that do not go together.
fn invalid(cmd: &mut Command, message: String) -> clap::Error {
    cmd.error(clap::error::ErrorKind::ArgumentConflict, message)
}

fn board_options(m: &ArgMatches, cmd: &mut Command) -> Result<board::Options, clap::Error> {
    let mut options = board::Options {
        json: m.get_flag("json"),
        strict: m.get_flag("strict"),
        plan_capability: !m.get_flag("no-plan-capability"),
        auth: m.get_one::<String>("auth").cloned(),
        scripted_model: model_choice(m),
        ..board::Options::default()
    };
    if let Some(version) = version(m) {
        options.protocol = version;
    }
    if let Some(prompt) = m.get_one::<String>("prompt") {
        options.prompt.clone_from(prompt);
    }
    if let Some(timeout) = m.get_one::<Duration>("timeout") {
        options.timeout = *timeout;
    }
    let (files, command) = (strings(m, "files"), strings(m, "command"));
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
    if options.scripted_model.is_some() && options.command.is_empty() {
        return Err(invalid(
            cmd,
            "`--scripted-model` is for an agent: give its command after `--` (acp-plan board --scripted-model -- COMMAND)".to_owned(),
        ));
    }
    Ok(options)
}

fn check_request(m: &ArgMatches, cmd: &mut Command) -> Result<Request, clap::Error> {
    let (files, command) = (strings(m, "files"), strings(m, "command"));
    if !files.is_empty() && !command.is_empty() {
        return Err(invalid(
            cmd,
            "give transcripts to judge or an agent's command after `--`, not both".to_owned(),
        ));
    }
    if !command.is_empty() {
        if m.contains_id("protocol") && m.get_one::<String>("protocol").is_some() {
            return Err(invalid(
                cmd,
                "`--protocol` is for files: an agent is checked as every kind of client".to_owned(),
            ));
        }
        let mut options = conformance::Options {
            json: m.get_flag("json"),
            cancel: m.get_flag("cancel"),
            expect_plans: m.get_flag("expect-plans"),
            record: m.get_one::<String>("record").map(Into::into),
            command,
            scripted_model: model_choice(m),
            auth: m.get_one::<String>("auth").cloned(),
            ..conformance::Options::default()
        };
        if let Some(prompt) = m.get_one::<String>("prompt") {
            options.prompt.clone_from(prompt);
        }
        if let Some(timeout) = m.get_one::<Duration>("timeout") {
            options.timeout = *timeout;
        }
        return Ok(Request::CheckAgent(options));
    }
    for agent_only in [
        "cancel",
        "record",
        "prompt",
        "timeout",
        "scripted-model",
        "auth",
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
    Ok(Request::CheckFiles {
        options: FileOptions {
            protocol: version(m),
            expect_plans: m.get_flag("expect-plans"),
            paths: files,
        },
        json: m.get_flag("json"),
    })
}

fn fixtures_request(m: &ArgMatches, cmd: &mut Command) -> Result<Request, clap::Error> {
    let number = |name: &str| m.get_one::<u64>(name).copied();
    let count = |cmd: &mut Command, name: &str| {
        number(name)
            .map(|n| {
                usize::try_from(n).map_err(|_| invalid(cmd, format!("`--{name}` {n} is too large")))
            })
            .transpose()
    };
    let mut scenario = Scenario::new(number("seed").unwrap_or(0));
    if let Some(n) = count(cmd, "sessions")? {
        scenario = scenario.sessions(n);
    }
    if let Some(n) = count(cmd, "plans")? {
        scenario = scenario.plans(n);
    }
    if let Some(n) = count(cmd, "steps")? {
        scenario = scenario.steps(n);
    }
    let capability = if m.get_flag("no-plan-capability") {
        None
    } else if m.get_flag("rfd") {
        Some(Spelling::Rfd)
    } else {
        Some(Spelling::Acp)
    };
    let client = ClientProfile::of(version(m).unwrap_or(ProtocolVersion::V1))
        .plan_capability(capability)
        .pre_stable_file(m.get_flag("pre-stable-file"));
    Ok(Request::Fixtures(fixtures::Options {
        scenario: scenario
            .custom_values(!m.get_flag("no-custom"))
            .for_client(client),
        expected: m.get_flag("expected"),
    }))
}

fn tool_request(m: &ArgMatches, cmd: &mut Command) -> Result<Request, clap::Error> {
    let scope = match m.get_one::<String>("scope").map(String::as_str) {
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
    let mut options = tool::Options {
        tool: match m.get_one::<String>("tool").map(String::as_str) {
            Some("update-plan") => tool::Tool::UpdatePlan,
            _ => tool::Tool::TodoWrite,
        },
        protocol: version(m).unwrap_or(ProtocolVersion::V1),
        plan_capability: !m.get_flag("no-plan-capability"),
        scope,
        json: m.get_flag("json"),
        ..tool::Options::default()
    };
    if let Some(session) = m.get_one::<String>("session") {
        options.session.clone_from(session);
    }
    Ok(Request::Tool(options))
}

fn version(m: &ArgMatches) -> Option<ProtocolVersion> {
    m.get_one::<String>("protocol").map(|v| match v.as_str() {
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

/// Does what `request` asks on this process's standard streams; the exit status.
pub fn run(request: &Request) -> u8 {
    let broken_pipe = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    match request {
        Request::Board(options) => board::board(options),
        Request::CheckAgent(options) => {
            let progress = io::stderr().is_terminal();
            let options = conformance::Options {
                progress,
                ..options.clone()
            };
            match conformance::run(&options, &mut io::stdout().lock()) {
                Ok(code) => code,
                Err(e) if broken_pipe(&e) => 0,
                Err(e) => {
                    eprintln!("check: {e}");
                    2
                }
            }
        }
        Request::CheckFiles { options, json } => {
            let result =
                check::check_files(options, *json, &mut io::stdout().lock(), &mut io::stderr());
            match result {
                Ok(code) => code,
                Err(e) if broken_pipe(&e) => 0,
                Err(e) => {
                    eprintln!("check: {e}");
                    2
                }
            }
        }
        Request::Model(options) => model::serve(options),
        Request::Tool(options) => {
            let mut arguments = String::new();
            if let Err(e) = io::stdin().read_to_string(&mut arguments) {
                eprintln!("tool: cannot read the call's arguments on standard input: {e}");
                return 2;
            }
            // No input is no call: a wrong command line, not a model's mistake.
            if arguments.trim().is_empty() {
                eprintln!(
                    "tool: no call on standard input; give the arguments the model sent (JSON), e.g. `acp-plan tool todo-write < call.json`"
                );
                return 2;
            }
            match tool::run(
                options,
                &arguments,
                &mut io::stdout().lock(),
                &mut io::stderr(),
            ) {
                Ok(code) => code,
                Err(e) if broken_pipe(&e) => 0,
                Err(e) => {
                    eprintln!("tool: {e}");
                    2
                }
            }
        }
        Request::Fixtures(options) => match fixtures::write(options, io::stdout().lock()) {
            Ok(()) => 0,
            Err(e) if broken_pipe(&e) => 0,
            Err(e) => {
                eprintln!("fixtures: {e}");
                2
            }
        },
    }
}

/// The whole program: parses `args` (the program's name first), runs, and
/// returns the exit status. `--help` and `--version` print and return 0; a
/// mistake prints clap's message and returns 2.
pub fn main<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    match parse(args) {
        Ok(request) => run(&request),
        Err(e) => {
            let _ = e.print();
            let _ = io::stdout().flush();
            if e.use_stderr() { 2 } else { 0 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_line(args: &[&str]) -> Result<Request, clap::Error> {
        parse(std::iter::once("acp-plan").chain(args.iter().copied()))
    }

    fn board(args: &[&str]) -> board::Options {
        match parse_line(&[&["board"][..], args].concat()) {
            Ok(Request::Board(options)) => options,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn the_board_reads_a_file_and_starts_a_program_or_a_command() {
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        assert_eq!(board(&[data]).path.as_deref(), Some(data));
        // A program (an executable file) without `--` is started, not read.
        let exe = std::env::current_exe().unwrap();
        let exe = exe.to_str().unwrap();
        assert_eq!(board(&[exe]).command, [exe]);
        // An agent's flags follow `--`; before it they are ours.
        assert_eq!(
            board(&["--", "./agent", "--fast"]).command,
            ["./agent", "--fast"]
        );
        assert!(parse_line(&["board", "./agent", "--fast"]).is_err());
        assert!(parse_line(&["board", "a.ndjson", "b.ndjson"]).is_err());
        let after = board(&["--json", "--", "my-agent", "--help"]);
        assert!(after.json);
        assert_eq!(after.command, ["my-agent", "--help"]);
        let set = board(&[
            "--protocol",
            "2",
            "--no-plan-capability",
            "--prompt",
            "hi",
            "--timeout",
            "5",
            "--auth",
            "key",
            "--",
            "x",
        ]);
        assert_eq!(set.protocol, ProtocolVersion::V2);
        assert!(!set.plan_capability);
        assert_eq!((set.prompt.as_str(), set.timeout.as_secs()), ("hi", 5));
        assert_eq!(set.auth.as_deref(), Some("key"));
        assert_eq!(board(&[]), board::Options::default());
    }

    #[test]
    fn check_is_files_or_an_agent_after_the_dashes() {
        match parse_line(&["check", "--protocol", "2", "a.ndjson", "b.ndjson"]).unwrap() {
            Request::CheckFiles { options, json } => {
                assert_eq!(options.paths, ["a.ndjson", "b.ndjson"]);
                assert_eq!(options.protocol, Some(ProtocolVersion::V2));
                assert!(!json);
            }
            other => panic!("{other:?}"),
        }
        let agent = parse_line(&[
            "check",
            "--json",
            "--cancel",
            "--timeout",
            "2.5",
            "--record",
            "out",
            "--",
            "a",
            "--fast",
        ]);
        match agent.unwrap() {
            Request::CheckAgent(options) => {
                assert!(options.json && options.cancel);
                assert_eq!(options.timeout, Duration::from_millis(2500));
                assert_eq!(options.record, Some("out".into()));
                assert_eq!(options.command, ["a", "--fast"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_mistyped_option_is_claps_error_with_its_suggestion_never_the_agent() {
        for line in [
            &["check", "--tiemout", "5", "--", "codex-acp"][..],
            &["board", "--bogus", "x"],
            &["check", "--auth"],
        ] {
            let err = parse_line(line).unwrap_err();
            assert!(
                matches!(
                    err.kind(),
                    clap::error::ErrorKind::UnknownArgument
                        | clap::error::ErrorKind::InvalidValue
                        | clap::error::ErrorKind::NoEquals
                ),
                "{line:?}: {:?}: {err}",
                err.kind()
            );
        }
        let err = parse_line(&["check", "--tiemout", "5", "--", "codex-acp"]).unwrap_err();
        assert!(err.to_string().contains("--timeout"), "{err}");
        // Nothing to judge at all is clap's error too.
        assert!(parse_line(&["check"]).is_err());
        assert!(parse_line(&["check", "a.ndjson", "--", "agent"]).is_err());
    }

    #[test]
    fn fixtures_build_the_scenario_the_flags_say() {
        let Request::Fixtures(options) = parse_line(&[
            "fixtures",
            "--seed",
            "7",
            "--plans",
            "3",
            "--steps",
            "20",
            "--protocol",
            "2",
            "--expected",
        ])
        .unwrap() else {
            panic!("not fixtures")
        };
        assert!(options.expected);
        let v2 = Scenario::new(7)
            .plans(3)
            .steps(20)
            .for_client(ClientProfile::v2());
        assert_eq!(options.scenario, v2);
        let Request::Fixtures(rfd) = parse_line(&["fixtures", "--rfd"]).unwrap() else {
            panic!("not fixtures")
        };
        assert_eq!(rfd.scenario.spelling(), Spelling::Rfd);
        assert!(parse_line(&["fixtures", "--rfd", "--no-plan-capability"]).is_err());
    }
}
