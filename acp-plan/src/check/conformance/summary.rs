//! The reports of `check -- AGENT` for a CI's own page: a markdown summary
//! (`--summary FILE`, appended, as GitHub's `$GITHUB_STEP_SUMMARY` wants)
//! with a table of each kind of client's verdict, each finding with its
//! rule, place and fix, and the plans each client was left with, drawn as
//! `board` draws them; and one GitHub annotation line per finding
//! (`--github-annotations`).

use std::fmt::Write as _;

use plan_core::client::{PlanBoard, TerminalStyle, render_board};

use super::client_run::{ClientRun, exit_code, kind_name};
use super::options::CheckAgentOptions;

/// The markdown summary of a run.
pub(crate) fn summary_markdown(options: &CheckAgentOptions, runs: &[ClientRun]) -> String {
    let command = options.command.join(" ");
    let exit = exit_code(runs);
    let findings: usize = runs.iter().map(|r| r.findings.len()).sum();
    let verdict = match exit {
        0 => "clean for every kind of client".to_owned(),
        1 => format!("{findings} finding(s)"),
        _ => "the agent could not be driven for every kind of client (nothing judged there)"
            .to_owned(),
    };
    let mut md = format!("## acp-plan check: `{}`\n\n", cell(&command));
    let _ = writeln!(md, "**exit {exit}**: {verdict}\n");
    md.push_str("| client | verdict | plan messages | findings |\n|---|---|---|---|\n");
    for run in runs {
        let verdict = match (&run.failure, run.findings.len()) {
            (Some(why), _) => format!(
                "⚠️ not driven: {}",
                cell(why.lines().next().unwrap_or_default())
            ),
            (None, 0) => "✅ clean".to_owned(),
            (None, n) => format!("❌ {n} finding(s)"),
        };
        let _ = writeln!(
            md,
            "| {} | {verdict} | {} | {} |",
            cell(&run.kind.to_string()),
            run.plans,
            run.findings.len()
        );
    }
    if findings > 0 {
        md.push_str(
            "\n### Findings\n\n| client | rule | where | what | fix |\n|---|---|---|---|---|\n",
        );
        for run in runs {
            for finding in &run.findings {
                let place = if finding.path.is_empty() {
                    format!("line {}", finding.line)
                } else {
                    format!("line {} `{}`", finding.line, cell(&finding.path))
                };
                let _ = writeln!(
                    md,
                    "| {} | `{}` | {place} | {} | {} |",
                    kind_name(run.kind),
                    finding.rule,
                    cell(&finding.message),
                    cell(finding.fix.as_deref().unwrap_or_default())
                );
            }
        }
    }
    md.push_str("\n### The plans each client was left with\n\n");
    for run in runs {
        let _ = writeln!(
            md,
            "<details><summary>{} ({} plan message(s))</summary>\n\n```text\n{}```\n\n</details>\n",
            html(&run.kind.to_string()),
            run.plans,
            drawn(run)
        );
    }
    md
}

/// One `::error` line per finding, as GitHub Actions reads them: the title
/// names the rule and the kind of client, the message says what and the fix.
pub(crate) fn annotations(runs: &[ClientRun]) -> String {
    let mut lines = String::new();
    for run in runs {
        for finding in &run.findings {
            let mut message = format!("line {}: {}", finding.line, finding.message);
            if let Some(fix) = &finding.fix {
                let _ = write!(message, "; fix: {fix}");
            }
            let _ = writeln!(
                lines,
                "::error title=acp-plan check [{}] ({})::{}",
                property(&finding.rule),
                property(kind_name(run.kind)),
                data(&message)
            );
        }
        if let Some(why) = &run.failure {
            let _ = writeln!(
                lines,
                "::warning title=acp-plan check ({}): not driven::{}",
                property(kind_name(run.kind)),
                data(why)
            );
        }
    }
    lines
}

/// The plans the client was left with, drawn as `board` draws them (plain).
fn drawn(run: &ClientRun) -> String {
    let mut board = PlanBoard::new("session");
    for (_, update) in &run.updates {
        board.apply_update(update.clone());
    }
    let text = render_board(&board, TerminalStyle::PLAIN);
    if text.trim().is_empty() {
        "(no plan)\n".to_owned()
    } else {
        text.replace("```", "` ` `")
    }
}

/// Text for a markdown table cell: one line, no bare `|`.
fn cell(text: &str) -> String {
    text.replace('\n', " ").replace('|', "\\|")
}

/// Text for HTML (the `<summary>` of a `<details>`).
fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A workflow command's message, escaped as GitHub's toolkit escapes it.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value, escaped as GitHub's toolkit does.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use plan_core::wire::ClientKind;

    use super::*;
    use crate::check::finding::Finding;

    fn run_with_finding() -> ClientRun {
        let line = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"Read | parse","priority":"high","status":"pending"}]}}}"#;
        let mut run = ClientRun::of_lines(ClientKind::V1, &[line]);
        run.plans = 1;
        run.findings.push(Finding::new(
            "model-plan",
            1,
            "params.update.entries[0]".to_owned(),
            "a step\nlost: 50% | more".to_owned(),
            Some("send it".to_owned()),
        ));
        run
    }

    #[test]
    fn the_summary_holds_each_verdict_each_finding_and_the_plans_drawn() {
        let clean = ClientRun::of_lines(ClientKind::V1Plan, &[] as &[&str]);
        let mut not_driven = ClientRun::of_lines(ClientKind::V2, &[] as &[&str]);
        not_driven.failure = Some("the agent exited".to_owned());
        let options = CheckAgentOptions {
            command: vec!["my-agent".to_owned(), "--acp".to_owned()],
            ..CheckAgentOptions::default()
        };
        let md = summary_markdown(&options, &[run_with_finding(), clean, not_driven]);
        assert!(md.contains("## acp-plan check: `my-agent --acp`"), "{md}");
        assert!(md.contains("**exit 2**"), "{md}");
        assert!(
            md.contains("| v1 without `plan` | ❌ 1 finding(s) | 1 | 1 |"),
            "{md}"
        );
        assert!(md.contains("| v1 with `plan` | ✅ clean | 0 | 0 |"), "{md}");
        assert!(md.contains("⚠️ not driven: the agent exited"), "{md}");
        assert!(
            md.contains("| v1 | `model-plan` | line 1 `params.update.entries[0]` | a step lost: 50% \\| more | send it |"),
            "{md}"
        );
        // The plan as the board draws it, in a code block.
        assert!(md.contains("○ Read | parse"), "{md}");
    }

    #[test]
    fn the_text_report_quotes_the_line_a_finding_is_about() {
        let options = CheckAgentOptions::default();
        let text = super::super::report::report_text(&options, &[run_with_finding()]);
        assert!(
            text.contains("\n    > {\"jsonrpc\":\"2.0\",\"method\":\"session/update\""),
            "{text}"
        );
        assert!(
            text.contains(
                "(the transcript is not kept: `--record DIR` writes it to DIR/v1.ndjson)"
            ),
            "{text}"
        );
    }

    #[test]
    fn each_finding_is_one_escaped_error_annotation() {
        let lines = annotations(&[run_with_finding()]);
        assert_eq!(
            lines,
            "::error title=acp-plan check [model-plan] (v1)::line 1: a step%0Alost: 50%25 | more; fix: send it\n"
        );
    }
}
