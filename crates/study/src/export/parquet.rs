//! Parquet, through Polars' writer, with the run's manifest as key-value metadata.

use polars::io::parquet::write::KeyValueMetadata;
use polars::prelude::{DataFrame, ParquetWriter};

use super::{ExportError, Exporter};

/// Parquet with `(key, value)` file metadata (read in Python with
/// `pl.read_parquet_metadata`).
pub struct Parquet {
    /// `(key, value)` pairs written into the file's metadata.
    pub metadata: Vec<(String, String)>,
}

impl Exporter for Parquet {
    fn extension(&self) -> &'static str {
        "parquet"
    }

    fn encode(&self, frame: &mut DataFrame) -> Result<Vec<u8>, ExportError> {
        let mut bytes = Vec::new();
        let kv = KeyValueMetadata::from_static(self.metadata.clone());
        ParquetWriter::new(&mut bytes)
            .with_key_value_metadata(Some(kv))
            .finish(frame)
            .map_err(|e| ExportError::Encode {
                format: "Parquet",
                message: e.to_string(),
            })?;
        Ok(bytes)
    }
}
