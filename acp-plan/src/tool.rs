//! `tool`: what a model's plan tool call becomes. The call's arguments (JSON,
//! on standard input) are read as the agent would read them
//! (`plan_core::tools`), and the `session/update` lines one kind of client
//! would receive are printed; a call that cannot be read prints the error
//! the model would get, on standard error, and nothing on standard output.

use std::io::{self, Write};

use plan_core::agent::PlanSender;
use plan_core::fixtures::ClientProfile;
use plan_core::tools::{ModelPlans, Scope, ToolError, ToolOutcome};
use plan_core::wire::ProtocolVersion;
use serde_json::{Value, json};

/// Which tool was called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Claude Code's `TodoWrite`.
    TodoWrite,
    /// codex's `update_plan`.
    UpdatePlan,
}

/// What the command line of `tool` asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct ToolOptions {
    /// The tool called.
    pub tool: Tool,
    /// The client's protocol version.
    pub protocol: ProtocolVersion,
    /// Under v1, whether the client sent `clientCapabilities.plan`.
    pub plan_capability: bool,
    /// The session id of the lines.
    pub session: String,
    /// Whose plan: the main agent's, plan mode's, or a subagent's.
    pub scope: Scope,
    /// One JSON object instead of lines.
    pub json: bool,
    /// The call's arguments, the JSON text the model sent; `None` reads
    /// them from standard input.
    pub arguments: Option<String>,
}

impl Default for ToolOptions {
    fn default() -> Self {
        Self {
            tool: Tool::TodoWrite,
            protocol: ProtocolVersion::V1,
            plan_capability: true,
            session: "sess_1".to_owned(),
            scope: Scope::MAIN,
            json: false,
            arguments: None,
        }
    }
}

/// The sender for the client `options` describe.
fn sender(options: &ToolOptions) -> PlanSender {
    let profile = ClientProfile::of(options.protocol);
    let profile = if options.plan_capability {
        profile
    } else {
        profile.plan_capability(None)
    };
    profile.sender(options.session.clone())
}

/// Plays one call of the model's plan tool on this process's streams: its
/// arguments from `options.arguments` or standard input, what the client
/// receives on standard output, corrections and errors on standard error.
/// The exit status: 0 sent, 1 the model's call could not be read, 2 no
/// call was given.
///
/// An error reading the input or writing the output is said on standard
/// error (2).
pub fn tool(options: &ToolOptions) -> u8 {
    crate::process::exit_status("tool", play_stdio(options))
}

/// [`tool`], its I/O errors returned.
fn play_stdio(options: &ToolOptions) -> io::Result<u8> {
    let arguments = match &options.arguments {
        Some(arguments) => arguments.clone(),
        None => {
            let mut arguments = String::new();
            io::Read::read_to_string(&mut io::stdin(), &mut arguments).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("cannot read the call's arguments on standard input: {e}"),
                )
            })?;
            arguments
        }
    };
    // No input is no call: a wrong command line, not a model's mistake.
    if arguments.trim().is_empty() {
        eprintln!(
            "tool: no call on standard input; give the arguments the model sent (JSON), e.g. `acp-plan tool todo-write < call.json`"
        );
        return Ok(2);
    }
    play(
        options,
        &arguments,
        &mut io::stdout().lock(),
        &mut io::stderr(),
    )
}

