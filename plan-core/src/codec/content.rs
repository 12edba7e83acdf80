//! Reading and writing plan content.

use serde_json::Value;

use crate::codec::{self, Members, Out, Readable, Reading};
use crate::error::{Error, Path};
use crate::protocol::content::{OWN_KEYS, PlanContent};
use crate::protocol::spelling::Spelling;
use crate::rules::{KEY_CONTENT, KEY_ENTRIES, KEY_PATH, KEY_TYPE, KEY_URI, PlanType};

impl Members for PlanContent {
    fn members<O: Out>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
        match self {
            PlanContent::Items { .. } => out.word(KEY_TYPE, PlanType::Items.name())?,
            PlanContent::Markdown { .. } => out.word(KEY_TYPE, PlanType::Markdown.name())?,
            PlanContent::File { .. } => out.word(KEY_TYPE, PlanType::File.name())?,
            PlanContent::Custom { .. } | PlanContent::Reserved { .. } => {
                out.str(KEY_TYPE, self.type_name())?;
            }
        }
        out.str(spelling.plan_id_key(), self.id().as_str())?;
        // Every field named (the type, the id and `_meta` are written
        // around the match): one this writer forgets does not compile.
        match self {
            PlanContent::Items {
                id: _,
                entries,
                meta: _,
            } => out.list(KEY_ENTRIES, entries, spelling)?,
            PlanContent::File {
                id: _,
                uri,
                meta: _,
            } => out.str(KEY_URI, uri.as_str())?,
            PlanContent::Markdown {
                id: _,
                content,
                path,
                meta: _,
            } => {
                out.str(KEY_CONTENT, content)?;
                if let Some(path) = path {
                    out.str(KEY_PATH, path.as_str())?;
                }
            }
            PlanContent::Custom {
                kind: _,
                id: _,
                fields,
                meta: _,
            }
            | PlanContent::Reserved {
                kind: _,
                id: _,
                fields,
                meta: _,
            } => {
                for (key, value) in codec::SortedMap(fields).entries() {
                    if !OWN_KEYS.contains(&key.as_str()) {
                        out.value(key, value)?;
                    }
                }
            }
        }
        out.meta(self.meta())
    }
}

impl Readable for PlanContent {
    fn read_str(json: &str, reading: &mut Reading) -> Result<Self, Error> {
        crate::codec::read::content(json, reading)
    }

    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        crate::codec::read::content_value(value, reading, at)
    }
}

codec::wire_methods!(
    PlanContent,
    "plan content (the `plan` object of a `plan_update`)"
);
