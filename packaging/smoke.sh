#!/usr/bin/env bash
# The packages in OUT (from packaging/build.sh), tried as a user installs
# them: the wheel into a fresh virtual environment (`pip install --no-index`)
# and the npm tarballs into a fresh folder (`npm install ./a.tgz ./b.tgz`),
# each with a fresh HOME and nothing from the build on PATH. From each:
# `acp-plan --version`, `acp-plan check --scripted-model --expect-plans --
# AGENT...` (exit 0) and `acp-plan board` drawing AGENT through
# `acp-plan proxy`. Prints each install's time.
#
#   bash packaging/smoke.sh OUT AGENT [ARGS...]
set -euo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: bash packaging/smoke.sh OUT AGENT [ARGS...]" >&2
  exit 2
fi
out=$(cd "$1" && pwd)
shift
agent=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
base_path="/usr/local/bin:/usr/bin:/bin"
node_dir=$(dirname "$(command -v node)")
python=${PYTHON:-python3}
# A bound on each run where coreutils' `timeout` is installed (`gtimeout` on
# macOS with Homebrew's coreutils); unbounded elsewhere.
bound=()
if command -v timeout >/dev/null; then
  bound=(timeout 300)
elif command -v gtimeout >/dev/null; then
  bound=(gtimeout 300)
fi
venv_bin=bin
[[ $(uname -s) == MINGW* || $(uname -s) == MSYS* ]] && venv_bin=Scripts

try() {
  local name=$1 acp=$2 home=$3
  local run=(env -i "HOME=$home" "PATH=$(dirname "$acp"):$node_dir:$base_path" "TMPDIR=${TMPDIR:-/tmp}")
  local version
  version=$("${run[@]}" acp-plan --version)
  echo "$name: $version at $acp"
  "${run[@]}" ${bound[@]+"${bound[@]}"} acp-plan check --scripted-model --expect-plans --timeout 60 -- "${agent[@]}" >"$work/$name.check" 2>&1 || {
    cat "$work/$name.check" >&2
    echo "$name: check did not pass on ${agent[*]}" >&2
    exit 1
  }
  tail -n 1 "$work/$name.check"
  "${run[@]}" ${bound[@]+"${bound[@]}"} acp-plan board --json --timeout 30 --scripted-model -- acp-plan proxy -- "${agent[@]}" >"$work/$name.board" 2>&1 || {
    cat "$work/$name.board" >&2
    echo "$name: board through the proxy failed" >&2
    exit 1
  }
  grep -q '"plans"' "$work/$name.board" || {
    echo "$name: the board drew no plan through the proxy" >&2
    exit 1
  }
  echo "$name: board through the proxy: ok"
}

# PyPI: the wheel, offline, into a fresh virtual environment.
mkdir -p "$work/pypi-home"
start=$EPOCHREALTIME
"$python" -m venv "$work/venv"
"$work/venv/$venv_bin/pip" install --quiet --no-index "$out"/acp_plan-*.whl
echo "pypi: installed in $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
try pypi "$work/venv/$venv_bin/acp-plan" "$work/pypi-home"

# npm: the launcher and this platform's package, into a fresh folder.
mkdir -p "$work/npm" "$work/npm-home"
start=$EPOCHREALTIME
launcher=$(ls "$out"/acp-plan-[0-9]*.tgz)
platform=$(ls "$out"/acp-plan-*-*.tgz | grep -v -- "$launcher" | head -n 1)
(cd "$work/npm" && env HOME="$work/npm-home" npm install --silent --no-fund --no-audit --offline \
  "$launcher" "$platform" >/dev/null)
echo "npm: installed in $(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
try npm "$work/npm/node_modules/.bin/acp-plan" "$work/npm-home"
