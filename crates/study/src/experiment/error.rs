//! Why a run, a merge or a report of an experiment failed.

use std::sync::atomic::AtomicBool;

/// The CLI picks the exit code from the kind.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// Bad input: the file, a folder that is not a run's, shards that do not belong together.
    #[error("{0}")]
    Input(String),
    /// Something else failed: writing a file, a full disk.
    #[error("{0}")]
    Other(String),
    /// Ctrl-C stopped it; what it finished is kept, and the message says where.
    #[error("{0}")]
    Interrupted(String),
}

impl RunError {
    /// Bad input, in words (exit code 2).
    pub fn input(message: impl Into<String>) -> RunError {
        RunError::Input(message.into())
    }
    /// Not the input's fault, in words (exit code 1).
    pub fn other(message: impl Into<String>) -> RunError {
        RunError::Other(message.into())
    }
}

impl From<crate::question::Error> for RunError {
    fn from(e: crate::question::Error) -> RunError {
        match e {
            crate::question::Error::Input(m) => RunError::Input(m),
            crate::question::Error::Other(m) => RunError::Other(m),
        }
    }
}

impl From<crate::export::ExportError> for RunError {
    fn from(e: crate::export::ExportError) -> RunError {
        RunError::Other(e.to_string())
    }
}

/// Writes, mapping an I/O error (a closed pipe, a full disk) to a failure.
pub fn io(r: std::io::Result<()>) -> Result<(), RunError> {
    match r {
        Ok(()) => Ok(()),
        // `diemon run ... | head` closes the pipe early: that is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(RunError::other(format!("cannot write output: {e}"))),
    }
}

/// How a run is driven: its worker threads a cell, whether it keeps its per-cell lines to
/// itself, who watches its cells, and the flag Ctrl-C sets to stop it. One value passed down
/// through a sweep, a price and its readings.
#[derive(Clone, Copy)]
pub struct Drive<'a> {
    /// Worker threads a cell; none, every core.
    pub threads: Option<usize>,
    /// Say no line a cell on the run's output.
    pub quiet: bool,
    /// The progress of its cells.
    pub watch: &'a dyn Watch,
    /// Set by Ctrl-C: the run stops between cells, or inside one it then does not keep.
    pub cancel: &'a AtomicBool,
}

/// Whoever watches a sweep's cells (or a price's fits, a roster's units): the CLI draws a
/// bar on a terminal. Shared by the threads of a price, which run its fits side by side.
pub trait Watch: Sync {
    /// `kept` of `total` cells are done already (a resumed run).
    fn begin(&self, _total: u64, _kept: u64) {}
    /// `kept` of `total` items of another kind (`what`: "fits", "units") are done already.
    fn begin_items(&self, total: u64, kept: u64, _what: &'static str) {
        self.begin(total, kept)
    }
    /// `n` more items than begun: a price's search added cells.
    fn more(&self, _n: u64) {}
    /// `n` items found done by a run before (a sweep within a price resumed): they count
    /// as done but cost no time, so an ETA leaves them out of its pace.
    fn kept(&self, n: u64) {
        for _ in 0..n {
            self.done()
        }
    }
    /// A cell with these parameters starts.
    fn cell(&self, _params: &[(String, String)]) {}
    /// The cell finished.
    fn done(&self) {}
    /// Runs `f`, which writes a line, beside the bar (they share the terminal).
    fn suspend(&self, f: &mut dyn FnMut()) {
        f()
    }
    /// The run ended.
    fn finish(&self) {}
}

/// Watches nothing.
pub struct Unwatched;

impl Watch for Unwatched {}
