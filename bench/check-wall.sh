#!/usr/bin/env bash
# `check`'s wall time against its slowest kind of client: each kind runs at
# once with its own model and agent, so the whole check should take about
# as long as its slowest kind (held to 1.3x here; a bench, not a test).
#
#   bench/check-wall.sh [CHECK OPTIONS] -- AGENT [ARGS...]
#   bench/check-wall.sh --scripted-model --expect-plans --timeout 120 -- claude-agent-acp
#
# Prints the wall time, each kind's time (the report's `seconds`), and the
# ratio; exits 1 when the ratio is over 1.3. The acp-plan it runs is
# $ACP_PLAN, or the one on PATH.
set -euo pipefail
acp=${ACP_PLAN:-acp-plan}
report=$(mktemp)
start=$(date +%s.%N)
status=0
"$acp" check --json "$@" >"$report" || status=$?
end=$(date +%s.%N)
python3 - "$report" "$start" "$end" "$status" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
kinds = {k["kind"]: k["seconds"] for k in report["kinds"]}
slowest = max(kinds.values())
ratio = wall / slowest if slowest > 0 else float("inf")
print(f"check exit {sys.argv[4]}; wall {wall:.1f} s; " + ", ".join(f"{k} {s:.1f} s" for k, s in kinds.items()))
print(f"wall / slowest kind: {ratio:.2f}x (held to 1.3x)")
sys.exit(0 if ratio <= 1.3 else 1)
PY
rm -f "$report"
