//! A markdown plan read as its steps: the one reading that the v1 fallback
//! (a client without plan operations is sent the steps as a v1 `plan`),
//! the proxy and `acp-plan check` share. Agents write headings, numbered
//! steps, bullets, prose and code blocks, rarely checklists; the text is
//! read with a `CommonMark` parser (`pulldown-cmark`, what rustdoc and
//! mdBook read markdown with), so fences, nesting, lazy lines and CRLF are
//! read as a renderer reads them. Text, not JSON.

use std::borrow::Cow;

use pulldown_cmark::HeadingLevel;

use crate::protocol::entry::{PlanEntry, Priority, Status};
use crate::protocol::markdown_events::{Gathered, ReadStep, collapse, collapse_all};

/// What a markdown plan's steps were read from; see [`MarkdownSteps`] for
/// the order in which each is tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StepSource {
    /// The top-level items of its lists, at least one with a checkbox.
    Checklist,
    /// Its numbered headings (`### 1. Split the loader`, `## Phase 2: …`).
    NumberedHeadings,
    /// Its `Step 1: …` lines.
    StepLines,
    /// The top-level items of its lists (numbered or bulleted).
    List,
    /// Its headings, at the level that has the most of them (no list).
    Headings,
    /// Its paragraphs, one step each: the plan is prose.
    Prose,
    /// The first line of its code, else of its text: the plan holds
    /// nothing else a step can be read from (only code, HTML, rules).
    FirstLine,
    /// The plan has no text at all: no steps.
    Empty,
}

/// The steps of a markdown plan, as [`MarkdownSteps::read`] reads them.
///
/// **What becomes a step**, tried in this order, the first that finds any
/// being the plan's steps:
/// 1. a **checklist**: if any top-level list item has a box (`- [ ]`,
///    `- [x]`, `1. [X]`), every top-level list item is a step;
/// 2. **numbered headings**: two or more headings of one level whose text
///    starts with a number (`1.`, `2)`) or `Step`/`Phase`/`Stage`/`Part`/
///    `Task` and a number are the steps (what is under them is their
///    body: lists under a numbered heading are its details);
/// 3. **step lines**: two or more lines of a paragraph that start `Step 1:`
///    (or `Step 1.`, `Step 1 -`, `Step 1)`);
/// 4. a **list**: the top-level items of its numbered lists (`1.`, `1)`)
///    if it has any, so a plan's numbered steps are not mixed with the
///    bullets of its context or its checks; else the top-level items of
///    its bulleted lists (`-`, `*`, `+`); in order either way. Nested items
///    are part of their parent's body, not steps;
/// 5. **headings**: those at the level that has the most headings (on a
///    tie the shallower level), so a plan of sections reads as its
///    sections and a lone title over them is left out; a title alone over
///    prose is the one step;
/// 6. **prose**: each paragraph outside a list is one step;
/// 7. a plan with none of these (only code, HTML or rules) is one step:
///    the first line of its code, else of its text;
/// 8. a plan of white space alone has no steps.
///
/// Nothing inside a code block is a step, nor part of one's text; block
/// quotes and HTML are read as any other text is.
///
/// **A step's text** is the plain text of its first paragraph (a heading's
/// text, a list item's text up to its first nested list or code block):
/// v1 clients show `content` as plain text, so markup is dropped
/// (`**Parser**` is `Parser`, `` `limit` `` is `limit`, a link its text),
/// line breaks and runs of white space become one space, and the item's own
/// marker (`1.`, `-`) is not text; numbers written in the text stay
/// (`2. Implement the repository` in `- [ ] 2. Implement the repository`).
///
/// **Status**: `[x]` or `[X]` is `completed`, `[ ]` and no box `pending`;
/// an unchecked step that ends `(in progress)` is `in_progress` and a
/// checked one that ends `(cancelled)` is `cancelled`, with that mark
/// dropped (what [`plan_to_markdown`](crate::client::plan_to_markdown)
/// writes, so its output reads back as the plan it came from). Every step
/// is `medium` priority.
///
/// ```
/// use plan_core::{Status, client::{MarkdownSteps, StepSource}};
///
/// let plan = "# Plan: add pagination\n\n## Context\n`GET /users` returns every row.\n\n\
///             ## Steps\n1. Add `limit` and `cursor` to **UsersQuery**\n2. Page the SQL\n";
/// let steps = MarkdownSteps::read(plan);
/// assert_eq!(steps.source, StepSource::List);
/// let texts: Vec<_> = steps.entries.iter().map(|e| &*e.content).collect();
/// assert_eq!(texts, ["Add limit and cursor to UsersQuery", "Page the SQL"]);
/// assert_eq!(steps.entries[0].status, Status::Pending);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MarkdownSteps {
    /// The steps, in the order the plan has them.
    pub entries: Vec<PlanEntry>,
    /// What they were read from.
    pub source: StepSource,
}

