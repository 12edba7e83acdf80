#!/usr/bin/env bash
# Compile time is a feature; this measures it.
#
#   bench/compile-time.sh [calls]      (default: 500 calls)
#
# 1. The clean build of plan-macros with its dependencies (syn, quote,
#    proc-macro2), in a fresh target directory.
# 2. The build of a library crate of N public functions, each returning a 3-entry plan,
#    written with `plan!`, against the same crate written with plan-core's
#    builders. Dependencies are built first; only the crate itself is timed,
#    best of 3 runs.
#
# Everything happens in a temporary directory that is removed at the end.
set -euo pipefail

calls=${1:-500}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$work/target"

seconds() { # runs "$@" and prints how long it took, in seconds
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

echo "plan-macros clean build (with syn, quote, proc-macro2): $(seconds cargo build --quiet --manifest-path "$root/Cargo.toml" -p plan-macros) s"

make_crate() { # name, body-of-each-function generator
    local dir="$work/$1"
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
plan-core = { path = "$root/plan-core" }

[workspace]
TOML
    {
        echo "use plan_core::*;"
        for i in $(seq 1 "$calls"); do
            echo "pub fn plan_$i() -> PlanContent {"
            "$2" "$i"
            echo "}"
        done
    } >"$dir/src/lib.rs"
}

with_macro() {
    echo "    plan! { id: \"plan-$1\", items: [ high pending \"Step $1 a\", medium in_progress \"Step $1 b\", low completed \"Step $1 c\" ] }"
}

with_builders() {
    echo "    PlanContent::items(PlanId::new(\"plan-$1\").unwrap(), ["
    echo "        PlanEntry::new(\"Step $1 a\", Priority::High, Status::Pending),"
    echo "        PlanEntry::new(\"Step $1 b\", Priority::Medium, Status::InProgress),"
    echo "        PlanEntry::new(\"Step $1 c\", Priority::Low, Status::Completed),"
    echo "    ])"
}

for variant in with_macro with_builders; do
    make_crate "$variant" "$variant"
    manifest="$work/$variant/Cargo.toml"
    cargo build --quiet --manifest-path "$manifest" # dependencies, not timed
    best=""
    for _ in 1 2 3; do
        touch "$work/$variant/src/lib.rs"
        t=$(seconds cargo build --quiet --manifest-path "$manifest")
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
    done
    echo "$calls plans $variant: $best s (best of 3)"
done
