#!/usr/bin/env bash
# The versus bench's rows that match FILTER, run ROUNDS times, each row's
# median over the rounds: on this noisy 2-core machine one Criterion run of
# two rows a few seconds apart can differ by 15% with no change of code, so
# the ratios docs/figures.md quotes for close rows are of these medians.
#
#   bench/repeat.sh FILTER [rounds]      (default: 5 rounds)
#
# FILTER is Criterion's (a regular expression on "group/row/size"). Prints
# one line per row: its median time in µs over the rounds, then each round's.
set -euo pipefail

filter=${1:?usage: bench/repeat.sh FILTER [rounds]}
rounds=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for round in $(seq "$rounds"); do
    (cd "$root" && cargo bench --quiet -p plan-harness --bench versus -- "$filter") \
        > "$work/$round.txt" 2>/dev/null
done

# Criterion prints "NAME time: [low median high]", the name alone on its line
# when it is long; each median in µs.
awk '
    function us(value, unit) {
        if (unit == "ns") return value / 1000
        if (unit == "ms") return value * 1000
        if (unit == "s") return value * 1000000
        return value
    }
    /time:/ {
        line = $0
        sub(/^ +/, "", line)
        name = (line ~ /^time:/) ? last : substr(line, 1, index(line, " time:") - 1)
        sub(/ +$/, "", name)
        split(substr(line, index(line, "[") + 1), t, " ")
        times[name] = times[name] " " us(t[3], t[4])
        if (!(name in seen)) { seen[name] = 1; order[++n] = name }
        next
    }
    NF { last = $0; sub(/ +$/, "", last) }
    END {
        for (i = 1; i <= n; i++) {
            name = order[i]
            count = split(times[name], v, " ")
            for (a = 1; a <= count; a++) sorted[a] = v[a] + 0
            for (a = 1; a <= count; a++)
                for (b = a + 1; b <= count; b++)
                    if (sorted[b] < sorted[a]) { x = sorted[a]; sorted[a] = sorted[b]; sorted[b] = x }
            median = (count % 2) ? sorted[(count + 1) / 2] : (sorted[count / 2] + sorted[count / 2 + 1]) / 2
            printf "%-70s %10.3f µs  (%s )\n", name, median, times[name]
        }
    }
' "$work"/*.txt
