//! Exports: one file per format behind [`Exporter`], every write atomic (a temporary file
//! renamed into place), so a crash never leaves a half file.

pub mod csv;
pub mod parquet;

use std::io;
use std::path::{Path, PathBuf};

use polars::prelude::DataFrame;

/// Writes a frame in one format.
pub trait Exporter {
    /// The file extension: `csv`, `parquet`.
    fn extension(&self) -> &'static str;
    /// Writes `frame` to `file` (a temporary path; [`write_atomic`] renames it).
    fn write(&self, frame: &mut DataFrame, file: &Path) -> Result<(), String>;
}

/// Writes `frame` to `dir/stem.EXT` through `exporter`: into `.stem.EXT.tmp`, then renamed.
pub fn write_atomic(
    exporter: &dyn Exporter,
    frame: &mut DataFrame,
    dir: &Path,
    stem: &str,
) -> Result<PathBuf, String> {
    let name = format!("{stem}.{}", exporter.extension());
    let target = dir.join(&name);
    let tmp = dir.join(format!(".{name}.tmp"));
    exporter.write(frame, &tmp)?;
    std::fs::rename(&tmp, &target).map_err(|e| io_error(&target, e))?;
    Ok(target)
}

/// Writes text atomically (the manifest).
pub fn write_text_atomic(dir: &Path, name: &str, text: &str) -> Result<PathBuf, String> {
    let target = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    std::fs::write(&tmp, text).map_err(|e| io_error(&tmp, e))?;
    std::fs::rename(&tmp, &target).map_err(|e| io_error(&target, e))?;
    Ok(target)
}

pub(crate) fn io_error(path: &Path, e: io::Error) -> String {
    format!("cannot write {}: {e}", path.display())
}
