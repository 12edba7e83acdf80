//! Malformed inputs for the tests that prove the macros never panic.

use proc_macro2::{Group, TokenStream, TokenTree};

/// Every prefix, every one-token deletion and every neighbour swap of a
/// seed, at the top level and inside its groups.
pub(crate) fn variants(seed: &str) -> Vec<TokenStream> {
    let tokens: Vec<TokenTree> = seed.parse::<TokenStream>().unwrap().into_iter().collect();
    let mut out = Vec::new();
    for cut in 0..=tokens.len() {
        out.push(tokens[..cut].iter().cloned().collect());
        if cut < tokens.len() {
            let mut deleted = tokens.clone();
            deleted.remove(cut);
            out.push(deleted.into_iter().collect());
        }
        if cut + 1 < tokens.len() {
            let mut swapped = tokens.clone();
            swapped.swap(cut, cut + 1);
            out.push(swapped.into_iter().collect());
        }
    }
    for (index, token) in tokens.iter().enumerate() {
        if let TokenTree::Group(group) = token {
            for inner in variants(&group.stream().to_string()) {
                let mut replaced = tokens.clone();
                replaced[index] = TokenTree::Group(Group::new(group.delimiter(), inner));
                out.push(replaced.into_iter().collect());
            }
        }
    }
    out
}

/// Every derive, given every variant of seeds that cover their grammar:
/// each input either expands or is a compile error, never a panic.
#[test]
fn no_token_stream_panics_a_derive() {
    type Derive = fn(TokenStream) -> TokenStream;
    const SEEDS: &[(&str, Derive)] = &[
        (
            r#"#[plan(id = "p")] enum R { /// Doc
               #[step("a", priority = high)] A, #[step(priority = _x)] B(u8), C }"#,
            crate::steps::derive,
        ),
        (
            r#"#[plan_status(rename_all = "_snake_case")] enum T { #[status(pending)] A, #[status("_x")] B, C }"#,
            |t| crate::mapping::derive(t, &crate::mapping::STATUS),
        ),
        (
            r#"#[plan_priority(rename_all = "snake_case")] enum U { #[priority(high)] A, Low }"#,
            |t| crate::mapping::derive(t, &crate::mapping::PRIORITY),
        ),
        (
            r#"#[plan_content(type = "_t")] struct S { id: PlanId, events: Vec<u8> }"#,
            crate::content::derive,
        ),
    ];
    let mut seen = 0;
    for (seed, derive) in SEEDS {
        for input in variants(seed) {
            let text = input.to_string();
            // An impl, or errors: a derive never expands to nothing.
            assert!(!derive(input).is_empty(), "{text}");
            seen += 1;
        }
    }
    assert!(seen > 300, "only {seen} inputs");
}

/// Each identifier of `tokens`, deep, with where it says it was written.
fn idents(tokens: TokenStream, out: &mut Vec<(String, proc_macro2::LineColumn)>) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(i) => out.push((i.to_string(), i.span().start())),
            TokenTree::Group(g) => idents(g.stream(), out),
            _ => {}
        }
    }
}

/// The derives' attribute words land, where they were written, on the
/// paths of their `plan_core::dsl` items; a key naming a place on the
/// place's segment.
#[test]
fn each_word_of_a_derive_attribute_is_a_path_to_its_item() {
    type Derive = fn(TokenStream) -> TokenStream;
    /// A word, and the two segments its path ends in.
    type Landing = (&'static str, [&'static str; 2]);
    // Each case: the input (from line 2: line 1, column 0 is the macro's
    // own place outside a compiler), and the words with the path before
    // them.
    let cases: &[(&str, Derive, &[Landing])] = &[
        (
            "\n#[plan(id = \"p\")] enum R { /// Doc\n #[step(priority = high)] A }",
            crate::steps::derive,
            &[
                ("high", ["priority", "high"]),
                ("priority", ["dsl", "priority"]),
                ("id", ["key", "id"]),
            ],
        ),
        (
            "\nenum T { #[status(in_progress)] A, #[status(pending)] B }",
            |t| crate::mapping::derive(t, &crate::mapping::STATUS),
            &[
                ("in_progress", ["status", "in_progress"]),
                ("pending", ["status", "pending"]),
            ],
        ),
    ];
    for (input, derive, words) in cases {
        let words: &[Landing] = words;
        let tokens: TokenStream = input.parse().unwrap();
        let mut typed = Vec::new();
        idents(tokens.clone(), &mut typed);
        let mut expanded = Vec::new();
        idents(derive(tokens), &mut expanded);
        for (word, [before, last]) in words {
            let at = typed
                .iter()
                .filter(|(w, _)| w == word)
                .map(|(_, at)| *at)
                .find(|at| at.line > 1 || at.column > 0)
                .unwrap();
            let landed = expanded.iter().enumerate().any(|(i, (w, place))| {
                *place == at && w == last && i > 0 && expanded[i - 1].0 == *before
            });
            assert!(
                landed,
                "{input}: `{word}` is not `{before}::{last}` where it was written"
            );
        }
    }
}
