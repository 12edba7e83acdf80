#!/usr/bin/env bash
# Compile time is a feature; this measures it.
#
#   bench/compile-time.sh [calls] [rounds]      (default: 3000 calls, 5 rounds)
#
# 1. Clean builds, each in a fresh target directory: `plan-macros` with its
#    dependencies; a crate using plan-core with default features (the macros
#    included); and, for scale, a crate using only serde and serde_json.
# 2. A library crate of N public functions, each returning a 3-entry plan,
#    written three ways: with `plan!`, with plan-core's builders, and with the
#    published `agent-client-protocol-schema` crate's builders. Dependencies
#    are built first; only the crate itself is timed, in interleaved rounds
#    (one build of each variant per round); the minimum is quoted.
#
# Everything happens in a temporary directory that is removed at the end.
set -euo pipefail

calls=${1:-3000}
rounds=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { # runs "$@" and prints how long it took, in seconds
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

make_crate() { # name, dependencies (TOML lines), source generator
    local dir="$work/$1"
    mkdir -p "$dir/src"
    printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n%s\n\n[workspace]\n' "$1" "$2" >"$dir/Cargo.toml"
    "$3" >"$dir/src/lib.rs"
}

empty() { echo "pub fn nothing() {}"; }

plan_core_dep="plan-core = { path = \"$root/plan-core\" }"
serde_deps='serde = "1"
serde_json = "1"'
acp_dep='agent-client-protocol-schema = { version = "=1.15.1", default-features = false, features = ["unstable_plan_operations"] }'

echo "syn features used by plan-macros: $(grep '^syn' "$root/Cargo.toml" | sed 's/.*features = //')"
echo "clean build, plan-macros with syn, quote, proc-macro2: $(CARGO_TARGET_DIR="$work/target-macros" seconds cargo build --quiet --manifest-path "$root/Cargo.toml" -p plan-macros) s"
make_crate facade "$plan_core_dep" empty
echo "clean build, a crate using plan-core (default features): $(CARGO_TARGET_DIR="$work/target-facade" seconds cargo build --quiet --manifest-path "$work/facade/Cargo.toml") s"
make_crate serde_only "$serde_deps" empty
echo "clean build, a crate using serde + serde_json only: $(CARGO_TARGET_DIR="$work/target-serde" seconds cargo build --quiet --manifest-path "$work/serde_only/Cargo.toml") s"

with_macro() {
    echo "use plan_core::*;"
    for i in $(seq 1 "$calls"); do
        echo "pub fn plan_$i() -> PlanContent {"
        echo "    plan! { id: \"plan-$i\", items: [ high pending \"Step $i a\", medium in_progress \"Step $i b\", low completed \"Step $i c\" ] }"
        echo "}"
    done
}

# What `plan!` expands to, written out: the difference from `with_macro`
# is the cost of running the macro; from the builders, of the expansion.
with_expansion() {
    echo "use plan_core::*;"
    for i in $(seq 1 "$calls"); do
        echo "pub fn plan_$i() -> PlanContent {"
        echo "    ::plan_core::dsl::items.rows(\"plan-$i\", &[(\"Step $i a\", ::plan_core::dsl::high, ::plan_core::dsl::pending), (\"Step $i b\", ::plan_core::dsl::medium, ::plan_core::dsl::in_progress), (\"Step $i c\", ::plan_core::dsl::low, ::plan_core::dsl::completed), ])"
        echo "}"
    done
}

with_builders() {
    echo "use plan_core::*;"
    for i in $(seq 1 "$calls"); do
        echo "pub fn plan_$i() -> PlanContent {"
        echo "    PlanContent::items(PlanId::new(\"plan-$i\").unwrap(), ["
        echo "        PlanEntry::new(\"Step $i a\", Priority::High, Status::Pending),"
        echo "        PlanEntry::new(\"Step $i b\", Priority::Medium, Status::InProgress),"
        echo "        PlanEntry::new(\"Step $i c\", Priority::Low, Status::Completed),"
        echo "    ])"
        echo "}"
    done
}

with_published() {
    echo "use agent_client_protocol_schema::v1::*;"
    for i in $(seq 1 "$calls"); do
        echo "pub fn plan_$i() -> PlanUpdateContent {"
        echo "    PlanUpdateContent::items(\"plan-$i\", vec!["
        echo "        PlanEntry::new(\"Step $i a\", PlanEntryPriority::High, PlanEntryStatus::Pending),"
        echo "        PlanEntry::new(\"Step $i b\", PlanEntryPriority::Medium, PlanEntryStatus::InProgress),"
        echo "        PlanEntry::new(\"Step $i c\", PlanEntryPriority::Low, PlanEntryStatus::Completed),"
        echo "    ])"
        echo "}"
    done
}

export CARGO_TARGET_DIR="$work/target-calls"
variants="with_macro with_expansion with_builders with_published"
for variant in $variants; do
    case $variant in
        with_published) deps=$acp_dep ;;
        *) deps=$plan_core_dep ;;
    esac
    make_crate "$variant" "$deps" "$variant"
    cargo build --quiet --manifest-path "$work/$variant/Cargo.toml" # dependencies, not timed
done
# Interleaved: one run of each variant per round, so a slow moment of the
# machine falls on all three alike; the minimum of the rounds is quoted.
declare -A best
for round in $(seq 1 "$rounds"); do
    for variant in $variants; do
        touch "$work/$variant/src/lib.rs"
        t=$(seconds cargo build --quiet --manifest-path "$work/$variant/Cargo.toml")
        if [ -z "${best[$variant]:-}" ] || [ "$(echo "$t < ${best[$variant]}" | bc)" = 1 ]; then
            best[$variant]=$t
        fi
    done
done
for variant in $variants; do
    echo "$calls plans $variant: ${best[$variant]} s (minimum of $rounds interleaved runs)"
done
echo "plan! per call over the published builders: $(echo "scale=3; (${best[with_macro]} - ${best[with_published]}) * 1000 / $calls" | bc) ms"
echo "running plan!, per call: $(echo "scale=3; (${best[with_macro]} - ${best[with_expansion]}) * 1000 / $calls" | bc) ms"
