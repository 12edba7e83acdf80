//! `include_plan!("path.json")`: a JSON fixture read at compile time,
//! checked with `plan!`'s rules, expanded to the value `plan!` would build.
//! Read (`json_reader.rs`) → check (here, into `plan::valid::Plan`) → generate
//! (`plan::expand`, shared with `plan!`). `stream.rs`: `include_plan_stream!`,
//! a recorded NDJSON stream checked line by line with the same rules.
//!
//! Over 500 lines, and why it is not yet split: it reads a JSON document
//! and checks it in one pass, a second validator beside `plan/valid.rs`.
//! The planned shape (docs/design.md, "Open work") is a stage that turns the
//! document into `plan!`'s syntax tree, so `plan/valid.rs` alone checks
//! both; until then, a rule added to one must be added to the other (the UI
//! cases of both macros hold them to the same words).

mod stream;

use std::path::PathBuf;
pub(crate) use stream::include_plan_stream;

use crate::json_reader::{self, Node, NodeKind};
use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::quote;
use syn::LitStr;

use crate::errors::Errors;
use crate::name_check::{self, NameKind};
use crate::plan::{CheckedEntry, CheckedName, CheckedPlan, Shape, Text};
use crate::rules;

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
            crate::fallback::invalid_value(&err, &ty)
        }
    }
}

/// The text of the file `lit` names, relative to the crate's directory, and
/// its full path (for `include_bytes!`).
pub(crate) fn read_text(lit: &LitStr) -> Result<(String, PathBuf), syn::Error> {
    let relative = lit.value();
    let span = lit.span();
    let dir = std::env::var_os("CARGO_MANIFEST_DIR").ok_or_else(|| {
        let message = "CARGO_MANIFEST_DIR is not set; the file macros run under Cargo";
        syn::Error::new(span, message)
    })?;
    let file = PathBuf::from(dir).join(&relative);
    let text = std::fs::read_to_string(&file).map_err(|e| {
        let message = format!("cannot read `{relative}` (under the crate's directory): {e}");
        syn::Error::new(span, message)
    })?;
    Ok((text, file))
}

/// The checked plan and the file's full path; or the errors, and whether the
/// fixture looks like a v1 update (so the failed call still has its type).
fn read(lit: &LitStr) -> Result<(CheckedPlan, PathBuf), (syn::Error, bool)> {
    let relative = lit.value();
    let span = lit.span();
    let (text, file) = read_text(lit).map_err(|e| (e, false))?;
    let doc = json_reader::parse(&text)
        .map_err(|e| (syn::Error::new(span, format!("{relative}:{e}")), false))?;
    let mut cx = FixtureCheck::new(relative, span, 0);
    let plan = cx.document(&doc);
    cx.errors
        .finish(plan)
        .map(|plan| (plan, file))
        .map_err(|err| (err, is_v1(&doc)))
}

/// Whether a document is a v1 update (`sessionUpdate: "plan"`), alone or in
/// a notification.
fn is_v1(doc: &Node) -> bool {
    let update = match &doc.kind {
        NodeKind::Object(fields) => match field(fields, rules::KEY_PARAMS).map(|p| &p.kind) {
            Some(NodeKind::Object(params)) => field(params, "update"),
            _ => Some(doc),
        },
        _ => None,
    };
    matches!(
        update.map(|u| &u.kind),
        Some(NodeKind::Object(fields))
            if matches!(field(fields, rules::KEY_SESSION_UPDATE).map(|n| &n.kind), Some(NodeKind::String(s)) if s == "plan")
    )
}

/// Checking state: where errors point and what they say.
pub(crate) struct FixtureCheck {
    file: String,
    span: Span,
    /// Added to each value's line: the document's first line in the file
    /// (a stream's lines are read one by one).
    first_line: usize,
    /// Checking a line of a stream: every session update is welcome, and a
    /// `plan_removed` is checked too.
    stream: bool,
    pub(crate) errors: Errors,
}

impl FixtureCheck {
    /// Checks documents of `file` (as the user wrote its path); errors point
    /// at `span`; the document starts after `first_line` lines of the file.
    pub(crate) fn new(file: String, span: Span, first_line: usize) -> Self {
        Self {
            file,
            span,
            first_line,
            stream: false,
            errors: Errors::new(Vec::new()),
        }
    }

    /// The same checks, for the lines of a stream.
    pub(crate) fn for_stream(mut self) -> Self {
        self.stream = true;
        self
    }

