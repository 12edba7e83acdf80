//! The macro's entry point: its input parsed, checked and expanded, or its
//! errors explained (each stage a file beside this one).

use proc_macro2::TokenStream;

use super::valid::CheckedPlan;
use quote::quote;

/// The expression `plan!` expands to, for a plan checked elsewhere
/// (`include_plan!` checks JSON into the same `CheckedPlan`).
pub(crate) fn expand_value(plan: &CheckedPlan) -> TokenStream {
    super::expand::value(plan, &[])
}

/// `plan!`: the plan as a value.
pub(crate) fn plan(input: TokenStream) -> TokenStream {
    // What the call would have been, for what a call with errors expands to: a v1 plan (`entries`)
    // or plan content. Looked for only once the call has failed: the
    // common call does no more work than it must (compile time).
    let ty = |seen: &[super::ast::Typed]| {
        let v1 = seen
            .iter()
            .any(|s| matches!(s, super::ast::Typed::Word(super::ast::Role::Key, key) if key == "entries"));
        if v1 {
            quote!(Plan)
        } else {
            quote!(PlanContent)
        }
    };
    let mut input = match syn::parse2::<super::ast::Input>(input) {
        Ok(input) => input,
        // Parsing stops only where the whole call is beyond reading; what
        // it was meant to be is not known.
        Err(err) => {
            return crate::on_error::invalid_value(&err, &ty(&[]), &TokenStream::new());
        }
    };
    let seen = std::mem::take(&mut input.seen);
    match super::valid::check(input) {
        Ok(plan) => {
            let keys: Vec<&syn::Ident> = seen
                .iter()
                .filter_map(|s| match s {
                    super::ast::Typed::Word(super::ast::Role::Key, key) => Some(key),
                    _ => None,
                })
                .collect();
            super::expand::value(&plan, &keys)
        }
        Err(err) => crate::on_error::invalid_value(&err, &ty(&seen), &super::editor::editor(&seen)),
    }
}

