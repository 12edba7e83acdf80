//! `check`: judges an agent's plans, or recorded transcripts, against the
//! protocol's rules and what the published SDKs read.
//!
//! Given an agent's command, it starts the agent once per kind of client
//! and judges what it sends ([`conformance`]): 0 clean, 1 findings, 2 the
//! agent could not be driven.
//!
//! A file is one JSON message (a notification, an update or plan content),
//! a JSON array of messages, or NDJSON (one message per line). Each problem
//! is one line, `FILE:LINE: at PATH: WHAT [RULE]`; 1 if there was any, 2 if
//! a file could not be read. Without `--protocol`, only the rules of every
//! version apply (and the RFD spelling, which no SDK reads); with it, also
//! what that version's SDK reader rejects or drops. A file that records the
//! client's `initialize` is judged for that client.

pub mod conformance;
pub mod files;

use std::io::{self, Write};

use files::check_file;
use plan_core::wire::ProtocolVersion;

/// The rule of the RFD spelling: the plan id written `id`.
pub const ACP_SPELLING: &str = "acp-spelling";

/// What the command line of the file mode asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileOptions {
    /// The version whose readers judge files without a recorded `initialize`.
    pub protocol: Option<ProtocolVersion>,
    /// A file with no plan message is a problem, not a note.
    pub expect_plans: bool,
    /// The files.
    pub paths: Vec<String>,
}

/// Checks each file of `options`, writing the problems to `out` and notes
/// to `notes`; the exit status: 0 clean, 1 problems, 2 a file could not be
/// read (said on `notes`).
///
/// # Errors
/// Writing to `out` failed (a closed pipe is the caller's to decide).
pub fn check_files(
    options: &FileOptions,
    out: &mut impl Write,
    notes: &mut impl Write,
) -> io::Result<u8> {
    let files = options;
    let mut problems = 0;
    for path in &files.paths {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                writeln!(notes, "check: cannot read {path}: {e}")?;
                return Ok(2);
            }
        };
        let report = check_file(path, &bytes, files.protocol, out)?;
        problems += report.problems;
        if let (Some(kind), Some(protocol)) = (report.recorded_client, files.protocol) {
            writeln!(
                notes,
                "check: {path} holds the client's `initialize` and the agent's answer: judged as {kind}, not by `--protocol {}`",
                protocol.number()
            )?;
        }
        if report.plans == 0 {
            let line = format!("{path}: no plan message seen: nothing judged");
            if files.expect_plans {
                writeln!(out, "{line} [{}]", conformance::rule::EXPECT_PLANS)?;
                problems += 1;
            } else {
                writeln!(notes, "check: {line}")?;
            }
        }
    }
    Ok(u8::from(problems > 0))
}

/// [`check_files`] with a JSON report on `out`: per file its path, how many
/// plan messages it held, the client it was judged for where it records
/// one, and its problems as the text lines `check_files` writes; the exit
/// status as there.
///
/// # Errors
/// Writing to `out` failed.
pub fn check_files_json(
    options: &FileOptions,
    out: &mut impl Write,
    notes: &mut impl Write,
) -> io::Result<u8> {
    let mut files = Vec::new();
    let mut code = 0;
    for path in &options.paths {
        let one = FileOptions {
            paths: vec![path.clone()],
            ..options.clone()
        };
        let mut lines = Vec::new();
        let status = check_files(&one, &mut lines, notes)?;
        if status == 2 {
            return Ok(2);
        }
        code = code.max(status);
        let problems: Vec<serde_json::Value> = String::from_utf8_lossy(&lines)
            .lines()
            .map(|line| serde_json::Value::from(line.to_owned()))
            .collect();
        files.push(serde_json::json!({ "path": path, "problems": problems }));
    }
    let report = serde_json::json!({ "files": files, "clean": code == 0 });
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)?;
    Ok(code)
}
