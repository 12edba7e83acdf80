//! An agent's plan lifecycle as real ACP messages: an items plan is created
//! and its entries progress, a markdown plan of notes sits beside it, and the
//! notes are removed at the end. Every message is one JSON-RPC line on
//! standard output (NDJSON), as an agent writes them to its client.
//!
//! ```text
//! cargo run --example agent                    # the RFD spelling (`id`)
//! cargo run --example agent -- --spelling acp  # the published ACP spelling (`planId`)
//! ```

use std::io::{self, Write};
use std::process::ExitCode;

use plan_core::{PlanContent, PlanId, SessionNotification, SessionUpdate, Spelling, Status, plan};

const SESSION: &str = "sess_abc123def456";

fn main() -> ExitCode {
    let spelling = match parse_spelling(std::env::args().skip(1)) {
        Ok(spelling) => spelling,
        Err(message) => {
            eprintln!("agent: {message}");
            eprintln!("usage: cargo run --example agent [-- --spelling rfd|acp]");
            return ExitCode::from(2);
        }
    };
    match run(spelling, &mut io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // A client that closed its end is not a crash: stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agent: cannot write to the client: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse_spelling(mut args: impl Iterator<Item = String>) -> Result<Spelling, String> {
    let mut spelling = Spelling::Rfd;
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "--spelling" => args
                .next()
                .ok_or("`--spelling` needs a value: rfd or acp")?,
            other => match other.strip_prefix("--spelling=") {
                Some(value) => value.to_owned(),
                None => return Err(format!("unknown argument `{other}`")),
            },
        };
        spelling = match value.as_str() {
            "rfd" => Spelling::Rfd,
            "acp" => Spelling::Acp,
            other => return Err(format!("unknown spelling `{other}`; expected rfd or acp")),
        };
    }
    Ok(spelling)
}

/// Writes the whole lifecycle to `out`, one notification per line.
fn run(spelling: Spelling, out: &mut impl Write) -> io::Result<()> {
    let mut send = |update: SessionUpdate| -> io::Result<()> {
        debug_assert!(
            update.check().is_ok(),
            "the agent only sends conforming updates"
        );
        SessionNotification::new(SESSION, update).write_json(&mut *out, spelling)?;
        out.write_all(b"\n")?;
        out.flush()
    };

    // The plans are declared once, checked by the compiler.
    let plan = plan! {
        id: "refactor",
        items: [
            high   pending "Analyze the existing codebase structure",
            high   pending "Identify components that need refactoring",
            medium pending "Create unit tests for critical functions",
            low    pending "Update the changelog",
        ],
    };
    let notes = plan! { id: "notes", markdown: "## Notes\n- [ ] Ask about the auth module" };
    let notes_id: PlanId = notes.id().clone();
    let PlanContent::Items {
        id: refactor,
        entries: mut steps,
        ..
    } = plan
    else {
        unreachable!("declared as an items plan above")
    };

    // The plan is created, every step pending, with a markdown plan of notes beside it.
    send(PlanContent::items(refactor.clone(), steps.clone()).into())?;
    send(notes.into())?;

    // Each step runs, then completes; the whole list is sent every time.
    for index in 0..steps.len() - 1 {
        steps[index].status = Status::InProgress;
        send(PlanContent::items(refactor.clone(), steps.clone()).into())?;
        steps[index].status = Status::Completed;
        send(PlanContent::items(refactor.clone(), steps.clone()).into())?;
    }
    // The last step is dropped (a v2 status) and the notes are dismissed.
    if let Some(last) = steps.last_mut() {
        last.status = Status::Cancelled;
    }
    send(PlanContent::items(refactor, steps).into())?;
    send(SessionUpdate::plan_removed(notes_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_a_notification_that_reads_back() {
        for spelling in [Spelling::Rfd, Spelling::Acp] {
            let mut out = Vec::new();
            run(spelling, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), 10);
            for line in &lines {
                let message = SessionNotification::from_json(line).unwrap();
                assert_eq!(message.to_json(spelling), *line);
            }
            assert_eq!(lines[0].contains("\"planId\""), spelling == Spelling::Acp);
        }
    }

    #[test]
    fn flags_choose_the_spelling_and_bad_ones_say_why() {
        let parse = |args: &[&str]| parse_spelling(args.iter().map(|s| (*s).to_owned()));
        assert_eq!(parse(&[]), Ok(Spelling::Rfd));
        assert_eq!(parse(&["--spelling", "acp"]), Ok(Spelling::Acp));
        assert_eq!(parse(&["--spelling=rfd"]), Ok(Spelling::Rfd));
        assert!(
            parse(&["--spelling", "xml"])
                .unwrap_err()
                .contains("unknown spelling")
        );
        assert!(parse(&["--spelling"]).is_err());
    }
}
