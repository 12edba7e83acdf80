//! How a prompt turn ends and how it is cancelled, by protocol version: the
//! rules `check -- AGENT` judges a turn by, each with where the published
//! text says it, and the client's side of a turn that applies them. The
//! plan rules are the version table's (`plan_core`'s `rules/versions.rs`);
//! these are the ones only a checker of whole conversations needs.
//!
//! The sources are the JSON Schemas the TypeScript SDK 2.4.0 publishes
//! (`@agentclientprotocol/sdk`, `schema/v1/schema.json` and
//! `schema/v2/schema.json`; v2 is the draft as that release carries it),
//! kept in `tests/data/sdk-ts-2.4.0/`. A test finds every quote below in
//! them, so a rule cannot drift from its source unnoticed.

use std::io::Write;
use std::time::Instant;

use plan_core::wire::ClientKind;
use serde_json::json;

use super::conversation::Conversation;
use crate::check::rule;
use crate::process::connection::{Event, FromAgent, Incoming};

/// How strongly the source says it: a broken MUST is a finding; a SHOULD
/// not followed is a note (the protocol allows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The protocol requires it.
    Must,
    /// The protocol recommends it.
    Should,
}

/// One rule of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnRule {
    /// The protocol version it holds in.
    pub protocol: u16,
    /// What it says, in the checker's words.
    pub says: &'static str,
    /// How strongly.
    pub level: Level,
    /// Where it is said: the schema file and the definition.
    pub source: &'static str,
    /// The source's own words (white space aside).
    pub quote: &'static str,
}

/// v1: the prompt's response ends the turn, with its stop reason.
pub(crate) const V1_END: TurnRule = TurnRule {
    protocol: 1,
    says: "the turn ends with the `session/prompt` response, which carries a `stopReason`",
    level: Level::Must,
    source: "v1 schema.json, `PromptResponse` (`stopReason` required)",
    quote: "Indicates why the agent stopped processing the turn.",
};

/// v1: a cancelled turn is answered `cancelled`, not with an error.
pub(crate) const V1_CANCEL: TurnRule = TurnRule {
    protocol: 1,
    says: "after `session/cancel` the prompt is answered with `stopReason: \"cancelled\"`, not an error",
    level: Level::Must,
    source: "v1 schema.json, `StopReason` `cancelled`",
    quote: "This stop reason MUST be returned when the client sends a `session/cancel` notification, even if the cancellation causes exceptions in underlying operations.",
};

/// v2: the prompt's response only says the prompt was inserted.
pub(crate) const V2_ACCEPT: TurnRule = TurnRule {
    protocol: 2,
    says: "the `session/prompt` response acknowledges the inserted message (`messageId`); it does not end the turn",
    level: Level::Must,
    source: "v2 schema.json, `PromptResponse`",
    quote: "Response acknowledging that a user prompt was inserted into the ACP conversation.",
};

/// v2: foreground work ends with an idle state update.
pub(crate) const V2_END: TurnRule = TurnRule {
    protocol: 2,
    says: "the turn ends with a `state_update` to `idle`",
    level: Level::Must,
    source: "v2 schema.json, `StateUpdate`",
    quote: "The agent MUST report `idle` when no foreground activity remains.",
};

/// v2: the idle update that ends a turn says why.
pub(crate) const V2_STOP_REASON: TurnRule = TurnRule {
    protocol: 2,
    says: "the `idle` update that ends a turn carries a `stopReason`",
    level: Level::Should,
    source: "v2 schema.json, `IdleStateUpdate`",
    quote: "Agents SHOULD include a `stopReason` when the idle transition ends foreground work.",
};

/// v2: a cancel that ends foreground work ends it `cancelled`.
pub(crate) const V2_CANCEL: TurnRule = TurnRule {
    protocol: 2,
    says: "after `session/cancel` the work ends with an `idle` update whose `stopReason` is `cancelled`",
    level: Level::Must,
    source: "v2 schema.json, `ClientNotification` `session/cancel`",
    quote: "the Agent MUST send an idle `state_update` session update with the `cancelled` stop reason if cancellation ended active foreground work.",
};