/// Reads one call's arguments (`arguments`, the JSON text) and writes what
/// the client receives to `out`, and what was corrected (or the error for
/// the model) to `err`. The exit status: 0 sent, 1 the model's call could
/// not be read.
///
/// Text: each `session/update` line, in the client's spelling; each
/// correction on `err` as `tool: corrected: FIELD: NOTE`. JSON (`--json`):
/// `{"sent": [...], "corrections": [{"field", "note"}], "toolResult"}` on
/// `out`, or `{"error", "problems": [{"field", "wrong", "allowed"}]}` on `err`.
///
/// # Errors
/// Writing to `out` or `err` failed.
pub(crate) fn play(
    options: &ToolOptions,
    arguments: &str,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<u8> {
    let mut plans = ModelPlans::new(sender(options));
    let spelling = plans.sender().spelling();
    let result = match options.tool {
        Tool::TodoWrite => plans.todo_write(&options.scope, arguments),
        Tool::UpdatePlan => plans.update_plan(&options.scope, arguments),
    };
    match result {
        Ok(outcome) if options.json => {
            serde_json::to_writer_pretty(&mut *out, &outcome_json(&outcome, spelling))?;
            writeln!(out)?;
            Ok(0)
        }
        Ok(outcome) => {
            if let Some(notification) = &outcome.notification {
                notification.write_line(&mut *out, spelling)?;
            }
            for correction in &outcome.corrections {
                writeln!(err, "tool: corrected: {correction}")?;
            }
            Ok(0)
        }
        Err(error) if options.json => {
            serde_json::to_writer_pretty(&mut *err, &error_json(&error))?;
            writeln!(err)?;
            Ok(1)
        }
        Err(error) => {
            writeln!(err, "{error}")?;
            Ok(1)
        }
    }
}

fn outcome_json(outcome: &ToolOutcome, spelling: plan_core::wire::Spelling) -> Value {
    let sent: Vec<Value> = outcome
        .notification
        .iter()
        .map(|n| n.to_value(spelling))
        .collect();
    let corrections: Vec<Value> = outcome
        .corrections
        .iter()
        .map(|c| json!({ "field": c.field(), "note": c.note() }))
        .collect();
    json!({ "sent": sent, "corrections": corrections, "toolResult": outcome.tool_result() })
}

fn error_json(error: &ToolError) -> Value {
    let problems: Vec<Value> = error
        .problems()
        .iter()
        .map(|p| json!({ "field": p.field(), "wrong": p.wrong(), "allowed": p.allowed() }))
        .collect();
    json!({ "error": error.to_string(), "problems": problems })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_text(options: &ToolOptions, arguments: &str) -> (u8, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = play(options, arguments, &mut out, &mut err).unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (code, text(out), text(err))
    }

    #[test]
    fn each_kind_of_client_gets_its_line() {
        let call = r#"{"plan":[{"step":"Fix it","status":"cancelled"}]}"#;
        let options = |protocol, plan_capability| ToolOptions {
            tool: Tool::UpdatePlan,
            protocol,
            plan_capability,
            ..ToolOptions::default()
        };
        let (code, out, err) = run_text(&options(ProtocolVersion::V1, false), call);
        assert_eq!(code, 0);
        assert_eq!(
            out,
            "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"sess_1\",\"update\":{\"sessionUpdate\":\"plan\",\"entries\":[{\"content\":\"Fix it (cancelled)\",\"priority\":\"medium\",\"status\":\"completed\"}]}}}\n"
        );
        assert!(
            err.starts_with("tool: corrected: plan[0].status: "),
            "{err}"
        );
        let (_, out, _) = run_text(&options(ProtocolVersion::V2, true), call);
        assert!(out.contains(r#""planId":"plan","entries":[{"content":"Fix it","priority":"medium","status":"cancelled"}]"#), "{out}");
    }

    #[test]
    fn a_call_that_cannot_be_read_is_the_models_error_and_nothing_is_sent() {
        let (code, out, err) = run_text(&ToolOptions::default(), r#"{"todos":[{"content":"A"}]}"#);
        assert_eq!((code, out.as_str()), (1, ""));
        assert!(err.contains("todos[0].status: missing"), "{err}");
        let json = ToolOptions {
            json: true,
            ..ToolOptions::default()
        };
        let (code, out, err) = run_text(&json, "[");
        assert_eq!((code, out.as_str()), (1, ""));
        let report: Value = serde_json::from_str(&err).unwrap();
        assert_eq!(report["problems"][0]["field"], "arguments");
        let (code, out, _) = run_text(&json, r#"{"todos":[]}"#);
        assert_eq!(code, 0);
        let report: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            report["sent"][0]["params"]["update"]["plan"]["entries"],
            json!([])
        );
    }
}
