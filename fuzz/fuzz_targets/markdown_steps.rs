//! The one reading of a markdown plan (`MarkdownSteps::read`) on any text:
//! never a panic; at least one step for any text with something other than
//! white space in it, none for white space alone; no step whose text is
//! empty or holds a line break. Time linear in the input: run with
//! `-max_len` large (docs/reliability.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan_core::client::MarkdownSteps;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let steps = MarkdownSteps::read(text);
    assert_eq!(text.trim().is_empty(), steps.entries.is_empty(), "{text:?}");
    for entry in &steps.entries {
        assert!(!entry.content.is_empty(), "{text:?}");
        assert!(!entry.content.contains(['\n', '\r']), "{text:?}");
    }
});
