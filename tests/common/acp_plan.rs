//! The `acp-plan` command as the harness builds it (the same library and
//! entry point as `acp-plan/src/main.rs`), so a test can start it as a
//! process: `acp-plan proxy -- tool-agent ...` under `check`.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(acp_plan::main(std::env::args_os()))
}
