#!/bin/sh
# A wrapper for an agent that reads its model from a variable of its own:
# `check --scripted-model` gives every agent it has no profile for the
# variables of every API (OPENAI_BASE_URL among them); this passes the
# one the agent needs on, under the agent's own name for it.
TOOL_AGENT_ENDPOINT="$OPENAI_BASE_URL" exec tool-agent plans custom-env "$@"