    /// Reports `message` at `node`, naming the file, line, column and JSON path.
    pub(crate) fn at(&mut self, node: &Node, path: &str, message: impl std::fmt::Display) {
        let place = if path.is_empty() {
            String::new()
        } else {
            format!("{path}: ")
        };
        self.errors.at(
            self.span,
            format_args!(
                "{}:{}:{}: {place}{message}",
                self.file,
                node.line + self.first_line,
                node.column
            ),
        );
    }

    /// Runs a shared check that reports through `Errors`, and relocates its
    /// messages to `node`.
    fn located<T>(
        &mut self,
        node: &Node,
        path: &str,
        check: impl FnOnce(&mut Errors) -> Option<T>,
    ) -> Option<T> {
        let mut inner = Errors::new(Vec::new());
        let value = check(&mut inner);
        if let Err(errors) = inner.finish(Some(())) {
            for error in errors {
                self.at(node, path, error);
            }
        }
        value
    }

    fn document(&mut self, doc: &Node) -> Option<CheckedPlan> {
        let NodeKind::Object(fields) = &doc.kind else {
            self.at(
                doc,
                "",
                format_args!("expected a JSON object, found {}", doc.kind.name()),
            );
            return None;
        };
        if field(fields, rules::KEY_JSONRPC).is_some() {
            self.notification(doc, fields)
        } else if field(fields, rules::KEY_SESSION_UPDATE).is_some() {
            self.update(doc, fields, "")
        } else if field(fields, rules::KEY_TYPE).is_some() {
            self.content(doc, fields, "")
        } else {
            self.at(doc, "", "expected a plan (with `type`), a session update (with `sessionUpdate`) or a `session/update` notification (with `jsonrpc`)");
            None
        }
    }

    pub(crate) fn notification(
        &mut self,
        doc: &Node,
        fields: &[(String, Node)],
    ) -> Option<CheckedPlan> {
        let version = self.string(doc, fields, rules::KEY_JSONRPC, "");
        if let Some((version, node)) = &version
            && let Err(problem) = rules::check_envelope(version, rules::SESSION_UPDATE)
        {
            self.at(node, "jsonrpc", problem);
        }
        let method = self.string(doc, fields, rules::KEY_METHOD, "");
        if let Some((method, node)) = &method
            && let Err(problem) = rules::check_envelope(rules::JSONRPC_VERSION, method)
        {
            self.at(node, "method", problem);
        }
        if let Some(id) = field(fields, "id") {
            self.at(id, "id", rules::EnvelopeProblem::HasId);
        }
        let params = self.object(doc, fields, rules::KEY_PARAMS, "")?;
        self.string(params.0, params.1, rules::KEY_SESSION_ID, "params");
        let (update, update_fields) =
            self.object(params.0, params.1, rules::KEY_UPDATE, "params")?;
        self.update(update, update_fields, "params.update")
    }

    fn update(
        &mut self,
        node: &Node,
        fields: &[(String, Node)],
        path: &str,
    ) -> Option<CheckedPlan> {
        let (kind, kind_node) = self.string(node, fields, rules::KEY_SESSION_UPDATE, path)?;
        match kind.as_str() {
            "plan" => {
                let entries = self.entries(node, fields, path, true)?;
                // The v1 update's own `_meta`, as the run-time reader keeps it.
                let meta = self.meta(fields, path);
                Some(CheckedPlan {
                    shape: Shape::V1(entries),
                    meta,
                })
            }
            "plan_update" => {
                let (plan, plan_fields) = self.object(node, fields, rules::KEY_PLAN, path)?;
                self.content(plan, plan_fields, &join(path, rules::KEY_PLAN))
            }
            // In a stream, a removal's id is checked; other updates
            // (`agent_message_chunk`, ...) are not ours to judge.
            "plan_removed" if self.stream => {
                self.plan_id(node, fields, path);
                None
            }
            _ if self.stream => None,
            other => {
                self.at(kind_node, &join(path, rules::KEY_SESSION_UPDATE), format_args!(
                    "`{other}` holds no plan; include_plan! takes a plan, a `plan` or `plan_update` update, or a notification of one"
                ));
                None
            }
        }
    }

