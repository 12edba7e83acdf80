//! Every ACP test vector in `tests/data/acp/vectors/` is classified as its README
//! says (read with SPEC.md: vectors 10–13 in the RFD spelling are valid for
//! us, and 27's `planCapabilities` does advertise plan support).

mod common;

use plan_core::{
    PlanContent, SessionNotification, SessionUpdate,
    wire::{ClientCapabilities, Spelling},
};
use serde_json::Value;

/// What we expect of one vector.
#[derive(Debug)]
enum Verdict {
    /// Reads strictly, passes `check`, and writes back the same JSON in `Spelling`.
    Valid(Spelling),
    /// Reads (a tolerant reader keeps it) and writes back the same JSON, but
    /// `check` reports the sender's violations at these paths.
    Nonconforming(Spelling, &'static [&'static str]),
    /// Strict reading fails at `path` with a message containing `says`.
    Invalid {
        path: &'static str,
        says: &'static str,
    },
    /// Strict reading fails as `Invalid`; lenient reading skips what is at
    /// `path` and keeps `kept` entries.
    Lenient {
        path: &'static str,
        says: &'static str,
        kept: usize,
    },
    /// Client capabilities: whether they advertise plan support, and in which spelling.
    Caps(Option<Spelling>),
    /// Reads strictly and passes `check`; written back with `"path": null`
    /// left out (null and absent both mean no file; we write absent, as the
    /// stabilized SDK types do).
    NullPath,
    /// Several messages in order (checked by their own test).
    Sequence,
    /// Strict reading fails as `Invalid`; lenient reading keeps the value
    /// (the SDKs read it) and reports it (checked by its own test).
    Kept {
        path: &'static str,
        says: &'static str,
    },
}

use Spelling::{Acp, Rfd};
use Verdict::{Caps, Invalid, Kept, Lenient, Nonconforming, NullPath, Sequence, Valid};

const MISSING_ID: &str = "missing required field `planId` (or `id`, its RFD spelling)";

const VERDICTS: &[(&str, Verdict)] = &[
    ("01-v1-plan-docs.json", Valid(Acp)),
    ("02-v1-plan-prompt-turn.json", Valid(Acp)),
    ("03-v1draft-plan-update-items.json", Valid(Acp)),
    ("04-draft-plan-update-markdown.json", Valid(Acp)),
    // `file` plans are pre-stable: read and kept, reported by `check`.
    (
        "05-draft-plan-update-file.json",
        Nonconforming(Acp, &["params.update.plan.type"]),
    ),
    ("06-draft-plan-removed.json", Valid(Acp)),
    ("07-v2-plan-update-items-docs.json", Valid(Acp)),
    ("08-v2-migration-v1-side.json", Valid(Acp)),
    ("09-v2-migration-v2-side.json", Valid(Acp)),
    ("10-rfd-plan-update-items-id.json", Valid(Rfd)),
    ("11-rfd-plan-update-markdown-id.json", Valid(Rfd)),
    (
        "12-rfd-plan-update-file-id.json",
        Nonconforming(Rfd, &["plan.type"]),
    ),
    ("13-rfd-plan-removed-id.json", Valid(Rfd)),
    ("14-v2-unknown-underscore-plan-type.json", Valid(Acp)),
    (
        "15-v2-items-missing-planid-and-entries.json",
        Invalid {
            path: "",
            says: MISSING_ID,
        },
    ),
    (
        "16-v2-file-missing-uri.json",
        Invalid {
            path: "",
            says: "missing required field `uri`",
        },
    ),
    (
        "17-v2-markdown-missing-content.json",
        Invalid {
            path: "",
            says: "missing required field `content`",
        },
    ),
    (
        "18-v2-unknown-type-missing-planid.json",
        Invalid {
            path: "",
            says: MISSING_ID,
        },
    ),
    (
        "19-v2-plan-removed-missing-planid.json",
        Invalid {
            path: "",
            says: MISSING_ID,
        },
    ),
    (
        "20-v2-items-entries-not-array.json",
        Invalid {
            path: "plan.entries",
            says: "expected an array, found a string",
        },
    ),
    (
        "21-v2-items-entries-with-junk-item.json",
        Lenient {
            path: "plan.entries[0]",
            says: "expected an object, found a number",
            kept: 1,
        },
    ),
    ("22-v2-items-empty-entries.json", Valid(Acp)),
    ("23-v2-entry-status-cancelled.json", Valid(Acp)),
    (
        "24-v2-entry-nonunderscore-custom-values.json",
        Nonconforming(Acp, &["plan.entries[0].priority", "plan.entries[0].status"]),
    ),
    ("25-v1-client-capabilities-plan.json", Caps(Some(Acp))),
    ("26-v1-client-capabilities-plan-null.json", Caps(None)),
    (
        "27-v1-client-capabilities-planCapabilities-legacy.json",
        Caps(Some(Rfd)),
    ),
    (
        "28-tck-plan-missing-plan-id.json",
        Invalid {
            path: "plan",
            says: MISSING_ID,
        },
    ),
    ("29-rustsdk-testy-v1-plan.json", Valid(Acp)),
    (
        "30-rustsdk-v1-plan-update-file.json",
        Nonconforming(Acp, &["plan.type"]),
    ),
    (
        "31-v1-plan-with-cancelled-invalid.json",
        Nonconforming(Acp, &["entries[0].status"]),
    ),
    ("32-stable-markdown-path.json", Valid(Acp)),
    ("33-stable-markdown-path-null.json", NullPath),
    (
        "34-stable-markdown-relative-path.json",
        Kept {
            path: "params.update.plan.path",
            says: "a markdown plan's `path` must be absolute",
        },
    ),
    (
        "35-stable-file-type.json",
        Nonconforming(Acp, &["params.update.plan.type"]),
    ),
    ("36-stable-type-change-same-plan.json", Sequence),
];

