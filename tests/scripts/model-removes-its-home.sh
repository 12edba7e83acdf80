#!/usr/bin/env bash
# `acp-plan model` removes the throwaway home it made (where CODEX_HOME and
# QWEN_HOME point) when it is stopped, and ends with the signal's status:
# SIGTERM and SIGHUP here (a background job of a script ignores SIGINT,
# and the model leaves an ignored signal ignored). Run by .ci/run; every
# wait is bounded. Usage: model-removes-its-home.sh PROGRAM
set -euo pipefail
program=${1:?usage: model-removes-its-home.sh PROGRAM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "model-removes-its-home: $*" >&2; exit 1; }

for signal in TERM HUP; do
  "$program" model >"$work/out" 2>&1 &
  pid=$!
  home=""
  for _ in $(seq 100); do
    home=$(sed -n "s/^export CODEX_HOME='\(.*\)\/\.codex'$/\1/p" "$work/out")
    [[ -n $home ]] && break
    sleep 0.1
  done
  [[ -n $home && -d $home ]] || fail "no home printed: $(cat "$work/out")"
  kill -s "$signal" "$pid"
  status=0
  timeout 10 tail --pid="$pid" -f /dev/null || fail "SIG$signal did not end it"
  wait "$pid" || status=$?
  want=$((128 + $(kill -l "$signal")))
  [[ $status == "$want" ]] || fail "SIG$signal: exit $status, not $want"
  [[ ! -e $home ]] || fail "SIG$signal left $home behind"
done
