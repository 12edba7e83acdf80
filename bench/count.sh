#!/usr/bin/env bash
# Instructions per call of each row of versus.rs's group 5 (through the
# SDK), group 1's build + serialize and group 3's parse, counted by
# valgrind's cachegrind, and each row's ratio to the row it
# is compared with. A count does not move between runs as the Criterion
# figures do on this noisy machine, so it tells apart rows a few percent
# apart; it does not see cache misses or the allocator's wait, which the
# Criterion rows do. Needs valgrind (Debian: `apt install valgrind`).
#
#   bench/count.sh [FILTER]     (FILTER: an awk regular expression on the row's name)
#
# Each row runs TIMES and 3*TIMES calls; the difference over 2*TIMES is one
# call's count, with the setup (building the inputs) taken out.
set -euo pipefail

filter=${1:-.}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "count.sh: needs valgrind" >&2; exit 2; }

count=$(cd "$root" && cargo bench -q -p plan-harness --bench count --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*count-[^"]*\)".*/\1/p' | tail -1)
[ -x "$count" ] || { echo "count.sh: the count bench did not build" >&2; exit 2; }

# Instructions of ROW at ENTRIES entries, TIMES calls.
instructions() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$count" "$1" "$2" "$3" 2>&1 >/dev/null |
        awk '/I *refs/ { gsub(",", "", $NF); print $NF }'
}

declare -A per_call
rows=()
while IFS=$'\t' read -r row versus; do
    rows+=("$row")
    for entries in 10 100; do
        times=$((entries == 10 ? 100 : 20))
        low=$(instructions "$row" "$entries" "$times")
        high=$(instructions "$row" "$entries" $((3 * times)))
        per_call["$row/$entries"]=$(((high - low) / (2 * times)))
    done
    per_call["$row/versus"]=$versus
done < <("$count" --list)

printf '| row | instructions per call, 10 / 100 entries | against |\n|---|---|---|\n'
for row in "${rows[@]}"; do
    echo "$row" | awk -v f="$filter" '$0 ~ f { found = 1 } END { exit !found }' || continue
    versus=${per_call["$row/versus"]}
    against=""
    if [ -n "$versus" ]; then
        against=$(awk -v a="${per_call["$row/10"]}" -v b="${per_call["$row/100"]}" \
            -v c="${per_call["$versus/10"]}" -v d="${per_call["$versus/100"]}" -v v="$versus" \
            'BEGIN { printf "%s: %d / %d (%.3f× / %.3f×)", v, c, d, a / c, b / d }')
    fi
    printf '| %s | %d / %d | %s |\n' "$row" "${per_call["$row/10"]}" "${per_call["$row/100"]}" "$against"
done
