//! `diemon report DIR`: a run's report, redrawn from its Parquet files alone.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{Failure, io};

#[derive(Args, Debug)]
#[command(after_help = "Example:
  diemon report reports/hero-worth      report.md, report.html and charts/*.svg, *.png

`diemon run` writes the report itself; this redraws it, e.g. after copying the Parquet
files elsewhere, or with a newer diemon's charts. A price's or the balance's folder is
redrawn by running its command again (it keeps its cells).")]
pub struct ReportArgs {
    /// A folder `diemon run` (or `diemon merge`) wrote.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Draw the report of a run that has not finished every cell (it says so at the top).
    #[arg(long)]
    pub partial: bool,
}

pub fn run(a: &ReportArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if !a.dir.is_dir() {
        return Err(Failure::input(format!(
            "{}: not a folder\nhint: give the folder `diemon run` wrote, e.g. reports/hero-worth",
            a.dir.display()
        )));
    }
    let _lock = crate::experiment::lock::lock(&a.dir)?;
    // A run killed halfway has frames of fewer cells than its manifest names.
    let frames =
        crate::report::frames::Frames::load(&a.dir).map_err(|e| Failure::input(e.to_string()))?;
    // A price's page and the balance's are drawn by the command that wrote them, from more
    // than the frames a sweep's report reads: redrawn here they would lose their tables.
    if frames.manifest.get("kind").and_then(|k| k.as_str()) == Some("price") {
        return Err(Failure::input(format!(
            "{}: a price's or the balance's folder: its report is drawn by the command that \
             wrote it\nhint: run that command again with --out {} (`diemon price`, `diemon \
             balance` or `diemon run ROSTER`): it keeps every cell, so it only redraws",
            a.dir.display(),
            a.dir.display()
        )));
    }
    let have = frames.summary.height() as i64;
    let want = frames
        .manifest
        .get("cells")
        .and_then(|c| c.as_integer())
        .unwrap_or(have);
    if have < want {
        let line = format!(
            "{}: {have} of {want} cells finished ({} missing)",
            a.dir.display(),
            want - have
        );
        if !a.partial {
            return Err(Failure::other(format!(
                "{line}\nhint: run the experiment again to finish it (it resumes), or draw what \
                 there is with --partial"
            )));
        }
        io(writeln!(out, "{line}: a partial report"))?;
    }
    Ok(crate::experiment::sweep::write_report(&a.dir, out)?)
}
