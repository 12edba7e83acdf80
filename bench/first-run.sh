#!/usr/bin/env bash
# The README's main command on a fresh clone: how long until the first plan
# is drawn, and until the turn ends (the registry already downloaded, as a
# user who has built any Rust project has it):
#
#   bench/first-run.sh            (clones this repository's HEAD to a temporary folder)
#
# The board runs in a pseudo-terminal (`script`), as a person sees it, so it
# draws live; the first line with a plan's marker is the first plan.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet "$root" "$work/clone"
cd "$work/clone"

start=$(date +%s.%N)
first=""
while IFS= read -r line; do
    if [ -z "$first" ] && [[ "$line" == *"▣"* ]]; then
        first=$(date +%s.%N)
    fi
done < <(script -qefc "cargo run -q -p acp-plan -- board -- cargo run -q -p plan-examples --example agent" /dev/null)
end=$(date +%s.%N)

printf 'first plan drawn after %.1f s; the turn ended after %.1f s\n' \
    "$(echo "$first - $start" | bc)" "$(echo "$end - $start" | bc)"
