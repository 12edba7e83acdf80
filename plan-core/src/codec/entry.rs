//! Reading and writing plan entries.

use serde_json::Value;

use crate::codec::{self, Members, Out, Readable, Reading, Spelling};
use crate::error::{Error, Path};
use crate::protocol::entry::PlanEntry;

impl Members for PlanEntry {
    fn members<O: Out>(&self, _: Spelling, out: &mut O) -> Result<(), O::Error> {
        // Every field named: one this writer forgets does not compile.
        let PlanEntry {
            content,
            priority,
            status,
            meta,
        } = self;
        out.str(crate::rules::KEY_CONTENT, content)?;
        match priority.known_str() {
            Some(word) => out.word(crate::rules::KEY_PRIORITY, word)?,
            None => out.str(crate::rules::KEY_PRIORITY, priority.as_str())?,
        }
        match status.known_str() {
            Some(word) => out.word(crate::rules::KEY_STATUS, word)?,
            None => out.str(crate::rules::KEY_STATUS, status.as_str())?,
        }
        out.meta(meta.as_ref())
    }
}

impl Readable for PlanEntry {
    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        crate::codec::read::entry_value(value, reading, at)
    }
}

codec::wire_methods!(PlanEntry, "a plan entry");
