//! The rows of `versus.rs`'s group 5 (through the SDK), group 1's build +
//! serialize and group 3's parse, each run a set number of times, for `bench/count.sh` to count their instructions under
//! valgrind. On this machine two Criterion runs of the same code differ by
//! up to 15%; an instruction count does not move between runs, so it can
//! tell two rows a few percent apart (it does not see cache misses, which
//! the Criterion rows do).
//!
//! `count --list` prints each row and the row it is compared with;
//! `count ROW ENTRIES TIMES` runs ROW on a plan of ENTRIES entries TIMES
//! times. Run without those (as `cargo bench` does), it says how to use it
//! and does nothing.

use std::cell::RefCell;
use std::hint::black_box;

use agent_client_protocol::v1::schema as acp;
use plan_core::{SessionNotification, wire::Spelling};

mod sdk;
use sdk::{Envelope, data, ours, sdk_receive, sdk_send, theirs};

/// What a row starts from, built before the runs.
struct Inputs {
    data: Vec<(String, usize, usize)>,
    /// The notification as the SDK's pipeline writes it.
    line: String,
    /// Our notification's text, as group 3 parses it.
    text: String,
    ours: SessionNotification,
    theirs: acp::SessionNotification,
    /// Group 1's reused buffer.
    out: RefCell<Vec<u8>>,
}

/// A row: its name as in `versus.rs`, the row it is compared with, and one
/// run of it.
type Row = (&'static str, &'static str, fn(&Inputs));

const ROWS: &[Row] = &[
    (
        "build + serialize: plan-core",
        "build + serialize: SDK's own types",
        |i| {
            let mut out = i.out.borrow_mut();
            out.clear();
            ours(black_box(&i.data))
                .write_json(&mut *out, Spelling::Acp)
                .unwrap();
            black_box(out.len());
        },
    ),
    ("build + serialize: SDK's own types", "", |i| {
        let mut out = i.out.borrow_mut();
        out.clear();
        serde_json::to_writer(&mut *out, &theirs(black_box(&i.data))).unwrap();
        black_box(out.len());
    }),
    ("parse: plan-core", "parse: SDK's own types", |i| {
        black_box(SessionNotification::from_json(black_box(&i.text)).unwrap());
    }),
    ("parse: SDK's own types", "", |i| {
        let parsed = serde_json::from_str::<Envelope<acp::SessionNotification>>(black_box(&i.text));
        black_box(parsed.unwrap());
    }),
    ("send: plan-core", "send: SDK's own types", |i| {
        black_box(sdk_send(&ours(black_box(&i.data))));
    }),
    (
        "send: plan-core via TryFrom",
        "send: SDK's own types",
        |i| {
            let theirs = acp::SessionNotification::try_from(ours(black_box(&i.data)));
            black_box(sdk_send(&theirs.unwrap()));
        },
    ),
    ("send: SDK's own types", "", |i| {
        black_box(sdk_send(&theirs(black_box(&i.data)).params));
    }),
    ("receive: plan-core", "receive: SDK's own types", |i| {
        black_box(sdk_receive::<SessionNotification>(black_box(&i.line)));
    }),
    (
        "receive: plan-core via TryFrom",
        "receive: SDK's own types",
        |i| {
            let theirs = sdk_receive::<acp::SessionNotification>(black_box(&i.line));
            black_box(SessionNotification::try_from(theirs).unwrap());
        },
    ),
    ("receive: SDK's own types", "", |i| {
        black_box(sdk_receive::<acp::SessionNotification>(black_box(&i.line)));
    }),
    ("to_json: plan-core", "to_string: SDK's own types", |i| {
        black_box(black_box(&i.ours).to_json(Spelling::Acp));
    }),
    ("to_string: SDK's own types", "", |i| {
        black_box(serde_json::to_string(black_box(&i.theirs)).unwrap());
    }),
    ("convert: plan-core -> SDK types, borrowed", "", |i| {
        black_box(acp::SessionNotification::try_from(black_box(&i.ours)).unwrap());
    }),
    ("convert: SDK types -> plan-core, borrowed", "", |i| {
        black_box(SessionNotification::try_from(black_box(&i.theirs)).unwrap());
    }),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [list] if list == "--list" => {
            for (name, versus, _) in ROWS {
                println!("{name}\t{versus}");
            }
        }
        [row, entries, times] => {
            let (Some((_, _, run)), Ok(entries), Ok(times)) = (
                ROWS.iter().find(|(name, _, _)| name == row),
                entries.parse::<usize>(),
                times.parse::<usize>(),
            ) else {
                eprintln!(
                    "count: no row {row:?}, or not a number ({entries:?}, {times:?}); see --list"
                );
                std::process::exit(2);
            };
            let data = data(entries);
            let inputs = Inputs {
                line: sdk_send(&theirs(&data).params),
                text: ours(&data).to_json(Spelling::Acp),
                ours: ours(&data),
                theirs: theirs(&data).params,
                out: RefCell::new(Vec::with_capacity(64 * 1024)),
                data,
            };
            for _ in 0..times {
                run(&inputs);
            }
        }
        _ => eprintln!("count: run by bench/count.sh (count --list | count ROW ENTRIES TIMES)"),
    }
}
