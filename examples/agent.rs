//! An agent works through a refactor and shows its plans to the editor over
//! ACP. Its plans are declared with `plan!`, sent by a `PlanSender` shaped by
//! the client's capabilities, and drawn live as the client's `PlanBoard`
//! sees them.
//!
//! ```text
//! cargo run --example agent                          # watch it live
//! cargo run --example agent -- --fast                # no pauses
//! cargo run --example agent -- --json                # the JSON-RPC lines instead (NDJSON)
//! cargo run --example agent -- --protocol 2          # a v2 client (reads `cancelled`, custom values)
//! cargo run --example agent -- --spelling rfd        # a v1 client that advertised `planCapabilities`
//! cargo run --example agent -- --legacy-client       # a v1 client without plan support: v1 fallback
//! cargo run --example agent -- --json | cargo run --example board
//! ```

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use plan_core::{
    ClientCapabilities, PlanBoard, PlanContent, PlanEntry, PlanSender, Priority, ProtocolVersion,
    SessionNotification, Spelling, Status, TerminalStyle, plan, render_board,
};

const SESSION: &str = "sess_abc123def456";

/// What the command line asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// No pauses between steps.
    pub fast: bool,
    /// Print the JSON-RPC stream instead of drawing it.
    pub json: bool,
    /// The spelling the simulated client advertised its plan support in.
    pub spelling: Spelling,
    /// The simulated client did not advertise plan support at all.
    pub legacy_client: bool,
    /// The protocol version agreed in `initialize`.
    pub protocol: ProtocolVersion,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            fast: false,
            json: false,
            spelling: Spelling::Acp,
            legacy_client: false,
            protocol: ProtocolVersion::V1,
        }
    }
}

#[allow(dead_code)] // `main` is unused where the end-to-end test includes this file.
fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("agent: {message}");
            eprintln!(
                "usage: cargo run --example agent [-- [--fast] [--json] [--protocol 1|2] [--spelling rfd|acp] [--legacy-client]]"
            );
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let live = !options.json && stdout.is_terminal();
    let style = TerminalStyle::detect(&stdout);
    let pause = if options.fast || options.json {
        Duration::ZERO
    } else {
        Duration::from_millis(700)
    };
    match run(options, &mut stdout.lock(), style, live, || {
        std::thread::sleep(pause);
    }) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (e.g. `| head`): not a crash, just stop.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agent: cannot write: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the command line.
///
/// # Errors
/// What is wrong with it, in one sentence.
pub fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--fast" => options.fast = true,
            "--json" => options.json = true,
            "--legacy-client" => options.legacy_client = true,
            "--spelling" => {
                let value = args
                    .next()
                    .ok_or("`--spelling` needs a value: rfd or acp")?;
                options.spelling = parse_spelling(&value)?;
            }
            "--protocol" => {
                let value = args.next().ok_or("`--protocol` needs a value: 1 or 2")?;
                options.protocol = parse_protocol(&value)?;
            }
            other => {
                if let Some(value) = other.strip_prefix("--spelling=") {
                    options.spelling = parse_spelling(value)?;
                } else if let Some(value) = other.strip_prefix("--protocol=") {
                    options.protocol = parse_protocol(value)?;
                } else {
                    return Err(format!("unknown argument `{other}`"));
                }
            }
        }
    }
    Ok(options)
}

fn parse_spelling(value: &str) -> Result<Spelling, String> {
    match value {
        "rfd" => Ok(Spelling::Rfd),
        "acp" => Ok(Spelling::Acp),
        other => Err(format!("unknown spelling `{other}`; expected rfd or acp")),
    }
}

fn parse_protocol(value: &str) -> Result<ProtocolVersion, String> {
    match value {
        "1" => Ok(ProtocolVersion::V1),
        "2" => Ok(ProtocolVersion::V2),
        other => Err(format!(
            "unknown protocol version `{other}`; expected 1 or 2"
        )),
    }
}

/// The client's capabilities as it would send them in `initialize`.
fn client_capabilities(options: Options) -> ClientCapabilities {
    if options.legacy_client {
        ClientCapabilities::default()
    } else {
        ClientCapabilities::with_plan_support(options.spelling)
    }
}

/// Where the agent's messages go: the wire (JSON lines), or a client board
/// drawn for a person.
struct Screen<'a, W: Write> {
    out: &'a mut W,
    options: Options,
    board: PlanBoard,
    style: TerminalStyle,
    live: bool,
    frame: usize,
}

impl<W: Write> Screen<'_, W> {
    fn show(
        &mut self,
        caption: &str,
        sent: &SessionNotification,
        spelling: Spelling,
    ) -> io::Result<()> {
        if self.options.json {
            return sent.write_line(&mut *self.out, spelling);
        }
        self.board.apply(sent.clone());
        self.frame += 1;
        if self.live {
            // Redraw in place: home the cursor and clear the screen.
            write!(self.out, "\x1b[H\x1b[2J")?;
        } else if self.frame > 1 {
            writeln!(self.out)?;
        }
        let kind = sent.update.kind();
        writeln!(self.out, "── {}. agent: {caption}  [{kind}]", self.frame)?;
        write!(self.out, "{}", render_board(&self.board, self.style))?;
        self.out.flush()
    }
}

