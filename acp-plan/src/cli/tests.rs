//! The command line parsed into requests: each subcommand's options, and
//! each mistake reported as clap's error.

use std::time::Duration;

use plan_core::fixtures::{ClientProfile, Scenario};
use plan_core::wire::{ProtocolVersion, Spelling};

use super::*;
use crate::BoardOptions;
use crate::check::conformance;

fn parse_line(args: &[&str]) -> Result<Invocation, clap::Error> {
    parse(std::iter::once("acp-plan").chain(args.iter().copied()))
}

fn board(args: &[&str]) -> BoardOptions {
    match parse_line(&[&["board"][..], args].concat()) {
        Ok(Invocation::Board(options)) => options,
        other => panic!("{args:?}: {other:?}"),
    }
}

#[test]
fn the_grammar_is_consistent_by_claps_own_checks() {
    // Ids that clash, a `requires` naming no argument, a default outside
    // its value parser...: clap checks all of it here, not at a user's run.
    command().debug_assert();
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
    assert_eq!(board(&[]), BoardOptions::default());
}

#[test]
fn check_is_files_or_an_agent_after_the_dashes() {
    match parse_line(&["check", "--protocol", "2", "a.ndjson", "b.ndjson"]).unwrap() {
        Invocation::CheckFiles(options) => {
            assert_eq!(options.paths, ["a.ndjson", "b.ndjson"]);
            assert_eq!(options.protocol, Some(ProtocolVersion::V2));
            assert!(!options.json);
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
        Invocation::CheckAgent(options) => {
            assert!(options.json && options.cancel);
            assert_eq!(options.timeout, Duration::from_millis(2500));
            assert_eq!(options.record, Some("out".into()));
            assert_eq!(options.command, ["a", "--fast"]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn proxy_is_an_agent_after_the_dashes_or_a_link_with_none() {
    match parse_line(&["proxy", "--", "opencode", "acp", "--x"]).unwrap() {
        Invocation::Proxy(options) => {
            assert_eq!(options.command, ["opencode", "acp", "--x"]);
            assert!(options.plan_opt_in);
        }
        other => panic!("{other:?}"),
    }
    match parse_line(&["proxy", "--no-plan-opt-in"]).unwrap() {
        Invocation::Proxy(options) => {
            assert!(
                options.command.is_empty(),
                "a link of the conductor's chain"
            );
            assert!(!options.plan_opt_in);
        }
        other => panic!("{other:?}"),
    }
    // The scripted model's options are for an agent `check` or `board` drives.
    let error = parse_line(&["check", "--model-env", "X=1", "a.ndjson"]).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("`--model-env` is for checking an agent"),
        "{error}"
    );
    let error = parse_line(&["check", "--model-env", "X=1", "--", "agent"]).unwrap_err();
    assert!(
        error.to_string().contains("add `--scripted-model`"),
        "{error}"
    );
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
    // An option of the agent's given before `--`: put it after the command.
    let err = parse_line(&["check", "--fast", "--", "my-agent"]).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("(acp-plan check [OPTIONS] -- AGENT --fast)")
            && !text.contains("'-- --fast'"),
        "{text}"
    );
    // A near name is suggested alone, in every subcommand: never clap's
    // tip to pass the typo after `--` (it would start a program of that name).
    for (line, near) in [
        (&["check", "--expect-plan", "--", "a"][..], "--expect-plans"),
        (
            &["proxy", "--no-plan-optin", "--", "a"][..],
            "--no-plan-opt-in",
        ),
        (
            &["board", "--no-plan-capabilty", "--", "a"][..],
            "--no-plan-capability",
        ),
        (&["fixtures", "--sesions", "2"][..], "--sessions"),
    ] {
        let text = parse_line(line).unwrap_err().to_string();
        assert!(text.contains(&format!("did you mean '{near}'?")), "{text}");
        assert!(!text.contains("'-- "), "{text}");
    }
    // Nothing to judge at all is clap's error too.
    assert!(parse_line(&["check"]).is_err());
    assert!(parse_line(&["check", "a.ndjson", "--", "agent"]).is_err());
}

#[test]
fn fixtures_build_the_scenario_the_flags_say() {
    let Invocation::Fixtures(options) = parse_line(&[
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
    let Invocation::Fixtures(rfd) = parse_line(&["fixtures", "--rfd"]).unwrap() else {
        panic!("not fixtures")
    };
    assert_eq!(rfd.scenario.spelling(), Spelling::Rfd);
    assert!(parse_line(&["fixtures", "--rfd", "--no-plan-capability"]).is_err());
}

#[test]
fn the_help_says_the_defaults_the_options_have() {
    // board and check share `--timeout`: their defaults are one.
    assert_eq!(
        BoardOptions::default().timeout,
        conformance::CheckAgentOptions::default().timeout
    );
    let mut cmd = command();
    let help = cmd
        .find_subcommand_mut("check")
        .unwrap()
        .render_help()
        .to_string();
    let seconds = conformance::CheckAgentOptions::default().timeout.as_secs();
    assert!(help.contains(&format!("[default: {seconds}]")), "{help}");
}