/// The vector's kind, from the manifest.
fn kinds() -> Vec<(String, String)> {
    let path = common::data_dir().join("acp/vectors/_manifest.json");
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    manifest
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["file"].as_str().unwrap().to_owned(),
                v["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// A vector read strictly, written back in `spelling`, and its `check` result
/// as the violations' paths.
fn read(
    kind: &str,
    text: &str,
    spelling: Spelling,
) -> Result<(Value, Vec<String>), plan_core::Error> {
    let paths = |r: Result<(), Vec<plan_core::agent::Violation>>| {
        r.err()
            .unwrap_or_default()
            .iter()
            .map(|v| v.path().to_owned())
            .collect()
    };
    Ok(match kind {
        "message" => {
            let m = SessionNotification::from_json(text)?;
            (m.to_value(spelling), paths(m.check()))
        }
        "update" => {
            let u = SessionUpdate::from_json(text)?;
            (u.to_value(spelling), paths(u.check()))
        }
        "plan" => {
            let p = PlanContent::from_json(text)?;
            let checked = SessionUpdate::plan_update(p.clone()).check();
            (p.to_value(spelling), paths(checked))
        }
        "caps" => (
            ClientCapabilities::from_json(text)?.to_value(spelling),
            Vec::new(),
        ),
        other => panic!("unknown vector kind {other}"),
    })
}

#[test]
fn every_vector_has_a_verdict() {
    let files: Vec<String> = common::json_files("acp/vectors")
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let judged: Vec<&str> = VERDICTS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        files, judged,
        "a vector was added or removed: give it a verdict"
    );
}

#[test]
fn every_vector_is_classified_as_its_readme_says() {
    let kinds = kinds();
    for (name, text) in common::json_files("acp/vectors") {
        let kind = &kinds.iter().find(|(f, _)| *f == name).unwrap().1;
        let verdict = &VERDICTS.iter().find(|(n, _)| *n == name).unwrap().1;
        let original: Value = serde_json::from_str(&text).unwrap();
        match verdict {
            Valid(spelling) | Nonconforming(spelling, _) => {
                let (written, violations) =
                    read(kind, &text, *spelling).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(written, original, "{name}: written back differently");
                let expected: &[&str] = match verdict {
                    Nonconforming(_, paths) => paths,
                    _ => &[],
                };
                assert_eq!(violations, expected, "{name}: check()");
            }
            Invalid { path, says } | Lenient { path, says, .. } | Kept { path, says } => {
                let err = read(kind, &text, Rfd).expect_err(&name);
                assert_eq!(err.path(), *path, "{name}: {err}");
                assert!(err.to_string().contains(says), "{name}: {err}");
            }
            NullPath => {
                let (written, violations) =
                    read(kind, &text, Acp).unwrap_or_else(|e| panic!("{name}: {e}"));
                let mut expected = original.clone();
                expected["params"]["update"]["plan"]
                    .as_object_mut()
                    .unwrap()
                    .remove("path");
                assert_eq!(written, expected, "{name}: written back differently");
                assert!(violations.is_empty(), "{name}: {violations:?}");
            }
            Sequence => assert_eq!(kind, "messages", "{name}"),
            Caps(expected) => {
                let caps = ClientCapabilities::from_json(&text).unwrap();
                assert_eq!(caps.plan_spelling(), *expected, "{name}");
                assert_eq!(
                    caps.supports_plan_operations(),
                    expected.is_some(),
                    "{name}"
                );
                if let Some(spelling) = expected {
                    assert_eq!(
                        caps.to_value(*spelling),
                        original,
                        "{name}: written back differently"
                    );
                }
            }
        }
    }
}

#[test]
fn lenient_reading_skips_what_the_sdk_skips_and_says_so() {
    for (name, verdict) in VERDICTS {
        let Lenient { path, says, kept } = verdict else {
            continue;
        };
        let text =
            std::fs::read_to_string(common::data_dir().join("acp/vectors").join(name)).unwrap();
        let read =
            SessionUpdate::from_json_lenient(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let SessionUpdate::PlanUpdate { plan, .. } = &read.value else {
            panic!("{name}: not a plan_update")
        };
        assert_eq!(plan.entries().map(<[_]>::len), Some(*kept), "{name}");
        assert_eq!(read.skipped.len(), 1, "{name}: {:?}", read.skipped);
        assert_eq!(read.skipped[0].path(), *path);
        assert_eq!(read.skipped[0].reason(), *says);
    }
}

#[test]
fn lenient_reading_still_rejects_what_is_not_skippable() {
    let kinds = kinds();
    for (name, text) in common::json_files("acp/vectors") {
        let Some((_, Invalid { path, says })) = VERDICTS.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        let kind = kinds.iter().find(|(f, _)| *f == name).unwrap().1.as_str();
        let err = match kind {
            "plan" => PlanContent::from_json_lenient(&text).map(drop),
            "update" => SessionUpdate::from_json_lenient(&text).map(drop),
            "message" => SessionNotification::from_json_lenient(&text).map(drop),
            other => panic!("{name}: no invalid vector of kind {other} expected"),
        }
        .expect_err(&name);
        assert_eq!(err.path(), *path, "{name}: {err}");
        assert!(err.to_string().contains(says), "{name}: {err}");
    }
}

// ---- the stabilized protocol (2026-11-20): vectors 32-36 -------------------

fn vector(name: &str) -> String {
    std::fs::read_to_string(common::data_dir().join("acp/vectors").join(name)).unwrap()
}

#[test]
fn a_markdown_path_round_trips_byte_for_byte() {
    let text = vector("32-stable-markdown-path.json");
    let message = SessionNotification::from_json(&text).unwrap();
    let SessionUpdate::PlanUpdate { plan, .. } = &message.update else {
        panic!("a plan_update")
    };
    assert_eq!(plan.path().unwrap().as_str(), "/home/user/project/PLAN.md");
    let compact = serde_json::to_string(&serde_json::from_str::<Value>(&text).unwrap()).unwrap();
    assert_eq!(message.to_json(Acp), compact);
    // Both readers agree: the fast one above, and the reference one.
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(SessionNotification::from_value(value).unwrap(), message);
    assert_eq!(
        message.check_for_client(plan_core::wire::ClientKind::V1Plan),
        Ok(())
    );
    assert_eq!(
        message.check_for_client(plan_core::wire::ClientKind::V2),
        Ok(())
    );
}

#[test]
fn a_relative_path_is_refused_strictly_and_kept_and_reported_leniently() {
    let text = vector("34-stable-markdown-relative-path.json");
    let read = SessionNotification::from_json_lenient(&text).unwrap();
    assert_eq!(read.skipped.len(), 1, "{:?}", read.skipped);
    assert!(read.skipped[0].let_through());
    assert_eq!(read.skipped[0].path(), "params.update.plan.path");
    let SessionUpdate::PlanUpdate { plan, .. } = &read.value.update else {
        panic!("a plan_update")
    };
    assert_eq!(plan.path().unwrap().as_str(), "docs/PLAN.md");
    let violations = read.value.check().unwrap_err();
    assert_eq!(violations[0].rule(), "absolute-path");
    assert_eq!(violations[0].path(), "params.update.plan.path");
}

#[test]
fn a_file_plan_is_read_kept_and_reported_as_pre_stable() {
    let text = vector("35-stable-file-type.json");
    let message = SessionNotification::from_json(&text).unwrap();
    let violations = message.check().unwrap_err();
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].rule(), "pre-stable-file");
    assert!(violations[0].fix().unwrap().contains("`markdown`"));
    let mut board = plan_core::client::PlanBoard::new("sess_abc123def456");
    board.apply_json(&text).unwrap();
    assert_eq!(board.plans().next().unwrap().content().type_name(), "file");
}

