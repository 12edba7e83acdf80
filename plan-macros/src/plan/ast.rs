//! Stage 1: the syntax of a `plan!` call, parsed without judging it.
//!
//! Parsing recovers at the next comma after a mistake, so one call reports
//! every malformed field and entry, not only the first. The tokens keep their
//! spans for the errors of `valid.rs`.

use proc_macro2::{Delimiter, Group, Span, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

/// The whole call: `key: value` fields, comma-separated.
pub(crate) struct Input {
    pub(crate) fields: Vec<Field>,
    /// Syntax errors, in source order; parsing went on after each.
    pub(crate) errors: Vec<syn::Error>,
    /// Keys whose value did not parse: already reported, so never "missing".
    pub(crate) broken: Vec<Ident>,
    /// Every word and `{ }` part read, in source order, even from a field or
    /// entry that turned out malformed: the expansion names them for the
    /// editor whatever else went wrong.
    pub(crate) seen: Vec<Typed>,
}

/// A word of the grammar or a `{ expression }` part, as the parser met it.
pub(crate) enum Typed {
    /// A key, priority or status as typed, known or not.
    Word(Role, Ident),
    /// A `{ expression }` that is Rust (not the JSON of `meta`/`fields`).
    Block(Group),
    /// The place of a word not written yet: an entry's status after its
    /// priority, at the end of what is typed (`[ high ]`).
    Missing(Role),
}

/// Where a word stands: what it should be.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    Key,
    Priority,
    Status,
}

impl Role {
    /// The place's module of `plan_core::dsl` (an enum of its words), and
    /// one of its words.
    pub(crate) fn module_and_word(self) -> (&'static str, &'static str) {
        match self {
            Self::Key => ("key", "id"),
            Self::Priority => ("priority", "high"),
            Self::Status => ("status", "pending"),
        }
    }
}

/// What reading collects besides the syntax: the errors, and what was seen.
#[derive(Default)]
struct Notes {
    errors: Vec<syn::Error>,
    seen: Vec<Typed>,
}

/// One `key: value`.
pub(crate) struct Field {
    pub(crate) key: Ident,
    pub(crate) value: Value,
}

/// A field's value, as written.
pub(crate) enum Value {
    /// `"text"`
    Str(LitStr),
    /// `{ ... }`: a Rust expression, or JSON for `meta` and `fields`.
    Braced(Group),
    /// `_timeline`: a bare name.
    Name(Ident),
    /// `[ entry, ... ]`
    Entries(Span, Vec<Entry>),
}

/// `priority status content [meta: { ... }]`
pub(crate) struct Entry {
    pub(crate) priority: Name,
    pub(crate) status: Name,
    pub(crate) content: Text,
    pub(crate) meta: Option<Group>,
}

/// A priority or status: `high`, `"_x"` or `{ expression }`.
pub(crate) enum Name {
    Ident(Ident),
    Str(LitStr),
    Expr(Group),
}

/// Text: `"literal"` or `{ expression }`.
pub(crate) enum Text {
    Str(LitStr),
    Expr(Group),
}

impl Value {
    pub(crate) fn span(&self) -> Span {
        match self {
            Self::Str(s) => s.span(),
            Self::Braced(g) => g.span(),
            Self::Name(n) => n.span(),
            Self::Entries(span, _) => *span,
        }
    }
}

impl Parse for Input {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut notes = Notes::default();
        let mut broken = Vec::new();
        let fields = separated(input, &mut notes, "field's value", |input, notes| {
            let key = input.fork().call(Ident::parse_any).ok();
            let field = parse_field(input, notes);
            if field.is_err() {
                broken.extend(key);
            }
            field
        })?;
        Ok(Self {
            fields,
            errors: notes.errors,
            broken,
            seen: notes.seen,
        })
    }
}

