//! The command's shape: every subcommand's arguments and their help (the
//! examples after it are `help.rs`'s). The same flag means the same thing in each.

use std::time::Duration;

use clap::{Arg, ArgAction, Command};

use super::help::{
    BOARD_EXAMPLES, CHECK_EXAMPLES, FIXTURES_EXAMPLES, MODEL_EXAMPLES, PROXY_EXAMPLES,
    TOOL_EXAMPLES,
};

/// Every argument's id, once: the grammar declares them, the requests read
/// them. An id is also the option's long name (`--expect-plans`).
pub(super) mod id {
    pub(in crate::cli) const ALLOW_NETWORK: &str = "allow-network";
    pub(in crate::cli) const AUTH: &str = "auth";
    pub(in crate::cli) const CANCEL: &str = "cancel";
    pub(in crate::cli) const COMMAND: &str = "command";
    pub(in crate::cli) const EXPECT_PLANS: &str = "expect-plans";
    pub(in crate::cli) const EXPECTED: &str = "expected";
    pub(in crate::cli) const FILES: &str = "files";
    pub(in crate::cli) const JSON: &str = "json";
    pub(in crate::cli) const MODEL_ENV: &str = "model-env";
    pub(in crate::cli) const MODEL_FILE: &str = "model-file";
    pub(in crate::cli) const MODEL_PORT: &str = "model-port";
    pub(in crate::cli) const NO_CUSTOM: &str = "no-custom";
    pub(in crate::cli) const NO_PLAN_CAPABILITY: &str = "no-plan-capability";
    pub(in crate::cli) const NO_PLAN_OPT_IN: &str = "no-plan-opt-in";
    pub(in crate::cli) const PLAN_MODE: &str = "plan-mode";
    pub(in crate::cli) const PORT: &str = "port";
    pub(in crate::cli) const PRE_STABLE_FILE: &str = "pre-stable-file";
    pub(in crate::cli) const PROMPT: &str = "prompt";
    pub(in crate::cli) const PROTOCOL: &str = "protocol";
    pub(in crate::cli) const RECORD: &str = "record";
    pub(in crate::cli) const SUMMARY: &str = "summary";
    pub(in crate::cli) const GITHUB_ANNOTATIONS: &str = "github-annotations";
    pub(in crate::cli) const RFD: &str = "rfd";
    pub(in crate::cli) const SCOPE: &str = "scope";
    pub(in crate::cli) const SCRIPT: &str = "script";
    pub(in crate::cli) const SCRIPTED_MODEL: &str = "scripted-model";
    pub(in crate::cli) const SESSION: &str = "session";
    pub(in crate::cli) const STRICT: &str = "strict";
    pub(in crate::cli) const TIMEOUT: &str = "timeout";
    pub(in crate::cli) const TOOL: &str = "tool";
    pub(in crate::cli) const SEED: &str = "seed";
    pub(in crate::cli) const SESSIONS: &str = "sessions";
    pub(in crate::cli) const PLANS: &str = "plans";
    pub(in crate::cli) const STEPS: &str = "steps";
}

fn json() -> Arg {
    Arg::new(id::JSON)
        .long(id::JSON)
        .action(ArgAction::SetTrue)
        .help("Write JSON on standard output instead of text")
}

fn protocol(help: &'static str) -> Arg {
    Arg::new(id::PROTOCOL)
        .long(id::PROTOCOL)
        .value_name("1|2")
        .value_parser(["1", "2"])
        .help(help)
}

/// `--timeout`, its help saying what it bounds for `what` (`each
/// message`, `each answer and each turn`).
fn timeout(what: &str) -> Arg {
    Arg::new(id::TIMEOUT)
        .long(id::TIMEOUT)
        .value_name("SECONDS")
        .value_parser(seconds)
        .help(format!(
            "How long to wait for the agent: {what} [default: {}]",
            // The one source of the default: the options' own.
            crate::board::BoardOptions::default().timeout.as_secs_f32()
        ))
}

fn prompt() -> Arg {
    Arg::new(id::PROMPT)
        .long(id::PROMPT)
        .value_name("TEXT")
        .help("The prompt of the turn")
}

fn expect_plans() -> Arg {
    Arg::new(id::EXPECT_PLANS)
        .long(id::EXPECT_PLANS)
        .action(ArgAction::SetTrue)
        .help("No plan message at all is a finding, not a note")
}

fn plan_mode(help: &'static str) -> Arg {
    Arg::new(id::PLAN_MODE)
        .long(id::PLAN_MODE)
        .action(ArgAction::SetTrue)
        .help(help)
}

fn no_plan_capability() -> Arg {
    Arg::new(id::NO_PLAN_CAPABILITY)
        .long(id::NO_PLAN_CAPABILITY)
        .action(ArgAction::SetTrue)
        .help("Be a v1 client that does not send `clientCapabilities.plan`")
}

/// Recorded streams to read: positional, so a mistyped option is clap's
/// error (with its suggestion), never a file name or an agent.
fn files(help: &'static str) -> Arg {
    Arg::new(id::FILES)
        .value_name("FILE")
        .num_args(0..)
        .help(help)
}

