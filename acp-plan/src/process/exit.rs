//! A verb's exit status from what its run on this process's streams did.

/// A verb's exit status from its run on this process's streams: its own
/// status, 0 when a reader closed the output early (`| head`), else 2 with
/// the error said on standard error as `SUBCOMMAND: ERROR`.
pub(crate) fn exit_status(subcommand: &str, result: std::io::Result<u8>) -> u8 {
    match result {
        Ok(code) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("{subcommand}: {e}");
            2
        }
    }
}
