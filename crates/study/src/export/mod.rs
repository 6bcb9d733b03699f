//! Exports: one file per format behind [`Exporter`], every write atomic (a temporary file
//! renamed into place), so a crash never leaves a half file.

pub mod csv;
pub mod parquet;

use std::io;
use std::path::{Path, PathBuf};

use polars::prelude::{DataFrame, DataType};

/// Encodes a frame in one format. In memory, so that the file is written by one plain
/// atomic write whose failure (a full disk) names the file in the OS's words, rather than
/// surfacing as an encoder's "transport error".
pub trait Exporter {
    /// The file extension: `csv`, `parquet`.
    fn extension(&self) -> &'static str;
    /// The frame as the file's bytes.
    fn encode(&self, frame: &mut DataFrame) -> Result<Vec<u8>, ExportError>;
}

/// Writes `frame` to `dir/stem.EXT` through `exporter`: into `.stem.EXT.tmp`, then renamed.
pub fn write_atomic(
    exporter: &dyn Exporter,
    frame: &mut DataFrame,
    dir: &Path,
    stem: &str,
) -> Result<PathBuf, ExportError> {
    let name = format!("{stem}.{}", exporter.extension());
    counts_as_i64(frame)?;
    write_bytes_atomic(dir, &name, &exporter.encode(frame)?)
}

/// Every whole-number column as Int64: one integer type for every count, index and rank in
/// every frame (issue 44), so a reader's joins and schemas never meet UInt64 beside Int64.
/// No count diemon keeps comes near 2^63.
fn counts_as_i64(frame: &mut DataFrame) -> Result<(), ExportError> {
    let names: Vec<_> = frame
        .columns()
        .iter()
        .filter(|c| c.dtype().is_integer() && c.dtype() != &DataType::Int64)
        .map(|c| c.name().clone())
        .collect();
    for name in names {
        let cast = frame
            .column(&name)
            .and_then(|c| c.cast(&DataType::Int64))
            .map_err(|e| ExportError::Encode {
                format: "Int64",
                message: format!("column {name}: {e}"),
            })?;
        frame.with_column(cast).map_err(|e| ExportError::Encode {
            format: "Int64",
            message: format!("column {name}: {e}"),
        })?;
    }
    Ok(())
}

/// Writes text atomically (the manifest, the report pages).
pub fn write_text_atomic(dir: &Path, name: &str, text: &str) -> Result<PathBuf, ExportError> {
    write_bytes_atomic(dir, name, text.as_bytes())
}

/// Writes `value` as pretty JSON atomically (a price's records: a reading, a shard).
pub fn write_json_atomic<T: serde::Serialize>(
    dir: &Path,
    name: &str,
    value: &T,
) -> Result<PathBuf, ExportError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| ExportError::Encode {
        format: "JSON",
        message: e.to_string(),
    })?;
    write_text_atomic(dir, name, &text)
}

/// Writes bytes atomically (a PNG chart).
pub fn write_bytes_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, ExportError> {
    let target = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp"));
    let written = std::fs::write(&tmp, bytes).map_err(|e| io_error(&target, e));
    settle(&tmp, &target, written)
}

/// Renames a written temporary file into place, or removes it when writing failed (a full
/// disk): never a half file, and never a stray temporary one.
fn settle(
    tmp: &Path,
    target: &Path,
    written: Result<(), ExportError>,
) -> Result<PathBuf, ExportError> {
    match written.and_then(|()| std::fs::rename(tmp, target).map_err(|e| io_error(target, e))) {
        Ok(()) => Ok(target.to_path_buf()),
        Err(e) => {
            let _ = std::fs::remove_file(tmp);
            Err(e)
        }
    }
}

fn io_error(path: &Path, source: io::Error) -> ExportError {
    ExportError::Write {
        path: path.to_path_buf(),
        source,
    }
}

/// Why a file was not written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The encoder refused a frame or record: a bug, since both are built to encode.
    #[error("cannot encode as {format}: {message}")]
    Encode {
        /// The format.
        format: &'static str,
        /// The encoder's message.
        message: String,
    },
    /// The disk refused the file (full, read-only, gone), in the OS's words.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The OS's error.
        #[source]
        source: io::Error,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use polars::prelude::Column;

    #[test]
    fn every_integer_column_is_written_as_int64() {
        let mut df = DataFrame::new_infer_height(vec![
            Column::new("cell".into(), [0u64, 1, 2]),
            Column::new("turns".into(), [3i32, 4, 5]),
            Column::new("trials".into(), [10i64, 20, 30]),
            Column::new("p".into(), [0.5f64, 0.25, 1.0]),
        ])
        .unwrap();
        counts_as_i64(&mut df).unwrap();
        let types: Vec<DataType> = df.columns().iter().map(|c| c.dtype().clone()).collect();
        assert_eq!(
            types,
            [
                DataType::Int64,
                DataType::Int64,
                DataType::Int64,
                DataType::Float64
            ]
        );
        let cell: Vec<Option<i64>> = df.column("cell").unwrap().i64().unwrap().iter().collect();
        assert_eq!(cell, [Some(0), Some(1), Some(2)]);
    }
}
