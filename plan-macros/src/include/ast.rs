//! Stage 1 of the file macros: a JSON document read into the message it
//! holds, without judging its values. Only the JSON's shape is reported
//! here: a key the message's layout (`rules/layout.rs`) requires and the
//! document lacks, a value of the wrong JSON type, a plan id given in both
//! spellings. Every value keeps where it was written (`Located`), so
//! `valid.rs`, which applies the protocol's rules, can point at it.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::quote;

use crate::errors::{Errors, Site};
use crate::json_reader::{Node, NodeKind};
use crate::rules::{self, layout};

/// A string of the document and where it is.
pub(crate) struct Located<'d> {
    pub(crate) text: &'d str,
    pub(crate) node: &'d Node,
    /// Its JSON path, e.g. `params.update.plan.entries[0].status`.
    pub(crate) path: String,
}

/// What a document holds.
pub(crate) enum Message<'d> {
    /// A `session/update` notification: its envelope, then its update.
    Notification(Envelope<'d>, Option<Update<'d>>),
    /// A session update alone.
    Update(Update<'d>),
    /// Plan content alone (with `type`).
    Content(Content<'d>),
}

impl Message<'_> {
    /// Whether it is a v1 `plan` update, alone or in a notification (so a
    /// rejected fixture still has the type it would have given).
    pub(crate) fn is_v1(&self) -> bool {
        matches!(
            self,
            Self::Update(Update::V1(..)) | Self::Notification(_, Some(Update::V1(..)))
        )
    }
}

/// A notification's envelope, as written.
pub(crate) struct Envelope<'d> {
    pub(crate) jsonrpc: Option<Located<'d>>,
    pub(crate) method: Option<Located<'d>>,
    /// An `id`, which a notification must not have.
    pub(crate) id: Option<&'d Node>,
}

