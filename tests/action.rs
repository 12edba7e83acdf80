//! The GitHub Action's step (`packaging/action/check.sh`, which `action.yml`
//! runs), run here as a runner would: `$GITHUB_STEP_SUMMARY` pointing at a
//! file, against our test agent whose plans reach no client (findings for
//! every kind). The summary holds every kind's verdict and every finding;
//! each finding is one `::error` annotation; the exit status is check's.

use std::process::Command;

#[test]
fn the_actions_script_writes_every_verdict_and_finding_to_the_job_summary() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("action-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let summary = dir.join("summary.md");
    std::fs::write(&summary, "# Earlier steps' summary\n").unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../packaging/action/check.sh");
    let output = Command::new("timeout")
        .args(["300", "bash", script])
        .env("ACP_PLAN", env!("CARGO_BIN_EXE_acp-plan-harness"))
        .env(
            "AGENT",
            format!("{} tool-calls", env!("CARGO_BIN_EXE_tool-agent")),
        )
        .env("ARGS", "--scripted-model --expect-plans --timeout 20")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    let markdown = std::fs::read_to_string(&summary).unwrap();
    // Appended, not overwritten: the job summary is the whole job's.
    assert!(
        markdown.starts_with("# Earlier steps' summary\n## acp-plan check"),
        "{markdown}"
    );
    assert!(markdown.contains("**exit 1**"), "{markdown}");
    for kind in ["v1 without `plan`", "v1 with `plan`", "v2 (draft)"] {
        let row = format!("| {kind} | ❌ ");
        assert!(markdown.contains(&row), "no verdict for {kind}: {markdown}");
    }
    // Every finding of the report is a row and an annotation.
    let annotations: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("::error "))
        .collect();
    let rows: Vec<&str> = markdown
        .lines()
        .filter(|l| l.contains("| `model-plan` |"))
        .collect();
    let reported = stdout
        .lines()
        .filter(|l| l.ends_with("[model-plan]") || l.contains("[model-plan]; fix:"))
        .count();
    assert!(reported > 0, "{stdout}");
    assert_eq!(annotations.len(), reported, "{stdout}");
    assert_eq!(rows.len(), reported, "{markdown}");
    assert!(
        annotations
            .iter()
            .all(|a| a.contains("[model-plan]") && a.contains("track_steps")),
        "{annotations:#?}"
    );
    // The plans each client was left with, drawn (here: none reached it).
    assert_eq!(
        markdown.matches("<details><summary>").count(),
        3,
        "{markdown}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
