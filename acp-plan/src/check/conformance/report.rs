//! The reports of `check -- AGENT`: the text for people, the JSON for
//! programs, the exit status, the recorded transcripts, and the fix of each
//! rule that carries none of its own.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde_json::{Value, json};

use super::client_run::{ClientRun, exit_code, kind_name};
use super::options::CheckAgentOptions;

/// Writes the transcripts (with `--record`) and the report.
///
/// # Errors
/// An error writing either.
pub(crate) fn finish(
    options: &CheckAgentOptions,
    runs: &[ClientRun],
    out: &mut impl Write,
) -> io::Result<()> {
    if let Some(dir) = &options.record {
        std::fs::create_dir_all(dir)?;
        for run in runs {
            let mut text = run.transcript.join("\n");
            text.push('\n');
            std::fs::write(dir.join(format!("{}.ndjson", kind_name(run.kind))), text)?;
        }
    }
    if let Some(file) = &options.summary {
        let markdown = super::summary::summary_markdown(options, runs);
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)?
            .write_all(markdown.as_bytes())?;
    }
    if options.json {
        serde_json::to_writer_pretty(&mut *out, &report_json(options, runs))?;
        writeln!(out)?;
    } else {
        write!(out, "{}", report_text(options, runs))?;
    }
    if options.github_annotations {
        write!(out, "{}", super::summary::annotations(runs))?;
    }
    Ok(())
}

/// The report for people: per kind, how the run went and each finding as
/// `FILE:LINE: at PATH: WHAT [RULE]` (FILE is the kind's recording, with
/// `--record`; else `line LINE: ...`, the line of the kind's transcript).
pub fn report_text(options: &CheckAgentOptions, runs: &[ClientRun]) -> String {
    let mut text = format!(
        "check: `{}`, as each kind of client\n",
        options.command.join(" ")
    );
    if let Some(profile) = scripted_profile(options) {
        let _ = writeln!(text, "  scripted model: {profile}");
    }
    let total: usize = runs.iter().map(|run| run.findings.len()).sum();
    for run in runs {
        kind_text(&mut text, options, run);
    }
    // Each kind ran at once: the check took about its slowest kind.
    let times: Vec<String> = runs
        .iter()
        .map(|r| format!("{} {:.1} s", kind_name(r.kind), r.elapsed.as_secs_f64()))
        .collect();
    let _ = writeln!(text, "check: time per kind of client: {}", times.join(", "));
    let not_driven = runs.iter().filter(|r| r.failure.is_some()).count();
    if not_driven > 0 {
        // Never "0 findings" alone: that reads like a pass.
        let rest = if not_driven == runs.len() {
            "nothing judged".to_owned()
        } else {
            format!("nothing judged there; {total} finding(s) in the rest")
        };
        let _ = writeln!(
            text,
            "check: could not drive the agent for {not_driven} of {} kinds of client ({rest}); exit {}",
            runs.len(),
            exit_code(runs)
        );
        return text;
    }
    let judged = runs.iter().any(|r| r.plans > 0);
    let nothing = if judged || options.expect_plans {
        ""
    } else {
        " (no kind of client saw a plan: nothing was judged; `--expect-plans` makes that a finding)"
    };
    let _ = writeln!(
        text,
        "check: {total} finding(s){nothing}; exit {}",
        exit_code(runs)
    );
    text
}

