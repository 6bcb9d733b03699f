//! CSV, through Polars' writer.

use polars::prelude::{CsvWriter, DataFrame, SerWriter};

use super::Exporter;

pub struct Csv;

impl Exporter for Csv {
    fn extension(&self) -> &'static str {
        "csv"
    }

    fn encode(&self, frame: &mut DataFrame) -> Result<Vec<u8>, String> {
        let mut bytes = Vec::new();
        CsvWriter::new(&mut bytes)
            .finish(frame)
            .map_err(|e| format!("cannot encode the frame as CSV: {e}"))?;
        Ok(bytes)
    }
}
