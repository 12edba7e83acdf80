#!/usr/bin/env bash
# Peak memory reading a 100 MB NDJSON stream of plan updates:
#
#   bench/peak-memory.sh [steps]      (default: 285000 notifications, ~100 MB)
#
# The stream is written by the `fixtures` example (4 sessions, up to 5 plans
# live in each, plans made and removed all along). Two readers, both built in release mode, read it from a file:
# plan-core's `board` example (`--json`: every line applied to a
# `SessionBoards`, the final state printed), and a minimal line reader on the
# published `agent-client-protocol-schema` crate (each line parsed into its
# v2 `UpdateSessionNotification` and dropped: it keeps no state at all).
# Peak memory is the maximum resident set size from `/usr/bin/time`.
set -euo pipefail

steps=${1:-285000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet --release --manifest-path "$root/Cargo.toml" --example fixtures --example board
# v2: removals are `plan_removed` (baseline since the stabilization), so a
# removed plan leaves the board.
"$root/target/release/examples/fixtures" --seed 1 --sessions 4 --plans 5 --steps "$steps" --protocol 2 >"$work/stream.ndjson"
echo "stream: $(wc -l <"$work/stream.ndjson") lines, $(($(wc -c <"$work/stream.ndjson") / 1000000)) MB"

mkdir -p "$work/published/src"
cat >"$work/published/Cargo.toml" <<'TOML'
[package]
name = "published-reader"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
agent-client-protocol-schema = { version = "=1.15.1", default-features = false, features = ["unstable_plan_operations", "unstable_protocol_v2"] }
serde = { version = "1", features = ["derive"] }
serde_json = "1"

[workspace]
TOML
cat >"$work/published/src/main.rs" <<'RUST'
use std::io::{BufRead, BufReader};

use agent_client_protocol_schema::v2::UpdateSessionNotification;

#[derive(serde::Deserialize)]
struct Message {
    params: UpdateSessionNotification,
}

fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let input = BufReader::new(std::fs::File::open(path).expect("readable"));
    let mut read = 0usize;
    for line in input.lines() {
        let line = line.expect("a line");
        let message: Message = serde_json::from_str(&line).expect("a notification");
        read += usize::from(!message.params.session_id.0.is_empty());
    }
    println!("{read}");
}
RUST
CARGO_TARGET_DIR="$work/target" cargo build --quiet --release --manifest-path "$work/published/Cargo.toml"

peak() { # runs "$@" and prints its maximum resident set size in MB
    /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.1f", $1 / 1024 }'
}
ours=$(peak "$root/target/release/examples/board" --json "$work/stream.ndjson")
theirs=$(peak "$work/target/release/published-reader" "$work/stream.ndjson")
echo "peak memory, plan-core board (all sessions' state kept): $ours MB"
echo "peak memory, published crate, minimal line reader (no state): $theirs MB"
echo "ratio: $(echo "scale=2; $ours / $theirs" | bc)"
