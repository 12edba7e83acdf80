//! Compile-fail tests: every misuse of the macros is a compile error on the
//! offending token. One misuse per file under `tests/ui/`, with its `.stderr`.
//! Regenerate snapshots with `TRYBUILD=overwrite cargo test --test ui` and
//! review the diff like code.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/plan/*.rs");
    t.compile_fail("tests/ui/plan_json/*.rs");
    t.compile_fail("tests/ui/derive_steps/*.rs");
    t.compile_fail("tests/ui/derive_status/*.rs");
    t.compile_fail("tests/ui/derive_content/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
