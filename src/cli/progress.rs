//! The indicatif progress bars, shown on a terminal's stderr only (never in a pipe): one for
//! the trials of a run, one for the cells of an experiment.

use std::io::IsTerminal;

use crate::experiment::error::Watch;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::sim::progress::Progress;

/// A progress bar for rolls; hidden unless stderr is a terminal.
pub struct Bar(ProgressBar);

impl Bar {
    pub fn new(unit: &'static str) -> Bar {
        let bar = ProgressBar::hidden();
        if std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        let style = ProgressStyle::with_template(&format!(
            "{{bar:40}} {{human_pos}}/{{human_len}} {unit}  {{per_sec:0}}  ETA {{eta}}"
        ))
        .expect("the bar template is a constant");
        bar.set_style(style);
        Bar(bar)
    }
}

impl Progress for Bar {
    fn start(&self, total: u64) {
        self.0.set_length(total);
    }
    fn advance(&self, trials: u64) {
        self.0.inc(trials);
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// The cells of an experiment: done of all, an ETA, and the cell under way; hidden unless
/// stderr is a terminal (and not `quiet`).
pub struct CellBar(ProgressBar);

impl CellBar {
    /// `kept` of `total` items (`what`: cells, fits, units) are already done (a resumed
    /// run).
    pub fn new(total: u64, kept: u64, what: &str, quiet: bool) -> CellBar {
        let bar = ProgressBar::hidden();
        let style = ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what}  {{elapsed}} elapsed, ETA {{eta}}  {{wide_msg}}"
        ))
        .expect("the bar template is a constant but for a word");
        bar.set_style(style);
        bar.set_length(total);
        bar.set_position(kept);
        // Kept cells cost nothing: the ETA is measured on the cells run now.
        bar.reset_eta();
        if !quiet && std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
        }
        CellBar(bar)
    }

    /// A cell with these parameters starts.
    pub fn cell(&self, params: &[(String, String)]) {
        let text = params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ");
        self.0.set_message(text);
    }

    /// The cell finished.
    pub fn done(&self) {
        self.0.inc(1);
    }

    /// Prints around the bar (a cell's line on stdout, which shares the terminal).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.0.suspend(f)
    }

    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// The cells of a sweep on the terminal: a fresh [`CellBar`] each time a sweep begins
/// (`diemon price` runs several), unless quiet.
pub struct Cells {
    quiet: bool,
    bar: std::sync::Mutex<Option<CellBar>>,
}

impl Cells {
    pub fn new(quiet: bool) -> Cells {
        Cells {
            quiet,
            bar: std::sync::Mutex::new(None),
        }
    }

    /// Runs `f` on the bar of the sweep under way, if any.
    fn with(&self, f: impl FnOnce(&CellBar)) {
        // A poisoned lock only means a panic elsewhere: the bar is still a bar.
        let bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = bar.as_ref() {
            f(b);
        }
    }
}

impl Watch for Cells {
    fn begin(&self, total: u64, kept: u64) {
        self.begin_items(total, kept, "cells");
    }
    fn begin_items(&self, total: u64, kept: u64, what: &'static str) {
        let mut bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        *bar = Some(CellBar::new(total, kept, what, self.quiet));
    }
    fn more(&self, n: u64) {
        self.with(|b| b.0.inc_length(n));
    }
    fn cell(&self, params: &[(String, String)]) {
        self.with(|b| b.cell(params));
    }
    fn done(&self) {
        self.with(|b| b.done());
    }
    fn suspend(&self, f: &mut dyn FnMut()) {
        let bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        match bar.as_ref() {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }
    fn finish(&self) {
        self.with(|b| b.finish());
    }
}
