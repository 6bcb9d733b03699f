//! `diemon report DIR`: a run's report, redrawn from its Parquet files alone.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{Failure, io};

#[derive(Args, Debug)]
#[command(after_help = "Example:
  diemon report reports/hero-worth      report.md, report.html and charts/*.svg, *.png

`diemon run` writes the report itself; this redraws it, e.g. after copying the Parquet
files elsewhere, or with a newer diemon's charts.")]
pub struct ReportArgs {
    /// A folder `diemon run` (or `diemon merge`) wrote.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

pub fn run(a: &ReportArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if !a.dir.is_dir() {
        return Err(Failure::input(format!(
            "{}: not a folder\nhint: give the folder `diemon run` wrote, e.g. reports/hero-worth",
            a.dir.display()
        )));
    }
    let _lock = super::lock::lock(&a.dir)?;
    write(&a.dir, out)
}

/// Writes the report of `dir` and says where it is.
pub(super) fn write(dir: &Path, out: &mut dyn Write) -> Result<(), Failure> {
    let files = crate::report::write(dir).map_err(|m| {
        if m.contains("no summary") || m.contains("no manifest") || m.contains("not TOML") {
            Failure::input(m)
        } else {
            Failure::other(m)
        }
    })?;
    let charts = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "svg"))
        .count();
    let d = dir.display();
    let s = if charts == 1 { "" } else { "s" };
    io(writeln!(
        out,
        "report: {d}/report.html (self-contained) and {d}/report.md, {charts} chart{s} in {d}/charts/"
    ))
}
