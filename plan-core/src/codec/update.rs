//! Reading and writing session updates.

use serde_json::Value;

use crate::codec::{self, Members, Out, Readable, Reading, Spelling};
use crate::error::{Error, Path};
use crate::protocol::update::{Plan, SessionUpdate};
use crate::rules::KEY_SESSION_UPDATE;

impl Members for SessionUpdate {
    fn members<O: Out>(&self, spelling: Spelling, out: &mut O) -> Result<(), O::Error> {
        let meta = match self {
            SessionUpdate::Other(other) => {
                for (key, value) in codec::SortedMap(&other.0).entries() {
                    out.value(key, value)?;
                }
                return Ok(());
            }
            // Every field named: one this writer forgets does not compile.
            SessionUpdate::Plan(Plan { entries, meta }) => {
                out.word(KEY_SESSION_UPDATE, crate::rules::TAG_PLAN)?;
                out.list(crate::rules::KEY_ENTRIES, entries, spelling)?;
                meta.as_ref()
            }
            SessionUpdate::PlanUpdate { plan, meta } => {
                out.word(KEY_SESSION_UPDATE, crate::rules::TAG_PLAN_UPDATE)?;
                out.object(crate::rules::KEY_PLAN, plan, spelling)?;
                meta.as_ref()
            }
            SessionUpdate::PlanRemoved { id, meta } => {
                out.word(KEY_SESSION_UPDATE, crate::rules::TAG_PLAN_REMOVED)?;
                out.str(spelling.plan_id_key(), id.as_str())?;
                meta.as_ref()
            }
        };
        out.meta(meta)
    }
}

impl Readable for SessionUpdate {
    fn read_str(json: &str, reading: &mut Reading) -> Result<Self, Error> {
        crate::codec::read::update(json, reading)
    }

    fn read(value: Value, reading: &mut Reading, at: &Path<'_>) -> Result<Self, Error> {
        crate::codec::read::update_value(value, reading, at)
    }
}

codec::wire_methods!(SessionUpdate, "a session update (the `update` object)");
