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
//!
//! Two targets run the binary as a separate process, where the faults are (issue 38):
//! `folders` runs, resumes, shards, merges and reports mutated experiments with their cell
//! folders tampered with, and `prices` prices the first unit of mutated catalogs; both
//! check exit codes and that a refused command changed nothing on disk. Each input costs
//! them whole runs, so by default they run one corpus entry (a smoke test); with
//! `DIEMON_FUZZ_SECONDS` they run in full.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::cli::diemon;
use super::tree;

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
    args.extend(lines_without(
        text,
        &["--mc", "--trials", "--plot", "--threads"],
    ));
    diemon(&args).0 == 0
}

/// The lines of `text` as arguments, less the flags `dropped` (with their values).
fn lines_without<'a>(text: &'a str, dropped: &[&str]) -> Vec<&'a str> {
    let mut args = Vec::new();
    let mut skip = false;
    for a in text.lines() {
        if std::mem::take(&mut skip) {
            continue;
        }
        if dropped.iter().any(|f| a.starts_with(f)) {
            skip = !a.contains('=');
            continue;
        }
        args.push(a);
    }
    args
}

/// A roll: one argument a line (an expression, `--seed`, `-o`, `--json`).
fn roll(text: &str, _: &Path) -> bool {
    let mut args = vec!["roll"];
    args.extend(text.lines());
    diemon(&args).0 == 0
}

/// A blast: one argument a line, at 256 trials (flags that set the run's length, threads
/// or files are left out: a long run on purpose is not a hang).
fn blast(text: &str, _: &Path) -> bool {
    let mut args = vec!["blast", "-q", "--trials", "256"];
    args.extend(lines_without(
        text,
        &["--trials", "--threads", "--target-ci", "--catalog"],
    ));
    diemon(&args).0 == 0
}

