//! The names of the rules `check` reports beside the protocol's
//! ([`plan_core::agent::Violation::RULES`]): the RFD spelling, and the rules
//! of a conversation, as the report and docs/ci.md give them.

/// The rule of the RFD spelling: the plan id written `id`.
pub const ACP_SPELLING: &str = "acp-spelling";

/// A line that is not JSON-RPC 2.0, or an envelope that is malformed.
pub(crate) const JSON_RPC: &str = "json-rpc";
/// A request of the client that the agent never answered.
pub(crate) const UNANSWERED: &str = "unanswered-request";
/// A turn that does not end as its version requires, or not in time.
pub(crate) const TURN_END: &str = "turn-end";
/// An answer to `initialize` with a version the client did not offer
/// and cannot speak.
pub(crate) const NEGOTIATION: &str = "version-negotiation";
/// A message that no client can read (in a transcript, a `session/update`
/// with no usable plan; in a file, any plan message).
pub(crate) const UNREADABLE: &str = "unreadable-update";
/// Part of a message a lenient client drops without a word (and a strict
/// one refuses the message for).
pub(crate) const LENIENT_DROPS: &str = "lenient-drops";
/// No plan message at all, where plans were expected (`--expect-plans`).
pub(crate) const EXPECT_PLANS: &str = "expect-plans";
/// With `--scripted-model`: a plan the model made that did not reach
/// the client whole (a step lost, a status changed, the plan missing).
pub(crate) const MODEL_PLAN: &str = "model-plan";

/// A client of plan operations left holding a plan that stopped updating
/// beside a live plan with the same steps (a stale copy on screen).
pub(crate) const STALE_PLAN: &str = "stale-plan";

/// Every rule of a conversation (beside the version table's rules and
/// `acp-spelling`), in the order docs/ci.md lists them.
pub const ALL: [&str; 9] = [
    LENIENT_DROPS,
    UNREADABLE,
    JSON_RPC,
    UNANSWERED,
    TURN_END,
    NEGOTIATION,
    MODEL_PLAN,
    STALE_PLAN,
    EXPECT_PLANS,
];

/// What a conforming agent does instead, for a rule whose finding carries no
/// fix of its own (the version table's fallbacks carry theirs).
pub(crate) fn fix_for(rule: &str) -> Option<&'static str> {
    Some(match rule {
        JSON_RPC => {
            "write one JSON-RPC 2.0 message per line, and answer only requests that await an answer"
        }
        UNANSWERED => "answer every request, with a `result` or an `error`",
        TURN_END => {
            "v1: answer `session/prompt` with a `stopReason` (`cancelled` after `session/cancel`); v2: send a `state_update` to `idle` with one"
        }
        NEGOTIATION => {
            "answer `initialize` with the client's `protocolVersion` when you speak it, else with the newest you speak"
        }
        MODEL_PLAN => {
            "send each of the model's plans whole: every step, each status as the client's version says it (v1: `cancelled` as completed, marked)"
        }
        EXPECT_PLANS => {
            "send the plan as the agent works (a `plan` update, or `plan_update` where the client reads it); if the agent's model needs a tool to plan (Claude Code's TodoWrite is off by default), turn it on"
        }
        UNREADABLE | LENIENT_DROPS => {
            "send what the schema of the client's version allows (`PlanSender` writes nothing else)"
        }
        "acp-spelling" => "write the plan id as `planId`",
        "reserved-name" => "prefix a name of your own with `_` (`_blocked`)",
        "blank-content" | "blank-plan-id" => {
            "say something: content and plan ids need a character that is not white space"
        }
        "absolute-path" => {
            "send an absolute path (`/home/dev/PLAN.md`, `C:\\dev\\PLAN.md`), or none"
        }
        "v2-no-v1-plan" => "send `plan_update` with an `items` plan (`PlanSender` does)",
        _ => return None,
    })
}
