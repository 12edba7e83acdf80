//! The macro's entry point: its input parsed, checked and expanded, or its
//! errors explained (each stage a file beside this one).

use super::source::read_text;

use std::path::PathBuf;

use crate::json_reader;
use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

use super::ast::DocumentSite;
use crate::errors::Errors;
use crate::plan::CheckedPlan;

pub(crate) fn include_plan(input: TokenStream) -> TokenStream {
    let path = match syn::parse2::<LitStr>(input) {
        Ok(path) => path,
        Err(err) => {
            let err = syn::Error::new(
                err.span(),
                "expected the fixture's path: `include_plan!(\"plans/refactor.json\")`",
            );
            return err.to_compile_error();
        }
    };
    match read(&path) {
        Ok((plan, file)) => {
            let file = file.to_string_lossy().into_owned();
            let value = crate::plan::expand_value(&plan);
            // Naming the file in `include_bytes!` makes Cargo rebuild when it changes.
            quote!({ const _: &[u8] = ::core::include_bytes!(#file); #value })
        }
        Err((err, v1)) => {
            // An expression of the type the fixture would have given, as
            // `plan!` does: the errors stand alone, with no "unreachable
            // statement" warning after them.
            let ty = if v1 {
                quote!(Plan)
            } else {
                quote!(PlanContent)
            };
            crate::on_error::invalid_value(&err, &ty, &TokenStream::new())
        }
    }
}

/// The checked plan and the file's full path; or the errors, and whether the
/// fixture looks like a v1 update (so the failed call still has its type).
fn read(lit: &LitStr) -> Result<(CheckedPlan, PathBuf), (syn::Error, bool)> {
    let relative = lit.value();
    let span = lit.span();
    let (text, file) = read_text(lit).map_err(|e| (e, false))?;
    let doc = json_reader::parse(&text)
        .map_err(|e| (syn::Error::new(span, format!("{relative}:{e}")), false))?;
    let mut errors = Errors::new(Vec::new());
    let mut reader = DocumentSite::new(&relative, span, 0, &mut errors);
    let message = reader.document(&doc);
    let v1 = message.as_ref().is_some_and(super::ast::Message::is_v1);
    let plan = message.and_then(|message| super::valid::message(&mut reader, message));
    errors
        .finish(plan)
        .map(|plan| (plan, file))
        .map_err(|err| (err, v1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Span;

    /// The errors `include_plan!` reports for `json`, one string each.
    fn errors(name: &str, json: &str) -> Vec<String> {
        let dir = std::env::temp_dir().join(format!("include-plan-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(name);
        std::fs::write(&file, json).unwrap();
        let lit = LitStr::new(&file.to_string_lossy(), Span::call_site());
        match read(&lit) {
            Ok(_) => Vec::new(),
            Err((err, _)) => err
                .into_iter()
                .map(|e| e.to_string().replace(&*file.to_string_lossy(), name))
                .collect(),
        }
    }

    #[test]
    fn errors_name_the_file_line_column_and_path() {
        let json = "{\n  \"type\": \"items\",\n  \"planId\": \"p\",\n  \"entries\": [\n    {\"content\": \"a\", \"priority\": \"high\", \"status\": \"pending\"},\n    {\"content\": \"b\", \"priority\": \"urgent\", \"status\": \"in_progess\"}\n  ]\n}";
        assert_eq!(
            errors("bad.json", json),
            [
                "bad.json:6:34: entries[1].priority: unknown priority `urgent`: custom names must begin with `_`; `urgent` is reserved for future ACP versions (write `_urgent`); known: `high`, `medium`, `low`",
                "bad.json:6:54: entries[1].status: unknown status `in_progess`; did you mean `in_progress`?",
            ]
        );
    }

    #[test]
    fn errors_come_in_the_files_order_whichever_stage_finds_them() {
        // Line 2: a rule (stage 2); line 4: a JSON type (stage 1); line 5: a
        // rule again.
        let json = "{\"type\": \"items\",\n \"planId\": \"\",\n \"entries\": [\n  {\"content\": \"a\", \"priority\": 7, \"status\": \"pending\"},\n  {\"content\": \"b\", \"priority\": \"low\", \"status\": \"blocked\"}]}";
        let lines: Vec<String> = errors("order.json", json)
            .iter()
            .map(|e| e.split(':').take(2).collect::<Vec<_>>().join(":"))
            .collect();
        assert_eq!(lines, ["order.json:2", "order.json:4", "order.json:5"]);
    }

    #[test]
    fn each_messages_required_keys_come_from_its_layout() {
        for (json, missing) in [
            (r#"{"type":"file","planId":"f"}"#, "uri"),
            (r#"{"type":"items","planId":"p"}"#, "entries"),
            (r#"{"sessionUpdate":"plan_update"}"#, "plan"),
            (
                r#"{"type":"items","planId":"p","entries":[{"content":"a","status":"pending"}]}"#,
                "priority",
            ),
            (
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"plan","entries":[]}}}"#,
                "sessionId",
            ),
            (r#"{"jsonrpc":"2.0","params":{}}"#, "method"),
            (
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"entries":[]}}}"#,
                "sessionUpdate",
            ),
            (
                r#"{"sessionUpdate":"plan_update","plan":{"planId":"p","entries":[]}}"#,
                "type",
            ),
        ] {
            let said = errors("layout.json", json);
            let wanted = format!("missing required field `{missing}`");
            assert!(
                said.iter().any(|e| e.contains(&wanted)),
                "{json}: {said:#?}"
            );
        }
    }

    /// A JSON object of `pairs`, leaving out the key `drop`.
    fn object(pairs: &[(&str, String)], drop: &str) -> String {
        let members: Vec<String> = pairs
            .iter()
            .filter(|(k, _)| *k != drop)
            .map(|(k, v)| format!("\"{k}\":{v}"))
            .collect();
        format!("{{{}}}", members.join(","))
    }

    /// Documents of every form, each missing one key it needs (deep or
    /// at its top); then the whole update and the whole notification.
    fn documents_missing_a_key() -> (Vec<String>, String, String) {
        let entry = |drop: &str| {
            let pairs = [
                ("content", "\"a\"".to_owned()),
                ("priority", "\"high\"".to_owned()),
                ("status", "\"pending\"".to_owned()),
            ];
            object(&pairs, drop)
        };
        let plan = |kind: &str, drop: &str, entry_drop: &str| {
            let pairs = [
                ("type", format!("\"{kind}\"")),
                ("planId", "\"p\"".to_owned()),
                ("entries", format!("[{}]", entry(entry_drop))),
                ("content", "\"# Plan\"".to_owned()),
                ("uri", "\"file:///tmp/p.md\"".to_owned()),
            ];
            object(&pairs, drop)
        };
        let update = |kind: &str, drop: &str, inner: String| {
            let pairs = [
                ("sessionUpdate", format!("\"{kind}\"")),
                (if kind == "plan" { "entries" } else { "plan" }, inner),
            ];
            object(&pairs, drop)
        };
        let notification = |drop: &str, params_drop: &str, update: String| {
            let params = object(
                &[("sessionId", "\"s\"".to_owned()), ("update", update)],
                params_drop,
            );
            let pairs = [
                ("jsonrpc", "\"2.0\"".to_owned()),
                ("method", "\"session/update\"".to_owned()),
                ("params", params),
            ];
            object(&pairs, drop)
        };
        let mut documents = Vec::new();
        for kind in ["items", "markdown", "file", "_custom"] {
            for drop in ["type", "planId", "entries", "content", "uri"] {
                let content = plan(kind, drop, "");
                let needed = match kind {
                    "items" => drop == "entries",
                    "markdown" => drop == "content",
                    "file" => drop == "uri",
                    _ => false,
                };
                if drop == "type" || drop == "planId" || needed {
                    documents.push(update("plan_update", "", content.clone()));
                    documents.push(notification("", "", update("plan_update", "", content)));
                }
            }
        }
        for drop in ["content", "priority", "status"] {
            documents.push(update("plan", "", format!("[{}]", entry(drop))));
            documents.push(plan("items", "", drop));
        }
        let good_update = update("plan", "", format!("[{}]", entry("")));
        for drop in ["sessionUpdate", "entries"] {
            documents.push(notification(
                "",
                "",
                update("plan", drop, format!("[{}]", entry(""))),
            ));
        }
        for drop in ["sessionUpdate", "plan"] {
            documents.push(update("plan_update", drop, plan("items", "", "")));
        }
        for drop in ["sessionId", "update"] {
            documents.push(notification("", drop, good_update.clone()));
        }
        for drop in ["jsonrpc", "method", "params"] {
            documents.push(notification(drop, "", good_update.clone()));
        }
        let whole = notification("", "", good_update.clone());
        (documents, good_update, whole)
    }

    #[test]
    fn a_key_missing_anywhere_is_reported_never_left_without_a_reason() {
        let (documents, good_update, whole) = documents_missing_a_key();
        for json in documents {
            let said = errors("missing.json", &json);
            assert!(!said.is_empty(), "accepted {json}");
            assert!(
                said.iter().all(|e| !e.contains("gave no reason")),
                "{json}: {said:#?}"
            );
        }
        // The complete documents pass, so each failure above is its key's.
        assert!(errors("whole.json", &good_update).is_empty());
        assert!(errors("whole.json", &whole).is_empty());
    }

    // Over 80 lines: one table of fixtures, each breaking one rule.
    #[test]
    fn every_rule_of_plan_is_checked() {
        let cases = [
            (
                r#"{"type":"items","entries":[]}"#,
                "missing required field `planId` (or `id`, its RFD spelling)",
            ),
            (
                r#"{"type":"items","id":"  ","entries":[]}"#,
                "id: a plan id cannot be only white space",
            ),
            (
                r#"{"type":"items","id":"a","planId":"b","entries":[]}"#,
                "both `id` and `planId`",
            ),
            (
                r#"{"type":"file","id":"f","uri":"/tmp/plan.md"}"#,
                "uri: a file plan's URI must be absolute",
            ),
            (
                r#"{"type":"markdown","id":"m"}"#,
                "missing required field `content`",
            ),
            (
                r#"{"type":"markdown","id":"m","content":"x","path":"docs/PLAN.md"}"#,
                "path: a markdown plan's `path` must be absolute",
            ),
            (
                r#"{"type":"markdown","id":"m","content":"x","path":7}"#,
                "path: expected a string or null, found a number",
            ),
            (
                r#"{"type":"timeline","id":"t"}"#,
                "type: unknown plan type `timeline`",
            ),
            (
                r#"{"type":"items","id":"p","entries":[{"content":"","priority":"high","status":"pending"}]}"#,
                "entries[0].content: an entry's content cannot be empty",
            ),
            (
                r#"{"type":"items","id":"p","entries":{}}"#,
                "entries: expected an array, found an object",
            ),
            (
                r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"cancelled"}]}"#,
                "entries[0].status: `cancelled` does not exist in protocol v1",
            ),
            (
                r#"{"sessionUpdate":"plan_removed","planId":"p"}"#,
                "sessionUpdate: `plan_removed` holds no plan",
            ),
            (
                r#"{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#,
                "method: expected method `session/update`",
            ),
            (
                r#"{"jsonrpc":"1.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#,
                "jsonrpc: expected JSON-RPC version \"2.0\", found \"1.0\"",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}"#,
                "id: a `session/update` is a notification and carries no `id`",
            ),
            (
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_update","plan":{"type":"items","id":"p","entries":[7]}}}}"#,
                "params.update.plan.entries[0]: expected an object, found a number",
            ),
            (r#"{"plan": 1}"#, "expected a plan (with `type`)"),
            (
                r#"{"type": "items", "type": "file"}"#,
                "`type` appears twice",
            ),
            ("{\"type\": \"items\",\n", "invalid.json:2:1: expected `\"`"),
        ];
        for (json, says) in cases {
            let errors = errors("invalid.json", json);
            assert!(
                errors.iter().any(|e| e.contains(says)),
                "{json}\n{errors:#?}"
            );
        }
    }

    #[test]
    fn a_rejected_fixture_keeps_the_type_it_would_have_given() {
        let dir = std::env::temp_dir().join(format!("include-plan-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (json, v1) in [
            (
                r#"{"sessionUpdate":"plan","entries":[{"content":"","priority":"high","status":"pending"}]}"#,
                true,
            ),
            (
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":7}}}"#,
                true,
            ),
            (r#"{"type":"items","planId":"","entries":[]}"#, false),
        ] {
            let file = dir.join("fixture.json");
            std::fs::write(&file, json).unwrap();
            let lit = LitStr::new(&file.to_string_lossy(), Span::call_site());
            assert_eq!(read(&lit).err().map(|(_, is_v1)| is_v1), Some(v1), "{json}");
        }
    }

    #[test]
    fn a_missing_file_says_which() {
        let lit = LitStr::new("no/such/plan.json", Span::call_site());
        let err = read(&lit).err().unwrap().0.to_string();
        assert!(
            err.starts_with("cannot read `") && err.contains("no/such/plan.json"),
            "{err}"
        );
    }
}
