//! Ctrl-C, as a person at a terminal expects it.
//!
//! A long run (the engine, an experiment's sweep) holds a [`Guard`]: the first Ctrl-C asks
//! it to stop at the next batch boundary, so it can report what it finished and exit 130.
//! Anything else stops at once with 130. A second Ctrl-C, or a guarded run still going
//! [`GRACE`] after the first, also exits at once: Ctrl-C never goes unanswered.
//! Files are written through temp + rename, so an exit at any point leaves no half file.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use super::EXIT_INTERRUPTED;

/// Set by the first Ctrl-C; guarded runs poll it.
pub static CANCEL: AtomicBool = AtomicBool::new(false);

/// Guarded runs now under way.
static GUARDED: AtomicUsize = AtomicUsize::new(0);

/// How long a guarded run may take to stop cleanly after Ctrl-C.
pub const GRACE: Duration = Duration::from_secs(2);

/// While alive, Ctrl-C asks for a clean stop instead of exiting at once.
pub struct Guard(());

impl Guard {
    pub fn new() -> Guard {
        GUARDED.fetch_add(1, Ordering::SeqCst);
        Guard(())
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        GUARDED.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Installs the handler (once, from `cli::run`; tests in-process never install it).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        let again = CANCEL.swap(true, Ordering::SeqCst);
        if again || GUARDED.load(Ordering::SeqCst) == 0 {
            stop_now(if again {
                "interrupted again: stopping now"
            } else {
                "interrupted"
            });
        }
        // The ctrlc thread must stay free for a second Ctrl-C.
        std::thread::spawn(|| {
            std::thread::sleep(GRACE);
            stop_now("interrupted: the run did not stop in time, stopping now");
        });
    });
}

fn stop_now(message: &str) -> ! {
    let mut err = std::io::stderr();
    let _ = writeln!(err, "\nerror: {message}");
    std::process::exit(EXIT_INTERRUPTED);
}
