#!/usr/bin/env bash
# `acp-plan proxy`'s cost on ordinary traffic: 100k lines an agent writes
# (message chunks, tool calls and their updates, the odd usage update)
# relayed by `acp-plan proxy -- cat FILE`, beside a `cat FILE | cat` relay
# of the same file. Prints each one's best of 5, the ratio and MB/s, and
# checks the output is byte for byte the input.
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
size=$(stat -c %s "$work/traffic.ndjson")
best() {
  local best=""
  for _ in 1 2 3 4 5; do
    local start end took
    start=$(date +%s%N)
    "$@" </dev/null >"$work/out"
    end=$(date +%s%N)
    took=$(((end - start) / 1000))
    if [[ -z $best || $took -lt $best ]]; then best=$took; fi
  done
  echo "$best"
}
relay() { cat "$work/traffic.ndjson" | cat; }
cat_us=$(best relay)
proxy_us=$(best "$acp" proxy -- cat "$work/traffic.ndjson")
cmp -s "$work/out" "$work/traffic.ndjson" || {
  echo "proxy: the output is not the input byte for byte" >&2
  exit 1
}
python3 - "$size" "$cat_us" "$proxy_us" <<'PY'
import sys
size, cat, proxy = (int(x) for x in sys.argv[1:])
mb = size / 1e6
print(f"100k lines, {mb:.1f} MB: cat | cat {cat/1000:.1f} ms ({mb/(cat/1e6):.0f} MB/s); "
      f"acp-plan proxy -- cat {proxy/1000:.1f} ms ({mb/(proxy/1e6):.0f} MB/s); "
      f"ratio {proxy/cat:.2f}x (target: within 2x); output byte for byte the input")
PY