/// v2: a prompt held, not yet inserted, is cancelled with its request.
pub(crate) const V2_HELD_PROMPT: TurnRule = TurnRule {
    protocol: 2,
    says: "`session/cancel` also cancels prompts not yet inserted: such a prompt is answered with error -32800 (Request Cancelled), which is no refusal",
    level: Level::Must,
    source: "v2 schema.json, `CancelSessionNotification` and `ErrorCode` -32800 (the SDK's `ActiveSession.prompt` docs: \"`session/cancel` or `session/close` answer held prompts with `-32800`\")",
    quote: "Notification to cancel a session's foreground work and its prompts not yet inserted.",
};

/// The request the client sends right after `session/cancel`, an
/// extension method no agent serves: its answer ("Method not found") shows
/// the agent had read the cancel, which came before it on the same pipe.
/// A turn that ends without `cancelled` after that answer broke the rule;
/// one that ends before it crossed the cancel, and nothing shows the agent
/// had read it (a note, never a finding).
pub(crate) const CANCEL_PROBE: &str = "_acp_plan/after_cancel";

/// The probe's id: its turn's prompt's, plus this.
const PROBE_OFFSET: u64 = 100;

/// How long a cancelled turn waits, once ended, for the probe's answer.
const PROBE_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// What the client knows of its cancel when the turn ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cancel {
    /// None was sent.
    NotSent,
    /// Sent; the agent has answered the request after it, so it had read it.
    Read,
    /// Sent; no answer to the request after it yet: the turn's end and the
    /// cancel may have crossed.
    Unknown,
}

/// The error code of a request cancelled before it was carried out.
pub(crate) const REQUEST_CANCELLED: i64 = -32800;

/// Every rule, in the order the documentation lists them.
pub const ALL: [TurnRule; 7] = [
    V1_END,
    V1_CANCEL,
    V2_ACCEPT,
    V2_END,
    V2_STOP_REASON,
    V2_CANCEL,
    V2_HELD_PROMPT,
];

/// Where a turn stands when the prompt's answer comes.
struct TurnSoFar {
    /// The prompt's id.
    id: u64,
    /// Judged as v1 (the answer ends the turn) or v2 (`idle` does).
    v1: bool,
    /// Whether `session/cancel` was sent.
    cancel_sent: bool,
    /// What the agent provably read of the cancel.
    known: Cancel,
}

/// v2: an `idle` state update that came before the prompt's answer, with
/// what the agent had provably read of a cancel then. Under v2 an agent
/// may report its state at any time: such an idle may end other work (a
/// prompt of ours not yet inserted is no turn yet), so it ends this turn
/// only if nothing follows the answer (no update, no other idle), or the
/// prompt is never answered at all.
type EarlyIdle = Option<(Option<String>, Cancel)>;

/// How the turn ends on an idle that came before the prompt's answer.
const EARLY_IDLE: &str = "the `idle` state update (which came before the prompt's answer, and nothing followed the answer)";

/// One turn; whether it ended (so another may follow). A cancelled
/// turn holds the scripted model's answers until the cancel is sent,
/// and waits a moment after it ends for the answer to the request sent
/// after the cancel (so the report can say whether it had been read).
pub(super) fn turn<W: Write>(
    c: &mut Conversation<'_, W>,
    id: u64,
    session: &str,
    cancel: bool,
) -> Result<bool, String> {
    let ended = run_turn(c, id, session, cancel);
    if cancel {
        if let Some(hold) = c.hold {
            hold(false);
        }
        let probe = id + PROBE_OFFSET;
        let deadline = Instant::now() + c.options.timeout.min(PROBE_WAIT);
        while c.link.is_pending(probe) {
            match c.next(deadline) {
                Incoming::Line(_) => {}
                Incoming::Timeout | Incoming::Closed => break,
            }
        }
    }
    ended
}

