//! The indicatif progress bar, shown on a terminal's stderr only (never in a pipe).

use std::io::IsTerminal;

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
            "{{bar:40}} {{human_pos}}/{{human_len}} {unit}  {{per_sec}}  ETA {{eta}}"
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
