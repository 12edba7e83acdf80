#!/usr/bin/env bash
# Seeds the fuzz corpora with real messages: the protocol's examples and
# vectors (from tests/data), and the agent example's stream in every protocol mode.
set -euo pipefail
cd "$(dirname "$0")"
shared=${ACP_TEST_DATA:-../tests/data}
mkdir -p corpus/parse_message corpus/board corpus/markdown_steps
# Markdown plans as agents write them (tests/data/markdown-plans).
cp "$shared"/markdown-plans/*.md corpus/markdown_steps/
for f in "$shared"/spec/examples/*.json "$shared"/acp/vectors/[0-9]*.json; do
    cp "$f" corpus/parse_message/
done
# What the agent writes in each protocol mode, recorded while our client drives it.
for mode in "1" "1 --no-plan-capability" "2"; do
    name=$(echo "agent-v$mode" | tr ' ' '_')
    # shellcheck disable=SC2086
    (cd .. && cargo run -q -p plan-examples --example board -- --json --protocol $mode -- \
        sh -c "cargo run -q -p plan-examples --example agent -- --fast | tee fuzz/corpus/board/$name.ndjson") >/dev/null
done
grep -m 1 plan_update corpus/board/agent-v1.ndjson >corpus/parse_message/agent-line.json