/// One kind's part of [`report_text`]: how its run went, its notes, and
/// each finding on its own line.
fn kind_text(text: &mut String, options: &CheckAgentOptions, run: &ClientRun) {
    // A transcript file is named only where `--record` wrote one.
    let (file, at) = match &options.record {
        Some(dir) => {
            let file = dir.join(format!("{}.ndjson", kind_name(run.kind)));
            let file = file.display().to_string();
            (format!(" ({file})"), format!("{file}:"))
        }
        None => (String::new(), "line ".to_owned()),
    };
    let _ = write!(text, "{}{file}: ", run.kind);
    if let Some(failure) = &run.failure {
        let _ = writeln!(
            text,
            "could not be driven: {}",
            failure.replace('\n', "\n  ")
        );
        if !run.stderr_tail.is_empty() {
            text.push_str("  the agent's last words on its standard error:\n");
            for line in &run.stderr_tail {
                let _ = writeln!(text, "    {line}");
            }
        }
        return;
    }
    if let Some(answered) = run.answered {
        let _ = write!(text, "answered v{answered}");
        if run.judged_as != run.kind {
            let _ = write!(text, " (judged as {})", run.judged_as);
        }
        text.push_str("; ");
    }
    if !run.stop_reasons.is_empty() {
        let _ = write!(text, "turns ended: {}; ", run.stop_reasons.join(", "));
    }
    if run.plans > 0 {
        let _ = write!(text, "{} plan message(s) judged; ", run.plans);
    }
    match run.findings.len() {
        0 if run.plans == 0 => text.push_str("no plan message seen: nothing judged\n"),
        0 => text.push_str("clean\n"),
        n => {
            let _ = writeln!(text, "{n} finding(s)");
        }
    }
    for note in run
        .notes
        .iter()
        .filter(|n| !n.starts_with("no plan message"))
    {
        let _ = writeln!(text, "  note: {note}");
    }
    for finding in &run.findings {
        let _ = write!(text, "  {at}{}: ", finding.line);
        if !finding.path.is_empty() {
            let _ = write!(text, "at `{}`: ", finding.path);
        }
        let _ = write!(text, "{} [{}]", finding.message, finding.rule);
        if let Some(fix) = &finding.fix {
            let _ = write!(text, "; fix: {fix}");
        }
        text.push('\n');
        // The line itself, so the finding can be read without the transcript.
        if let Some(line) = finding
            .line
            .checked_sub(1)
            .and_then(|i| run.transcript.get(i))
        {
            let _ = writeln!(text, "    > {}", quoted(line));
        }
    }
    if options.record.is_none() && run.findings.iter().any(|f| f.line > 0) {
        let _ = writeln!(
            text,
            "  (the transcript is not kept: `--record DIR` writes it to DIR/{}.ndjson)",
            kind_name(run.kind)
        );
    }
}

/// A transcript line as a finding quotes it: trimmed, at most 200
/// characters (cut on a character boundary, `…` where cut).
fn quoted(line: &str) -> String {
    const MOST: usize = 200;
    let line = line.trim();
    match line.char_indices().nth(MOST) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}

/// With `--scripted-model`, how the agent was pointed at the model: the
/// profile its command matched, or every profile's variables.
fn scripted_profile(options: &CheckAgentOptions) -> Option<String> {
    options.scripted_model.as_ref()?;
    Some(match crate::model::point::profile_of(&options.command) {
        Some(p) => format!(
            "{}'s profile ({}; docs/ci.md lists what it is given)",
            p.agent, p.api
        ),
        None => "no profile matches the command: it was given every API's variables (docs/ci.md)"
            .to_owned(),
    })
}

/// The report as JSON.
pub fn report_json(options: &CheckAgentOptions, runs: &[ClientRun]) -> Value {
    let kinds: Vec<Value> = runs
        .iter()
        .map(|run| {
            let findings: Vec<Value> = run
                .findings
                .iter()
                .map(crate::check::finding::Finding::to_json)
                .collect();
            json!({
                "kind": kind_name(run.kind),
                "label": run.kind.to_string(),
                "judgedAs": kind_name(run.judged_as),
                "record": format!("{}.ndjson", kind_name(run.kind)),
                "answered": run.answered,
                "stopReasons": run.stop_reasons,
                "failure": run.failure,
                "stderrTail": run.stderr_tail,
                "plans": run.plans,
                "repeats": run.repeats,
                "nothingJudged": run.failure.is_some() || run.plans == 0,
                "seconds": run.elapsed.as_secs_f64(),
                "notes": run.notes,
                "findings": findings,
            })
        })
        .collect();
    let total: usize = runs.iter().map(|r| r.findings.len()).sum();
    let nothing = runs.iter().all(|r| r.failure.is_some() || r.plans == 0);
    let not_driven = runs.iter().filter(|r| r.failure.is_some()).count();
    let profile = options
        .scripted_model
        .as_ref()
        .and(crate::model::point::profile_of(&options.command))
        .map(|p| p.agent);
    json!({ "command": options.command, "profile": profile, "kinds": kinds, "findings": total,
            "notDriven": not_driven, "nothingJudged": nothing, "exit": exit_code(runs) })
}
