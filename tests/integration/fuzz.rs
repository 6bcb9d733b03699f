//! Fuzzing on the stable toolchain (issue 22): seeded mutations of the committed corpus in
//! `fuzz/corpus/TARGET/` are fed to five targets: the expression parser, experiment files,
//! catalogs, rosters and Marks sheets. No input may panic, and none may take longer than
//! [`CAP`] (a hang detector, far above any input's real time). Inputs the target accepts
//! join the pool, so mutations reach past the first error.
//!
//! By default each target runs its corpus and [`MUTATIONS`] mutations (a few seconds in
//! all). `DIEMON_FUZZ_SECONDS=N` runs each target for N seconds instead (`.ci/run` does);
//! the mutation stream is seeded, so a longer run extends a shorter one. A failing input is
//! written to `target/fuzz-artifacts/` and printed.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::cli::diemon;

/// The longest any one input may take.
const CAP: Duration = Duration::from_secs(20);

/// Mutations a target runs by default.
const MUTATIONS: usize = 150;

/// A target: the text in, whether it was accepted.
type Target = fn(&str, &Path) -> bool;

/// Runs a dist of the expression (exact table and all).
fn expression(text: &str, _: &Path) -> bool {
    diemon(&["dist", "-q", "--", text]).0 == 0
}

/// Parses and checks an experiment file; a `catalog` named `fuzz.toml` resolves.
fn experiment(text: &str, _: &Path) -> bool {
    let mut catalogs = std::collections::BTreeMap::new();
    catalogs.insert(
        "fuzz.toml".to_string(),
        include_str!("../../catalogs/example.toml").to_string(),
    );
    diemon::experiment::parse(
        "fuzz.toml",
        text,
        &diemon::experiment::Catalogs::Kept(&catalogs),
    )
    .is_ok()
}

/// Parses a catalog; a catalog that parses is listed, and its first unit is shown and
/// fought for 64 duels.
fn catalog(text: &str, scratch: &Path) -> bool {
    let Ok(units) = diemon::catalog::parse("fuzz.toml", text) else {
        return false;
    };
    let file = scratch.join("catalog.toml");
    std::fs::write(&file, text).unwrap();
    let f = file.to_str().unwrap();
    diemon(&["unit", "list", "--catalog", f]);
    if let Some(key) = units.keys().next() {
        diemon(&["unit", "show", key, "--catalog", f]);
        let a = format!("--a={key}");
        let args = [
            "duel",
            &a,
            "--b",
            "minifig-hand-weapon",
            "--trials",
            "64",
            "-q",
            "--catalog",
            f,
        ];
        return diemon(&args).0 == 0;
    }
    true
}

/// A roster as side A of 64 duels.
fn roster(text: &str, _: &Path) -> bool {
    let a = format!("--a={text}");
    diemon(&[
        "duel",
        &a,
        "--b",
        "minifig-hand-weapon",
        "--trials",
        "64",
        "-q",
    ])
    .0 == 0
}

/// A Marks roll: one argument a line. Flags that ask for a long run on purpose (`--mc`,
/// `--trials`) and files (`--plot`) are left out: a billion rolls is not a hang.
fn marks(text: &str, _: &Path) -> bool {
    let mut args = vec!["marks"];
    let mut skip = false;
    for a in text.lines() {
        if std::mem::take(&mut skip) {
            continue;
        }
        if ["--mc", "--trials", "--plot", "--threads"]
            .iter()
            .any(|f| a.starts_with(f))
        {
            skip = !a.contains('=');
            continue;
        }
        args.push(a);
    }
    diemon(&args).0 == 0
}

/// Tokens a mutation inserts: the limits, the numbers past them, and each grammar's words.
const DICTIONARY: &[&str] = &[
    "0",
    "1",
    "-1",
    "60",
    "61",
    "64",
    "65",
    "100",
    "101",
    "1000",
    "1001",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "1e15",
    "1e16",
    "1e309",
    "nan",
    "inf",
    "-0",
    "0.5",
    "d",
    "d4",
    "d6",
    "d8",
    "d10",
    "d12",
    "d20",
    "exp",
    "fire",
    "skill",
    "bless",
    "curse",
    "sn",
    "*",
    ",",
    "+",
    "@",
    "=",
    "..",
    "[",
    "]",
    "{",
    "}",
    "\"",
    "'",
    "\n",
    " ",
    "#",
    "[sweep]",
    "[scenario]",
    "[options]",
    "[fair_cp]",
    "[matchups]",
    "kind = \"duel\"",
    "kind = \"blast\"",
    "kind = \"marks\"",
    "trials = ",
    "size = ",
    "structure = ",
    "weapons = ",
    "hero",
    "minifig-hand-weapon",
    "horse",
    "mystik",
    "--attr",
    "--vs",
    "--skill",
    "--super-attr",
    "--superpower",
    "--tries",
    "--plateau",
    "--periods",
    "attr=",
    "\u{2212}",
    "é",
    "\u{0}",
];

