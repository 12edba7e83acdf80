//! Where the tests find the protocol's examples, vectors and schemas:
//! `tests/data/` (or `$ACP_TEST_DATA`). Apart from the other helpers so
//! that `schema-stable/`, which builds none of their dependencies, can
//! read them too.
#![allow(dead_code, unreachable_pub)] // each test file uses a part

use std::path::PathBuf;

/// The test data folder: `$ACP_TEST_DATA`, or `tests/data` in the repository.
pub fn data_dir() -> PathBuf {
    let dir = std::env::var_os("ACP_TEST_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data"),
        PathBuf::from,
    );
    assert!(
        dir.join("acp/vectors/_manifest.json").is_file(),
        "the tests read the protocol's examples from {}, which has no `acp/vectors/_manifest.json`",
        dir.display()
    );
    dir
}

/// Every file of a folder under `tests/data/` whose name ends in `.json` and does
/// not begin with `_`, as (file name, text), sorted by name.
pub fn json_files(folder: &str) -> Vec<(String, String)> {
    let dir = data_dir().join(folder);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            (name, text)
        })
        .filter(|(name, _)| !name.starts_with('_'))
        .collect();
    files.sort();
    files
}