    fn content(
        &mut self,
        node: &Node,
        fields: &[(String, Node)],
        path: &str,
    ) -> Option<CheckedPlan> {
        let (kind, kind_node) = self.string(node, fields, rules::KEY_TYPE, path)?;
        let id = self.plan_id(node, fields, path);
        let meta = self.meta(fields, path);
        let shape = match kind.as_str() {
            "items" => {
                let entries = self.entries(node, fields, path, false);
                Shape::Items(id?, entries?)
            }
            "file" => {
                let (uri, uri_node) = self.string(node, fields, rules::KEY_URI, path)?;
                if let Err(problem) = rules::check_uri(&uri) {
                    self.at(uri_node, &join(path, rules::KEY_URI), problem);
                    return None;
                }
                Shape::File(id?, self.text(&uri))
            }
            "markdown" => {
                let (content, _) = self.string(node, fields, rules::KEY_CONTENT, path)?;
                let file = self.markdown_path(fields, path).ok()?;
                Shape::Markdown(id?, self.text(&content), file)
            }
            custom => {
                let type_path = join(path, rules::KEY_TYPE);
                let name = self.located(kind_node, &type_path, |errors| {
                    name_check::check_plan_type(custom, Span::call_site(), errors)
                })?;
                let own: Vec<&(String, Node)> = fields
                    .iter()
                    .filter(|(k, _)| !rules::OWN_KEYS.contains(&k.as_str()))
                    .collect();
                let group = (!own.is_empty()).then(|| object_tokens(own.into_iter()));
                Shape::Custom(id?, name, group)
            }
        };
        Some(CheckedPlan { shape, meta })
    }

    /// A markdown plan's optional `path`: absent or `null` is none; a string
    /// must be absolute. `Err` if it is wrong (reported).
    fn markdown_path(
        &mut self,
        fields: &[(String, Node)],
        path: &str,
    ) -> Result<Option<Text>, Reported> {
        let Some(value) = field(fields, rules::KEY_PATH) else {
            return Ok(None);
        };
        let at = join(path, rules::KEY_PATH);
        match &value.kind {
            NodeKind::Null => Ok(None),
            NodeKind::String(file) => match rules::check_absolute_path(file) {
                Ok(()) => Ok(Some(self.text(file))),
                Err(problem) => {
                    self.at(value, &at, problem);
                    Err(Reported)
                }
            },
            _ => {
                self.wrong_type(value, &at, "a string or null");
                Err(Reported)
            }
        }
    }

    pub(crate) fn plan_id(
        &mut self,
        node: &Node,
        fields: &[(String, Node)],
        path: &str,
    ) -> Option<Text> {
        let [rfd, acp] = rules::PLAN_ID_KEYS;
        let explain = |problem| rules::ExplainSpelling { problem, rfd, acp };
        let (key, value) = match (field(fields, rfd), field(fields, acp)) {
            (Some(_), Some(value)) => {
                self.at(value, path, explain(rules::SpellingProblem::Both));
                return None;
            }
            (Some(value), None) => (rfd, value),
            (None, Some(value)) => (acp, value),
            (None, None) => {
                self.at(node, path, explain(rules::SpellingProblem::Missing));
                return None;
            }
        };
        let id_path = join(path, key);
        let NodeKind::String(id) = &value.kind else {
            self.wrong_type(value, &id_path, "a string");
            return None;
        };
        if let Err(problem) = rules::check_plan_id(id) {
            self.at(value, &id_path, problem);
            return None;
        }
        Some(self.text(id))
    }

    fn entries(
        &mut self,
        node: &Node,
        fields: &[(String, Node)],
        path: &str,
        v1: bool,
    ) -> Option<Vec<CheckedEntry>> {
        let entries_path = join(path, rules::KEY_ENTRIES);
        let list = self.required(node, fields, rules::KEY_ENTRIES, path)?;
        let NodeKind::Array(items) = &list.kind else {
            self.wrong_type(list, &entries_path, "an array");
            return None;
        };
        let checked: Vec<Option<CheckedEntry>> = items
            .iter()
            .enumerate()
            .map(|(index, item)| self.entry(item, &format!("{entries_path}[{index}]"), v1))
            .collect();
        checked.into_iter().collect()
    }

    fn entry(&mut self, node: &Node, path: &str, v1: bool) -> Option<CheckedEntry> {
        let NodeKind::Object(fields) = &node.kind else {
            self.wrong_type(node, path, "an object");
            return None;
        };
        let content = self.string(node, fields, rules::KEY_CONTENT, path);
        if let Some((text, content_node)) = &content
            && let Err(problem) = rules::check_content(text)
        {
            self.at(content_node, &join(path, rules::KEY_CONTENT), problem);
        }
        let priority = self.name(
            node,
            fields,
            rules::KEY_PRIORITY,
            path,
            NameKind::Priority,
            v1,
        );
        let status = self.name(node, fields, rules::KEY_STATUS, path, NameKind::Status, v1);
        let meta = self.meta(fields, path);
        let (content, _) = content?;
        Some(CheckedEntry {
            priority: priority?,
            status: status?,
            content: self.text(&content),
            meta,
        })
    }

