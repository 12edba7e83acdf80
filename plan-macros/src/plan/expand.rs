//! Stage 3: code and JSON text for a checked plan. Nothing here judges.

use proc_macro2::{Delimiter, Group, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::quote;

use syn::Ident;
use syn::ext::IdentExt;

use super::ast::{Input, Name, Role, Text, Value};
use super::editor::{block, word_path};
use super::valid::{CheckedEntry, CheckedForm, CheckedName, CheckedPlan};
use crate::json_reader::{Node, NodeKind};
use crate::json_tokens as json;

/// The expression `plan!` expands to: a `PlanContent`, or a v1 `Plan`.
/// `keys` are the keys as the user wrote them (none for a plan read from
/// JSON): the expansion names each one's `plan_core::dsl` item there.
pub(crate) fn value(plan: &CheckedPlan, keys: &[&Ident]) -> TokenStream {
    if let Some(rows) = compact(plan, keys) {
        return rows;
    }
    let body = body(plan);
    let keys = keys.iter().filter_map(|key| word_path(Role::Key, key));
    // One alias for the whole expansion: fewer tokens for the compiler to
    // carry (compile time is a feature); `__plan` is the macro's own name.
    quote!({ use ::plan_core::__private as __plan; #(let _ = #keys;)* #body })
}

fn body(plan: &CheckedPlan) -> TokenStream {
    let meta = option(plan.meta.as_ref().map(meta_value));
    match &plan.form {
        CheckedForm::V1(entries) => {
            let entries = entries.iter().map(entry);
            quote!(__plan::v1_plan([#(#entries),*], #meta))
        }
        CheckedForm::Items(id, entries) => {
            let id = plan_id(id);
            let entries = entries.iter().map(entry);
            quote!(__plan::items(#id, [#(#entries),*], #meta))
        }
        CheckedForm::Markdown(id, content, path) => {
            let id = plan_id(id);
            let content = text(content);
            let path = option(path.as_ref().map(|path| match path {
                Text::Str(lit) => quote!(__plan::absolute_path(#lit)),
                Text::Expr(g) => expression(g, ("IntoAbsolutePath", "into_absolute_path")),
            }));
            quote!(__plan::markdown(#id, #content, #path, #meta))
        }
        CheckedForm::File(id, uri) => {
            let id = plan_id(id);
            let uri = match uri {
                Text::Str(lit) => quote!(__plan::file_uri(#lit)),
                Text::Expr(g) => expression(g, ("IntoFileUri", "into_file_uri")),
            };
            quote!(__plan::file(#id, #uri, #meta))
        }
        CheckedForm::Custom(id, kind, fields) => {
            let id = plan_id(id);
            let fields = match fields {
                Some(g) => quote!(__plan::fields(__plan::serde_json::json!(#g))),
                None => quote!(__plan::fields(__plan::serde_json::json!({}))),
            };
            quote!(__plan::custom(__plan::custom_name(#kind), #id, #fields, #meta))
        }
    }
}

/// A user's `{ expression }`, passed through the `__private` conversion
/// trait that gives it its type, so that a wrong type is an error on the
/// expression, in the trait's words. The trait's method is called as a path
/// (`Trait::method(value)`), not through a generic function, so rustc adds no
/// "required by a bound in ..." note pointing into `__private`.
///
/// The block is the argument itself, and only the block has the user's
/// place (the path is the call site's): an editor maps the user's tokens to
/// their own alone, so go-to gives one target and hover the user's binding,
/// and rustc's type error is on the braces, labelled with the block's type.
/// (A `let` binding spanned on the braces gave the editor a second target.)
fn expression(group: &Group, (conversion, method): (&str, &str)) -> TokenStream {
    let conversion = syn::Ident::new(conversion, Span::call_site());
    let method = syn::Ident::new(method, Span::call_site());
    let block = block(group);
    quote!(::plan_core::__private::#conversion::#method(#block))
}

fn option(tokens: Option<TokenStream>) -> TokenStream {
    match tokens {
        Some(t) => quote!(__plan::Some(#t)),
        None => quote!(__plan::None),
    }
}

fn plan_id(id: &Text) -> TokenStream {
    match id {
        Text::Str(lit) => quote!(__plan::plan_id(#lit)),
        Text::Expr(g) => expression(g, ("IntoPlanId", "into_plan_id")),
    }
}

fn text(t: &Text) -> TokenStream {
    match t {
        Text::Str(lit) => quote!(__plan::Cow::Borrowed(#lit)),
        Text::Expr(g) => expression(g, ("IntoText", "into_text")),
    }
}

fn entry(e: &CheckedEntry) -> TokenStream {
    let (priority, status, content, meta) = e.parts();
    let content = text(content);
    let priority = name(priority, "Priority", ("IntoPriority", "into_priority"));
    let status = name(status, "Status", ("IntoStatus", "into_status"));
    let meta = option(meta.map(meta_value));
    // A `const fn`: `PlanEntry` is `#[non_exhaustive]`, so no struct literal
    // outside plan-core.
    quote!(__plan::entry(#content, #priority, #status, #meta))
}

/// The common case in few tokens (compile time is a feature): a plan with
/// no `_meta` whose entries are all literal with known names, as one call
/// with a table of rows, about a third of the tokens of struct literals and
/// no `use` to resolve.
///
/// The content key is the call's receiver (`::plan_core::dsl::items.rows(...)`)
/// and `id` the method's name (`key::rows` carries the docs of `id`), so
/// both reach the editor at no cost (a path per word costs compile time:
/// docs/design.md, "Open").
fn compact(plan: &CheckedPlan, keys: &[&Ident]) -> Option<TokenStream> {
    if plan.meta.is_some() {
        return None;
    }
    let (key, id, entries) = match &plan.form {
        CheckedForm::V1(entries) => ("entries", None, entries),
        CheckedForm::Items(Text::Str(id), entries) => ("items", Some(id), entries),
        _ => return None,
    };
    // Built token by token, not with `quote!`: this runs for most calls,
    // and in the debug build a user compiles the macro in, each `quote!`
    // costs (`bench/compile-time.sh`).
    let words = Words::new();
    let rows = rows(entries, &words)?;
    let written = keys.iter().find(|k| k.unraw() == key);
    let mut out = Vec::with_capacity(12);
    words.path(
        &mut out,
        Ident::new(key, written.map_or_else(Span::call_site, |k| k.span())),
    );
    out.push(Punct::new('.', Spacing::Alone).into());
    // The method of the items call is named where the user wrote `id`,
    // whose meaning its docs give: the one word of the call not a path.
    let (method, mut args) = match id {
        Some(id) => ("rows", vec![id.token().into(), comma()]),
        None => ("v1_rows", Vec::new()),
    };
    let id_key = keys.iter().find(|k| **k == "id");
    let method_at = id_key.map_or_else(Span::call_site, |k| k.span());
    out.push(Ident::new(method, method_at).into());
    args.push(Punct::new('&', Spacing::Alone).into());
    args.push(Group::new(Delimiter::Bracket, rows).into());
    out.push(Group::new(Delimiter::Parenthesis, args.into_iter().collect()).into());
    Some(out.into_iter().collect())
}

/// The tokens of `::plan_core::dsl::`, made once per call.
struct Words {
    plan_core: Ident,
    dsl: Ident,
}

impl Words {
    fn new() -> Self {
        Self {
            plan_core: Ident::new("plan_core", Span::call_site()),
            dsl: Ident::new("dsl", Span::call_site()),
        }
    }

    /// `::plan_core::dsl::word` onto `out`.
    fn path(&self, out: &mut Vec<TokenTree>, word: Ident) {
        for segment in [&self.plan_core, &self.dsl] {
            colon2(out);
            out.push(segment.clone().into());
        }
        colon2(out);
        out.push(word.into());
    }
}

fn colon2(out: &mut Vec<TokenTree>) {
    out.push(Punct::new(':', Spacing::Joint).into());
    out.push(Punct::new(':', Spacing::Alone).into());
}

fn comma() -> TokenTree {
    Punct::new(',', Spacing::Alone).into()
}

/// The entries as rows `("content", priority, status),` if every one has
/// literal content, known names and no `_meta`. The words are the paths
/// of their `plan_core::dsl` items (`::plan_core::dsl::high`), the user's
/// word where they wrote it, so an editor reaches them here too.
fn rows(entries: &[CheckedEntry], words: &Words) -> Option<TokenStream> {
    let mut rows = Vec::with_capacity(entries.len() * 2);
    for e in entries {
        let (
            CheckedName::Known(priority, p_at),
            CheckedName::Known(status, s_at),
            Text::Str(content),
            None,
        ) = e.parts()
        else {
            return None;
        };
        let mut row = Vec::with_capacity(20);
        row.push(content.token().into());
        row.push(comma());
        words.path(&mut row, Ident::new(priority, *p_at));
        row.push(comma());
        words.path(&mut row, Ident::new(status, *s_at));
        rows.push(Group::new(Delimiter::Parenthesis, row.into_iter().collect()).into());
        rows.push(comma());
    }
    Some(rows.into_iter().collect())
}

/// A known name's path, by its text (`Known` holds the protocol's own
/// spelling) at the place the user wrote it.
fn word(name: &str, at: Span) -> TokenStream {
    let name = Ident::new(name, at);
    quote!(::plan_core::dsl::#name)
}

/// A known priority or status as the value of its `plan_core::dsl` item
/// (`::plan_core::dsl::priority::high.value()`), for the derives: the word
/// at `at`, where the user wrote it in an attribute (the call site for a
/// name the derive made up, so that the user's variant keeps one meaning),
/// and the place's segment at `key`, the attribute's key naming the place
/// (`priority = high`), if it has one.
pub(crate) fn word_value(module: &str, name: &str, at: Span, key: Option<Span>) -> TokenStream {
    let module = Ident::new(module, key.unwrap_or_else(Span::call_site));
    let name = Ident::new(name, at);
    quote!(::plan_core::dsl::#module::#name.value())
}

/// A priority or status: a known word as its `plan_core::dsl` item, a name
/// of the user's own as `ty::Custom`, and the conversion of a
/// `{ expression }`.
fn name(n: &CheckedName, ty: &str, dynamic: (&str, &str)) -> TokenStream {
    match n {
        CheckedName::Known(known, at) => {
            let word = word(known, *at);
            quote!(#word.value())
        }
        CheckedName::Custom(custom) => {
            let ty = syn::Ident::new(ty, Span::call_site());
            quote!(__plan::#ty::Custom(__plan::custom_name(#custom)))
        }
        CheckedName::Expr(g) => expression(g, dynamic),
    }
}

/// The two spellings of a plan's wire JSON, written at compile time.
pub(crate) fn static_json(plan: &CheckedPlan) -> Result<TokenStream, syn::Error> {
    let mut dynamic = Vec::new();
    let rfd = update_json(plan, "id", &mut dynamic);
    let acp = update_json(plan, "planId", &mut Vec::new());
    if let Some(err) = not_literal(dynamic) {
        return Err(err);
    }
    // `StaticUpdate` keeps what follows the session id in a notification.
    let (rfd, acp) = (
        format!("\",\"update\":{rfd}}}}}"),
        format!("\",\"update\":{acp}}}}}"),
    );
    Ok(quote!(::plan_core::__private::StaticUpdate::new(#rfd, #acp)))
}

/// The parts `plan_json!` cannot write, as one error (none if every part is
/// a literal).
fn not_literal(dynamic: Vec<(Span, String)>) -> Option<syn::Error> {
    let mut errors = dynamic.into_iter().map(|(span, why)| {
        syn::Error::new(span, format!("`plan_json!` writes JSON at compile time, so every part must be a literal: {why}; use `plan!` and `to_json` for plans with run-time parts"))
    });
    let mut first = errors.next()?;
    errors.for_each(|e| first.combine(e));
    Some(first)
}

/// The parts of a call as written that `plan_json!` could not write, for a
/// call that also broke a rule: both kinds of mistake are reported together.
/// The same leaf tests as `update_json`, over the syntax instead of the
/// checked plan (which a rejected call does not have).
pub(crate) fn not_literal_in(input: &Input) -> Option<syn::Error> {
    let mut dynamic = Vec::new();
    for field in &input.fields {
        let key = field.key.unraw();
        match &field.value {
            Value::Braced(g) if key == "meta" || key == "fields" => {
                literal_json(g, &mut dynamic);
            }
            Value::Braced(g) if ["id", "markdown", "path"].iter().any(|k| key == k) => {
                run_time(&mut dynamic, g.span());
            }
            Value::Entries(_, entries) => {
                for e in entries {
                    let crate::plan::ast::Entry {
                        priority,
                        status,
                        content,
                        meta,
                    } = e;
                    if let Text::Expr(g) = content {
                        run_time(&mut dynamic, g.span());
                    }
                    for n in [priority, status] {
                        if let Name::Expr(g) = n {
                            run_time(&mut dynamic, g.span());
                        }
                    }
                    if let Some(g) = meta {
                        literal_json(g, &mut dynamic);
                    }
                }
            }
            _ => {}
        }
    }
    not_literal(dynamic)
}

/// The `update` object of the plan's `session/update`, as JSON text.
fn update_json(plan: &CheckedPlan, id_key: &str, dynamic: &mut Vec<(Span, String)>) -> String {
    let mut out = String::new();
    let meta = plan.meta.as_ref().map(|g| literal_json(g, dynamic));
    match &plan.form {
        CheckedForm::V1(entries) => {
            out.push_str(r#"{"sessionUpdate":"plan","entries":"#);
            entries_json(&mut out, entries, dynamic);
            meta_json(&mut out, meta.as_ref());
            out.push('}');
        }
        shape => {
            out.push_str(r#"{"sessionUpdate":"plan_update","plan":{"type":"#);
            let (id, kind) = match shape {
                CheckedForm::Items(id, _) => (id, "items"),
                CheckedForm::Markdown(id, ..) => (id, "markdown"),
                CheckedForm::File(id, _) => (id, "file"),
                CheckedForm::Custom(id, kind, _) => (id, kind.as_str()),
                CheckedForm::V1(_) => unreachable!("handled above"),
            };
            json::write_str(&mut out, kind);
            out.push(',');
            json::write_str(&mut out, id_key);
            out.push(':');
            text_json(&mut out, id, dynamic);
            match shape {
                CheckedForm::Items(_, entries) => {
                    out.push_str(r#","entries":"#);
                    entries_json(&mut out, entries, dynamic);
                }
                CheckedForm::Markdown(_, content, path) => {
                    out.push_str(r#","content":"#);
                    text_json(&mut out, content, dynamic);
                    if let Some(path) = path {
                        out.push_str(r#","path":"#);
                        text_json(&mut out, path, dynamic);
                    }
                }
                CheckedForm::File(_, uri) => {
                    out.push_str(r#","uri":"#);
                    text_json(&mut out, uri, dynamic);
                }
                CheckedForm::Custom(_, _, Some(fields)) => {
                    // Custom fields are written with sorted keys, as at run time.
                    if let Some(NodeKind::Object(members)) =
                        literal_json(fields, dynamic).map(|n| n.kind)
                    {
                        for (key, value) in json::sorted_if(&members, true) {
                            out.push(',');
                            json::write_str(&mut out, key);
                            out.push(':');
                            json::write(value, &mut out, true);
                        }
                    }
                }
                _ => {}
            }
            meta_json(&mut out, meta.as_ref());
            out.push_str("}}");
        }
    }
    out
}

fn literal_json(group: &Group, dynamic: &mut Vec<(Span, String)>) -> Option<Node> {
    match json::parse_object(group) {
        Ok(object) => Some(object),
        Err(found) => {
            dynamic.push(found);
            None
        }
    }
}

fn meta_json(out: &mut String, meta: Option<&Option<Node>>) {
    if let Some(Some(meta)) = meta {
        out.push_str(r#","_meta":"#);
        json::write(meta, out, false);
    }
}

fn text_json(out: &mut String, t: &Text, dynamic: &mut Vec<(Span, String)>) {
    match t {
        Text::Str(lit) => json::write_str(out, &lit.value()),
        Text::Expr(g) => {
            run_time(dynamic, g.span());
        }
    }
}

fn entries_json(out: &mut String, entries: &[CheckedEntry], dynamic: &mut Vec<(Span, String)>) {
    out.push('[');
    for (i, e) in entries.iter().enumerate() {
        let (priority, status, content, meta) = e.parts();
        if i > 0 {
            out.push(',');
        }
        out.push_str(r#"{"content":"#);
        text_json(out, content, dynamic);
        for (key, n) in [("priority", priority), ("status", status)] {
            out.push_str(",\"");
            out.push_str(key);
            out.push_str("\":");
            match n {
                CheckedName::Known(k, _) => json::write_str(out, k),
                CheckedName::Custom(c) => json::write_str(out, c),
                CheckedName::Expr(g) => {
                    run_time(dynamic, g.span());
                }
            }
        }
        let meta = meta.map(|g| literal_json(g, dynamic));
        meta_json(out, meta.as_ref());
        out.push('}');
    }
    out.push(']');
}

/// Records a part `plan_json!` cannot write: a `{ expression }`.
fn run_time(dynamic: &mut Vec<(Span, String)>, span: Span) {
    dynamic.push((span, "this expression is only known at run time".into()));
}

/// A `meta: { ... }` value: all-literal JSON is written now, in source order
/// (the runtime writes `_meta` back as it is); anything else is built with
/// `serde_json::json!` at run time.
fn meta_value(group: &Group) -> TokenStream {
    match json::parse_object(group) {
        Ok(object) => {
            let mut text = String::new();
            json::write(&object, &mut text, false);
            quote!(__plan::meta_json(#text))
        }
        Err(_) => quote!(__plan::meta(__plan::serde_json::json!(#group))),
    }
}
