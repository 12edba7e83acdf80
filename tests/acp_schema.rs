//! Interop with the published `agent-client-protocol-schema` crate (feature
//! `acp-schema`): on every vector both sides read, converting either way and
//! serializing gives the same JSON in the ACP spelling.
//!
//! One file, two schemas: the root workspace builds it against the SDK's
//! schema (1.17.0 under SDK 5.2: plans pre-stable, `file`, no markdown
//! `path`), `schema-stable/` against the standalone schema's stable plan
//! types (1.20 and newer). Each test asks the schema which it is
//! ([`stable`]) and holds the conversions to what that schema expresses.

#[path = "common/data.rs"]
mod data;

use agent_client_protocol_schema::v1 as acp;
use plan_core::{
    PlanContent, SessionNotification, SessionUpdate, plan,
    wire::{ClientCapabilities, Spelling},
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Whether the schema in this build has the stable plan types (1.20 and
/// newer): its reader refuses the `file` plan type the stabilization removed.
fn stable() -> bool {
    serde_json::from_str::<acp::PlanUpdateContent>(
        r#"{"type":"file","planId":"p","uri":"file:///p.md"}"#,
    )
    .is_err()
}

/// Reads `text` both ways; when both accept it, checks that each converts
/// into the other and serializes to the same ACP JSON as the other.
/// Returns whether both sides read it.
fn agree<Ours, Theirs>(
    name: &str,
    text: &str,
    read: fn(&str) -> Result<Ours, plan_core::Error>,
    write: fn(&Ours) -> Value,
) -> bool
where
    Ours: PartialEq
        + std::fmt::Debug
        + for<'a> TryFrom<&'a Theirs, Error = plan_core::acp_schema::ConversionError>,
    Theirs: Serialize
        + DeserializeOwned
        + for<'a> TryFrom<&'a Ours, Error = plan_core::acp_schema::ConversionError>,
{
    let (Ok(ours), Ok(theirs)) = (read(text), serde_json::from_str::<Theirs>(text)) else {
        return false;
    };
    let Ok(converted) = Theirs::try_from(&ours) else {
        // v1 cannot express it (e.g. `cancelled`): the conversion says so.
        return false;
    };
    let theirs_json = serde_json::to_value(&theirs).unwrap();
    assert_eq!(
        serde_json::to_value(&converted).unwrap(),
        theirs_json,
        "{name}: ours → theirs"
    );
    // Their value, converted to ours, writes exactly their JSON (which may
    // hold defaults they add, such as `fs` in capabilities).
    let back = Ours::try_from(&theirs).unwrap_or_else(|e| panic!("{name}: theirs → ours: {e}"));
    assert_eq!(write(&back), theirs_json, "{name}: theirs → ours");
    true
}

#[test]
fn every_vector_both_sides_read_converts_losslessly() {
    let mut compared = Vec::new();
    for (name, text) in data::json_files("acp/vectors") {
        // Vector 27's `planCapabilities: {}` advertises plan support for us
        // (SPEC.md: the RFD spelling) and is an unknown key for the published
        // crate: the two disagree by design, not by loss.
        if name.starts_with("27-") {
            continue;
        }
        let both = if name.contains("client-capabilities") {
            agree::<ClientCapabilities, acp::ClientCapabilities>(
                &name,
                &text,
                ClientCapabilities::from_json,
                |c| c.to_value(Spelling::Acp),
            )
        } else {
            agree::<SessionUpdate, acp::SessionUpdate>(
                &name,
                &text,
                SessionUpdate::from_json,
                |u| u.to_value(Spelling::Acp),
            ) || agree::<PlanContent, acp::PlanUpdateContent>(
                &name,
                &text,
                PlanContent::from_json,
                |p| p.to_value(Spelling::Acp),
            ) || {
                let params = serde_json::from_str::<Value>(&text)
                    .ok()
                    .and_then(|v| v.get("params").cloned());
                params.is_some_and(|params| {
                    agree::<SessionNotification, acp::SessionNotification>(
                        &name,
                        &params.to_string(),
                        |p| {
                            SessionNotification::from_json(&format!(
                                r#"{{"jsonrpc":"2.0","method":"session/update","params":{p}}}"#
                            ))
                        },
                        |n| n.to_value(Spelling::Acp)["params"].clone(),
                    )
                })
            }
        };
        if both {
            compared.push(name[..2].to_owned());
        }
    }
    // The vectors in the ACP spelling that v1 expresses (14 has a custom
    // type, 23 `cancelled`; 10–13 are the RFD spelling; 34's relative path
    // is refused; 36 is two messages). The pre-stable schema has `file`
    // (05, 30, 35) and no `path` (32: refused, not dropped); the stable one
    // has `path` (32 round-trips it) and no `file`.
    let expected: &[&str] = if stable() {
        &[
            "01", "02", "03", "04", "06", "07", "08", "09", "22", "25", "26", "29", "32", "33",
        ]
    } else {
        &[
            "01", "02", "03", "04", "05", "06", "07", "08", "09", "22", "25", "26", "29", "30",
            "33", "35",
        ]
    };
    assert_eq!(compared, expected, "vectors compared");
}

#[test]
fn a_markdown_plans_path_goes_both_ways_or_is_refused_never_dropped() {
    let ours: SessionUpdate =
        plan! { id: "p", markdown: "# Plan", path: "/home/user/project/PLAN.md" }.into();
    let converted = acp::SessionUpdate::try_from(&ours);
    if stable() {
        let theirs = converted.unwrap();
        let json = serde_json::to_value(&theirs).unwrap();
        assert_eq!(json["plan"]["path"], "/home/user/project/PLAN.md");
        assert_eq!(SessionUpdate::try_from(&theirs).unwrap(), ours);
        // A relative path from their side is our error, as our strict reader says.
        // (Built from JSON: the pre-stable schema has no `.path(...)` to call.)
        let text = r##"{"type":"markdown","planId":"p","content":"# Plan","path":"docs/PLAN.md"}"##;
        let relative: acp::PlanUpdateContent = serde_json::from_str(text).unwrap();
        let err = PlanContent::try_from(&relative).unwrap_err();
        assert_eq!(err.path(), "path");
        let strict = PlanContent::from_json(text);
        assert_eq!(
            err.to_string(),
            strict.unwrap_err().to_string(),
            "the conversion refuses it as our reader does"
        );
    } else {
        let err = converted.unwrap_err();
        assert_eq!(err.path(), "plan.path");
        assert!(err.to_string().contains("has no markdown `path`"), "{err}");
    }
}

#[test]
fn a_file_plan_converts_only_where_the_schema_still_has_it() {
    // (Built by hand: `plan!` refuses to declare the removed type.)
    let ours = PlanContent::file(
        plan_core::PlanId::new("p").unwrap(),
        plan_core::wire::FileUri::new("file:///home/user/PLAN.md").unwrap(),
    );
    let converted = acp::PlanUpdateContent::try_from(&ours);
    if stable() {
        let err = converted.unwrap_err();
        assert_eq!(err.path(), "type");
        assert_eq!(
            err.to_string(),
            "at `type`: the plan type `file` left the protocol when plans were stabilized \
             (2026-11-20): send a `markdown` plan with the file's `path`"
        );
    } else {
        let theirs = converted.unwrap();
        assert_eq!(PlanContent::try_from(&theirs).unwrap(), ours);
    }
}

#[test]
fn what_v1_cannot_express_is_an_error_not_a_silent_skip() {
    let cases: [(SessionUpdate, &str); 4] = [
        (
            plan! { id: "p", items: [high cancelled "a"] }.into(),
            "at `plan.entries[0].status`: the status `cancelled` has no v1 equivalent",
        ),
        (
            plan! { id: "p", items: [_x pending "a"] }.into(),
            "at `plan.entries[0].priority`: the priority `_x` has no v1 equivalent",
        ),
        (
            plan! { id: "p", type: _timeline }.into(),
            "at `plan.type`: the plan type `_timeline` has no v1 equivalent",
        ),
        (plan! { entries: [high pending "a"] }.into(), ""),
    ];
    for (update, says) in cases {
        match acp::SessionUpdate::try_from(&update) {
            Ok(_) => assert!(says.is_empty()),
            Err(err) => assert_eq!(err.to_string(), says),
        }
    }
    let entry =
        plan_core::PlanEntry::new("a", plan_core::Priority::High, plan_core::Status::Cancelled);
    assert_eq!(
        acp::PlanEntry::try_from(&entry).unwrap_err().path(),
        "status"
    );
}

#[test]
fn a_notification_converts_with_its_envelope() {
    let ours = SessionNotification::new("sess_1", plan! { id: "p", markdown: "x" }.into());
    let theirs = acp::SessionNotification::try_from(&ours).unwrap();
    assert_eq!(theirs.session_id.0.as_ref(), "sess_1");
    assert_eq!(SessionNotification::try_from(&theirs).unwrap(), ours);
}

#[test]
fn every_vector_both_sides_read_converts_losslessly_in_v2() {
    use agent_client_protocol_schema::v2 as acp2;
    let mut compared = Vec::new();
    for (name, text) in data::json_files("acp/vectors") {
        if name.contains("client-capabilities") {
            continue;
        }
        let both = agree::<SessionUpdate, acp2::SessionUpdate>(
            &name,
            &text,
            SessionUpdate::from_json,
            |u| u.to_value(Spelling::Acp),
        ) || agree::<PlanContent, acp2::PlanUpdateContent>(
            &name,
            &text,
            PlanContent::from_json,
            |p| p.to_value(Spelling::Acp),
        );
        if both {
            compared.push(name[..2].to_owned());
        }
    }
    // v2 expresses `cancelled`, custom values and custom types, among the
    // bare updates and plans in the ACP spelling; the stable schema's v2
    // also the markdown `path` (not 36: two messages) and no `file`.
    let expected: &[&str] = if stable() {
        &["08", "09", "14", "22", "23", "24", "29", "31"]
    } else {
        &["08", "09", "14", "22", "23", "24", "29", "30", "31"]
    };
    assert_eq!(compared, expected, "vectors compared");

    let blocked: SessionUpdate =
        plan! { id: "p", items: [high _blocked "Wait", low cancelled "Drop"] }.into();
    let theirs = acp2::SessionUpdate::try_from(&blocked).unwrap();
    assert_eq!(SessionUpdate::try_from(&theirs).unwrap(), blocked);
}

/// The conversions map field to field; this holds them to what going through
/// the ACP spelling's JSON gives, both ways, on generated messages of every
/// kind of client (custom values and types, `_meta` everywhere).
#[test]
fn field_mappings_give_what_the_json_gives() {
    use agent_client_protocol_schema::v2 as acp2;
    use plan_core::fixtures::{ClientProfile, Generate};
    use plan_core::wire::ProtocolVersion;
    use proptest::test_runner::{Config, TestRunner};

    for client in ClientProfile::every_kind() {
        if client.spelling() == Spelling::Rfd {
            continue; // the published crate reads only the ACP spelling
        }
        let mut runner = TestRunner::new(Config::with_cases(200));
        runner
            .run(&Generate::new(client).notification(), |ours| {
                let json = ours.to_value(Spelling::Acp)["params"].clone();
                let expected = ours.clone();
                // What the schema cannot hold is refused at its key: a `path`
                // before the stabilization, a `file` plan after it.
                if let SessionUpdate::PlanUpdate { plan, .. } = &ours.update {
                    let refused = match plan {
                        PlanContent::Markdown { path: Some(_), .. } if !stable() => "path",
                        PlanContent::File { .. } if stable() => "type",
                        _ => "",
                    };
                    if !refused.is_empty() {
                        let err = match client.protocol() {
                            ProtocolVersion::V1 => acp::SessionNotification::try_from(&ours)
                                .map(drop)
                                .unwrap_err(),
                            ProtocolVersion::V2 => acp2::UpdateSessionNotification::try_from(&ours)
                                .map(drop)
                                .unwrap_err(),
                        };
                        assert_eq!(err.path(), format!("params.update.plan.{refused}"));
                        return Ok(());
                    }
                }
                match client.protocol() {
                    ProtocolVersion::V1 => {
                        let direct = acp::SessionNotification::try_from(&ours).unwrap();
                        let via_json: acp::SessionNotification =
                            serde_json::from_value(json).unwrap();
                        assert_eq!(direct, via_json);
                        let back = SessionNotification::try_from(&via_json).unwrap();
                        assert_eq!(back, expected);
                    }
                    ProtocolVersion::V2 => {
                        let direct = acp2::UpdateSessionNotification::try_from(&ours).unwrap();
                        let via_json: acp2::UpdateSessionNotification =
                            serde_json::from_value(json).unwrap();
                        assert_eq!(direct, via_json);
                        let back = SessionNotification::try_from(&via_json).unwrap();
                        assert_eq!(back, expected);
                    }
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{client:?}: {e}"));
    }
}
