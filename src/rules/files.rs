//! Rulesets on disk: the YAML files of a directory and the Rhai scripts beside them, and the
//! errors of what was read placed at the files they concern.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::error::{ErrorKind, RulesetError, in_file};

/// What a directory holds for rulesets.
pub(crate) struct DirFiles {
    /// The `*.yaml` and `*.yml` files, `(path, text)`, in path order.
    pub yaml: Vec<(String, String)>,
    /// The `*.rhai` scripts, by file name.
    pub scripts: BTreeMap<String, String>,
}

/// Reads the scripts of `dir` and, when `with_yaml`, its ruleset files. Fails on the first file
/// (or the directory) that cannot be read.
pub(crate) fn read_dir(dir: &Path, with_yaml: bool) -> Result<DirFiles, Vec<RulesetError>> {
    let entries = std::fs::read_dir(dir).map_err(|e| cannot_read(dir, &e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    let mut files = DirFiles {
        yaml: Vec::new(),
        scripts: BTreeMap::new(),
    };
    for p in &paths {
        match p.extension().and_then(|e| e.to_str()) {
            Some("yaml" | "yml") if with_yaml => {
                files.yaml.push((p.display().to_string(), read(p)?));
            }
            Some("rhai") => {
                if let Some(name) = p.file_name().and_then(|n| n.to_str()) {
                    files.scripts.insert(name.to_string(), read(p)?);
                }
            }
            _ => {}
        }
    }
    Ok(files)
}

/// The text of a file.
pub(crate) fn read(path: &Path) -> Result<String, Vec<RulesetError>> {
    std::fs::read_to_string(path).map_err(|e| cannot_read(path, &e))
}

/// The directory a file is in (`.` for a bare file name).
pub(crate) fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The errors with each bare script name made a path in `dir`.
pub(crate) fn scripts_in(mut errors: Vec<RulesetError>, dir: &Path) -> Vec<RulesetError> {
    for e in &mut errors {
        if e.path.ends_with(".rhai") && !e.path.contains(['/', '\\']) {
            e.path = dir.join(&e.path).display().to_string();
        }
    }
    errors
}

fn cannot_read(path: &Path, e: &std::io::Error) -> Vec<RulesetError> {
    vec![in_file(
        &path.display().to_string(),
        ErrorKind::Unreadable,
        format!("cannot read: {e}"),
    )]
}
