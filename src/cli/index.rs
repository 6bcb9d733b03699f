//! `diemon index [DIR]`: the reports' first page, `DIR/index.html`.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::{Failure, io};

#[derive(Args, Debug)]
#[command(after_help = "Example:
  diemon index                 reports/index.html: every shipped report, its question, its
                               answer in one sentence and its first chart

Each report's writer (`diemon run`, `diemon price`, `diemon report`) leaves its card,
about.json, beside the page; the index lists every folder under DIR that holds a
report.html. Run it again after adding or redrawing a report.")]
pub struct IndexArgs {
    /// The folder of reports to list.
    #[arg(value_name = "DIR", default_value = "reports")]
    pub dir: PathBuf,
}

pub fn run(a: &IndexArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if !a.dir.is_dir() {
        return Err(Failure::input(format!(
            "{}: not a folder\nhint: give the folder that holds the reports, e.g. reports",
            a.dir.display()
        )));
    }
    let (path, n) =
        crate::report::index::write(&a.dir).map_err(|e| Failure::other(e.to_string()))?;
    io(writeln!(out, "wrote {} ({n} reports)", path.display()))
}