impl MarkdownSteps {
    /// Reads the steps of a markdown plan (see the type's docs for the rules).
    /// Linear in the text; never panics.
    pub fn read(markdown: &str) -> Self {
        let parts = Gathered::collect(markdown);
        let (source, steps) = parts.choose(markdown);
        let entries = steps.into_iter().map(entry_of).collect::<Vec<_>>();
        Self { entries, source }
    }
}

/// The steps of a markdown plan as entries ([`MarkdownSteps::read`], its
/// entries): what a v1 client without plan operations is sent for a
/// markdown plan, and what `acp-plan check` holds such a fallback to.
///
/// ```
/// use plan_core::{Status, client::markdown_to_entries};
///
/// let entries = markdown_to_entries("## Steps\n- [x] Refactor module\n- [ ] Add tests\n\nNot a task");
/// assert_eq!(entries.len(), 2);
/// assert_eq!(entries[0].status, Status::Completed);
/// assert_eq!(entries[1].content, "Add tests");
///
/// // Prose alone is still a plan: one step per paragraph, never none.
/// let entries = markdown_to_entries("I'll switch the resizer to the streaming decoder.");
/// assert_eq!(entries.len(), 1);
/// ```
pub fn markdown_to_entries(markdown: &str) -> Vec<PlanEntry> {
    MarkdownSteps::read(markdown).entries
}

/// A step as an entry: its box and marks give its status (see
/// [`MarkdownSteps`]), `medium` priority.
fn entry_of(step: ReadStep) -> PlanEntry {
    let text = step.text;
    let (status, text) = match step.checked {
        Some(true) => match text.strip_suffix(crate::rules::CANCELLED_MARK) {
            Some(rest) if !rest.trim_end().is_empty() => {
                (Status::Cancelled, rest.trim_end().to_owned())
            }
            _ => (Status::Completed, text),
        },
        _ => match text.strip_suffix(IN_PROGRESS_MARK) {
            Some(rest) if !rest.trim_end().is_empty() => {
                (Status::InProgress, rest.trim_end().to_owned())
            }
            _ => (Status::Pending, text),
        },
    };
    PlanEntry::new(Cow::Owned(text), Priority::Medium, status)
}

/// What `plan_to_markdown` writes after the step in progress.
const IN_PROGRESS_MARK: &str = " (in progress)";

impl Gathered {
    /// The steps, by the first rule that finds any (see [`MarkdownSteps`]).
    pub(crate) fn choose(self, markdown: &str) -> (StepSource, Vec<ReadStep>) {
        let items: Vec<ReadStep> = self
            .items
            .into_iter()
            .map(|mut step| {
                step.text = collapse(&step.text);
                step
            })
            .filter(|step| !step.text.is_empty())
            .collect();
        if self.any_box && !items.is_empty() {
            return (StepSource::Checklist, items);
        }
        let numbered = numbered_headings(&self.headings);
        if numbered.len() >= 2 {
            return (StepSource::NumberedHeadings, texts(numbered));
        }
        let step_lines: Vec<String> = self
            .paragraphs
            .iter()
            .flatten()
            .filter(|line| is_step_line(line.trim_start()))
            .map(|line| collapse(line))
            .collect();
        if step_lines.len() >= 2 {
            return (StepSource::StepLines, texts(step_lines));
        }
        if items.iter().any(|step| step.ordered) {
            let numbered = items.into_iter().filter(|step| step.ordered).collect();
            return (StepSource::List, numbered);
        }
        if !items.is_empty() {
            return (StepSource::List, items);
        }
        let sections = sections(&self.headings);
        if !sections.is_empty() {
            return (StepSource::Headings, texts(sections));
        }
        if !self.paragraphs.is_empty() {
            let prose = self
                .paragraphs
                .iter()
                .map(|lines| collapse_all(lines.iter().map(String::as_str)));
            return (StepSource::Prose, texts(prose));
        }
        let first_line = self
            .first_code_line
            .or_else(|| markdown.lines().map(collapse).find(|line| !line.is_empty()));
        match first_line {
            Some(line) => (StepSource::FirstLine, texts([line])),
            None => (StepSource::Empty, Vec::new()),
        }
    }
}

/// Steps without boxes, from their texts.
fn texts(texts: impl IntoIterator<Item = String>) -> Vec<ReadStep> {
    texts
        .into_iter()
        .map(|text| ReadStep {
            text,
            ..ReadStep::default()
        })
        .collect()
}