/// An experiment run as a user runs it, out of process: refused with nothing written, or
/// run; then its cell folder tampered with (a seeded choice) and run again, reported, and
/// run as two shards (one tampered with) and merged. Only 0 or 2 may come back, a refusal
/// changes nothing, a resumed run ends with the clean run's figures, and a merge never
/// touches its shards.
fn folders(text: &str, scratch: &Path) -> bool {
    // Short runs only: any `trials` becomes 1,000, and large grids are only parsed.
    let text: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("trials") {
                "trials = 1000".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let dir = fresh(scratch);
    std::fs::write(dir.join("e.toml"), &text).unwrap();
    std::fs::write(
        dir.join("fuzz.toml"),
        include_str!("../../catalogs/example.toml"),
    )
    .unwrap();
    let out = dir.join("out");
    let parsed = diemon::experiment::load(&dir.join("e.toml"));
    let code = spawned(&["run", "e.toml", "--out", "out", "-q"], &dir);
    let Ok(e) = parsed else {
        assert_eq!(code, 2, "a refused experiment exits 2");
        assert!(!out.exists(), "a refused experiment wrote {out:?}");
        return false;
    };
    if e.cells.len() > 8 {
        return code == 0;
    }
    if code != 0 {
        return refused(code, &out, &[]);
    }
    let clean = std::fs::read(out.join("summary.csv")).ok();
    let pick = fnv(&text);
    tamper(&out.join("cells"), pick);
    let before = tree(&out);
    match spawned(&["run", "e.toml", "--out", "out", "-q"], &dir) {
        0 => assert_eq!(
            std::fs::read(out.join("summary.csv")).ok(),
            clean,
            "resumed"
        ),
        code => {
            refused(code, &out, &before);
        }
    }
    let before = tree(&out);
    let code = spawned(&["report", "out"], &dir);
    if code != 0 {
        refused(code, &out, &before);
    }
    for i in [1, 2] {
        let shard = format!("{i}/2");
        let o = format!("s{i}");
        assert_eq!(
            spawned(
                &["run", "e.toml", "--shard", &shard, "--out", &o, "-q"],
                &dir
            ),
            0
        );
    }
    tamper(&dir.join("s2/cells"), pick / 7);
    let shards = (tree(&dir.join("s1")), tree(&dir.join("s2")));
    let code = spawned(&["merge", "s1", "s2", "--out", "m", "-q"], &dir);
    assert!(code == 0 || code == 2, "merge exited {code}");
    assert!(
        code == 0 || !dir.join("m").exists(),
        "a refused merge wrote m"
    );
    assert!(
        (tree(&dir.join("s1")), tree(&dir.join("s2"))) == shards,
        "a merge changed its shards"
    );
    true
}

/// A catalog's first unit priced out of process (one reference, distance and formation, a
/// loose CI), then its folder tampered with and priced again: 0 or 2, and a refusal changes
/// nothing.
fn prices(text: &str, scratch: &Path) -> bool {
    let Ok(units) = diemon::catalog::parse("fuzz.toml", text) else {
        return false;
    };
    let Some(unit) = units.keys().next().cloned() else {
        return false;
    };
    let dir = fresh(scratch);
    std::fs::write(dir.join("c.toml"), text).unwrap();
    let price = || {
        spawned(
            &[
                "price",
                &unit,
                "--catalog",
                "c.toml",
                "--reference",
                "minifig-hand-weapon",
                "--distance",
                "6",
                "--formation",
                "line",
                "--target-ci",
                "0.2",
                "--trials",
                "2000",
                "--out",
                "p",
                "-q",
            ],
            &dir,
        )
    };
    let out = dir.join("p");
    let code = price();
    if code != 0 {
        return refused(code, &out, &[]);
    }
    tamper(&out.join("minifig-hand-weapon/line/cells"), fnv(text));
    let before = tree(&out);
    let code = price();
    if code != 0 {
        refused(code, &out, &before);
    }
    true
}

/// `diemon ARGS` as its own process in `cwd`; its exit code. A panic (exit 101), a death by
/// a signal or a run past [`CAP`] fails the target.
fn spawned(args: &[&str], cwd: &Path) -> i32 {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_diemon"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            match status.code() {
                Some(c) if c != 101 => return c,
                _ => panic!("diemon {args:?} died: {status}"),
            }
        }
        if start.elapsed() > CAP {
            let _ = child.kill();
            let _ = child.wait();
            panic!("diemon {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Checks a refusal: exit 2, and `dir` as it was (`before`; empty: absent, or holding only
/// its lock). Returns false (the input was not accepted).
fn refused(code: i32, dir: &Path, before: &[(PathBuf, Vec<u8>)]) -> bool {
    assert_eq!(code, 2, "a refusal exits 2 ({dir:?})");
    let now = tree(dir);
    let same = now == before
        || (before.is_empty()
            && now
                .iter()
                .all(|(p, _)| p.file_name().is_some_and(|n| n == ".diemon.lock")));
    assert!(same, "a refused command changed {dir:?}");
    false
}

/// One seeded fault in a cell folder: a cell truncated, two swapped, one removed, a digit
/// changed, the resume key removed, or a stranger's file added.
fn tamper(cells: &Path, pick: u64) {
    let Ok(entries) = std::fs::read_dir(cells) else {
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let Some(first) = files.first().cloned() else {
        return;
    };
    let last = files.last().cloned().unwrap();
    let bytes = std::fs::read(&first).unwrap();
    match pick % 6 {
        0 => std::fs::write(&first, &bytes[..bytes.len() / 2]).unwrap(),
        1 => {
            let other = std::fs::read(&last).unwrap();
            std::fs::write(&first, other).unwrap();
            std::fs::write(&last, bytes).unwrap();
        }
        2 => std::fs::remove_file(&last).unwrap(),
        3 => {
            let mut b = bytes;
            if let Some(i) = b.iter().rposition(u8::is_ascii_digit) {
                b[i] = if b[i] == b'9' { b'0' } else { b[i] + 1 };
            }
            std::fs::write(&first, b).unwrap();
        }
        4 => {
            let _ = std::fs::remove_file(cells.join("resume-key"));
        }
        _ => std::fs::write(cells.join("99999.json"), "{}").unwrap(),
    }
}

/// A fresh folder for one input.
fn fresh(scratch: &Path) -> PathBuf {
    let dir = scratch.join("case");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// FNV-1a of `text`: the input's own seed for its fault.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
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
    fuzz_from(name, name, target, seed, MUTATIONS);
}

/// Fuzzes `target` from `fuzz/corpus/CORPUS`, with `mutations` mutations by default (and
/// without `DIEMON_FUZZ_SECONDS`, only the first corpus entry when `mutations` is 0).
fn fuzz_from(name: &str, corpus_name: &str, target: Target, seed: u64, mutations: usize) {
    let scratch = super::temp(&format!("fuzz-{name}"));
    let mut pool = corpus(corpus_name);
    assert!(!pool.is_empty(), "fuzz/corpus/{corpus_name} is empty");
    let budget = std::env::var("DIEMON_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .map(Duration::from_secs);
    if budget.is_none() && mutations == 0 {
        pool.truncate(1);
    }
    let accepted = pool
        .clone()
        .iter()
        .filter(|t| check(name, target, t, &scratch))
        .count();
    assert!(
        accepted > 0,
        "no seed of fuzz/corpus/{corpus_name} is accepted"
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let start = Instant::now();
    let mut n = 0;
    while budget.map_or(n < mutations, |b| start.elapsed() < b) {
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

#[test]
fn rolls_never_panic_or_hang() {
    fuzz("roll", roll, 6);
}

#[test]
fn blast_flags_never_panic_or_hang() {
    fuzz("blast", blast, 7);
}

#[test]
fn run_merge_and_report_on_damaged_folders_refuse_or_recover() {
    fuzz_from("folders", "folders", folders, 8, 0);
}

#[test]
fn prices_on_damaged_folders_refuse_or_recover() {
    fuzz_from("prices", "catalog", prices, 9, 0);
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