    fn name(
        &mut self,
        node: &Node,
        fields: &[(String, Node)],
        key: &'static str,
        path: &str,
        kind: NameKind,
        v1: bool,
    ) -> Option<CheckedName> {
        let (text, value) = self.string(node, fields, key, path)?;
        let name = self.located(value, &join(path, key), |errors| {
            name_check::check_name(&text, Span::call_site(), kind, v1, errors)
        })?;
        Some(match name {
            name_check::Name::Known(known) => CheckedName::Known(known),
            name_check::Name::Custom(custom) => CheckedName::Custom(custom),
        })
    }

    /// `_meta`, an object (anything else is reported); `null` is left out.
    fn meta(&mut self, fields: &[(String, Node)], path: &str) -> Option<Group> {
        let meta = field(fields, "_meta")?;
        match &meta.kind {
            NodeKind::Object(members) => Some(object_tokens(members.iter())),
            NodeKind::Null => None,
            _ => {
                self.wrong_type(meta, &join(path, "_meta"), "an object or null");
                None
            }
        }
    }

    /// A required field's node; its absence is reported.
    fn required<'d>(
        &mut self,
        node: &Node,
        fields: &'d [(String, Node)],
        key: &'static str,
        path: &str,
    ) -> Option<&'d Node> {
        let value = field(fields, key);
        if value.is_none() {
            self.at(node, path, format_args!("missing required field `{key}`"));
        }
        value
    }

    /// Reports `value` as not of the `expected` JSON type.
    fn wrong_type(&mut self, value: &Node, path: &str, expected: &str) {
        self.at(
            value,
            path,
            format_args!("expected {expected}, found {}", value.kind.name()),
        );
    }

    /// A required string field and its node.
    fn string<'d>(
        &mut self,
        node: &Node,
        fields: &'d [(String, Node)],
        key: &'static str,
        path: &str,
    ) -> Option<(String, &'d Node)> {
        let value = self.required(node, fields, key, path)?;
        match &value.kind {
            NodeKind::String(text) => Some((text.clone(), value)),
            _ => {
                self.wrong_type(value, &join(path, key), "a string");
                None
            }
        }
    }

    /// A required object field and its node and members.
    fn object<'d>(
        &mut self,
        node: &Node,
        fields: &'d [(String, Node)],
        key: &'static str,
        path: &str,
    ) -> Option<(&'d Node, &'d [(String, Node)])> {
        let value = self.required(node, fields, key, path)?;
        match &value.kind {
            NodeKind::Object(members) => Some((value, members)),
            _ => {
                self.wrong_type(value, &join(path, key), "an object");
                None
            }
        }
    }

    fn text(&self, text: &str) -> Text {
        Text::Str(LitStr::new(text, self.span))
    }
}

pub(crate) fn field<'d>(fields: &'d [(String, Node)], key: &str) -> Option<&'d Node> {
    fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// A JSON object as `serde_json::json!` tokens: `{ "key": value, ... }`.
fn object_tokens<'d>(members: impl Iterator<Item = &'d (String, Node)>) -> Group {
    let members = members.map(|(key, value)| {
        let value = value_tokens(value);
        quote!(#key: #value)
    });
    Group::new(Delimiter::Brace, quote!(#(#members),*))
}

fn value_tokens(node: &Node) -> TokenStream {
    match &node.kind {
        NodeKind::Null => quote!(null),
        NodeKind::Bool(b) => quote!(#b),
        // A JSON number is valid Rust tokens too (a literal, maybe after `-`);
        // an integer beyond 64 bits is a float, as serde_json reads it.
        NodeKind::Number(text) => {
            let integer = !text.contains(['.', 'e', 'E']);
            let fits = text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok();
            let text = if integer && !fits {
                format!("{text}.0")
            } else {
                text.clone()
            };
            text.parse().unwrap_or_else(|_| quote!(null))
        }
        NodeKind::String(text) => quote!(#text),
        NodeKind::Array(items) => {
            let items = items.iter().map(value_tokens);
            quote!([#(#items),*])
        }
        NodeKind::Object(members) => TokenTree::Group(object_tokens(members.iter())).into(),
    }
}

/// A mistake already reported to the collector: the caller gives up on the
/// value without reporting again.
struct Reported;

#[cfg(test)]
mod tests {
    use super::*;

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
