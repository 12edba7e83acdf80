//! The `acp-schema` conversions against the standalone schema's stable plan
//! types (1.20 and newer). Cargo allows one 1.x of the schema in a build and
//! this workspace's is the SDK's (1.17.0), so those tests live in
//! `schema-stable/`, a workspace with its own lockfile; this test runs them
//! there with a child `cargo test`, bounded, so that `cargo test --workspace`
//! covers both schemas.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A cold build of that workspace takes about a minute on two cores.
const TIMEOUT: Duration = Duration::from_mins(15);

/// This workspace's target folder, found from the running test binary
/// (`target/<profile>/deps/<test>`), so the child's build sits beside ours.
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.ancestors()
        .nth(3)
        .map_or_else(|| PathBuf::from("target"), Path::to_path_buf)
}

/// Reads a child's pipe to its end on a thread of its own, so a full pipe
/// never stalls the child while we wait.
fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    })
}

#[test]
fn the_conversions_hold_against_the_stable_schema() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema-stable");
    let mut child = Command::new(env!("CARGO"))
        .args(["test", "--locked", "--quiet"])
        // The folder's `.cargo/config.toml` tells its tests where the data is.
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", target_dir().join("schema-stable"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cargo starts");
    let stdout = drain(child.stdout.take().expect("piped"));
    let stderr = drain(child.stderr.take().expect("piped"));
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("cargo's status") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`cargo test` in {} took over {TIMEOUT:?}", dir.display());
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    assert!(
        status.success(),
        "`cargo test` in {} failed ({status}):\n{stdout}\n{stderr}",
        dir.display()
    );
    // Its test file ran (not an empty filter or a skipped target).
    assert!(
        stdout.contains("test result: ok.") && !stdout.contains("ok. 0 passed"),
        "the stable schema's tests did not run:\n{stdout}"
    );
}
