//! The protocol's rules, in one dependency-free folder: what a name, an id,
//! a URI, an entry's content and a message's envelope may be, the keys and
//! tables the readers and writers share, and the one wording of each problem.
//!
//! `plan-core` checks them at run time and `plan-macros` at compile time, and
//! they must never disagree. This folder therefore depends on nothing but
//! `core`/`alloc`, and `plan-macros/src/rules` is a symbolic link to it: one
//! source, compiled into both crates (`cargo package` copies a link's target,
//! so both published crates still carry it). See `docs/design.md`.
//!
//! Everything here is `pub(crate)`: `plan-core` exposes it through its own
//! types ([`CustomName`](crate::wire::CustomName), [`PlanId`](crate::PlanId), ...).

mod json;
pub(crate) mod layout;
mod names;
mod values;
mod versions;

pub(crate) use json::*;
pub(crate) use names::*;
pub(crate) use values::*;
pub(crate) use versions::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_names_follow_the_underscore_rule() {
        let cases = [
            ("_urgent", Ok(())),
            ("_x", Ok(())),
            ("__", Ok(())),
            ("", Err(NameProblem::Empty)),
            ("_", Err(NameProblem::UnderscoreOnly)),
            ("urgent", Err(NameProblem::Reserved)),
            ("high", Err(NameProblem::Reserved)),
            ("x_", Err(NameProblem::Reserved)),
        ];
        for (name, expected) in cases {
            assert_eq!(check_custom_name(name), expected, "{name:?}");
        }
    }

    #[test]
    fn the_reserved_message_names_the_fix() {
        let message = ExplainName {
            problem: NameProblem::Reserved,
            name: "urgent",
        }
        .to_string();
        assert_eq!(
            message,
            "custom names must begin with `_`; `urgent` is reserved for future ACP versions (write `_urgent`)"
        );
    }

    #[test]
    fn plan_ids_need_a_visible_character() {
        assert_eq!(check_plan_id("plan-1"), Ok(()));
        assert_eq!(check_plan_id(" a "), Ok(()));
        assert_eq!(check_plan_id(""), Err(IdProblem::Empty));
        assert_eq!(check_plan_id(" \t\n"), Err(IdProblem::Blank));
    }

    #[test]
    fn uris_must_be_absolute() {
        let cases = [
            ("file:///tmp/plan.md", Ok(())),
            ("https://example.com/plan", Ok(())),
            ("urn:isbn:0451450523", Ok(())),
            ("git+ssh://host/repo", Ok(())),
            ("", Err(UriProblem::Empty)),
            ("/tmp/plan.md", Err(UriProblem::NoScheme)),
            ("plan.md", Err(UriProblem::NoScheme)),
            ("1abc:x", Err(UriProblem::NoScheme)),
            (":x", Err(UriProblem::NoScheme)),
            ("C:\\plan.md", Err(UriProblem::DriveLetter)),
            ("file:///my%20plan.md", Ok(())),
            ("file:///my plan.md", Err(UriProblem::Character(' '))),
            ("file:///jos\u{e9}.md", Err(UriProblem::Character('\u{e9}'))),
            ("https://a/<b>", Err(UriProblem::Character('<'))),
            ("file:///50%", Err(UriProblem::BadPercent)),
            ("file:///%zz", Err(UriProblem::BadPercent)),
        ];
        for (uri, expected) in cases {
            assert_eq!(check_uri(uri), expected, "{uri:?}");
        }
    }

    #[test]
    fn markdown_paths_must_be_absolute() {
        let cases = [
            ("/home/dev/PLAN.md", Ok(())),
            ("/", Ok(())),
            ("C:\\dev\\PLAN.md", Ok(())),
            ("c:/dev/PLAN.md", Ok(())),
            ("\\\\server\\share\\PLAN.md", Ok(())),
            ("", Err(PathProblem::Empty)),
            ("docs/PLAN.md", Err(PathProblem::Relative)),
            ("./PLAN.md", Err(PathProblem::Relative)),
            ("~/PLAN.md", Err(PathProblem::Relative)),
            ("C:PLAN.md", Err(PathProblem::Relative)),
            ("file:///home/dev/PLAN.md", Err(PathProblem::Uri)),
        ];
        for (path, expected) in cases {
            assert_eq!(check_absolute_path(path), expected, "{path:?}");
        }
    }

    #[test]
    fn the_table_has_one_row_per_client_kind() {
        assert_eq!(
            ROWS.map(|r| (r.protocol, r.opted_in)),
            [(1, false), (1, true), (2, false)]
        );
        for row in ROWS {
            assert!(!row.allows_plan_type(PRE_STABLE_PLAN_TYPE), "{}", row.label);
            assert!(row.allows_priority("high"));
            assert_eq!(row.allows_status("cancelled"), row.protocol == 2);
            assert_eq!(row.allows_plan_type("_timeline"), row.protocol == 2);
        }
        assert!(!V1.allows_update(TAG_PLAN_UPDATE));
        assert!(V1_PLAN.allows_update(TAG_PLAN_REMOVED));
        assert!(!V2.allows_update(TAG_PLAN));
        let names = CHECK_RULES.map(|r| r.name);
        let fallbacks = FALLBACKS.map(|r| r.name);
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "rule {name} listed twice");
        }
        for (i, name) in fallbacks.iter().enumerate() {
            assert!(
                !fallbacks[..i].contains(name),
                "fallback {name} listed twice"
            );
        }
    }

    #[test]
    fn suggestions_catch_typos_and_nothing_else() {
        assert_eq!(suggest("in_progess", &KNOWN_STATUSES), Some("in_progress"));
        assert_eq!(suggest("in-progress", &KNOWN_STATUSES), Some("in_progress"));
        assert_eq!(suggest("High", &KNOWN_PRIORITIES), Some("high"));
        assert_eq!(suggest("meduim", &KNOWN_PRIORITIES), Some("medium"));
        assert_eq!(suggest("canceled", &KNOWN_STATUSES), Some("cancelled"));
        assert_eq!(suggest("markdwn", &KNOWN_PLAN_TYPES), Some("markdown"));
        assert_eq!(suggest("pendign", &KNOWN_STATUSES), Some("pending"));
        assert_eq!(suggest("urgent", &KNOWN_PRIORITIES), None);
        assert_eq!(suggest("blocked", &KNOWN_STATUSES), None);
    }

    #[test]
    fn the_words_people_use_for_a_status_suggest_the_protocols_own() {
        for (words, meant) in [
            (&["done", "finished", "complete", "Done"][..], "completed"),
            (&["todo", "open", "TODO"], "pending"),
            (
                &["doing", "in progress", "wip", "In-Progress"],
                "in_progress",
            ),
        ] {
            for word in words {
                assert_eq!(suggest(word, &KNOWN_STATUSES), Some(meant), "{word}");
                assert_eq!(status_word(word), Some(meant), "{word}");
            }
        }
        // A status word is no priority.
        assert_eq!(suggest("done", &KNOWN_PRIORITIES), None);
        assert_eq!(status_word("blocked"), None);
        // Every word of the table stands for a known status.
        for (word, status) in STATUS_WORDS {
            assert!(KNOWN_STATUSES.contains(&status), "{word}");
            assert!(
                !KNOWN_STATUSES.contains(&word),
                "{word} is the protocol's own"
            );
        }
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("low", "low"), 0);
        assert_eq!(edit_distance("itmes", "items"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
    }
}
