#!/usr/bin/env bash
# Seeds the fuzz corpora with real messages: the protocol's examples and
# vectors (from tests/data), and the agent example's stream in both spellings.
set -euo pipefail
cd "$(dirname "$0")"
shared=${ACP_TEST_DATA:-../tests/data}
mkdir -p corpus/parse_message corpus/board
for f in "$shared"/spec/examples/*.json "$shared"/acp/vectors/[0-9]*.json; do
    cp "$f" corpus/parse_message/
done
for spelling in rfd acp; do
    (cd .. && cargo run -q --example agent -- --json --spelling "$spelling") >"corpus/board/agent-$spelling.ndjson"
    (cd .. && cargo run -q --example agent -- --json --legacy-client --spelling "$spelling") >"corpus/board/legacy-$spelling.ndjson"
done
head -n 1 corpus/board/agent-acp.ndjson >corpus/parse_message/agent-line.json
