//! A recorded stream of messages, checked at compile time
//! (`include_plan_stream!`).

use std::io::{self, Write};

/// The lines of a recorded NDJSON stream, each a JSON-RPC message, checked at
/// compile time by [`include_plan_stream!`](crate::include_plan_stream) and
/// kept as static text exactly as recorded: sending one costs writing bytes.
///
/// ```
/// use plan_core::{client::SessionBoards, agent::StaticStream};
///
/// // (This crate's doc tests run in `plan-core/`; the fixture is the workspace's.)
/// const RUN: StaticStream = plan_core::include_plan_stream!("../tests/fixtures/refactor-lifecycle.acp.ndjson");
///
/// // A client under test reads the recorded run; here, plan-core's board.
/// let mut boards = SessionBoards::new().strict();
/// for line in RUN.lines() {
///     boards.apply_json(line)?;
/// }
/// assert_eq!(boards.boards().len(), 1);
///
/// // Or replay it to a pipe, as the agent sent it.
/// let mut pipe = Vec::new();
/// RUN.write_ndjson(&mut pipe)?;
/// assert_eq!(pipe.iter().filter(|&&b| b == b'\n').count(), RUN.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaticStream {
    lines: &'static [&'static str],
}

impl StaticStream {
    /// Wraps checked lines; `include_plan_stream!` is the way to make one.
    #[doc(hidden)]
    pub const fn new(lines: &'static [&'static str]) -> Self {
        Self { lines }
    }

    /// The messages, one JSON text each (without the newline), in order.
    pub const fn lines(&self) -> &'static [&'static str] {
        self.lines
    }

    /// How many messages the stream holds.
    pub const fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the stream holds no message (never, from the macro: an empty
    /// file is a compile error).
    pub const fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Writes the stream as NDJSON: each message and `\n`, then flushes.
    ///
    /// # Errors
    /// The writer's error; a closed pipe is `BrokenPipe`.
    pub fn write_ndjson<W: Write>(&self, mut out: W) -> io::Result<()> {
        for line in self.lines {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
        }
        out.flush()
    }

    /// The stream as NDJSON text.
    pub fn to_ndjson(&self) -> String {
        let mut text = String::with_capacity(self.lines.iter().map(|l| l.len() + 1).sum());
        for line in self.lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }
}
