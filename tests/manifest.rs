//! Every test file in this folder is a target of the harness's manifest:
//! targets are listed by hand (the package lives in `tests/`, so Cargo's
//! automatic discovery would look in `tests/tests/`), and a file left out
//! would never run.

#[test]
fn every_test_file_is_listed_in_the_manifest() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".rs")
            && !manifest.contains(&format!("name = \"{stem}\"\npath = \"{name}\""))
        {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "not a [[test]] in tests/Cargo.toml: {missing:?}"
    );
}