/// The agent's command: only what follows `--`, its flags its own.
fn command_after_dashes() -> Arg {
    Arg::new(id::COMMAND)
        .value_name("COMMAND")
        .num_args(1..)
        .last(true)
        .allow_hyphen_values(true)
        .help("The agent to start, after `--`: its program and arguments")
}

fn auth() -> Arg {
    Arg::new(id::AUTH)
        .long(id::AUTH)
        .value_name("ID")
        .help("Authenticate with the agent's method ID before `session/new`")
}

fn scripted_model() -> Arg {
    Arg::new(id::SCRIPTED_MODEL)
        .long(id::SCRIPTED_MODEL)
        .value_name("SCRIPT")
        .num_args(0..=1)
        .default_missing_value("")
        .help("The agent's model is a script served on 127.0.0.1 (no key, no network): the built-in one, or SCRIPT, a plan file or a stream of plans")
}

/// The options that point an agent at the scripted model beyond its
/// profile, for `check` and `board` alike (docs/ci.md, "An agent we have
/// no profile for").
fn model_setup(cmd: Command) -> Command {
    cmd.arg(
        Arg::new(id::MODEL_ENV)
            .long(id::MODEL_ENV)
            .value_name("NAME=VALUE")
            .action(ArgAction::Append)
            .help("With --scripted-model: set NAME for the agent; VALUE may hold {url} (http://127.0.0.1:PORT), {port}, {key}, {model}"),
    )
    .arg(
        Arg::new(id::MODEL_FILE)
            .long(id::MODEL_FILE)
            .value_name("PATH=FILE")
            .action(ArgAction::Append)
            .help("With --scripted-model: write FILE, its placeholders filled as --model-env's, at PATH in the agent's throwaway home"),
    )
    .arg(
        Arg::new(id::MODEL_PORT)
            .long(id::MODEL_PORT)
            .value_name("PORT")
            .value_parser(clap::value_parser!(u16).range(1..))
            .help("With --scripted-model: serve the model on this port, for a configuration written ahead of time [default: any free one]"),
    )
    .arg(
        Arg::new(id::ALLOW_NETWORK)
            .long(id::ALLOW_NETWORK)
            .action(ArgAction::SetTrue)
            .help("With --scripted-model: let the agent reach the network (by default its proxy variables point at a closed local port)"),
    )
}

fn model_command() -> Command {
    Command::new("model")
        .about("Serve a scripted model on 127.0.0.1 (the Anthropic, OpenAI Responses, OpenAI Chat and Gemini APIs) and print how to point an agent at it")
        .arg(
            Arg::new(id::PORT)
                .long(id::PORT)
                .value_name("N")
                .value_parser(clap::value_parser!(u16))
                .help("The port to listen on [default: any free one]"),
        )
        .arg(
            Arg::new(id::SCRIPT)
                .value_name("SCRIPT")
                .help("A plan file (`include_plan!`) or a stream of plans (`include_plan_stream!`, `fixtures`) [default: the built-in script]"),
        )
        .arg(plan_mode(
            "Play the agent's plan mode where it asks for one: a markdown plan through `ExitPlanMode` or a `<proposed_plan>` block",
        ))
        .after_help(MODEL_EXAMPLES)
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
        .subcommand(proxy_command())
}

fn proxy_command() -> Command {
    Command::new("proxy")
        .about("Stand between an ACP client and an ACP agent: every line passed as it came, the agent's plans sent as the client can read them, todo tool calls shown as plans")
        .arg(
            Arg::new(id::NO_PLAN_OPT_IN)
                .long(id::NO_PLAN_OPT_IN)
                .action(ArgAction::SetTrue)
                .help("Leave a v1 `initialize` without `clientCapabilities.plan` as it is (by default the proxy adds it, so the agent sends its richest plan)"),
        )
        .arg(
            Arg::new(id::COMMAND)
                .value_name("COMMAND")
                .num_args(1..)
                .last(true)
                .allow_hyphen_values(true)
                .help("The agent to start, after `--`: its program and arguments (none: a link of the SDK conductor's chain, which starts the agent)"),
        )
        .after_help(PROXY_EXAMPLES)
}

/// `tool`'s argument: each tool by the name the command line gives it.
impl clap::ValueEnum for crate::tool::Tool {
    fn value_variants<'a>() -> &'a [Self] {
        &[Self::TodoWrite, Self::UpdatePlan]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(match self {
            Self::TodoWrite => "todo-write",
            Self::UpdatePlan => "update-plan",
        }))
    }
}