/// A comma-separated list. A malformed item is reported in `notes` and
/// skipped to the next comma; a missing comma is reported and reading goes
/// on if what follows can start an item (most likely the comma was forgotten).
fn separated<T>(
    input: ParseStream<'_>,
    notes: &mut Notes,
    item: &str,
    mut parse: impl FnMut(ParseStream<'_>, &mut Notes) -> syn::Result<T>,
) -> syn::Result<Vec<T>> {
    let mut items = Vec::new();
    while !input.is_empty() {
        // A comma where an item starts: one too many (`a,, b`).
        if input.peek(Token![,]) {
            let extra = input.parse::<Token![,]>()?;
            notes.errors.push(syn::Error::new(
                extra.span,
                format!("a second `,` with no {item} before it: remove this `,`"),
            ));
            continue;
        }
        let start = input.cursor();
        match parse(input, notes) {
            Ok(parsed) => items.push(parsed),
            Err(err) => {
                notes.errors.push(err);
                skip_past_comma(input)?;
                continue;
            }
        }
        if input.is_empty() {
            break;
        }
        if let Err(err) = input.parse::<Token![,]>() {
            let next_item =
                input.peek(Ident::peek_any) || peek_str(input) || input.peek(syn::token::Brace);
            if next_item {
                // Another item follows: the comma was forgotten. Where it
                // belongs is after this item's last token.
                let at = last_span(start, input.cursor()).unwrap_or_else(|| err.span());
                notes.errors.push(syn::Error::new(
                    at,
                    format!("expected `,` after this {item}: add `,` here"),
                ));
            } else {
                // A stray token: said where it is.
                notes.errors.push(syn::Error::new(
                    err.span(),
                    format!("expected `,` after this {item}"),
                ));
                skip_past_comma(input)?;
            }
        }
    }
    Ok(items)
}

/// The span of the last token between two cursors of one stream.
fn last_span(mut at: syn::buffer::Cursor<'_>, end: syn::buffer::Cursor<'_>) -> Option<Span> {
    let mut last = None;
    while at != end {
        let (token, next) = at.token_tree()?;
        last = Some(token.span());
        at = next;
    }
    last
}

fn parse_field(input: ParseStream<'_>, notes: &mut Notes) -> syn::Result<Field> {
    let key = Ident::parse_any(input).map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a key such as `id`, `items`, `markdown` or `file`",
        )
    })?;
    notes.seen.push(Typed::Word(Role::Key, key.clone()));
    input
        .parse::<Token![:]>()
        .map_err(|e| syn::Error::new(e.span(), format!("expected `:` after `{key}`")))?;
    let value = parse_value(input, &key, notes)?;
    Ok(Field { key, value })
}

fn parse_value(input: ParseStream<'_>, key: &Ident, notes: &mut Notes) -> syn::Result<Value> {
    if let Some(text) = parse_str(input) {
        return Ok(Value::Str(text));
    }
    if input.peek(syn::token::Bracket) {
        let content;
        let bracket = syn::bracketed!(content in input);
        return Ok(Value::Entries(
            bracket.span.join(),
            parse_entries(&content, notes)?,
        ));
    }
    if input.peek(syn::token::Brace) {
        let value = group(input)?;
        // `meta` and `fields` hold JSON; the other keys' braces hold Rust.
        if !(key == "meta" || key == "fields") {
            notes.seen.push(Typed::Block(value.clone()));
        }
        return Ok(Value::Braced(value));
    }
    if input.peek(Ident::peek_any) {
        return Ident::parse_any(input).map(Value::Name);
    }
    Err(input.error(format!(
        "expected a value for `{key}`: a string literal, `{{ expression }}`, `[entries]` or a name"
    )))
}

/// The entries of a list; a malformed entry is reported in `notes` and
/// skipped, so the others are still checked.
fn parse_entries(input: ParseStream<'_>, notes: &mut Notes) -> syn::Result<Vec<Entry>> {
    separated(input, notes, "entry", |input, notes| {
        parse_entry(input, &mut notes.seen)
    })
}

/// One entry: `PRIORITY STATUS TEXT [meta: { ... }]`, each word noted in
/// `seen` for the editor.
fn parse_entry(input: ParseStream<'_>, seen: &mut Vec<Typed>) -> syn::Result<Entry> {
    misplaced_entry(input)?;
    let priority = parse_name(
        input,
        Role::Priority,
        "a priority (`high`, `medium`, `low`, `_custom`)",
        seen,
    )?;
    spaces_not_commas(input)?;
    if input.is_empty() {
        seen.push(Typed::Missing(Role::Status));
    }
    let status = parse_name(
        input,
        Role::Status,
        "a status after the priority (`pending`, `in_progress`, `completed`, `cancelled`, `_custom`)",
        seen,
    )?;
    spaces_not_commas(input)?;
    dashed_status(input, &status)?;
    let content = entry_content(input, seen)?;
    let meta = entry_meta(input, seen)?;
    Ok(Entry {
        priority,
        status,
        content,
        meta,
    })
}

/// An entry written in another order, or a list where an entry belongs:
/// an error that says how to write it.
fn misplaced_entry(input: ParseStream<'_>) -> syn::Result<()> {
    // `"Fix the bug" high pending`: the text first. (A string priority is
    // followed by a status and then text, never by two names.)
    if peek_str(input) && input.peek2(Ident::peek_any) && input.peek3(Ident::peek_any) {
        let fork = input.fork();
        let text: LitStr = fork.parse()?;
        let (priority, status) = (Ident::parse_any(&fork)?, Ident::parse_any(&fork)?);
        return Err(syn::Error::new(
            text.span(),
            format!(
                "an entry is PRIORITY STATUS TEXT, the text last: write `{priority} {status} {}`",
                text.token()
            ),
        ));
    }
    // `[[...]]`: a list where an entry belongs.
    if input.peek(syn::token::Bracket) {
        let nested: TokenTree = input.parse()?;
        return Err(syn::Error::new(
            nested.span(),
            "a list inside the list: entries go straight in `[...]`, separated by commas: `[high pending \"Read\", low pending \"Ship\"]`",
        ));
    }
    Ok(())
}

