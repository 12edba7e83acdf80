//! `plan!` and `plan_json!`: parse (`ast`) → check (`valid`) → generate (`expand`).

mod ast;
mod expand;
mod valid;

use proc_macro2::TokenStream;
use quote::quote;

pub(crate) use ast::Text;
pub(crate) use valid::{
    CheckedEntry, CheckedPlan, Shape, check_custom_type, check_entry_content, check_entry_name,
    check_markdown_path, check_plan_id,
};

/// The expression `plan!` expands to, for a plan checked elsewhere
/// (`include_plan!` checks JSON into the same `CheckedPlan`).
pub(crate) fn expand_value(plan: &CheckedPlan) -> TokenStream {
    expand::value(plan)
}

/// `plan!`: the plan as a value.
pub(crate) fn plan(input: TokenStream) -> TokenStream {
    // What the call would have been, for the fallback: a v1 plan (`entries`)
    // or plan content.
    let v1 = input
        .clone()
        .into_iter()
        .any(|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "entries"));
    match parse_and_check(input) {
        Ok(plan) => expand::value(&plan),
        Err(err) => crate::fallback::invalid_value(
            &err,
            &if v1 {
                quote!(Plan)
            } else {
                quote!(PlanContent)
            },
        ),
    }
}

/// `plan_json!`: the plan's wire JSON in both spellings, written now.
pub(crate) fn plan_json(input: TokenStream) -> TokenStream {
    let checked = syn::parse2::<ast::Input>(input).and_then(|input| {
        // A call that breaks a rule and has run-time parts hears of both.
        let not_literal = expand::not_literal_in(&input);
        valid::check(input).map_err(|mut err| {
            err.extend(not_literal);
            err
        })
    });
    match checked.and_then(|plan| expand::static_json(&plan)) {
        Ok(tokens) => tokens,
        Err(err) => crate::fallback::invalid_value(&err, &quote!(StaticUpdate)),
    }
}

fn parse_and_check(input: TokenStream) -> syn::Result<valid::CheckedPlan> {
    let input = syn::parse2::<ast::Input>(input)?;
    valid::check(input)
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

    #[test]
    fn each_priority_and_status_typed_is_a_path_to_its_item_where_it_was_typed() {
        // The full expansion (a `{ }` part, `meta`); the compact table of
        // the all-literal call keeps indexes (compile time; design.md, Open).
        for call in [
            "id: \"p\", items: [ high pending \"a\", low completed { b } ]",
            "entries: [ medium in_progress \"a\" ], meta: { \"k\": 1 }",
        ] {
            let input: TokenStream = call.parse().unwrap();
            let mut typed = Vec::new();
            idents(input.clone(), &mut typed);
            let mut expanded = Vec::new();
            idents(plan(input), &mut expanded);
            for (word, at) in typed.iter().filter(|(w, _)| {
                crate::rules::KNOWN_PRIORITIES.contains(&w.as_str())
                    || crate::rules::KNOWN_STATUSES.contains(&w.as_str())
            }) {
                let module = if crate::rules::KNOWN_PRIORITIES.contains(&word.as_str()) {
                    "priority"
                } else {
                    "status"
                };
                let landed = expanded.windows(3).any(|w| {
                    w[0].0 == "dsl" && w[1].0 == module && w[2].0 == *word && w[2].1 == *at
                });
                assert!(
                    landed,
                    "{call}: `{word}` at {at:?} is not `dsl::{module}::{word}` there"
                );
                // The macro's own segments are not the user's.
                let dsl_at = expanded.iter().find(|(w, _)| w == "dsl").unwrap().1;
                assert_ne!(dsl_at, *at);
            }
        }
    }

    #[test]
    fn a_braced_part_lends_its_place_to_its_own_tokens_and_the_binding_alone() {
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
        // The user's own token, and the binding rustc's type error is on;
        // none of the macro's paths (`plan_core`, `__private`, the trait).
        assert_eq!(
            there,
            ["__plan_expression", "my_status", "__plan_expression"]
        );
    }
}
