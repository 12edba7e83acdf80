//! `acp-plan`: draw, check and generate the plans ACP agents show.
//! Everything is in the library; see `acp-plan --help`.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(acp_plan::main(std::env::args_os()))
}