/// `plan_json!`: the plan's wire JSON in both spellings, written now.
///
/// Its words reach the editor beside the JSON: the value has no other
/// place for them.
pub(crate) fn plan_json(input: TokenStream) -> TokenStream {
    let mut seen = Vec::new();
    let checked = syn::parse2::<super::ast::Input>(input).and_then(|mut input| {
        seen = std::mem::take(&mut input.seen);
        // A call that breaks a rule and has run-time parts hears of both.
        let not_literal = super::expand::not_literal_in(&input);
        super::valid::check(input).map_err(|mut err| {
            err.extend(not_literal);
            err
        })
    });
    let editor = super::editor::editor(&seen);
    match checked.and_then(|plan| super::expand::static_json(&plan)) {
        Ok(value) => quote!({ #editor #value }),
        Err(err) => crate::on_error::invalid_value(&err, &quote!(StaticUpdate), &editor),
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::TokenStream;

    use super::*;

    /// Calls written to cover the grammar; each is valid or has one mistake.
    const SEEDS: &[&str] = &[
        r#"id: "plan-1", items: [ high pending "a", medium in_progress { x }, _u "_s" "c" meta: { "k": 1 } ], meta: { "t": [1, -2] }"#,
        r#"entries: [ low completed "Old", high cancelled "x" ]"#,
        r#"id: { id }, markdown: "Steps", file: "file:///tmp/p.md""#,
        r#"id: "t", type: _timeline, fields: { "events": [], "id": 1 }"#,
        r#"id "p" markdown "m" items [ high, pending, ] : , : {} [] "#,
    ];

    #[test]
    fn no_token_stream_panics_the_macros() {
        let mut seen = 0;
        let mut rejected = 0;
        for seed in SEEDS {
            for input in crate::test_support::variants(seed) {
                let text = input.to_string();
                for output in [plan(input.clone()), plan_json(input)] {
                    seen += 1;
                    if output.to_string().contains("compile_error") {
                        rejected += 1;
                    }
                }
                // A call that fails is a compile error, never an empty expansion.
                assert!(!plan(text.parse().unwrap()).is_empty(), "{text}");
            }
        }
        assert!(seen > 500, "only {seen} inputs");
        assert!(
            rejected > seen / 2,
            "most variants are mistakes: {rejected} of {seen} rejected"
        );
    }

    #[test]
    fn arbitrary_token_soup_is_an_error_not_a_panic() {
        let atoms = [
            "id", ":", ",", "\"x\"", "[", "]", "{", "}", "high", "_", "items", "1.5", "-", "meta",
            "type", "entries", "#", "!",
        ];
        // A small deterministic generator: every sequence up to length 4 of a
        // few atoms, plus longer pseudo-random ones.
        let mut state: usize = 0x9e37_79b9;
        for _ in 0..4000 {
            let mut text = String::new();
            let len = state % 12;
            for _ in 0..len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push_str(atoms[state % atoms.len()]);
                text.push(' ');
            }
            // Unbalanced delimiters do not tokenize; the compiler would reject those itself.
            if let Ok(tokens) = text.parse::<TokenStream>() {
                let _ = plan(tokens.clone());
                let _ = plan_json(tokens);
            }
        }
    }

    #[test]
    fn errors_come_back_together() {
        let input: TokenStream =
            r#"id: "", items: [ urgent pending "a", high in_progess "" ], colour: 1"#
                .parse()
                .unwrap();
        let output = plan(input).to_string();
        assert_eq!(output.matches("compile_error").count(), 5, "{output}");
    }

    /// Each identifier of `tokens`, deep, with where it says it was written.
    fn idents(tokens: TokenStream, out: &mut Vec<(String, proc_macro2::LineColumn)>) {
        for tree in tokens {
            match tree {
                proc_macro2::TokenTree::Ident(i) => out.push((i.to_string(), i.span().start())),
                proc_macro2::TokenTree::Group(g) => idents(g.stream(), out),
                _ => {}
            }
        }
    }

    /// Where each word of `call` landed in `output`: the identifiers that
    /// carry the word's place, with the two before them.
    /// (Calls are parsed from line 2 on: line 1, column 0 is where the
    /// macro's own tokens say they are, outside a compiler.)
    fn landings(call: &str, output: &TokenStream) -> Vec<(String, Vec<[String; 3]>)> {
        let input: TokenStream = format!("\n{call}").parse().unwrap();
        let mut typed = Vec::new();
        idents(input, &mut typed);
        let mut expanded = Vec::new();
        idents(output.clone(), &mut expanded);
        typed
            .iter()
            .map(|(word, at)| {
                let landed = expanded
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, place))| place == at)
                    .map(|(i, (w, _))| {
                        let before = |n: usize| {
                            i.checked_sub(n)
                                .map_or(String::new(), |j| expanded[j].0.clone())
                        };
                        [before(2), before(1), w.clone()]
                    })
                    .collect();
                (word.clone(), landed)
            })
            .collect()
    }

    #[test]
    fn each_word_typed_is_a_path_to_its_item_where_it_was_typed() {
        // The all-literal call (a table), one with a `{ }` part (the full
        // expansion), and `plan_json!`'s (JSON and the words beside it).
        for (call, expand) in [
            (
                "id: \"p\", items: [ high pending \"a\", low completed \"b\" ]",
                plan as fn(TokenStream) -> TokenStream,
            ),
            (
                "id: \"p\", items: [ high pending \"a\", low completed { b } ]",
                plan,
            ),
            (
                "id: \"p\", markdown: \"m\", path: \"/p.md\", meta: { \"k\": 1 }",
                plan,
            ),
            ("entries: [ medium in_progress \"a\" ]", plan),
            ("id: \"p\", items: [ high cancelled \"a\" ]", plan_json),
        ] {
            let output = expand(format!("\n{call}").parse().unwrap());
            for (word, landed) in landings(call, &output) {
                let module = if crate::rules::KNOWN_PRIORITIES.contains(&word.as_str()) {
                    "priority"
                } else if crate::rules::KNOWN_STATUSES.contains(&word.as_str()) {
                    "status"
                } else if super::super::valid::KEYS.contains(&word.as_str()) {
                    "key"
                } else {
                    continue; // `b`, the user's own
                };
                // The literal call's table names a word by the short path
                // (`dsl::high`); the rest by its place (`dsl::status::high`).
                let short = landed == [[String::from("plan_core"), "dsl".into(), word.clone()]];
                let long = landed == [["dsl".into(), module.into(), word.clone()]];
                // The all-literal call's `id` names the call's method,
                // whose docs are the key's (`dsl::items.rows`).
                let literal_id = landed == [[String::from("dsl"), "items".into(), "rows".into()]];
                assert!(
                    short || long || (word == "id" && literal_id),
                    "{call}: `{word}` landed as {landed:?}"
                );
            }
        }
    }

    #[test]
    fn a_call_being_typed_still_names_its_words_and_echoes_the_rest() {
        // Unknown words (half typed) come back as written, where they were
        // written; known ones as their items; a missing status as `_`.
        for (call, want) in [
            (
                "id: \"p\", items: [ high in_pr ]",
                &[("high", "priority"), ("in_pr", "echo")][..],
            ),
            ("id: \"p\", ite", &[("id", "key"), ("ite", "echo")][..]),
            (
                "id: \"p\", items: [ hi ]",
                &[("items", "key"), ("hi", "echo")][..],
            ),
        ] {
            let output = plan(format!("\n{call}").parse().unwrap());
            let text = output.to_string();
            assert!(text.contains("compile_error"), "{call}: {text}");
            let landings = landings(call, &output);
            for (word, how) in want {
                let (_, landed) = landings.iter().find(|(w, _)| w == word).unwrap();
                let ok = match *how {
                    "echo" => landed.iter().any(|[_, before, w]| {
                        w == word && !["key", "priority", "status"].contains(&before.as_str())
                    }),
                    module => landed.iter().any(|[_, m, w]| m == module && w == word),
                };
                assert!(ok, "{call}: `{word}` landed as {landed:?}");
            }
            // The echo is a binding in a `match` on the place's words.
            assert!(text.contains("match"), "{text}");
        }
        let missing = plan("id: \"p\", items: [ high ]".parse().unwrap()).to_string();
        assert!(missing.contains("{ _ => { } }"), "{missing}");
        // A keyword is no binding; the user's own names are left alone.
        for call in [
            "id: \"p\", items: [ high in-progress \"a\" ]",
            "id: \"p\", items: [ _u _v ]",
        ] {
            let text = plan(call.parse().unwrap()).to_string();
            assert!(!text.contains("match"), "{call}: {text}");
        }
    }

    #[test]
    fn a_braced_part_lends_its_place_to_its_own_tokens_alone() {
        let call = "id: \"p\", items: [ high { my_status } \"a\" ]";
        let input: TokenStream = call.parse().unwrap();
        // Where the user's `{ my_status }` is.
        let group = input
            .clone()
            .into_iter()
            .flat_map(|t| match t {
                proc_macro2::TokenTree::Group(g) => g.stream().into_iter().collect(),
                _ => Vec::new(),
            })
            .find_map(|t| match t {
                proc_macro2::TokenTree::Group(g)
                    if g.delimiter() == proc_macro2::Delimiter::Brace =>
                {
                    Some(g.span())
                }
                _ => None,
            })
            .unwrap();
        let (from, to) = (group.start(), group.end());
        let inside = |at: proc_macro2::LineColumn| {
            (at.line, at.column) >= (from.line, from.column)
                && (at.line, at.column) < (to.line, to.column)
        };
        let mut expanded = Vec::new();
        idents(plan(input), &mut expanded);
        let there: Vec<&str> = expanded
            .iter()
            .filter(|(_, at)| inside(*at))
            .map(|(w, _)| w.as_str())
            .collect();
        // The user's own token; none of the macro's (a binding, `plan_core`,
        // `__private`, the trait), which an editor would offer beside it.
        assert_eq!(there, ["my_status"]);
    }
}
