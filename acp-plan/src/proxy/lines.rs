//! Lines both ways, as the proxy relays them: read in large blocks, each
//! whole line judged where it lies in the buffer, unchanged runs written as
//! the slices they were read as.

use std::borrow::Cow;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

/// The size of each direction's read and write buffers.
pub(super) const BUFFER: usize = 128 * 1024;

/// Reads `input` line by line and writes what `relay` makes of each to
/// `output`, each with the line's own ending (a last line without one stays
/// without); flushed whenever no more input is waiting, so an interactive
/// peer sees each line at once and a stream is written in large blocks.
/// Lines are judged where they lie in the read buffer, and a run of lines
/// the relay passes unchanged is written as the one slice it was read as.
///
/// # Errors
/// Writing to `output` failed (a read error ends the input).
pub(super) fn relay_lines<R: Read, W: Write>(
    mut input: BufReader<R>,
    output: W,
    mut relay: impl for<'l> FnMut(&'l [u8]) -> Option<Vec<Cow<'l, [u8]>>>,
) -> io::Result<()> {
    let mut output = BufWriter::with_capacity(BUFFER, output);
    let mut long = Vec::new();
    loop {
        let buffer = match input.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buffer) => buffer,
        };
        // Whole lines in the buffer: judged in place.
        let (mut unchanged, mut at) = (0, 0);
        while let Some(end) = memchr::memchr(b'\n', &buffer[at..]).map(|n| at + n) {
            if let Some(made) = relay(&buffer[at..end]) {
                output.write_all(&buffer[unchanged..at])?;
                for out in &made {
                    output.write_all(out)?;
                    output.write_all(b"\n")?;
                }
                unchanged = end + 1;
            }
            at = end + 1;
        }
        // The run of unchanged lines at the buffer's end: written as it was
        // read, past the write buffer (after what is already in it).
        let run = &buffer[unchanged..at];
        if run.len() >= BUFFER / 4 {
            output.flush()?;
            output.get_mut().write_all(run)?;
        } else {
            output.write_all(run)?;
        }
        if at > 0 {
            input.consume(at);
        } else {
            // A line longer than the buffer, or the last one without an
            // ending: read whole, judged as it comes.
            long.clear();
            if input.read_until(b'\n', &mut long).is_err() {
                break;
            }
            let ended = long.last() == Some(&b'\n');
            let body = if ended {
                &long[..long.len() - 1]
            } else {
                &long[..]
            };
            let made = relay(body).unwrap_or_else(|| vec![Cow::Borrowed(body)]);
            for (i, out) in made.iter().enumerate() {
                output.write_all(out)?;
                // The line's own ending; a line the relay adds gets one.
                if ended || i + 1 < made.len() {
                    output.write_all(b"\n")?;
                }
            }
        }
        // Nothing more read ahead: the peer may be waiting for these lines.
        if input.buffer().is_empty() {
            output.flush()?;
        }
    }
    output.flush()
}

/// Reads all of `input`, for tests that feed the relay a whole stream.
#[cfg(test)]
pub(super) fn relayed(input: &[u8], relay: &mut super::relay::Relay, downstream: bool) -> Vec<u8> {
    let mut out = Vec::new();
    relay_lines(BufReader::new(input), &mut out, |line| {
        if downstream {
            relay.changed(line)
        } else {
            match relay.upstream(line) {
                Cow::Borrowed(_) => None,
                changed @ Cow::Owned(_) => Some(vec![changed]),
            }
        }
    })
    .unwrap();
    out
}
