//! CSV, through Polars' writer.

use std::path::Path;

use polars::prelude::{CsvWriter, DataFrame, SerWriter};

use super::{Exporter, io_error};

pub struct Csv;

impl Exporter for Csv {
    fn extension(&self) -> &'static str {
        "csv"
    }

    fn write(&self, frame: &mut DataFrame, file: &Path) -> Result<(), String> {
        let mut f = std::fs::File::create(file).map_err(|e| io_error(file, e))?;
        CsvWriter::new(&mut f)
            .finish(frame)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))
    }
}