/// One seeded mutation of `text`, using `other` (another pool entry) for splices.
fn mutate(text: &str, other: &str, rng: &mut impl RngExt) -> String {
    let mut c: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..=4) {
        let at = rng.random_range(0..=c.len());
        match rng.random_range(0..6) {
            0 if !c.is_empty() => {
                let i = at.min(c.len() - 1);
                c[i] = char::from(rng.random_range(b' '..=b'~'));
            }
            1 | 2 => {
                let t = DICTIONARY[rng.random_range(0..DICTIONARY.len())];
                c.splice(at..at, t.chars());
            }
            3 if !c.is_empty() => {
                let end = (at + rng.random_range(1..=8)).min(c.len());
                c.drain(at.min(end)..end);
            }
            4 if !c.is_empty() => {
                let end = (at + rng.random_range(1..=16)).min(c.len());
                let piece: Vec<char> = c[at.min(end)..end].to_vec();
                c.splice(at..at, piece);
            }
            _ => {
                let o: Vec<char> = other.chars().collect();
                let from = rng.random_range(0..=o.len());
                c.truncate(at);
                c.extend(&o[from..]);
            }
        }
    }
    c.into_iter().collect()
}

/// Runs one input on its own thread: a panic or a hang fails the test, naming the input.
fn check(name: &str, target: Target, input: &str, scratch: &Path) -> bool {
    let (tx, rx) = mpsc::channel();
    let (text, dir) = (input.to_string(), scratch.to_path_buf());
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(|| target(&text, &dir));
        let _ = tx.send(r);
    });
    let verdict = rx.recv_timeout(CAP);
    let failure = match &verdict {
        Ok(Ok(_)) => None,
        Ok(Err(_)) => Some("panicked"),
        Err(_) => Some("hung"),
    };
    if let Some(what) = failure {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-artifacts");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{name}-{}.txt", std::process::id()));
        std::fs::write(&file, input).unwrap();
        panic!(
            "fuzz target {name} {what} on {input:?} (saved as {})",
            file.display()
        );
    }
    matches!(verdict, Ok(Ok(true)))
}

/// The target's committed corpus, in name order.
fn corpus(name: &str) -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect()
}

fn fuzz(name: &str, target: Target, seed: u64) {
    let scratch = super::temp(&format!("fuzz-{name}"));
    let mut pool = corpus(name);
    assert!(!pool.is_empty(), "fuzz/corpus/{name} is empty");
    let accepted = pool
        .clone()
        .iter()
        .filter(|t| check(name, target, t, &scratch))
        .count();
    assert!(accepted > 0, "no seed of fuzz/corpus/{name} is accepted");
    let budget = std::env::var("DIEMON_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map(Duration::from_secs);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = Instant::now();
    let mut n = 0;
    while budget.map_or(n < MUTATIONS, |b| start.elapsed() < b) {
        let base = &pool[rng.random_range(0..pool.len())];
        let other = &pool[rng.random_range(0..pool.len())];
        let input = mutate(base, other, &mut rng);
        if check(name, target, &input, &scratch) && pool.len() < 512 {
            pool.push(input);
        }
        n += 1;
    }
    if budget.is_some() {
        eprintln!(
            "fuzz {name}: {n} mutations in {:.0?}, {} inputs accepted",
            start.elapsed(),
            pool.len()
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn expressions_never_panic_or_hang() {
    fuzz("expression", expression, 1);
}

#[test]
fn experiment_files_never_panic_or_hang() {
    fuzz("experiment", experiment, 2);
}

#[test]
fn catalogs_never_panic_or_hang() {
    fuzz("catalog", catalog, 3);
}

#[test]
fn rosters_never_panic_or_hang() {
    fuzz("roster", roster, 4);
}

#[test]
fn marks_sheets_never_panic_or_hang() {
    fuzz("marks", marks, 5);
}

/// The harness can fail: a target that panics on some input is caught and named.
#[test]
fn the_harness_catches_a_panic() {
    fn bad(text: &str, _: &Path) -> bool {
        assert!(!text.contains('!'), "boom");
        true
    }
    let scratch = super::temp("fuzz-self");
    assert!(check("self", bad, "fine", &scratch));
    let caught = std::panic::catch_unwind(|| check("self", bad, "bang!", &scratch));
    let message = *caught.unwrap_err().downcast::<String>().unwrap();
    assert!(message.contains("panicked on \"bang!\""), "{message}");
}
