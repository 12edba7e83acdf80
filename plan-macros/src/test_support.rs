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
