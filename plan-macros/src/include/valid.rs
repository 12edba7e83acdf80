//! Stage 2 of the file macros: the protocol's rules applied to the message
//! `ast.rs` read, into `plan!`'s own `CheckedPlan`. Each value goes through
//! the same check `plan!` applies to it (`plan::check_*`), so a rule is
//! written once for both macros; what is left here is what only a JSON
//! document has (the JSON-RPC envelope, a pre-stable `file` plan's URI).

use syn::LitStr;

use super::ast::{Body, Content, DocumentSite, Entry, Envelope, Located, Message, Update};
use crate::name_check::NameKind;
use crate::plan::{self, CheckedEntry, CheckedForm, CheckedPlan, Text};
use crate::rules;

/// The plan a message holds, every rule checked; `None` if a rule is broken
/// (reported) or, in a stream, if the message holds no plan.
pub(crate) fn message(reader: &mut DocumentSite<'_>, message: Message<'_>) -> Option<CheckedPlan> {
    match message {
        Message::Notification(envelope, update) => {
            check_envelope(reader, &envelope);
            self::update(reader, update?)
        }
        Message::Update(update) => self::update(reader, update),
        Message::Content(content) => self::content(reader, content),
    }
}

fn check_envelope(reader: &mut DocumentSite<'_>, envelope: &Envelope<'_>) {
    if let Some(version) = &envelope.jsonrpc
        && let Err(problem) = rules::check_envelope(version.text, rules::SESSION_UPDATE)
    {
        reader.at(version.node, &version.path, problem);
    }
    if let Some(method) = &envelope.method
        && let Err(problem) = rules::check_envelope(rules::JSONRPC_VERSION, method.text)
    {
        reader.at(method.node, &method.path, problem);
    }
    if let Some(id) = envelope.id {
        reader.at(id, "id", rules::EnvelopeProblem::HasId);
    }
}

fn update(reader: &mut DocumentSite<'_>, update: Update<'_>) -> Option<CheckedPlan> {
    match update {
        Update::V1(entries, meta) => {
            let entries = self::entries(reader, entries?, true)?;
            Some(CheckedPlan {
                form: CheckedForm::V1(entries),
                meta,
            })
        }
        Update::Content(content) => self::content(reader, content?),
        // In a stream, a removal's id is checked, and other updates are not
        // ours to judge.
        Update::Removed(id) => {
            id.and_then(|id| plan_id(reader, &id));
            None
        }
        Update::Other(_) if reader.is_stream() => None,
        Update::Other(kind) => {
            let other = kind.text;
            reader.at(kind.node, &kind.path, format_args!(
                "`{other}` holds no plan; include_plan! takes a plan, a `plan` or `plan_update` update, or a notification of one"
            ));
            None
        }
    }
}

fn content(reader: &mut DocumentSite<'_>, content: Content<'_>) -> Option<CheckedPlan> {
    let Content {
        kind,
        id,
        meta,
        body,
    } = content;
    let id = id.and_then(|id| plan_id(reader, &id));
    let form = match body {
        Body::Items(entries) => {
            let entries = entries.and_then(|entries| self::entries(reader, entries, false));
            CheckedForm::Items(id?, entries?)
        }
        Body::File(uri) => {
            let uri = uri?;
            if let Err(problem) = rules::check_uri(uri.text) {
                reader.at(uri.node, &uri.path, problem);
                return None;
            }
            CheckedForm::File(id?, text(reader, &uri))
        }
        Body::Markdown(content, path) => {
            let file = match path.ok()? {
                Some(path) => {
                    let site = reader.site(path.node, &path.path);
                    if !plan::check_markdown_path(path.text, site, reader.errors()) {
                        return None;
                    }
                    Some(text(reader, &path))
                }
                None => None,
            };
            CheckedForm::Markdown(id?, text(reader, &content?), file)
        }
        Body::Custom(fields) => {
            let site = reader.site(kind.node, &kind.path);
            let name = plan::check_custom_type(kind.text, site, reader.errors())?;
            CheckedForm::Custom(id?, name, fields)
        }
    };
    Some(CheckedPlan { form, meta })
}

/// A plan id, checked as `plan!` checks one.
pub(crate) fn plan_id(reader: &mut DocumentSite<'_>, id: &Located<'_>) -> Option<Text> {
    let site = reader.site(id.node, &id.path);
    plan::check_plan_id(id.text, site, reader.errors()).then(|| text(reader, id))
}

fn entries(
    reader: &mut DocumentSite<'_>,
    entries: Vec<Entry<'_>>,
    v1: bool,
) -> Option<Vec<CheckedEntry>> {
    let checked: Vec<Option<CheckedEntry>> = entries
        .into_iter()
        .map(|entry| self::entry(reader, entry, v1))
        .collect();
    checked.into_iter().collect()
}

fn entry(reader: &mut DocumentSite<'_>, entry: Entry<'_>, v1: bool) -> Option<CheckedEntry> {
    let content = entry.content.map(|content| {
        let site = reader.site(content.node, &content.path);
        plan::check_entry_content(content.text, site, reader.errors());
        text(reader, &content)
    });
    let mut name = |name: Option<Located<'_>>, kind| {
        let name = name?;
        let site = reader.site(name.node, &name.path);
        plan::check_entry_name(name.text, site, kind, v1, reader.errors())
    };
    let priority = name(entry.priority, NameKind::Priority);
    let status = name(entry.status, NameKind::Status);
    Some(CheckedEntry {
        priority: priority?,
        status: status?,
        content: content?,
        meta: entry.meta,
    })
}

/// A checked string, as the literal the expansion writes.
fn text(reader: &DocumentSite<'_>, located: &Located<'_>) -> Text {
    Text::Str(LitStr::new(located.text, reader.span()))
}