/// `session/cancel`, the model's answers released, and the request
/// (`probe`) whose answer shows the agent read the cancel.
fn send_cancel<W: Write>(
    c: &mut Conversation<'_, W>,
    session: &str,
    probe: u64,
) -> Result<(), String> {
    c.said("session/cancel");
    c.link.cancel(session)?;
    if let Some(hold) = c.hold {
        hold(false);
    }
    c.request(probe, CANCEL_PROBE, &json!({ "sessionId": session }))
}

fn run_turn<W: Write>(
    c: &mut Conversation<'_, W>,
    id: u64,
    session: &str,
    cancel: bool,
) -> Result<bool, String> {
    c.said("session/prompt");
    c.link.prompt(id, session, &c.options.prompt)?;
    c.progress = false;
    let v1 = c.run.judged_as != ClientKind::V2;
    let deadline = Instant::now() + c.options.timeout;
    let mut cancel_sent = false;
    let probe = id + PROBE_OFFSET;
    let mut probe_answered = false;
    // v2: whether the prompt was answered (inserted), and an idle before.
    let mut past_answer = false;
    let mut early_idle: EarlyIdle = None;
    let mut went_on = false;
    if cancel && let Some(hold) = c.hold {
        hold(true);
    }
    loop {
        let next = c.next(deadline);
        if cancel && !cancel_sent && under_way(&next) {
            send_cancel(c, session, probe)?;
            cancel_sent = true;
        }
        let known = match (cancel_sent, probe_answered) {
            (false, _) => Cancel::NotSent,
            (true, true) => Cancel::Read,
            (true, false) => Cancel::Unknown,
        };
        let event = match next {
            Incoming::Line(line) => line.event,
            Incoming::Timeout => return early_or_timed_out(c, early_idle, went_on, id, v1),
            Incoming::Closed => {
                return Err("the agent exited (closed its output) during the turn".to_owned());
            }
        };
        match event {
            Event::Answer { id: answered, .. } if answered == probe => {
                probe_answered = true;
            }
            Event::Answer {
                id: answered,
                outcome: result,
                ..
            } if answered == id => {
                let turn = TurnSoFar {
                    id,
                    v1,
                    cancel_sent,
                    known,
                };
                if let Some(end) = prompt_answered(c, &turn, result, &mut early_idle) {
                    return end;
                }
                past_answer = true;
            }
            // v2: the idle after the prompt's answer ends the turn.
            Event::Idle(stop) if !v1 && past_answer => {
                ended(c, stop.as_deref(), known, "the `idle` state update");
                return Ok(true);
            }
            Event::Idle(stop) if !v1 && early_idle.is_none() => early_idle = Some((stop, known)),
            Event::Update(_) if past_answer => went_on = true,
            _ => {}
        }
    }
}

/// Whether the agent is under way: its first update came. A turn the
/// client cancels is cancelled then, and the request whose answer shows
/// the cancel was read follows.
fn under_way(next: &Incoming) -> bool {
    matches!(
        next,
        Incoming::Line(FromAgent {
            event: Event::Update(_),
            ..
        })
    )
}

/// No other end of the turn in time: the idle that came before the
/// prompt's answer ends it if there was one and nothing came after the
/// answer (`went_on`: the turn went on past that idle), said in a note;
/// else [`timed_out`].
fn early_or_timed_out<W: Write>(
    c: &mut Conversation<'_, W>,
    early_idle: EarlyIdle,
    went_on: bool,
    id: u64,
    v1: bool,
) -> Result<bool, String> {
    let Some((stop, known)) = early_idle.filter(|_| !went_on) else {
        return timed_out(c, id, v1);
    };
    c.run.notes.push(format!(
        "the turn ended with {EARLY_IDLE}: under v2 the prompt's answer comes first, when the message is inserted"
    ));
    ended(c, stop.as_deref(), known, EARLY_IDLE);
    Ok(true)
}