#[test]
fn a_type_change_replaces_the_whole_plan() {
    let messages: Vec<Value> =
        serde_json::from_str(&vector("36-stable-type-change-same-plan.json")).unwrap();
    let mut board = plan_core::client::PlanBoard::new("sess_abc123def456");
    for message in &messages {
        board.apply_json(&message.to_string()).unwrap();
    }
    let plans: Vec<_> = board.plans().collect();
    assert_eq!(plans.len(), 1);
    assert_eq!(plans[0].id().as_str(), "implementation-plan");
    assert_eq!(plans[0].content().type_name(), "markdown");
    assert_eq!(
        plans[0].content().to_value(Acp),
        messages[1]["params"]["update"]["plan"]
    );
    // A custom type replacing it keeps its raw fields, as they came.
    let custom = r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_abc123def456","update":{"sessionUpdate":"plan_update","plan":{"type":"_timeline","planId":"implementation-plan","events":[{"at":1.50,"what":"x"}],"zeta":null}}}}"#;
    board.apply_json(custom).unwrap();
    let plan = board.plans().next().unwrap().content();
    assert_eq!(plan.type_name(), "_timeline");
    let PlanContent::Custom { fields, .. } = plan else {
        panic!("custom")
    };
    assert_eq!(fields["events"][0]["what"], "x");
    assert!(fields["zeta"].is_null());
    assert_eq!(board.plans().count(), 1);
}

#[test]
fn a_blank_plan_id_is_kept_leniently_and_named_by_check() {
    for (update, at) in [
        (
            r#"{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"  ","entries":[]}}"#,
            "params.update.plan.planId",
        ),
        (
            r#"{"sessionUpdate":"plan_removed","planId":""}"#,
            "params.update.planId",
        ),
    ] {
        let text = format!(
            r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s","update":{update}}}}}"#
        );
        assert!(
            SessionNotification::from_json(&text).is_err(),
            "strict reading refuses {update}"
        );
        let read = SessionNotification::from_json_lenient(&text).unwrap();
        assert!(
            read.skipped
                .iter()
                .all(plan_core::wire::Skipped::let_through),
            "{:?}",
            read.skipped
        );
        let violations = read.value.check().unwrap_err();
        assert_eq!(violations.len(), 1, "{violations:?}");
        assert_eq!(violations[0].rule(), "blank-plan-id");
        assert_eq!(violations[0].path(), at);
    }
}
