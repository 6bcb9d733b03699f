//! Ctrl-C, as a person at a terminal expects it.
//!
//! A long run (the engine, an experiment's sweep) holds a [`Guard`]: the first Ctrl-C asks
//! it to stop at the next batch boundary, so it can report what it finished and exit 130.
//! Anything else stops at once with 130. A second Ctrl-C, or a guarded run still going
//! [`GRACE`] after the first, also exits at once: Ctrl-C never goes unanswered.
//! Files are written through temp + rename, so an exit at any point leaves no half file.
//! SIGTERM (what `kill`, a batch system or a container stop sends) is handled the same way,
//! and exits 143 (128 + SIGTERM).

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use super::{EXIT_INTERRUPTED, EXIT_TERMINATED};

/// Set by the first Ctrl-C; guarded runs poll it.
pub static CANCEL: AtomicBool = AtomicBool::new(false);

/// Set when the stop came from SIGTERM rather than Ctrl-C.
static TERMINATED: AtomicBool = AtomicBool::new(false);

/// The exit code of an interrupted run: 143 after SIGTERM, 130 after Ctrl-C.
pub fn exit_code() -> i32 {
    if TERMINATED.load(Ordering::SeqCst) {
        EXIT_TERMINATED
    } else {
        EXIT_INTERRUPTED
    }
}

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

/// Installs the handlers (once, from `cli::run`, before any other thread starts; tests
/// in-process never install them).
pub fn install() {
    #[cfg(unix)]
    on_sigterm();
    let _ = ctrlc::set_handler(stop);
}

/// A stop asked for (Ctrl-C, or SIGTERM after it set [`TERMINATED`]): a guarded run stops at
/// its next batch; anything else, or a second stop, exits at once.
fn stop() {
    let again = CANCEL.swap(true, Ordering::SeqCst);
    if again || GUARDED.load(Ordering::SeqCst) == 0 {
        stop_now(if again { "stopping now" } else { "" });
    }
    // The handler's thread must stay free for a second signal.
    std::thread::spawn(|| {
        std::thread::sleep(GRACE);
        stop_now("the run did not stop in time, stopping now");
    });
}

/// SIGTERM is blocked in every thread (all are spawned after this) and taken by one that
/// waits for it, so the stop runs as ordinary code, as ctrlc's does for Ctrl-C.
#[cfg(unix)]
fn on_sigterm() {
    use nix::sys::signal::{SigSet, Signal};
    let mut set = SigSet::empty();
    set.add(Signal::SIGTERM);
    if set.thread_block().is_err() {
        return;
    }
    std::thread::spawn(move || {
        while set.wait().is_ok() {
            TERMINATED.store(true, Ordering::SeqCst);
            stop();
        }
    });
}

fn stop_now(how: &str) -> ! {
    let what = if TERMINATED.load(Ordering::SeqCst) {
        "terminated (SIGTERM)"
    } else {
        "interrupted"
    };
    let how = if how.is_empty() {
        String::new()
    } else {
        format!(": {how}")
    };
    let mut err = std::io::stderr();
    let _ = writeln!(err, "\nerror: {what}{how}");
    std::process::exit(exit_code());
}