fn tool_command() -> Command {
    Command::new("tool")
        .about("Print what a model's plan tool call (arguments on stdin) sends a client")
        .arg(
            Arg::new(id::TOOL)
                .value_name("TOOL")
                .value_parser(clap::builder::EnumValueParser::<crate::tool::Tool>::new())
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
            Arg::new(id::SESSION)
                .long(id::SESSION)
                .value_name("ID")
                .help(format!(
                    "The session id of the lines [default: {}]",
                    crate::tool::ToolOptions::default().session
                )),
        )
        .arg(
            Arg::new(id::SCOPE)
                .long(id::SCOPE)
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
            Arg::new(id::STRICT)
                .long(id::STRICT)
                .action(ArgAction::SetTrue)
                .help("Refuse what the published SDKs would let through (reading a file)"),
        )
        .arg(protocol(
            "The version to offer: 1, the stable protocol [default], or the v2 draft",
        ))
        .arg(no_plan_capability())
        .arg(prompt())
        .arg(timeout("each message of its turn"))
        .arg(auth())
        .arg(plan_mode(
            "Set the session's plan mode (as the agent advertises one) and approve its switch out of it",
        ))
        .arg(files(
            "A recorded stream to read (NDJSON; standard input when absent), or a program to start",
        ))
        .arg(scripted_model())
        .args(model_setup(Command::new("")).get_arguments().cloned())
        .arg(command_after_dashes())
        .after_help(BOARD_EXAMPLES)
}

/// `check --protocol`'s help: it applies to files only.
const CHECK_PROTOCOL: &str = "Files: also what that version's readers reject or drop \
    (a file that records its `initialize` is judged for that client)";

fn check_command() -> Command {
    Command::new("check")
        .about("Judge an agent's plans as every kind of client, or recorded transcripts")
        .arg(json())
        .arg(protocol(CHECK_PROTOCOL))
        .arg(expect_plans())
        .arg(prompt())
        .arg(timeout("each answer, and each whole turn"))
        .arg(
            Arg::new(id::CANCEL)
                .long(id::CANCEL)
                .action(ArgAction::SetTrue)
                .help("An agent: also run a turn the client cancels"),
        )
        .arg(
            Arg::new(id::RECORD)
                .long(id::RECORD)
                .value_name("DIR")
                .help("An agent: write each kind's transcript to DIR/KIND.ndjson"),
        )
        .arg(
            Arg::new(id::SUMMARY)
                .long(id::SUMMARY)
                .value_name("FILE")
                .help("An agent: append a markdown report to FILE (each kind's verdict, each finding with its fix, the plans drawn), e.g. \"$GITHUB_STEP_SUMMARY\""),
        )
        .arg(
            Arg::new(id::GITHUB_ANNOTATIONS)
                .long(id::GITHUB_ANNOTATIONS)
                .action(ArgAction::SetTrue)
                .conflicts_with(id::JSON)
                .help("An agent: also print each finding as a GitHub Actions `::error` annotation"),
        )
        .arg(scripted_model())
        .args(model_setup(Command::new("")).get_arguments().cloned())
        .arg(auth())
        .arg(plan_mode(
            "An agent: run the turn in its plan mode (`session/set_mode`, or its config option), approve the switch out of it, and judge the markdown plan",
        ))
        .arg(files("Recorded transcripts to judge (NDJSON)"))
        .arg(command_after_dashes())
        .group(
            clap::ArgGroup::new("what")
                .args([id::FILES, id::COMMAND])
                .required(true),
        )
        // Either transcripts or an agent, each in its own form (clap's
        // generated line would join the two as `<FILE|COMMAND>`).
        .override_usage(
            "acp-plan check [OPTIONS] <FILE>...\n       acp-plan check [OPTIONS] -- <COMMAND>...",
        )
        .after_help(CHECK_EXAMPLES)
}

fn fixtures_command(count: impl Fn(&'static str, &'static str) -> Arg) -> Command {
    Command::new("fixtures")
        .about("Print a scripted stream of plan notifications, or the boards it ends with")
        .arg(count(id::SEED, "The script's seed [default: 0]"))
        .arg(count(id::SESSIONS, "Sessions interleaved [default: 1]"))
        .arg(count(
            id::PLANS,
            "Most plans live at once per session [default: 3]",
        ))
        .arg(count(id::STEPS, "Notifications [default: 20]"))
        .arg(protocol(
            "1: the stable protocol, a client that sent `plan` [default]; 2: the v2 draft",
        ))
        .arg(no_plan_capability())
        .arg(
            Arg::new(id::RFD)
                .long(id::RFD)
                .action(ArgAction::SetTrue)
                .conflicts_with(id::NO_PLAN_CAPABILITY)
                .help("v1: a client that advertised `planCapabilities` (the RFD spelling)"),
        )
        .arg(
            Arg::new(id::PRE_STABLE_FILE)
                .long(id::PRE_STABLE_FILE)
                .action(ArgAction::SetTrue)
                .help("A client on a pre-stable SDK: design documents as `file` plans"),
        )
        .arg(
            Arg::new(id::NO_CUSTOM)
                .long(id::NO_CUSTOM)
                .action(ArgAction::SetTrue)
                .help("No custom `_x` values or types"),
        )
        .arg(
            Arg::new(id::EXPECTED)
                .long(id::EXPECTED)
                .action(ArgAction::SetTrue)
                .help("Print the boards a correct client ends with, not the stream"),
        )
        .after_help(FIXTURES_EXAMPLES)
}
