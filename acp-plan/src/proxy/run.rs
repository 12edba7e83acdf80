//! `acp-plan proxy` run on this process's standard streams: routed to
//! the stdio relay or the conductor's link.

use super::options::ProxyOptions;

/// Runs the proxy on this process's standard streams: in front of the
/// agent its command names (`stdio.rs`), or with none as a link of the
/// SDK conductor's chain (`chain.rs`); the exit status.
pub fn proxy(options: &ProxyOptions) -> u8 {
    match options.command.split_first() {
        Some((program, args)) => super::stdio::front(program, args, options.plan_opt_in),
        None => super::chain::link(options.plan_opt_in),
    }
}