/// A session update, by its `sessionUpdate`.
pub(crate) enum Update<'d> {
    /// The v1 `plan` update: its entries and its own `_meta`.
    V1(Option<Vec<Entry<'d>>>, Option<Group>),
    /// `plan_update`: the plan content it carries.
    Content(Option<Content<'d>>),
    /// `plan_removed`: the id of the plan removed.
    Removed(Option<Located<'d>>),
    /// Any other update (`agent_message_chunk`, ...): the `sessionUpdate`.
    Other(Located<'d>),
}

/// Plan content: its `type`, id, `_meta`, and what its type holds.
pub(crate) struct Content<'d> {
    pub(crate) kind: Located<'d>,
    pub(crate) id: Option<Located<'d>>,
    pub(crate) meta: Option<Group>,
    pub(crate) body: Body<'d>,
}

/// What a plan holds, by its `type`.
pub(crate) enum Body<'d> {
    Items(Option<Vec<Entry<'d>>>),
    /// The text, and the `path` (`Ok(None)`: absent or `null`; `Err`: not a
    /// string, reported).
    Markdown(Option<Located<'d>>, Result<Option<Located<'d>>, Reported>),
    /// A pre-stable `file` plan's `uri`.
    File(Option<Located<'d>>),
    /// A custom type's own fields (every key the plan does not write
    /// itself), as `serde_json::json!` tokens.
    Custom(Option<Group>),
}

/// One plan entry; `None` where the part was missing or not a string
/// (reported).
pub(crate) struct Entry<'d> {
    pub(crate) content: Option<Located<'d>>,
    pub(crate) priority: Option<Located<'d>>,
    pub(crate) status: Option<Located<'d>>,
    pub(crate) meta: Option<Group>,
}

/// A mistake already reported: the caller gives up on the value without
/// reporting again.
pub(crate) struct Reported;

/// Reading one document of a file: where its errors point, and the errors.
pub(crate) struct DocumentSite<'e> {
    file: &'e str,
    span: Span,
    /// Added to each value's line: the document's first line in the file
    /// (a stream's lines are read one by one).
    first_line: usize,
    /// Reading a line of a stream: every session update is welcome.
    stream: bool,
    errors: &'e mut Errors,
}

impl<'e> DocumentSite<'e> {
    /// Reads documents of `file` (as the user wrote its path); errors point
    /// at `span`; the document starts after `first_line` lines of the file.
    pub(crate) fn new(
        file: &'e str,
        span: Span,
        first_line: usize,
        errors: &'e mut Errors,
    ) -> Self {
        Self {
            file,
            span,
            first_line,
            stream: false,
            errors,
        }
    }

    /// The same reading, for the lines of a stream.
    pub(crate) fn for_stream(mut self) -> Self {
        self.stream = true;
        self
    }

    /// Whether this is a line of a stream.
    pub(crate) fn is_stream(&self) -> bool {
        self.stream
    }

    /// The span every error and literal of the file takes: the path argument.
    pub(crate) fn span(&self) -> Span {
        self.span
    }

    /// Where `node` is, for an error.
    pub(crate) fn site(&self, node: &Node, path: &str) -> Site {
        let line = node.line + self.first_line;
        Site::in_file(self.span, self.file, line, node.column, path)
    }

    /// Reports `message` at `node`.
    pub(crate) fn at(&mut self, node: &Node, path: &str, message: impl std::fmt::Display) {
        let site = self.site(node, path);
        self.errors.at(site, message);
    }

    /// The collector, for the checks of `valid.rs`.
    pub(crate) fn errors(&mut self) -> &mut Errors {
        self.errors
    }

    /// The message a whole document holds: a notification, an update or plan
    /// content, told apart by their keys.
    pub(crate) fn document<'d>(&mut self, doc: &'d Node) -> Option<Message<'d>> {
        let NodeKind::Object(fields) = &doc.kind else {
            let found = doc.kind.name();
            self.at(
                doc,
                "",
                format_args!("expected a JSON object, found {found}"),
            );
            return None;
        };
        if field(fields, rules::KEY_JSONRPC).is_some() {
            Some(self.notification(doc, fields))
        } else if field(fields, rules::KEY_SESSION_UPDATE).is_some() {
            self.update(doc, fields, "").map(Message::Update)
        } else if field(fields, rules::KEY_TYPE).is_some() {
            self.content(doc, fields, "").map(Message::Content)
        } else {
            self.at(doc, "", "expected a plan (with `type`), a session update (with `sessionUpdate`) or a `session/update` notification (with `jsonrpc`)");
            None
        }
    }

    /// A `session/update` notification.
    pub(crate) fn notification<'d>(
        &mut self,
        doc: &'d Node,
        fields: &'d [(String, Node)],
    ) -> Message<'d> {
        self.required(doc, fields, layout::NOTIFICATION, "");
        let envelope = Envelope {
            jsonrpc: self.string(fields, rules::KEY_JSONRPC, ""),
            method: self.string(fields, rules::KEY_METHOD, ""),
            id: field(fields, "id"),
        };
        let update = self
            .object(fields, rules::KEY_PARAMS, "")
            .and_then(|(params, members)| {
                self.required(params, members, layout::PARAMS, rules::KEY_PARAMS);
                self.string(members, rules::KEY_SESSION_ID, rules::KEY_PARAMS);
                let (update, members) =
                    self.object(members, rules::KEY_UPDATE, rules::KEY_PARAMS)?;
                self.update(update, members, &join(rules::KEY_PARAMS, rules::KEY_UPDATE))
            });
        Message::Notification(envelope, update)
    }

    fn update<'d>(
        &mut self,
        node: &'d Node,
        fields: &'d [(String, Node)],
        path: &str,
    ) -> Option<Update<'d>> {
        let kind = self.tag(node, fields, rules::KEY_SESSION_UPDATE, path)?;
        let update = match kind.text {
            "plan" => {
                self.required(node, fields, layout::UPDATE_PLAN, path);
                let entries = self.entries(fields, path);
                // The v1 update's own `_meta`, as the run-time reader keeps it.
                Update::V1(entries, self.meta(fields, path))
            }
            "plan_update" => {
                self.required(node, fields, layout::UPDATE_PLAN_UPDATE, path);
                let plan = self.object(fields, rules::KEY_PLAN, path);
                let path = join(path, rules::KEY_PLAN);
                Update::Content(plan.and_then(|(plan, members)| self.content(plan, members, &path)))
            }
            "plan_removed" if self.stream => Update::Removed(self.plan_id(node, fields, path)),
            _ => Update::Other(kind),
        };
        Some(update)
    }

    fn content<'d>(
        &mut self,
        node: &'d Node,
        fields: &'d [(String, Node)],
        path: &str,
    ) -> Option<Content<'d>> {
        let kind = self.tag(node, fields, rules::KEY_TYPE, path)?;
        let table = match kind.text {
            "items" => layout::ITEMS,
            "markdown" => layout::MARKDOWN,
            "file" => layout::FILE,
            _ => layout::CUSTOM,
        };
        self.required(node, fields, table, path);
        let id = self.plan_id(node, fields, path);
        let meta = self.meta(fields, path);
        let body = match kind.text {
            "items" => Body::Items(self.entries(fields, path)),
            "markdown" => Body::Markdown(
                self.string(fields, rules::KEY_CONTENT, path),
                self.nullable_string(fields, rules::KEY_PATH, path),
            ),
            "file" => Body::File(self.string(fields, rules::KEY_URI, path)),
            _ => Body::Custom(own_fields(fields)),
        };
        Some(Content {
            kind,
            id,
            meta,
            body,
        })
    }

    /// The plan id, in either spelling (`planId`, or the RFD's `id`), not both.
    pub(crate) fn plan_id<'d>(
        &mut self,
        node: &'d Node,
        fields: &'d [(String, Node)],
        path: &str,
    ) -> Option<Located<'d>> {
        let [rfd, acp] = rules::PLAN_ID_KEYS;
        let explain = |problem| rules::ExplainSpelling { problem, rfd, acp };
        match (field(fields, rfd), field(fields, acp)) {
            (Some(_), Some(value)) => {
                self.at(value, path, explain(rules::SpellingProblem::Both));
                None
            }
            (Some(_), None) => self.string(fields, rfd, path),
            (None, Some(_)) => self.string(fields, acp, path),
            (None, None) => {
                self.at(node, path, explain(rules::SpellingProblem::Missing));
                None
            }
        }
    }

    fn entries<'d>(&mut self, fields: &'d [(String, Node)], path: &str) -> Option<Vec<Entry<'d>>> {
        let list = field(fields, rules::KEY_ENTRIES)?;
        let path = join(path, rules::KEY_ENTRIES);
        let NodeKind::Array(items) = &list.kind else {
            self.wrong_type(list, &path, "an array");
            return None;
        };
        let entries: Vec<Option<Entry<'d>>> = items
            .iter()
            .enumerate()
            .map(|(index, item)| self.entry(item, &format!("{path}[{index}]")))
            .collect();
        entries.into_iter().collect()
    }

    fn entry<'d>(&mut self, node: &'d Node, path: &str) -> Option<Entry<'d>> {
        let NodeKind::Object(fields) = &node.kind else {
            self.wrong_type(node, path, "an object");
            return None;
        };
        self.required(node, fields, layout::ENTRY, path);
        Some(Entry {
            content: self.string(fields, rules::KEY_CONTENT, path),
            priority: self.string(fields, rules::KEY_PRIORITY, path),
            status: self.string(fields, rules::KEY_STATUS, path),
            meta: self.meta(fields, path),
        })
    }

    /// `_meta`, an object (anything else is reported); `null` is left out.
    fn meta(&mut self, fields: &[(String, Node)], path: &str) -> Option<Group> {
        let meta = field(fields, rules::KEY_META)?;
        match &meta.kind {
            NodeKind::Object(members) => Some(object_tokens(members.iter())),
            NodeKind::Null => None,
            _ => {
                self.wrong_type(meta, &join(path, rules::KEY_META), "an object or null");
                None
            }
        }
    }

    /// Reports each key `layout` requires that `fields` lacks (the plan id
    /// may be spelt either way: `plan_id` judges it).
    fn required(
        &mut self,
        node: &Node,
        fields: &[(String, Node)],
        layout: &[layout::Field],
        path: &str,
    ) {
        for key in layout.iter().filter(|f| !f.optional).map(|f| f.key) {
            if key != rules::KEY_PLAN_ID && field(fields, key).is_none() {
                self.at(node, path, format_args!("missing required field `{key}`"));
            }
        }
    }

    /// The tag that says which layout an object has (`type`,
    /// `sessionUpdate`): a string, reported if absent, since no table can
    /// require it before it is known.
    fn tag<'d>(
        &mut self,
        node: &Node,
        fields: &'d [(String, Node)],
        key: &str,
        path: &str,
    ) -> Option<Located<'d>> {
        if field(fields, key).is_none() {
            self.at(node, path, format_args!("missing required field `{key}`"));
        }
        self.string(fields, key, path)
    }

    /// A string field; `None` if absent (the layout's check reports it) or
    /// not a string (reported here).
    fn string<'d>(
        &mut self,
        fields: &'d [(String, Node)],
        key: &str,
        path: &str,
    ) -> Option<Located<'d>> {
        let value = field(fields, key)?;
        let path = join(path, key);
        match &value.kind {
            NodeKind::String(text) => Some(Located {
                text,
                node: value,
                path,
            }),
            _ => {
                self.wrong_type(value, &path, "a string");
                None
            }
        }
    }

    /// An optional string that may be `null`.
    fn nullable_string<'d>(
        &mut self,
        fields: &'d [(String, Node)],
        key: &str,
        path: &str,
    ) -> Result<Option<Located<'d>>, Reported> {
        let Some(value) = field(fields, key) else {
            return Ok(None);
        };
        let path = join(path, key);
        match &value.kind {
            NodeKind::Null => Ok(None),
            NodeKind::String(text) => Ok(Some(Located {
                text,
                node: value,
                path,
            })),
            _ => {
                self.wrong_type(value, &path, "a string or null");
                Err(Reported)
            }
        }
    }

    /// An object field and its members; `None` if absent (the layout's check
    /// reports it) or not an object (reported here).
    fn object<'d>(
        &mut self,
        fields: &'d [(String, Node)],
        key: &str,
        path: &str,
    ) -> Option<(&'d Node, &'d [(String, Node)])> {
        let value = field(fields, key)?;
        match &value.kind {
            NodeKind::Object(members) => Some((value, members)),
            _ => {
                self.wrong_type(value, &join(path, key), "an object");
                None
            }
        }
    }

    /// Reports `value` as not of the `expected` JSON type.
    fn wrong_type(&mut self, value: &Node, path: &str, expected: &str) {
        let found = value.kind.name();
        self.at(
            value,
            path,
            format_args!("expected {expected}, found {found}"),
        );
    }
}

/// The value of `key` among an object's members.
pub(crate) fn field<'d>(fields: &'d [(String, Node)], key: &str) -> Option<&'d Node> {
    fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// `path.key`, or `key` at the top.
pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// A custom plan's own fields: the members the plan does not write itself.
fn own_fields(fields: &[(String, Node)]) -> Option<Group> {
    let own: Vec<&(String, Node)> = fields
        .iter()
        .filter(|(k, _)| !rules::OWN_KEYS.contains(&k.as_str()))
        .collect();
    (!own.is_empty()).then(|| object_tokens(own.into_iter()))
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
