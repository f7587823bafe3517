//! The X3D schemas beside the project (`../shared/schemas`) and xmllint over them, for the tests that
//! check what the product writes validates.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `../shared/schemas`, when it holds the X3D 4.0 XML Schema.
pub fn schemas_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/schemas");
    dir.join("x3d-4.0.xsd").is_file().then_some(dir)
}

/// xmllint's report on `files` against the X3D 4.0 schema, in one run (the schema is read once): its
/// standard error, one `FILE validates` or `FILE:LINE: … error` line after another; `None` when
/// xmllint cannot be run.
pub fn xmllint_report(schemas: &Path, files: &[PathBuf]) -> Option<String> {
    let output = Command::new("xmllint")
        .env("XML_CATALOG_FILES", schemas.join("catalog.xml"))
        .args(["--noout", "--nonet", "--schema"])
        .arg(schemas.join("x3d-4.0.xsd"))
        .args(files)
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&output.stderr).into_owned())
}
