//! CSV, through Polars' writer.

use polars::prelude::{CsvWriter, DataFrame, SerWriter};

use super::{ExportError, Exporter};

/// CSV with a header row.
pub struct Csv;

impl Exporter for Csv {
    fn extension(&self) -> &'static str {
        "csv"
    }

    fn encode(&self, frame: &mut DataFrame) -> Result<Vec<u8>, ExportError> {
        let mut bytes = Vec::new();
        CsvWriter::new(&mut bytes)
            .finish(frame)
            .map_err(|e| ExportError::Encode {
                format: "CSV",
                message: e.to_string(),
            })?;
        Ok(bytes)
    }
}
