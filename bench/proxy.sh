#!/usr/bin/env bash
# `acp-plan proxy`'s cost on ordinary traffic: 100k lines an agent writes
# (message chunks, tool calls and their updates, the odd usage update)
# relayed by `acp-plan proxy -- cat FILE`, beside a `cat FILE | cat` relay
# of the same file, each started as a process. Prints each one's median of
# 21, the ratio and MB/s, and checks the output is byte for byte the input.
#
#   bench/proxy.sh [ACP_PLAN]     (default: target/release/acp-plan, built)
set -euo pipefail
cd "$(dirname "$0")/.."
acp=${1:-}
if [[ -z $acp ]]; then
  cargo build -q --release -p acp-plan
  acp=target/release/acp-plan
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/traffic.ndjson" <<'PY'
import json, sys
lines = []
for i in range(100_000):
    kind = i % 10
    if kind < 6:
        update = {"sessionUpdate": "agent_message_chunk",
                  "content": {"type": "text", "text": f"Looking at module {i}: the parser reads tokens one by one and "}}
    elif kind < 8:
        update = {"sessionUpdate": "tool_call", "toolCallId": f"call-{i}", "title": "bash",
                  "kind": "execute", "status": "pending",
                  "rawInput": {"command": f"cargo test -p crate{i % 7}", "timeout": 120}}
    elif kind < 9:
        update = {"sessionUpdate": "tool_call_update", "toolCallId": f"call-{i - 1}", "status": "completed",
                  "content": [{"type": "content", "content": {"type": "text", "text": "test result: ok. 12 passed"}}]}
    else:
        update = {"sessionUpdate": "usage_update", "used": i, "size": 200000}
    lines.append(json.dumps({"jsonrpc": "2.0", "method": "session/update",
                             "params": {"sessionId": "sess_1", "update": update}}, separators=(",", ":")))
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
# Each relay started as a process, as an editor starts its agent: the two
# alternate, 21 runs each, and the medians are compared (this machine's
# wall clock jumps by tens of percent from run to run).
python3 - "$acp" "$work" <<'PY'
import statistics, subprocess, sys, time
acp, work = sys.argv[1], sys.argv[2]
traffic, out = f"{work}/traffic.ndjson", f"{work}/out"
def run(cmd, shell=False):
    start = time.perf_counter()
    with open(out, "wb") as sink:
        subprocess.run(cmd, shell=shell, stdin=subprocess.DEVNULL, stdout=sink, check=True)
    return (time.perf_counter() - start) * 1000
cat, proxy = [], []
for _ in range(21):
    cat.append(run(f"exec cat {traffic} | cat", shell=True))
    proxy.append(run([acp, "proxy", "--", "cat", traffic]))
if open(out, "rb").read() != open(traffic, "rb").read():
    sys.exit("proxy: the output is not the input byte for byte")
mb = len(open(traffic, "rb").read()) / 1e6
c, p = statistics.median(cat), statistics.median(proxy)
print(f"100k lines, {mb:.1f} MB, median of 21: cat | cat {c:.1f} ms ({mb / c * 1000:.0f} MB/s); "
      f"acp-plan proxy -- cat {p:.1f} ms ({mb / p * 1000:.0f} MB/s); ratio {p / c:.2f}x "
      f"(target: within 2x); output byte for byte the input")
PY
