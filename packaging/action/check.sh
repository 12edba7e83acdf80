#!/usr/bin/env bash
# The GitHub Action's step (action.yml): `acp-plan check` on the agent, its
# report in the job summary ($GITHUB_STEP_SUMMARY) and each finding as an
# annotation. Runs anywhere: with GITHUB_STEP_SUMMARY unset the markdown
# goes to ./acp-plan-summary.md. Its exit status is check's (0 clean,
# 1 findings, 2 the agent could not be driven).
#
#   AGENT='claude-agent-acp' ARGS='--scripted-model --expect-plans' bash packaging/action/check.sh
#
# AGENT and ARGS are split into words as a shell would (no globbing);
# ACP_PLAN names the command (default: `acp-plan` on PATH).
set -euo pipefail
set -f
: "${AGENT:?AGENT is the agent command to check}"
read -r -a agent <<<"$AGENT"
read -r -a args <<<"${ARGS:-}"
summary=${GITHUB_STEP_SUMMARY:-acp-plan-summary.md}
status=0
"${ACP_PLAN:-acp-plan}" check "${args[@]}" --summary "$summary" --github-annotations -- "${agent[@]}" || status=$?
exit "$status"
