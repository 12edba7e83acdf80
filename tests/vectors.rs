//! Every ACP test vector in `tests/data/acp/vectors/` is classified as its README
//! says (read with SPEC.md: vectors 10–13 in the RFD spelling are valid for
//! us, and 27's `planCapabilities` does advertise plan support).

mod common;

use plan_core::{ClientCapabilities, PlanContent, SessionNotification, SessionUpdate, Spelling};
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
}

use Spelling::{Acp, Rfd};
use Verdict::{Caps, Invalid, Lenient, Nonconforming, Valid};

const MISSING_ID: &str = "missing required field `planId` (or `id`, its RFD spelling)";

const VERDICTS: &[(&str, Verdict)] = &[
    ("01-v1-plan-docs.json", Valid(Acp)),
    ("02-v1-plan-prompt-turn.json", Valid(Acp)),
    ("03-v1draft-plan-update-items.json", Valid(Acp)),
    ("04-draft-plan-update-markdown.json", Valid(Acp)),
    ("05-draft-plan-update-file.json", Valid(Acp)),
    ("06-draft-plan-removed.json", Valid(Acp)),
    ("07-v2-plan-update-items-docs.json", Valid(Acp)),
    ("08-v2-migration-v1-side.json", Valid(Acp)),
    ("09-v2-migration-v2-side.json", Valid(Acp)),
    ("10-rfd-plan-update-items-id.json", Valid(Rfd)),
    ("11-rfd-plan-update-markdown-id.json", Valid(Rfd)),
    ("12-rfd-plan-update-file-id.json", Valid(Rfd)),
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
    ("30-rustsdk-v1-plan-update-file.json", Valid(Acp)),
    (
        "31-v1-plan-with-cancelled-invalid.json",
        Nonconforming(Acp, &["entries[0].status"]),
    ),
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
    let paths = |r: Result<(), Vec<plan_core::Violation>>| {
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
            Invalid { path, says } | Lenient { path, says, .. } => {
                let err = read(kind, &text, Rfd).expect_err(&name);
                assert_eq!(err.path(), *path, "{name}: {err}");
                assert!(err.to_string().contains(says), "{name}: {err}");
            }
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
