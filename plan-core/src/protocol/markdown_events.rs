//! One pass over a markdown plan's `CommonMark` events (`pulldown-cmark`),
//! collecting everything its steps can be read from: top-level list items
//! with their boxes, headings, paragraphs by line, the first line of code.
//! Which of them are the steps is `steps.rs`'s choice.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// One step before it is an entry: its text, its box, and whether it is
/// an item of a numbered list.
#[derive(Debug, Default)]
pub(crate) struct ReadStep {
    pub(crate) text: String,
    pub(crate) checked: Option<bool>,
    pub(crate) ordered: bool,
}

/// Everything a plan's steps can be read from, collected in one pass.
#[derive(Debug, Default)]
pub(crate) struct Gathered {
    /// Top-level list items, in order.
    pub(crate) items: Vec<ReadStep>,
    /// Whether any of them has a box.
    pub(crate) any_box: bool,
    /// Headings, with their level.
    pub(crate) headings: Vec<(HeadingLevel, String)>,
    /// Paragraphs outside lists, each as its lines (as read: not collapsed).
    pub(crate) paragraphs: Vec<Vec<String>>,
    /// The first non-empty line of code, for a plan that is only code.
    pub(crate) first_code_line: Option<String>,
}

/// Where the text being read goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Goes {
    /// Nowhere (a nested item's text, a code block, HTML).
    Skip,
    /// The current top-level item.
    Item,
    /// The current heading.
    Heading,
    /// The current paragraph outside lists.
    Paragraph,
}

/// The reading state of one pass over a plan's events.
#[derive(Debug, Default)]
struct Reader {
    parts: Gathered,
    /// How deep in lists the reader is (1: a top-level item).
    lists: usize,
    /// Whether the top-level list being read is numbered.
    ordered: bool,
    /// Whether the reader is in a code block.
    code: bool,
    /// Whether the top-level item's first text block has been read (later
    /// ones are its body).
    item_done: bool,
    heading: Option<(HeadingLevel, String)>,
    paragraph: Option<Vec<String>>,
}

impl Reader {
    /// Where text read now goes.
    fn sink(&self) -> Goes {
        if self.code {
            Goes::Skip
        } else if self.heading.is_some() {
            Goes::Heading
        } else if self.lists == 1 && !self.item_done && !self.parts.items.is_empty() {
            Goes::Item
        } else if self.lists == 0 && self.paragraph.is_some() {
            Goes::Paragraph
        } else {
            Goes::Skip
        }
    }

    /// A top-level item's first text block ends here, if it had text.
    fn end_item_text(&mut self) {
        if self.lists == 1 {
            self.item_done |= !current_text(&self.parts.items).is_empty();
        }
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(&tag),
            Event::End(tag) => self.end(tag),
            Event::TaskListMarker(checked) if self.sink() == Goes::Item => {
                if let Some(step) = self.parts.items.last_mut()
                    && step.checked.is_none()
                    && step.text.trim().is_empty()
                {
                    step.checked = Some(checked);
                    self.parts.any_box = true;
                }
            }
            // Code is no step's text (`push_text` skips it), but a plan of
            // nothing else is named by its first line.
            Event::Text(text) if self.code && self.parts.first_code_line.is_none() => {
                // White space inside the line too (a lone `\r` is no line end).
                self.parts.first_code_line =
                    text.lines().map(collapse).find(|line| !line.is_empty());
            }
            Event::Text(text) | Event::Code(text) => self.push_text(&text),
            Event::SoftBreak | Event::HardBreak => match (self.sink(), &mut self.paragraph) {
                (Goes::Paragraph, Some(lines)) => lines.push(String::new()),
                _ => self.push_text(" "),
            },
            _ => {}
        }
    }

    fn start(&mut self, tag: &Tag<'_>) {
        match tag {
            Tag::List(start) => {
                self.end_item_text();
                if self.lists == 0 {
                    self.ordered = start.is_some();
                }
                self.lists += 1;
            }
            Tag::Item if self.lists == 1 => {
                let ordered = self.ordered;
                self.parts.items.push(ReadStep {
                    ordered,
                    ..ReadStep::default()
                });
                self.item_done = false;
            }
            Tag::CodeBlock(_) => {
                self.end_item_text();
                self.code = true;
            }
            Tag::Heading { level, .. } if !self.code => {
                self.heading = Some((*level, String::new()));
            }
            Tag::Paragraph if self.lists == 0 && !self.code => {
                self.paragraph = Some(vec![String::new()]);
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::List(_) => self.lists = self.lists.saturating_sub(1),
            TagEnd::Item if self.lists == 1 => self.item_done = true,
            TagEnd::Paragraph if self.lists == 1 => self.end_item_text(),
            TagEnd::CodeBlock => self.code = false,
            TagEnd::Heading(_) => {
                if let Some((level, text)) = self.heading.take() {
                    let text = collapse(&text);
                    if !text.is_empty() {
                        self.parts.headings.push((level, text));
                    }
                }
            }
            TagEnd::Paragraph if self.lists == 0 => {
                // Kept as read (white space collapsed only where a line
                // becomes a step's text: most are never one).
                if let Some(mut lines) = self.paragraph.take() {
                    lines.retain(|line| !line.trim().is_empty());
                    if !lines.is_empty() {
                        self.parts.paragraphs.push(lines);
                    }
                }
            }
            _ => {}
        }
    }

    /// Appends text to where it goes.
    fn push_text(&mut self, text: &str) {
        match self.sink() {
            Goes::Skip => {}
            Goes::Item => {
                if let Some(step) = self.parts.items.last_mut() {
                    step.text.push_str(text);
                }
            }
            Goes::Heading => {
                if let Some((_, heading)) = &mut self.heading {
                    heading.push_str(text);
                }
            }
            Goes::Paragraph => {
                if let Some(line) = self.paragraph.as_mut().and_then(|lines| lines.last_mut()) {
                    line.push_str(text);
                }
            }
        }
    }
}

impl Gathered {
    /// Everything the plan's steps can be read from, in one pass.
    pub(crate) fn collect(markdown: &str) -> Self {
        let options = Options::ENABLE_TASKLISTS | Options::ENABLE_STRIKETHROUGH;
        let mut reader = Reader::default();
        for event in Parser::new_ext(markdown, options) {
            reader.event(event);
        }
        reader.parts
    }
}

/// The text of the last top-level item read so far.
fn current_text(items: &[ReadStep]) -> &str {
    items.last().map_or("", |step| step.text.trim())
}

/// White space runs as one space, trimmed.
pub(crate) fn collapse(text: &str) -> String {
    collapse_all([text])
}

/// Texts joined by one space, white space runs as one space, trimmed: in
/// one copy.
pub(crate) fn collapse_all<'t>(texts: impl IntoIterator<Item = &'t str>) -> String {
    let mut out = String::new();
    for word in texts.into_iter().flat_map(str::split_whitespace) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}
