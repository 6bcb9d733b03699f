//! The indicatif progress bars, shown on a terminal's stderr only (never in a pipe): one for
//! the trials of a run, one for the cells of an experiment.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::experiment::error::Watch;
use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

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
pub struct CellBar {
    bar: ProgressBar,
    /// Items found done (at the start, or by a sweep resumed within a price): they cost no
    /// time, so the ETA's pace leaves them out.
    kept: Arc<AtomicU64>,
}

impl CellBar {
    /// `kept` of `total` items (`what`: cells, fits, units) are already done (a resumed
    /// run).
    pub fn new(total: u64, kept: u64, what: &str, quiet: bool) -> CellBar {
        let bar = ProgressBar::hidden();
        let kept = Arc::new(AtomicU64::new(kept));
        let seen = Arc::clone(&kept);
        let left = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let run = state.pos().saturating_sub(seen.load(Ordering::Relaxed));
            let todo = state.len().unwrap_or(0).saturating_sub(state.pos());
            let _ = match eta(state.elapsed(), run, todo) {
                Some(d) => write!(w, "{:#}", HumanDuration(d)),
                None => write!(w, "-"),
            };
        };
        let style = ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what}  {{elapsed}} elapsed, ETA {{left}}  {{wide_msg}}"
        ))
        .expect("the bar template is a constant but for a word")
        .with_key("left", left);
        bar.set_style(style);
        bar.set_length(total);
        bar.set_position(kept.load(Ordering::Relaxed));
        if !quiet && std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
        }
        CellBar { bar, kept }
    }

    /// `n` more items to do (a price's search added cells).
    pub fn more(&self, n: u64) {
        self.bar.inc_length(n);
    }

    /// `n` items found done by a run before.
    pub fn kept(&self, n: u64) {
        self.kept.fetch_add(n, Ordering::Relaxed);
        self.advance(n);
    }

    /// A cell with these parameters starts.
    pub fn cell(&self, params: &[(String, String)]) {
        let text = params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ");
        self.bar.set_message(text);
    }

    /// The cell finished.
    pub fn done(&self) {
        self.advance(1);
    }

    /// `n` items done. A resumed price can find done more than its grid planned (cells of
    /// its search's rounds): the bar grows to hold them rather than run past its end.
    fn advance(&self, n: u64) {
        // `inc` is atomic: threads that finish cells together lose none.
        self.bar.inc(n);
        let pos = self.bar.position();
        if self.bar.length().is_some_and(|len| pos > len) {
            self.bar.set_length(pos);
        }
    }

    /// Prints around the bar (a cell's line on stdout, which shares the terminal).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The time left at the whole run's pace: `run` items done in `elapsed` (kept ones left
/// out), `todo` to go; `None` before the first item or the first second. The whole run's
/// mean rather than indicatif's 15-second window, because items differ a thousandfold (a
/// sure cell ends in milliseconds, a reading in a minute): a window swings with whichever
/// kind just finished.
fn eta(elapsed: Duration, run: u64, todo: u64) -> Option<Duration> {
    if run == 0 || elapsed < Duration::from_secs(1) {
        return None;
    }
    Some(elapsed.mul_f64(todo as f64 / run as f64))
}

#[test]
fn the_eta_is_the_whole_run_s_pace_over_what_is_left() {
    let s = Duration::from_secs;
    // 10 items in 20 s: 5 left take 10 s, whatever order they came in.
    assert_eq!(eta(s(20), 10, 5), Some(s(10)));
    assert_eq!(eta(s(20), 10, 0), Some(s(0)));
    // Nothing run yet (kept items are not run), or too soon to say.
    assert_eq!(eta(s(20), 0, 5), None);
    assert_eq!(eta(Duration::from_millis(400), 3, 5), None);
}

#[test]
fn kept_items_count_as_done_but_not_in_the_pace() {
    let bar = CellBar::new(10, 4, "cells", true);
    bar.kept(2);
    bar.done();
    assert_eq!(bar.bar.position(), 7);
    assert_eq!(bar.kept.load(Ordering::Relaxed), 6);
    // Found done past the planned length: the bar grows, never overruns.
    bar.kept(5);
    assert_eq!((bar.bar.position(), bar.bar.length()), (12, Some(12)));
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
        self.with(|b| b.more(n));
    }
    fn kept(&self, n: u64) {
        self.with(|b| b.kept(n));
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