/// The prompt's answer: the turn's end (`Some`), or `None` while it
/// goes on (v2 ends with the `idle` after it).
fn prompt_answered<W: Write>(
    c: &mut Conversation<'_, W>,
    turn: &TurnSoFar,
    result: Result<serde_json::Value, serde_json::Value>,
    early_idle: &mut EarlyIdle,
) -> Option<Result<bool, String>> {
    match result {
        // v2: `session/cancel` also cancels a prompt not yet inserted,
        // answered -32800: no turn of its own began, so an idle that came
        // already ends it; else the next one does.
        Err(error)
            if !turn.v1
                && turn.cancel_sent
                && error["code"].as_i64() == Some(REQUEST_CANCELLED) =>
        {
            let (stop, known) = early_idle.take()?;
            ended(c, stop.as_deref(), known, "the `idle` state update");
            Some(Ok(true))
        }
        // An agent that cannot work (no key, no model) refuses the
        // prompt: not a protocol fault, but nothing to judge.
        Err(error) => {
            c.link.forget(turn.id);
            Some(Err(c.what_to_do(format!(
                "the agent refused the prompt: {error}"
            ))))
        }
        Ok(result) if turn.v1 => {
            let stop = result["stopReason"].as_str();
            ended(c, stop, turn.known, "the prompt's response");
            Some(Ok(true))
        }
        // v2: the prompt is inserted; the turn ends with the next `idle`.
        Ok(_) => None,
    }
}

/// No end of the turn in time: the agent could not work (nothing came
/// from its model: exit 2), or a `turn-end` finding.
fn timed_out<W: Write>(c: &mut Conversation<'_, W>, id: u64, v1: bool) -> Result<bool, String> {
    // The prompt's missing answer is this finding, not a second one.
    c.link.forget(id);
    // Nothing from its model at all: it could not work (a model it
    // cannot reach, retried), which is no fault of its protocol.
    if !c.progress {
        return Err(c.what_to_do(format!(
            "the turn made no progress within {} s: no message, tool call or plan came from the agent's model, which it may not reach",
            c.options.timeout.as_secs_f32()
        )));
    }
    let how = if v1 {
        "the prompt's response with a `stopReason`"
    } else {
        "a `state_update` to `idle`"
    };
    turn_problem(
        c,
        format!(
            "the turn did not end within {} s; under v{} it ends with {how}",
            c.options.timeout.as_secs_f32(),
            c.run.judged_as.protocol().number()
        ),
    );
    Ok(false)
}

/// The turn ended with `stop` (from `source`): a stop reason is there
/// (v1: required; v2: recommended), and a cancelled turn says
/// `cancelled` where the agent had provably read the cancel.
fn ended<W: Write>(c: &mut Conversation<'_, W>, stop: Option<&str>, cancel: Cancel, source: &str) {
    match stop {
        None if c.run.judged_as == ClientKind::V2 => {
            let rule = V2_STOP_REASON;
            c.run.notes.push(format!(
                "{source} has no `stopReason`: allowed, but {} ({})",
                rule.says, rule.source
            ));
        }
        None => turn_problem(c, format!("{source} has no `stopReason`")),
        Some(stop) => {
            match cancel {
                _ if stop == "cancelled" => {}
                Cancel::NotSent => {}
                Cancel::Read => turn_problem(c, format!(
                    "a turn the client cancelled ends with `stopReason: \"cancelled\"`; {source} says `{stop}`, though the agent had read the cancel (it answered the request sent after it first)"
                )),
                Cancel::Unknown => c.run.notes.push(format!(
                    "{source} says `{stop}` after the client's `session/cancel`, but came before the agent answered the request sent right after the cancel: the turn's end and the cancel crossed, and nothing shows the agent had read it (not a finding)"
                )),
            }
            c.run.stop_reasons.push(stop.to_owned());
        }
    }
}

/// A `turn-end` finding, its fix for the version the turn ran under.
fn turn_problem<W: Write>(c: &mut Conversation<'_, W>, message: String) {
    let line = c.link.lines();
    let fix = if c.run.judged_as == ClientKind::V2 {
        "v2: send a `state_update` to `idle` with a `stopReason` (`cancelled` after `session/cancel`)"
    } else {
        "v1: answer `session/prompt` with a `stopReason` (`cancelled` after `session/cancel`)"
    };
    c.find(
        rule::TURN_END,
        line,
        String::new(),
        message,
        Some(fix.to_owned()),
    );
}
