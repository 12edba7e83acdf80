//! `include_plan_stream!("recorded.ndjson")`: a recorded NDJSON stream read
//! at compile time, each line checked with `include_plan!`'s rules, expanded
//! to the lines as static text, ready to send.
//!
//! Every line must be a JSON-RPC 2.0 message. A `session/update` notification
//! of a plan (`plan`, `plan_update`, `plan_removed`) is checked whole, as
//! `include_plan!` checks one; other messages (responses, other session
//! updates) are kept as recorded. Blank lines are skipped.

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

use super::ast::{DocumentSite, field};
use super::source::read_text;
use super::valid;
use crate::errors::Errors;
use crate::json_reader::{self, NodeKind};
use crate::rules;

pub(crate) fn include_plan_stream(input: TokenStream) -> TokenStream {
    let path = match syn::parse2::<LitStr>(input) {
        Ok(path) => path,
        Err(err) => {
            let message =
                "expected the stream's path: `include_plan_stream!(\"recorded/run.ndjson\")`";
            return crate::on_error::invalid_value(
                &syn::Error::new(err.span(), message),
                &quote!(StaticStream),
                &TokenStream::new(),
            );
        }
    };
    match check(&path) {
        Ok((lines, file)) => {
            let file = file.to_string_lossy().into_owned();
            // Naming the file in `include_bytes!` makes Cargo rebuild when it changes.
            quote!({
                const _: &[u8] = ::core::include_bytes!(#file);
                ::plan_core::__private::StaticStream::new(&[#(#lines),*])
            })
        }
        Err(err) => {
            crate::on_error::invalid_value(&err, &quote!(StaticStream), &TokenStream::new())
        }
    }
}

/// The stream's non-blank lines, each checked, and the file's full path; or
/// every error of every line.
fn check(lit: &LitStr) -> Result<(Vec<String>, std::path::PathBuf), syn::Error> {
    let (text, file) = read_text(lit)?;
    let relative = lit.value();
    let mut lines = Vec::new();
    let mut errors = Errors::new(Vec::new());
    let mut messages = 0;
    for (index, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            continue;
        }
        messages += 1;
        let doc = match json_reader::parse(line) {
            Ok(doc) => doc,
            Err(e) => {
                let at = format!("{relative}:{}:{}: {}", index + 1, e.column, e.message);
                errors.at(lit.span(), at);
                continue;
            }
        };
        // The values of this line are on line 1 of its own document.
        let mut line_errors = Errors::new(Vec::new());
        let mut reader =
            DocumentSite::new(&relative, lit.span(), index, &mut line_errors).for_stream();
        message(&mut reader, &doc);
        match line_errors.finish(Some(())) {
            Ok(()) => lines.push(line.trim().to_owned()),
            Err(err) => errors.push(err),
        }
    }
    if messages == 0 {
        errors.at(
            lit.span(),
            format_args!("{relative}: the stream holds no message"),
        );
    }
    errors.finish(Some((lines, file)))
}

/// Checks one message of the stream.
fn message(reader: &mut DocumentSite<'_>, doc: &json_reader::Node) {
    let NodeKind::Object(fields) = &doc.kind else {
        reader.at(doc, "", rules::RpcProblem::NotObject(doc.kind.name()));
        return;
    };
    let is_update = field(fields, rules::KEY_METHOD)
        .is_some_and(|m| matches!(&m.kind, NodeKind::String(m) if m == rules::SESSION_UPDATE));
    if is_update {
        let notification = reader.notification(doc, fields);
        valid::message(reader, notification);
        return;
    }
    if field(fields, rules::KEY_JSONRPC).is_none()
        && field(fields, rules::KEY_SESSION_UPDATE).is_some()
    {
        reader.at(
            doc,
            "",
            "a bare session update: a stream holds whole messages; wrap it in a `session/update` notification",
        );
        return;
    }
    // Any other message of a conversation: its envelope, by the rules every
    // reader of messages shares.
    let seen = |key: &str| match field(fields, key).map(|n| &n.kind) {
        None => rules::Seen::Absent,
        Some(NodeKind::String(text)) => rules::Seen::Str(text),
        Some(other) => rules::Seen::Other(other.name()),
    };
    let error = field(fields, "error").map(|error| match &error.kind {
        NodeKind::Object(inner) => (
            matches!(field(inner, "code").map(|c| &c.kind), Some(NodeKind::Number(n)) if n.parse::<i64>().is_ok()),
            matches!(field(inner, "message").map(|m| &m.kind), Some(NodeKind::String(_))),
        ),
        _ => (false, false),
    });
    let envelope = rules::EnvelopeSeen {
        jsonrpc: seen(rules::KEY_JSONRPC),
        method: seen(rules::KEY_METHOD),
        id: field(fields, "id").is_some(),
        result: field(fields, "result").is_some(),
        error,
    };
    for problem in rules::classify_rpc(&envelope).1 {
        let key = problem.key();
        let outer = key.split('.').next().unwrap_or_default();
        let node = field(fields, outer).unwrap_or(doc);
        reader.at(node, key, problem);
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;
    use syn::LitStr;

    /// The errors of a stream, one string each.
    fn errors(text: &str) -> Vec<String> {
        let dir = std::env::temp_dir().join(format!("include-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("run.ndjson");
        std::fs::write(&file, text).unwrap();
        let lit = LitStr::new(&file.to_string_lossy(), Span::call_site());
        match super::check(&lit) {
            Ok(_) => Vec::new(),
            Err(err) => err.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn other_messages_are_held_to_the_envelope_rules_every_reader_shares() {
        // The lines a conversation holds besides plans: clean.
        let good = [
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}"#,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}"#,
            r#"{"jsonrpc":"2.0","method":"_auth/status_update","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32800,"message":"Request cancelled"}}"#,
        ];
        assert_eq!(errors(&good.join("\n")), Vec::<String>::new());
        // Each broken envelope is reported in the words of `wire::Message`.
        for (line, says) in [
            (
                r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#,
                "a response carries `result` or `error`, not both",
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"error":{"code":"bad","message":"x"}}"#,
                "error.code: expected a whole number",
            ),
            (
                r#"{"jsonrpc":"2.0","result":{}}"#,
                "id: a response carries the `id` of its request",
            ),
            (r#"{"jsonrpc":"2.0","id":5}"#, "neither a request"),
            (
                r#"{"jsonrpc":"2.0","method":7}"#,
                "method: expected a string, found a number",
            ),
            (
                r#"{"jsonrpc":"1.0","id":3,"result":null}"#,
                "expected JSON-RPC version \"2.0\"",
            ),
            (
                "42",
                "expected a JSON-RPC message (an object), found a number",
            ),
        ] {
            let found = errors(line);
            assert!(found.iter().any(|e| e.contains(says)), "{line}: {found:#?}");
        }
    }
}
