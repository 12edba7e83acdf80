//! Compile-fail tests: every misuse of the macros is a compile error on the
//! offending token. One misuse per file under `tests/ui/`, with its `.stderr`.
//! Regenerate snapshots with `TRYBUILD=overwrite cargo test -p plan-harness --test ui` and
//! review the diff like code.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/plan/*.rs");
    t.compile_fail("ui/plan_json/*.rs");
    t.compile_fail("ui/derive_steps/*.rs");
    t.compile_fail("ui/derive_status/*.rs");
    t.compile_fail("ui/derive_content/*.rs");
    t.pass("ui/pass/*.rs");
    if trybuild_builds_in_repo_target() {
        t.compile_fail("ui/include_plan/*.rs");
        t.compile_fail("ui/include_plan_stream/*.rs");
    } else {
        eprintln!(
            "skipped tests/ui/include_plan and include_plan_stream: their fixture paths are relative to \
             target/tests/trybuild/plan-harness, and this build's target \
             directory is not the repository's `target/`"
        );
    }
}

/// `include_plan!` reads paths relative to the crate's directory, which under
/// trybuild is `<target>/tests/trybuild/plan-harness`; the cases reach their
/// fixtures with `../../../../tests/ui/include_plan/`, which holds only when
/// `<target>` is this repository's `target/` (the default, and CI's).
fn trybuild_builds_in_repo_target() -> bool {
    // This package is `tests/` in the repository.
    let Some(repo) = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent() else {
        return false;
    };
    // This test binary is `<target>/debug/deps/ui-<hash>`.
    let target = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.to_path_buf()));
    match (target, repo.join("target").canonicalize()) {
        (Some(target), Ok(expected)) => target.canonicalize().ok() == Some(expected),
        _ => false,
    }
}
