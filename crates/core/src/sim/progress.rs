//! Progress reporting: the library calls an observer, the CLI decides how to show it.

/// Receives progress from long runs. Called from worker threads, once per finished batch.
pub trait Progress: Sync {
    /// A run of `total` trials begins.
    fn start(&self, _total: u64) {}
    /// `trials` more trials are done.
    fn advance(&self, _trials: u64) {}
    /// The run ended.
    fn finish(&self) {}
}

/// Shows nothing.
#[derive(Copy, Clone, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}
