//! `check FILE...`: recorded transcripts judged (`files.rs` judges one)
//! and reported, as text or JSON, with the exit status.

use std::io::{self, Write};

use super::files::{FileReport, check_file};
use super::finding::Finding;
use plan_core::wire::ProtocolVersion;
use serde_json::{Value, json};

/// What the command line of the file mode asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive] // fields may be added: start from `default()` and set them
pub struct CheckFilesOptions {
    /// The version whose readers judge files without a recorded `initialize`.
    pub protocol: Option<ProtocolVersion>,
    /// A file with no plan message is a problem, not a note.
    pub expect_plans: bool,
    /// The files.
    pub paths: Vec<String>,
    /// One JSON report instead of a line per problem (`--json`).
    pub json: bool,
}

/// Each file of `options` judged, in order, with an [`super::rule::EXPECT_PLANS`]
/// finding (line 0) for a file without plans where they were expected;
/// `None` if a file could not be read (said on `notes`). Notes on `notes`.
fn judge_files(
    options: &CheckFilesOptions,
    notes: &mut impl Write,
) -> io::Result<Option<Vec<(String, FileReport)>>> {
    let mut reports = Vec::new();
    for path in &options.paths {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                writeln!(notes, "check: cannot read {path}: {e}")?;
                return Ok(None);
            }
        };
        if let Some(what) = not_a_transcript(path, &bytes) {
            writeln!(
                notes,
                "check: {path} is {what}, not a recorded transcript (NDJSON, one JSON-RPC message a line); did you mean `acp-plan check -- {path}`? (an agent's command goes after `--`)"
            )?;
            return Ok(None);
        }
        let mut report = check_file(&bytes, options.protocol);
        if let (Some(kind), Some(protocol)) = (report.recorded_client, options.protocol) {
            writeln!(
                notes,
                "check: {path} holds the client's `initialize` and the agent's answer: judged as {kind}, not by `--protocol {}`",
                protocol.number()
            )?;
        }
        if report.plans == 0 {
            let message = "no plan message seen: nothing judged".to_owned();
            if options.expect_plans {
                let rule = super::rule::EXPECT_PLANS;
                let finding = Finding::new(rule, 0, String::new(), message, None);
                report.findings.push(finding);
            }
            // Else the report says it on standard output: "clean" over
            // nothing would read like a pass.
        }
        reports.push((path.clone(), report));
    }
    Ok(Some(reports))
}

/// What a file given as a transcript is instead, if it is plainly not one:
/// a program (executable), not text, or text that opens with anything but a
/// JSON object. A transcript whose lines break JSON later is judged (those
/// lines are findings).
fn not_a_transcript(path: &str, bytes: &[u8]) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0) {
            return Some("a program");
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Some("not UTF-8 text (a program?)");
    };
    let first = text.trim_start().chars().next();
    (first.is_some() && first != Some('{')).then_some("text that is not JSON")
}

/// Checks each file of `options` on this process's streams: the problems on
/// standard output, notes on standard error. The exit status: 0 clean, 1
/// problems, 2 a file could not be read.
///
/// An error writing the report is said on standard error (2); a reader
/// that closed the output early (`| head`) ends it quietly (0).
pub fn check_files(options: &CheckFilesOptions) -> u8 {
    let result = report_files(options, &mut io::stdout().lock(), &mut io::stderr());
    crate::process::exit_status("check", result)
}

/// Checks each file of `options`; writes the problems to `out` and notes
/// to `notes`. The exit status: 0 clean, 1 problems, 2 a file could not be
/// read (said on `notes`, with nothing on `out`).
///
/// As text, a line per problem (`FILE:LINE: at PATH: WHAT [RULE]`). As
/// JSON (`options.json`), one object: `files`, each with its `path`, how many
/// `plans` it held, the client it was `judgedAs` where it records one (else
/// `null`) and its `findings` (see [`Finding::to_json`]); then `findings`
/// (how many in all) and `clean`.
///
/// # Errors
/// Writing to `out` failed (a closed pipe is the caller's to decide).
pub(crate) fn report_files(
    options: &CheckFilesOptions,
    out: &mut impl Write,
    notes: &mut impl Write,
) -> io::Result<u8> {
    let Some(reports) = judge_files(options, notes)? else {
        return Ok(2);
    };
    let code = exit_status(&reports);
    if !options.json {
        for (path, report) in &reports {
            report.write_text(path, out)?;
            if report.plans == 0 && !options.expect_plans {
                writeln!(out, "{path}: no plan message seen: nothing judged")?;
            }
        }
        // One line at the end, so a clean run says so too.
        let plans: usize = reports.iter().map(|(_, r)| r.plans).sum();
        let total: usize = reports.iter().map(|(_, r)| r.findings.len()).sum();
        let verdict = match total {
            0 if plans == 0 => {
                "nothing judged (no plan message seen; `--expect-plans` makes that a finding)"
                    .to_owned()
            }
            0 => "clean".to_owned(),
            _ => format!("{total} finding(s)"),
        };
        writeln!(
            out,
            "check: {} file(s), {plans} plan message(s) judged: {verdict}",
            reports.len()
        )?;
        return Ok(code);
    }
    let files: Vec<Value> = reports
        .iter()
        .map(|(path, report)| {
            let findings: Vec<Value> = report.findings.iter().map(Finding::to_json).collect();
            json!({
                "path": path,
                "plans": report.plans,
                "judgedAs": report.recorded_client.map(super::conformance::kind_name),
                "findings": findings,
            })
        })
        .collect();
    let total: usize = reports.iter().map(|(_, r)| r.findings.len()).sum();
    let judged: usize = reports.iter().map(|(_, r)| r.plans).sum();
    let report = json!({ "files": files, "findings": total, "clean": code == 0,
                         "nothingJudged": judged == 0 });
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)?;
    Ok(code)
}

/// 1 if any file has a finding, else 0.
fn exit_status(reports: &[(String, FileReport)]) -> u8 {
    u8::from(reports.iter().any(|(_, r)| !r.findings.is_empty()))
}
