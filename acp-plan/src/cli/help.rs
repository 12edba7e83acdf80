//! The examples and exit statuses after each subcommand's `--help`: text
//! a user reads, kept apart from the grammar that declares the arguments.

pub(super) const BOARD_EXAMPLES: &str = "\
Examples:
  acp-plan board --scripted-model -- claude-agent-acp       drive an agent on a scripted model, live
  acp-plan board --protocol 2 -- ./my-agent --acp           offer the v2 draft
  acp-plan board --json -- ./my-agent                       the final state as JSON
  acp-plan board recorded.ndjson                            read a recorded stream
  acp-plan board --strict < recorded.ndjson                 refuse what the SDKs would let through

Exit status: 0 done, 1 the input had invalid lines, 2 the agent could not be
driven or the input not read.";

pub(super) const CHECK_EXAMPLES: &str = "\
Examples:
  acp-plan check --scripted-model --expect-plans -- codex-acp      check an agent in CI, no model key
  acp-plan check --scripted-model --plan-mode -- claude-agent-acp  its plan mode: the markdown plan
  acp-plan check --cancel --json -- ./my-agent --acp               a cancelled turn too; JSON
  acp-plan check transcript.ndjson                                 judge a recorded transcript
  acp-plan check --protocol 1 recorded.ndjson                      as a v1 client reads it

With an agent's command after `--`, starts it once per kind of client (v1
without `plan`, v1 with `plan`, the v2 draft), runs a turn and judges what it
sends. A file is one JSON message, a JSON array, or NDJSON; each problem is
one line, FILE:LINE: at PATH: WHAT [RULE].

`--scripted-model` runs the agent on a scripted model (no key, no network)
and holds what each client received to the model's plans. An agent that
cannot work (no key, no model) could not be driven: the report quotes its
error and its last words on stderr, and says what to do.

Exit status: 0 clean, 1 findings, 2 the agent could not be driven or a file
could not be read.";

pub(super) const FIXTURES_EXAMPLES: &str = "\
Examples:
  acp-plan fixtures --seed 7 --plans 3 --steps 20 > stream.ndjson
  acp-plan fixtures --seed 7 --plans 3 --steps 20 --expected > expected.json

Feed stream.ndjson to your client line by line, then compare its state with
expected.json: one object per session with its live plans in order of
creation, each with `id`, `type`, `version`, `content`, `progress` for items
plans and `\"v1Plan\": true` for the v1 plan. The output is JSON either way.";

pub(super) const MODEL_EXAMPLES: &str = "\
Examples:
  acp-plan model                         serve the built-in script; print how to point an agent at it
  acp-plan model --port 8787 plan.json   a plan file's plans, on a port of your choosing

check and board start it themselves with --scripted-model.

Exit status: 2 when it cannot start (a script that cannot be used, a port
taken); otherwise it serves until stopped.";

pub(super) const TOOL_EXAMPLES: &str = "\
Examples:
  echo '{\"todos\":[{\"content\":\"Fix the parser\",\"status\":\"in_progress\",\"activeForm\":\"Fixing the parser\"}]}' \\
    | acp-plan tool todo-write                          as a v1 client with `plan` receives it
  acp-plan tool update-plan --protocol 2 < call.json    as a v2 client receives it
  acp-plan tool todo-write --no-plan-capability < call.json   a v1 client without `plan`

Reads the arguments of one call (JSON) on standard input, as the model sent
them, leniently as plan_core::tools reads them: what was corrected goes to
standard error. Prints the session/update line the client would receive.

Exit status: 0 sent, 1 the call could not be read (the error the model would
get is on standard error, nothing on standard output), 2 a wrong command line
or unreadable input.";

pub(super) const PROXY_EXAMPLES: &str = "\
Examples:
  acp-plan proxy -- opencode acp              your editor's agent command, behind the proxy
  acp-plan proxy -- claude-agent-acp          its plan-mode plan reaches a client without `plan`
  agent-client-protocol-conductor agent \"acp-plan proxy\" \"opencode acp\"   a link of the SDK's chain

In an editor's settings, the agent's command becomes `acp-plan` with the
arguments `proxy -- AGENT ...` (or `npx` with `-y acp-plan proxy -- AGENT
...`): docs/proxy.md has the Zed entry and the conductor line.

Exit status: the agent's; 1 when the agent died with requests of the client
unanswered (each is answered with error -32603) or ended by a signal; 2 when
the agent could not be started.";