/// `in-progress`: three tokens to Rust; the status has an underscore.
fn dashed_status(input: ParseStream<'_>, status: &Name) -> syn::Result<()> {
    if let Name::Ident(first) = status
        && input.peek(Token![-])
        && input.peek2(Ident::peek_any)
    {
        let dash: Token![-] = input.parse()?;
        let rest = Ident::parse_any(input)?;
        let written = format!("{first}-{rest}");
        let hint = match written.replace('-', "_").as_str() {
            "in_progress" => "did you mean `in_progress`?".to_owned(),
            other => format!("a name is one word: `{other}`, or a string"),
        };
        return Err(syn::Error::new_spanned(
            quote::quote!(#first #dash #rest),
            format!("unknown status `{written}`; {hint}"),
        ));
    }
    Ok(())
}

/// The entry's content after its status: a string literal or a block.
fn entry_content(input: ParseStream<'_>, seen: &mut Vec<Typed>) -> syn::Result<Text> {
    if let Some(text) = parse_str(input) {
        return Ok(Text::Str(text));
    }
    if input.peek(syn::token::Brace) {
        let content = group(input)?;
        seen.push(Typed::Block(content.clone()));
        return Ok(Text::Expr(content));
    }
    Err(input.error(
        "expected the entry's content after its status: a string literal or `{ expression }`",
    ))
}

/// `meta: { ... }` after the content, if it is there.
fn entry_meta(input: ParseStream<'_>, seen: &mut Vec<Typed>) -> syn::Result<Option<Group>> {
    let is_meta = input.peek(Ident::peek_any)
        && input
            .fork()
            .call(Ident::parse_any)
            .is_ok_and(|i| i == "meta");
    if !is_meta {
        return Ok(None);
    }
    seen.push(Typed::Word(Role::Key, Ident::parse_any(input)?));
    input.parse::<Token![:]>()?;
    if !input.peek(syn::token::Brace) {
        return Err(input
            .error("expected a JSON object after `meta:`, e.g. `meta: { \"traceId\": \"abc\" }`"));
    }
    Ok(Some(group(input)?))
}

/// A comma between an entry's parts (`high, pending, "..."`): the commas
/// separate entries.
fn spaces_not_commas(input: ParseStream<'_>) -> syn::Result<()> {
    if input.peek(Token![,]) {
        let comma: Token![,] = input.parse()?;
        // The rest of this entry, through its content, is this one mistake.
        while !input.is_empty() {
            let content = peek_str(input) || input.peek(syn::token::Brace);
            input.parse::<TokenTree>()?;
            if content {
                break;
            }
        }
        return Err(syn::Error::new(
            comma.span,
            "an entry's parts are separated by spaces: `high pending \"...\"` (commas separate entries)",
        ));
    }
    Ok(())
}

/// A priority or status, `role`, which `seen` records.
fn parse_name(
    input: ParseStream<'_>,
    role: Role,
    what: &str,
    seen: &mut Vec<Typed>,
) -> syn::Result<Name> {
    if let Some(text) = parse_str(input) {
        Ok(Name::Str(text))
    } else if input.peek(syn::token::Brace) {
        let name = group(input)?;
        seen.push(Typed::Block(name.clone()));
        Ok(Name::Expr(name))
    } else if input.peek(Ident::peek_any) {
        let name = Ident::parse_any(input)?;
        seen.push(Typed::Word(role, name.clone()));
        Ok(Name::Ident(name))
    } else {
        Err(input.error(format!("expected {what}")))
    }
}

/// Whether a string literal comes next: `input.peek(LitStr)` at a fraction
/// of its cost, which matters as it runs several times an entry (syn's
/// peek parses the literal, or builds an error to say it is none, and the
/// macro runs for every call, in the debug build users compile it in).
fn peek_str(input: ParseStream<'_>) -> bool {
    input.cursor().literal().is_some_and(|(literal, _)| {
        let text = literal.to_string();
        text.starts_with('"') || text.starts_with("r\"") || text.starts_with("r#")
    })
}

/// The string literal that comes next, read (none, and nothing read, if
/// the next token is not one): the literal's text is asked for once, where
/// `peek_str` then `parse::<LitStr>()` asks twice and goes through syn's
/// machinery of forks.
fn parse_str(input: ParseStream<'_>) -> Option<LitStr> {
    // (A name or a group is no literal: no error built to say so.)
    input.cursor().literal()?;
    input
        .step(|cursor| match cursor.literal() {
            Some((literal, rest)) => match syn::Lit::new(literal) {
                syn::Lit::Str(text) => Ok((text, rest)),
                _ => Err(cursor.error("not a string")),
            },
            None => Err(cursor.error("not a string")),
        })
        .ok()
}

/// The next token tree, which the caller has peeked is a `{ ... }` group.
fn group(input: ParseStream<'_>) -> syn::Result<Group> {
    match input.parse::<TokenTree>()? {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => Ok(g),
        other => Err(syn::Error::new(other.span(), "expected `{ ... }`")),
    }
}

/// Skips to just past the next top-level comma (or to the end).
fn skip_past_comma(input: ParseStream<'_>) -> syn::Result<()> {
    while !input.is_empty() {
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            break;
        }
        input.parse::<TokenTree>()?;
    }
    Ok(())
}