/// The headings that number a step, at the level that has the most of them.
fn numbered_headings(headings: &[(HeadingLevel, String)]) -> Vec<String> {
    most_common_level(headings.iter().filter(|(_, text)| is_numbered(text)))
}

/// The headings at the level that has the most (a tie: the shallower).
fn sections(headings: &[(HeadingLevel, String)]) -> Vec<String> {
    most_common_level(headings.iter())
}

fn most_common_level<'h>(
    headings: impl Iterator<Item = &'h (HeadingLevel, String)> + Clone,
) -> Vec<String> {
    let mut counts = [0usize; 6];
    for (level, _) in headings.clone() {
        counts[*level as usize - 1] += 1;
    }
    let Some(best) = (0..6).rev().max_by_key(|&level| counts[level]) else {
        return Vec::new();
    };
    headings
        .filter(|(level, _)| *level as usize - 1 == best)
        .map(|(_, text)| text.clone())
        .collect()
}

/// `1. …`, `2) …`, `Step 3: …`, `Phase 2 – …`: text that numbers a step.
fn is_numbered(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        return matches!(text.as_bytes().get(digits), Some(b'.' | b')' | b':'))
            && text[digits + 1..].starts_with(' ');
    }
    let word_end = text.find(' ').unwrap_or(text.len());
    let word = &text[..word_end];
    ["step", "phase", "stage", "part", "task"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
        && text[word_end..]
            .trim_start()
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit())
}

/// A line that starts `Step N` and a separator (`:`, `.`, `)`, `-`, `–`).
fn is_step_line(line: &str) -> bool {
    let Some(after) = line
        .get(..5)
        .filter(|word| word.eq_ignore_ascii_case("step "))
        .map(|_| &line[5..])
    else {
        return false;
    };
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && {
        let tail = after[digits..].trim_start();
        tail.starts_with([':', '.', ')', '-', '–', '—'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (StepSource, Vec<(String, Status)>) {
        let steps = MarkdownSteps::read(text);
        let seen = steps
            .entries
            .into_iter()
            .map(|e| (e.content.into_owned(), e.status))
            .collect();
        (steps.source, seen)
    }

    fn texts_of(text: &str) -> Vec<String> {
        read(text).1.into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn checkboxes_give_statuses_and_empty_items_are_dropped() {
        let text = "  * [X] done\n+ [ ]  spaced \n- [ ]\n";
        let (source, seen) = read(text);
        assert_eq!(source, StepSource::Checklist);
        assert_eq!(
            seen,
            [
                ("done".to_owned(), Status::Completed),
                ("spaced".to_owned(), Status::Pending)
            ]
        );
    }

    #[test]
    fn numbers_and_step_words_are_told_from_titles() {
        assert!(is_numbered("1. Split the loader"));
        assert!(is_numbered("12) Test"));
        assert!(is_numbered("Phase 2: Build"));
        assert!(is_numbered("Step 3 - ship"));
        assert!(!is_numbered("1.5x faster"));
        assert!(!is_numbered("Plan"));
        assert!(!is_numbered("Steps"));
        assert!(is_step_line("Step 1: read"));
        assert!(is_step_line("step 10 – go"));
        assert!(!is_step_line("Step one: read"));
        assert!(!is_step_line("Steps 1: read"));
        assert!(!is_step_line("Step"));
    }

    #[test]
    fn a_step_keeps_its_first_paragraph_and_drops_its_markup() {
        let text = "1. **Parser**: handle `a_b` in [the lexer](http://x)\n   more of it\n\n   A second paragraph.\n   - nested\n2. Two";
        assert_eq!(
            texts_of(text),
            ["Parser: handle a_b in the lexer more of it", "Two"]
        );
    }

    #[test]
    fn an_item_that_opens_with_code_takes_the_text_after_it() {
        let text = "- ```sh\n  - not a step\n  ```\n  Run the script\n- Two";
        assert_eq!(texts_of(text), ["Run the script", "Two"]);
    }

    #[test]
    fn nothing_but_white_space_is_no_step_and_anything_else_is_one() {
        assert_eq!(read(" \n\t\n").0, StepSource::Empty);
        assert_eq!(read("# Plan").1.len(), 1);
        assert_eq!(read("```\n\nmake all\n```").1[0].0, "make all");
        assert_eq!(read("```\n\nmake all\n```").0, StepSource::FirstLine);
        assert_eq!(read("<!-- nothing -->").1[0].0, "<!-- nothing -->");
    }
}
