//! The file a file macro names: read from the crate's root, with the full
//! path it tried in the error.

use std::path::PathBuf;

use syn::LitStr;

/// The text of the file `lit` names, relative to the crate's directory, and
/// its full path (for `include_bytes!`).
pub(crate) fn read_text(lit: &LitStr) -> Result<(String, PathBuf), syn::Error> {
    let relative = lit.value();
    let span = lit.span();
    let dir = std::env::var_os("CARGO_MANIFEST_DIR").ok_or_else(|| {
        let message = "CARGO_MANIFEST_DIR is not set; the file macros run under Cargo";
        syn::Error::new(span, message)
    })?;
    let file = PathBuf::from(dir).join(&relative);
    let text = std::fs::read_to_string(&file).map_err(|e| {
        let message = format!(
            "cannot read `{relative}`: tried `{}` (paths are relative to the crate's root, the folder of its Cargo.toml, not to this file as with `include_str!`): {e}",
            file.display()
        );
        syn::Error::new(span, message)
    })?;
    Ok((text, file))
}
