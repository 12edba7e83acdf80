//! A validator people can run: checks files of ACP plan messages against the
//! protocol's rules, in either spelling, and prints one line per problem.
//!
//! ```text
//! cargo run --example check -- recorded.ndjson fixture.json ...
//! cargo run --example agent -- --json > out.ndjson && cargo run --example check -- out.ndjson
//! ```
//!
//! A file is one JSON message (a notification, an update or plan content),
//! or NDJSON (one message per line). Each problem is printed as
//! `FILE:LINE: PATH: RULE`; the exit status is 1 if there was any, 2 if a
//! file could not be read.

use std::io::{self, Write};
use std::process::ExitCode;

use plan_core::{PlanContent, SessionNotification, SessionUpdate, Violation};

#[allow(dead_code)] // `main` is unused where a test includes this file.
fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() || paths.iter().any(|p| p.starts_with("--")) {
        eprintln!("usage: cargo run --example check -- FILE...");
        return ExitCode::from(2);
    }
    let mut out = io::stdout().lock();
    let mut problems = 0;
    for path in &paths {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("check: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        };
        match check_file(path, &bytes, &mut out) {
            Ok(found) => problems += found,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("check: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if problems == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Checks one file's bytes; writes a line per problem and returns how many.
///
/// # Errors
/// Only an error writing the report.
pub fn check_file(name: &str, bytes: &[u8], out: &mut impl Write) -> io::Result<usize> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        let err = SessionNotification::from_slice(bytes)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        writeln!(out, "{name}:1: {err}")?;
        return Ok(1);
    };
    // One message over several lines, or one message per line.
    let whole_document = serde_json::from_str::<serde_json::Value>(text).is_ok();
    let messages: Vec<(usize, &str)> = if whole_document {
        vec![(1, text)]
    } else {
        text.lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line))
            .filter(|(_, line)| !line.trim().is_empty())
            .collect()
    };
    let mut problems = 0;
    for (line, message) in messages {
        for problem in check_message(message) {
            writeln!(out, "{name}:{line}: {problem}")?;
            problems += 1;
        }
    }
    Ok(problems)
}

/// The problems of one message: why it cannot be read, or what a sender must
/// not send. A notification, an update or plan content, told apart by their keys.
fn check_message(text: &str) -> Vec<String> {
    let kind = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|value| {
            let object = value.as_object()?;
            ["jsonrpc", "sessionUpdate", "type"]
                .into_iter()
                .find(|key| object.contains_key(*key))
        });
    let violations = |result: Result<(), Vec<Violation>>| -> Vec<String> {
        result
            .err()
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    let read = match kind {
        Some("sessionUpdate") => SessionUpdate::from_json(text).map(|u| violations(u.check())),
        Some("type") => {
            PlanContent::from_json(text).map(|p| violations(SessionUpdate::plan_update(p).check()))
        }
        // A notification, or anything else (its error will say what is missing).
        _ => SessionNotification::from_json(text).map(|n| violations(n.check())),
    };
    read.unwrap_or_else(|err| vec![err.to_string()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(name: &str, text: &str) -> (usize, String) {
        let mut out = Vec::new();
        let problems = check_file(name, text.as_bytes(), &mut out).unwrap();
        (problems, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_clean_stream_has_no_problem() {
        let line = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_removed","planId":"p"}}}"#;
        assert_eq!(
            report("ok.ndjson", &format!("{line}\n\n{line}\n")),
            (0, String::new())
        );
    }

    #[test]
    fn each_problem_is_a_line_with_file_line_path_and_rule() {
        let text = [
            r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"urgent","status":"cancelled"}]}"#,
            r#"{"type":"items","planId":"p","entries":[{"content":"a","priority":"high"}]}"#,
            "not json",
        ]
        .join("\n");
        let (problems, out) = report("rec.ndjson", &text);
        assert_eq!(problems, 4);
        assert_eq!(
            out,
            "rec.ndjson:1: at `entries[0].priority`: custom names must begin with `_`; `urgent` is reserved for future ACP versions (write `_urgent`)\n\
             rec.ndjson:1: at `entries[0].status`: `cancelled` does not exist in protocol v1; a v1 `plan` update knows only `pending`, `in_progress` and `completed`\n\
             rec.ndjson:2: at `entries[0]`: missing required field `status`\n\
             rec.ndjson:3: invalid JSON at line 1, column 2: expected ident\n"
        );
    }

    #[test]
    fn a_pretty_printed_message_is_one_document() {
        let text = "{\n  \"type\": \"file\",\n  \"id\": \"d\",\n  \"uri\": \"plan.md\"\n}\n";
        let (problems, out) = report("doc.json", text);
        assert_eq!(problems, 1);
        assert!(
            out.starts_with("doc.json:1: at `uri`: a file plan's URI must be absolute"),
            "{out}"
        );
    }
}
