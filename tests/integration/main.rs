//! diemon's one integration-test binary.
//!
//! - `blast`: Explosive fire (a closed form, thread invariance, a pin).
//! - `brute`: an independent exact computation (enumerating every die sequence through the
//!   simulator's own rolling code) reproduces `Expr::exact` to 1e-9.
//! - `monte_carlo`: seeded Monte Carlo agrees with the exact tables (chi-squared, stated
//!   alpha, fixed seeds), and the test has the power to reject a wrong table.
//! - `properties`: proptest invariants of the exact maths.
//! - `value_stability`: pinned seeded rolls.
//! - `squad`: squad duels through the engine (closed form, symmetry, Armor, pins).
//! - `experiment`: experiment files, `diemon run`, its exports.
//! - `layers`: inside each crate the rooms import one way, in the order its lib.rs states.
//! - `fuzz`: seeded mutations of `fuzz/corpus/` never panic or hang (stable harness).
//! - `faults`: runs killed with SIGKILL, and runs on a full disk, end as a clean run.
//! - `cli`: the commands, their output shapes and exit codes.
//! - `price`: `diemon price` and experiment kind `price`.
//! - `terminal`: the binary in a pseudo-terminal: the README tour finishes, Ctrl-C exits 130.
//!
//! The slow tests (the README tour in a terminal, runs killed and resumed) are marked
//! `#[ignore = "slow: ..."]`: `cargo test --release` leaves them out, and
//! `cargo test --release --test integration -- --ignored` (which .ci/run runs) runs them.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::AtomicBool;

use diemon::scenario::Scenario;
use diemon::sim::engine::{Engine, Run, Stop};
use diemon::sim::progress::Silent;

/// Counts allocations per thread, so a test can check that trials allocate nothing.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations made on this thread so far.
pub(crate) fn allocations() -> u64 {
    ALLOCATIONS.with(|c| c.get())
}

/// A fresh temporary folder for one test (`diemon-NAME-PID`).
pub(crate) fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("diemon-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every file under `dir` (the lock included) with its bytes, in path order; none if it
/// does not exist: what "changed nothing on disk" compares.
pub(crate) fn tree(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut v = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                v.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    v.sort();
    v
}

/// Runs `diemon ARGS...`, failing the test on a non-zero exit; returns what it printed.
pub(crate) fn ok(args: &[&str]) -> String {
    let (code, text, err) = cli::diemon(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    text
}

/// Runs `s` on a pool of `threads` workers with seed `seed`, cell 0.
pub(crate) fn run_on<S: Scenario>(s: &S, stop: Stop, seed: u64, threads: usize) -> Run<S::Tally> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let e = Engine {
        seed,
        cell: 0,
        stop,
        shard: diemon::sim::engine::Shard::WHOLE,
    };
    pool.install(|| e.run(s, &Silent, &AtomicBool::new(false)))
}

mod blast;
mod brute;
mod cli;
mod docs;
mod engine;
mod experiment;
mod faults;
mod fuzz;
mod layers;
mod marks;
mod monte_carlo;
mod price;
mod properties;
mod report;
mod rooms;
mod source;
mod squad;
mod terminal;
mod value_stability;

/// One CSV row's fields, a quoted field's commas and doubled quotes read as the writer
/// meant them.
pub(crate) fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (vec![], String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields.push(field);
    fields
}
