//! Helpers the integration tests share: the protocol's source examples and
//! test vectors, and the public ACP JSON Schemas (all in `tests/data/`, with
//! their sources in `tests/data/README.md`).
#![allow(dead_code, unreachable_pub)] // each test file uses a part

pub mod checking;
pub mod data;
pub mod real_agents;
pub mod sdk;

#[allow(unused_imports)] // each test file uses a part
pub use data::{data_dir, json_files};

use std::path::PathBuf;

use serde_json::{Value, json};

/// The protocol versions whose unstable schema we validate against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
}

/// One public ACP schema, ready to validate any of its `$defs`.
pub struct Schema {
    root: Value,
    version: Version,
}

impl Schema {
    pub fn unstable(version: Version) -> Self {
        Self::load(version, "schema.unstable.json")
    }

    /// The public ACP stable schema of one version.
    pub fn stable(version: Version) -> Self {
        Self::load(version, "schema.json")
    }

    fn load(version: Version, file: &str) -> Self {
        let folder = match version {
            Version::V1 => "v1",
            Version::V2 => "v2",
        };
        let path = data_dir().join(format!("acp/schema/{folder}/{file}"));
        let text = std::fs::read_to_string(&path).unwrap();
        Self {
            root: serde_json::from_str(&text).unwrap(),
            version,
        }
    }

    /// A compiled validator for `$defs/{def}` (formats such as `uri` checked too).
    pub fn validator(&self, def: &str) -> Validator {
        let schema = json!({
            "$schema": self.root["$schema"],
            "$ref": format!("#/$defs/{def}"),
            "$defs": self.root["$defs"],
        });
        let inner = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("the {:?} schema does not compile: {e}", self.version));
        Validator {
            inner,
            name: format!("{:?} $defs/{def}", self.version),
        }
    }

    /// The validator for a whole `session/update` notification's `params`.
    pub fn notification_validator(&self) -> Validator {
        self.validator(match self.version {
            Version::V1 => "SessionNotification",
            Version::V2 => "UpdateSessionNotification",
        })
    }
}

/// One compiled schema definition.
pub struct Validator {
    inner: jsonschema::Validator,
    name: String,
}

impl Validator {
    /// The schema's errors for `instance`, as text.
    pub fn errors(&self, instance: &Value) -> Vec<String> {
        self.inner
            .iter_errors(instance)
            .map(|e| format!("{}: {e} at `{}`", self.name, e.instance_path()))
            .collect()
    }

    /// Validates a whole notification: the envelope by hand, `params` by the schema.
    pub fn notification_errors(&self, message: &Value) -> Vec<String> {
        assert_eq!(message["jsonrpc"], "2.0");
        assert_eq!(message["method"], "session/update");
        self.errors(&message["params"])
    }
}

/// Compares `actual` with `tests/snapshots/{name}.txt`. Run with
/// `UPDATE_SNAPSHOTS=1` to write the files, then review the diff like code.
pub fn assert_snapshot(name: &str, actual: &str) {
    assert_snapshot_file(&format!("{name}.txt"), actual);
}

/// Compares `actual` with the file `tests/snapshots/{path}` (`UPDATE_SNAPSHOTS=1` writes it).
pub fn assert_snapshot_file(path: &str, actual: &str) {
    let name = path;
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("snapshots")
        .join(path);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no snapshot {}; run with UPDATE_SNAPSHOTS=1 to write it",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "snapshot {name} differs (UPDATE_SNAPSHOTS=1 rewrites it)\n--- expected\n{expected}\n--- actual\n{actual}"
    );
}

/// Inputs of every kind a fuzzer starts from: empty, constant, and
/// pseudo-random of growing length.
pub fn fuzz_inputs() -> Vec<Vec<u8>> {
    let mut inputs = vec![Vec::new(), vec![0; 64], vec![0xff; 64], vec![7; 3]];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for n in 0..2000 {
        let len = n % 600;
        let bytes = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state.to_le_bytes()[0]
            })
            .collect();
        inputs.push(bytes);
    }
    inputs
}
