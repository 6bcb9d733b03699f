//! Parquet, through Polars' writer, with the run's manifest as key-value metadata.

use std::path::Path;

use polars::io::parquet::write::KeyValueMetadata;
use polars::prelude::{DataFrame, ParquetWriter};

use super::{Exporter, io_error};

/// Parquet with `(key, value)` file metadata (read in Python with
/// `pl.read_parquet_metadata`).
pub struct Parquet {
    pub metadata: Vec<(String, String)>,
}

impl Exporter for Parquet {
    fn extension(&self) -> &'static str {
        "parquet"
    }

    fn write(&self, frame: &mut DataFrame, file: &Path) -> Result<(), String> {
        let f = std::fs::File::create(file).map_err(|e| io_error(file, e))?;
        let kv = KeyValueMetadata::from_static(self.metadata.clone());
        ParquetWriter::new(f)
            .with_key_value_metadata(Some(kv))
            .finish(frame)
            .map(|_| ())
            .map_err(|e| format!("cannot write {}: {e}", file.display()))
    }
}