/// Runs the whole story, writing to `out` and calling `pause` between steps.
///
/// # Errors
/// The writer's error.
pub fn run<W: Write>(
    options: Options,
    out: &mut W,
    style: TerminalStyle,
    live: bool,
    mut pause: impl FnMut(),
) -> io::Result<()> {
    // The simulated client is a `PlanBoard`, which reads v2's unstable variants.
    let mut sender =
        PlanSender::with_protocol(SESSION, options.protocol, &client_capabilities(options))
            .with_unstable(true);
    let spelling = sender.spelling();
    let mut screen = Screen {
        out,
        options,
        board: PlanBoard::new(SESSION),
        style,
        live,
        frame: 0,
    };

    // The plans, declared once and checked by the compiler.
    let refactor = plan! {
        id: "refactor",
        items: [
            high   pending "Analyze the existing codebase structure",
            high   pending "Identify components that need refactoring",
            medium pending "Create unit tests for critical functions",
            low    pending "Update the changelog",
        ],
    };
    let notes = plan! { id: "notes", markdown: "## Notes\n- [ ] Ask about the auth module\n- [ ] Check the CI budget" };
    let design = plan! { id: "design-doc", file: "file:///tmp/refactor-design.md" };

    let PlanContent::Items {
        id,
        entries: mut steps,
        ..
    } = refactor
    else {
        unreachable!("declared as an items plan above")
    };
    let mut step = |screen: &mut Screen<'_, W>,
                    sender: &mut PlanSender,
                    steps: &[PlanEntry],
                    caption: &str|
     -> io::Result<()> {
        let sent = sender.update(PlanContent::items(id.clone(), steps.to_vec()));
        screen.show(caption, &sent, spelling)?;
        pause();
        Ok(())
    };

    step(&mut screen, &mut sender, &steps, "plans the refactor")?;
    let notes_id = notes.id().clone();
    let sent = sender.update(notes);
    screen.show("jots down notes beside it", &sent, spelling)?;
    let sent = sender.update(design);
    screen.show("links the design document", &sent, spelling)?;

    steps[0].status = Status::InProgress;
    step(&mut screen, &mut sender, &steps, "starts the analysis")?;
    steps[0].status = Status::Completed;
    steps[1].status = Status::InProgress;
    step(
        &mut screen,
        &mut sender,
        &steps,
        "finishes the analysis, starts on the components",
    )?;

    // A discovery: a new task joins the plan, right after the current one.
    let found = PlanEntry::new(
        "Fix the circular dependency in the auth module",
        Priority::High,
        Status::Pending,
    );
    steps.insert(2, found);
    step(
        &mut screen,
        &mut sender,
        &steps,
        "finds a circular dependency and adds a task",
    )?;

    steps[1].status = Status::Completed;
    steps[2].status = Status::InProgress;
    step(&mut screen, &mut sender, &steps, "fixes the dependency")?;
    let sent = sender.remove(&notes_id);
    if let Some(sent) = sent {
        screen.show(
            "has asked its questions; dismisses the notes",
            &sent,
            spelling,
        )?;
    }
    steps[2].status = Status::Completed;
    steps[3].status = Status::InProgress;
    step(&mut screen, &mut sender, &steps, "writes the tests")?;
    steps[3].status = Status::Completed;
    steps[4].status = Status::Cancelled;
    step(
        &mut screen,
        &mut sender,
        &steps,
        "is done; the changelog is not needed after all",
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(options: Options) -> Vec<String> {
        let mut out = Vec::new();
        run(
            Options {
                json: true,
                ..options
            },
            &mut out,
            TerminalStyle::PLAIN,
            false,
            || {},
        )
        .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn every_line_is_a_notification_that_reads_back_in_the_clients_spelling() {
        for spelling in [Spelling::Rfd, Spelling::Acp] {
            let lines = lines(Options {
                spelling,
                ..Options::default()
            });
            assert_eq!(lines.len(), 10);
            for line in &lines {
                let message = SessionNotification::from_json(line).unwrap();
                assert_eq!(message.to_json(spelling), *line);
                assert_eq!(message.check(), Ok(()));
            }
            assert_eq!(lines[0].contains("\"planId\""), spelling == Spelling::Acp);
        }
    }

    #[test]
    fn a_legacy_client_gets_only_v1_plans() {
        let lines = lines(Options {
            legacy_client: true,
            ..Options::default()
        });
        for line in &lines {
            let message = SessionNotification::from_json(line).unwrap();
            assert_eq!(message.update.kind(), "plan", "{line}");
            assert_eq!(message.check(), Ok(()));
        }
    }

    #[test]
    fn flags_choose_the_options_and_bad_ones_say_why() {
        let parse = |args: &[&str]| parse_args(args.iter().map(|s| (*s).to_owned()));
        assert_eq!(parse(&[]), Ok(Options::default()));
        let all = parse(&["--fast", "--json", "--spelling", "acp", "--legacy-client"]).unwrap();
        assert_eq!(
            all,
            Options {
                fast: true,
                json: true,
                spelling: Spelling::Acp,
                legacy_client: true,
                protocol: ProtocolVersion::V1,
            }
        );
        assert_eq!(parse(&["--spelling=rfd"]).unwrap().spelling, Spelling::Rfd);
        assert_eq!(
            parse(&["--protocol", "2"]).unwrap().protocol,
            ProtocolVersion::V2
        );
        assert!(parse(&["--protocol=3"]).unwrap_err().contains("1 or 2"));
        assert!(
            parse(&["--spelling", "xml"])
                .unwrap_err()
                .contains("unknown spelling")
        );
        assert!(parse(&["--spelling"]).is_err());
        assert!(
            parse(&["--colour"])
                .unwrap_err()
                .contains("unknown argument")
        );
    }
}
