//! A plan through the standalone schema crate's stable v1 types
//! (`agent-client-protocol-schema` 1.20 and newer, plan-core's `acp-schema`):
//! a markdown plan with its path and an items plan go into the schema's
//! types and back unchanged, and
//! the schema writes them byte for byte as plan-core does; a relative path from their side is refused.
//!
//! ```text
//! cargo run --example schema_round_trip     # in tests/schema-stable/
//! ```
//!
//! `.ci/drift` also builds and runs it as a new user's `main.rs`, beside
//! `cargo add agent-client-protocol-schema`, on the newest and the oldest
//! release plan-core claims.

use std::process::ExitCode;

use agent_client_protocol_schema::v1 as acp;
use plan_core::{SessionNotification, plan, wire::Spelling};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("schema_round_trip: {err}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let plans = [
        plan! { id: "design", markdown: "# Design\n- [ ] Draft", path: "/home/dev/PLAN.md" },
        plan! { id: "work", items: [high in_progress "Analyze", low pending "Ship"] },
    ];
    for plan in plans {
        let ours = SessionNotification::new("sess_1", plan.into());
        let theirs = acp::SessionNotification::try_from(&ours)?;
        let written = serde_json::to_string(&theirs)?;
        let ours_written = serde_json::to_string(&ours.to_value(Spelling::Acp)["params"])?;
        if written != ours_written {
            return Err(format!("the schema writes {written}, we write {ours_written}").into());
        }
        if SessionNotification::try_from(&theirs)? != ours {
            return Err(format!("changed on the way back: {written}").into());
        }
        println!("{written}");
    }
    let relative: acp::PlanUpdateContent = serde_json::from_str(
        r##"{"type":"markdown","planId":"p","content":"# Plan","path":"docs/PLAN.md"}"##,
    )?;
    match plan_core::PlanContent::try_from(&relative) {
        Ok(plan) => Err(format!("a relative path was let through: {plan:?}").into()),
        Err(err) => {
            println!("refused: {err}");
            Ok(())
        }
    }
}
