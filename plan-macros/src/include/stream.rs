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

use super::ast::{Reader, field};
use super::{read_text, valid};
use crate::errors::Errors;
use crate::json_reader::{self, NodeKind};
use crate::rules;

pub(crate) fn include_plan_stream(input: TokenStream) -> TokenStream {
    let path = match syn::parse2::<LitStr>(input) {
        Ok(path) => path,
        Err(err) => {
            let message =
                "expected the stream's path: `include_plan_stream!(\"recorded/run.ndjson\")`";
            return crate::fallback::invalid_value(
                &syn::Error::new(err.span(), message),
                &quote!(StaticStream),
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
        Err(err) => crate::fallback::invalid_value(&err, &quote!(StaticStream)),
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
        let mut reader = Reader::new(&relative, lit.span(), index, &mut line_errors).for_stream();
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
fn message(reader: &mut Reader<'_>, doc: &json_reader::Node) {
    let NodeKind::Object(fields) = &doc.kind else {
        let found = doc.kind.name();
        reader.at(
            doc,
            "",
            format_args!("expected a JSON-RPC message (an object), found {found}"),
        );
        return;
    };
    let is_update = field(fields, rules::KEY_METHOD)
        .is_some_and(|m| matches!(&m.kind, NodeKind::String(m) if m == rules::SESSION_UPDATE));
    if is_update {
        let notification = reader.notification(doc, fields);
        valid::message(reader, notification);
        return;
    }
    match field(fields, rules::KEY_JSONRPC).map(|v| &v.kind) {
        Some(NodeKind::String(version)) => {
            if let Err(problem) = rules::check_envelope(version, rules::SESSION_UPDATE) {
                let node = field(fields, rules::KEY_JSONRPC).unwrap_or(doc);
                reader.at(node, "jsonrpc", problem);
            }
        }
        _ if field(fields, rules::KEY_SESSION_UPDATE).is_some() => reader.at(
            doc,
            "",
            "a bare session update: a stream holds whole messages; wrap it in a `session/update` notification",
        ),
        _ => reader.at(
            doc,
            "",
            format_args!(
                "expected a JSON-RPC message, with `\"jsonrpc\": \"{}\"`",
                rules::JSONRPC_VERSION
            ),
        ),
    }
}
