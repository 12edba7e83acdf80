#!/usr/bin/env bash
# The board ends the agent it started, children included, on every way out:
# an agent that leaves a child behind and never answers, ended by the
# board's timeout, by the agent's own death, and by Ctrl-C (SIGINT) and
# SIGTERM sent to the board. Also: a caller capturing the board's output
# (`out=$(board ...)`) gets it back, which a surviving child holding the
# output would prevent. Run by .ci/run after the examples are built; every
# wait is bounded. Usage: board-ends-its-agent.sh PROGRAM SUBCOMMAND
# (the installed command: `board-ends-its-agent.sh acp-plan board`)
set -euo pipefail
program=$1
sub=${2:?usage: board-ends-its-agent.sh PROGRAM SUBCOMMAND}
work=$(mktemp -d)
# On the way out, whatever a failed check left running (only our agents' children).
cleanup() {
  for pid_file in "$work"/*.pid; do
    [ -s "$pid_file" ] && kill "$(cat "$pid_file")" 2>/dev/null
  done
  rm -rf "$work"
}
trap 'cleanup || true' EXIT

# The agent: starts a child that would sleep for ever, writes its pid, then
# either reads for ever (`hang`) or exits (`die`).
cat > "$work/agent.sh" <<'AGENT'
#!/bin/sh
sleep 1000 &
echo $! > "$1"
[ "$2" = die ] && exit 0
exec cat > /dev/null
AGENT
chmod +x "$work/agent.sh"

fail() { echo "board-ends-its-agent: $*" >&2; exit 1; }

# The child is gone: no such process, or a zombie nobody reaped.
child_gone() {
  local pid
  pid=$(cat "$1")
  for _ in $(seq 50); do
    local state
    state=$(ps -o stat= -p "$pid" 2>/dev/null || true)
    case "$state" in "" | Z*) return 0 ;; esac
    sleep 0.1
  done
  fail "$2: the agent's child $pid outlived the board (state $state)"
}

# Ended by the board itself: a timeout, then the agent dying at once. The
# output is captured as a script would (`out=$(...)`), by a shell that
# `timeout` ends and that writes what it got to a file: a child left holding
# the output then hangs that shell (exit 124), not this script.
for how in hang die; do
  status=0
  timeout 40 bash -c 'out=$("$0" "$5" --timeout 1 -- "$1" "$2" "$3" 2>&1); code=$?; printf "%s" "$out" > "$4"; exit $code' \
    "$program" "$work/agent.sh" "$work/$how.pid" "$how" "$work/$how.out" "$sub" </dev/null >/dev/null 2>&1 || status=$?
  [ "$status" -ne 124 ] || fail "$how: capturing the board's output hung (the agent's child holds it)"
  [ "$status" -ne 0 ] || fail "$how: exit 0"
  grep -q "board:" "$work/$how.out" || fail "$how: no reason given: $(cat "$work/$how.out")"
  child_gone "$work/$how.pid" "$how"
done

# Ended by a signal to the board: it ends the agent's group, then itself as
# the signal would (128 + the signal's number).
set -m # background jobs keep SIGINT, as in an interactive shell
for signal in INT TERM; do
  rm -f "$work/$signal.pid"
  timeout 30 "$program" "$sub" --timeout 60 -- "$work/agent.sh" "$work/$signal.pid" hang >/dev/null 2>&1 &
  board_pid=$!
  for _ in $(seq 100); do [ -s "$work/$signal.pid" ] && break; sleep 0.05; done
  [ -s "$work/$signal.pid" ] || fail "$signal: the agent did not start"
  kill -s "$signal" "$board_pid" 2>/dev/null || true
  # timeout(1) passes the signal on; the board's status comes back through it.
  status=0
  wait "$board_pid" || status=$?
  [ "$status" -ge 128 ] || fail "$signal: the board exited $status, not by the signal"
  child_gone "$work/$signal.pid" "$signal"
done
echo "board-ends-its-agent: ok (timeout, agent death, SIGINT, SIGTERM)"
