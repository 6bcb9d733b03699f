//! Fault tests (issue 22): the binary killed with SIGKILL at seeded random points and run
//! again, and the binary on a full disk, end with exactly the files one uninterrupted run
//! writes, and never leave a file a later run would trust.
//!
//! A full disk is made two ways: a per-file size limit (`RLIMIT_FSIZE`, writes fail with
//! "File too large"; works anywhere), and, where the test may mount one, a 64 KiB tmpfs
//! (writes fail with "No space left on device").

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::temp;

/// Eight cells of about 0.05 s each.
const EXPERIMENT: &str = "name = \"faults\"\nkind = \"blast\"\ntrials = 65536\n\
[scenario]\nformation = \"line:3\"\n[sweep]\ndistance = [3, 6, 9, 12, 15, 18, 21, 24]\n";

fn command(file: &Path, out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_diemon"));
    c.args([
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    c
}

fn run(file: &Path, out: &Path) -> Output {
    command(file, out).output().unwrap()
}

/// Every file under `dir` but the lock, by relative path; a cell's measured speed (the one
/// field that is not a result) is taken out.
pub fn outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().unwrap() != ".diemon.lock" {
                let mut bytes = std::fs::read(&p).unwrap();
                if p.extension().is_some_and(|x| x == "json")
                    && p.parent().unwrap().ends_with("cells")
                {
                    // Its checksum covers the speed too, so it goes with it.
                    let mut v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                    let v = v.as_object_mut().unwrap();
                    v.remove("trials_per_sec");
                    v.remove("checksum");
                    bytes = serde_json::to_vec(v).unwrap();
                }
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                files.push((rel, bytes));
            }
        }
    }
    files.sort();
    files
}

/// What a later run would trust is whole: every cell file is a complete JSON document. A
/// SIGKILL between writing a temporary file and renaming it leaves that `.NAME.tmp`; no run
/// reads one, the next write of NAME replaces it, and the resumed run's files are compared
/// whole below (a temporary file left then would fail that).
fn nothing_half_written(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with('.') && name.ends_with(".tmp") {
            continue;
        }
        if p.is_dir() {
            nothing_half_written(&p);
        } else if dir.ends_with("cells") {
            let bytes = std::fs::read(&p).unwrap();
            let whole = if name == "resume-key" {
                bytes.len() == 64 && bytes.iter().all(u8::is_ascii_hexdigit)
            } else {
                diemon::experiment::cell::stamp(&bytes).is_ok()
            };
            assert!(whole, "{} is not whole", p.display());
        }
    }
}

/// One clean run to compare against, and how long it took.
fn reference(dir: &Path, file: &Path) -> (PathBuf, Duration) {
    let one = dir.join("one");
    let start = Instant::now();
    let o = run(file, &one);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (one, start.elapsed())
}

/// Starts `command` `times` times and kills it (SIGKILL: no handler runs) at seeded points
/// of a run's span `took` (a fixed LCG from `seed`, so the schedule is the same every
/// time), checking after each kill that `out` holds nothing half written.
fn kill_at_seeded_points(
    seed: u64,
    times: usize,
    took: Duration,
    out: &Path,
    command: impl Fn() -> Command,
) {
    let mut x = seed;
    for _ in 0..times {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let at = took.mul_f64((x >> 11) as f64 / (1u64 << 53) as f64);
        let mut child = command().spawn().unwrap();
        std::thread::sleep(at);
        child.kill().unwrap();
        child.wait().unwrap();
        if out.exists() {
            nothing_half_written(out);
        }
    }
}

#[test]
#[ignore = "slow: runs killed and resumed; .ci/run runs it (cargo test --release -- --ignored)"]
fn runs_killed_at_random_points_resume_to_the_same_bytes() {
    let dir = temp("faults-kill");
    let file = dir.join("e.toml");
    std::fs::write(&file, EXPERIMENT).unwrap();
    let (one, took) = reference(&dir, &file);
    let killed = dir.join("killed");
    kill_at_seeded_points(0x2545_F491_4F6C_DD1D, 6, took, &killed, || {
        command(&file, &killed)
    });
    let o = run(&file, &killed);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        outputs(&killed) == outputs(&one),
        "a killed and resumed run differs from the uninterrupted one"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "slow: a price killed and resumed; .ci/run runs it (cargo test --release -- --ignored)"]
fn issue_39_a_price_killed_in_its_race_resumes_to_the_same_bytes() {
    // A Hero against minifigs: the grid, its rounds and the race's stages, killed (SIGKILL)
    // at seeded points of its span; each resumes from the cells its race kept, and the
    // finished folder, `search.json` included, is the uninterrupted run's.
    let dir = temp("faults-price");
    let price = |out: &Path| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_diemon"));
        c.args([
            "price",
            "hero-hand-weapon",
            "--reference",
            "minifig-hand-weapon",
            "--formation",
            "line",
            "--distance",
            "12",
            "--target-ci",
            "0.02",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        c
    };
    let one = dir.join("one");
    let start = Instant::now();
    let o = price(&one).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let took = start.elapsed();
    assert!(one.join("minifig-hand-weapon/line/search.json").exists());
    let killed = dir.join("killed");
    kill_at_seeded_points(0x9E37_79B9_7F4A_7C15, 4, took, &killed, || price(&killed));
    let o = price(&killed).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let same = |a: &Path, b: &Path| {
        // The pages name their own folder; the frames, cells and records do not.
        let keep = |f: &(String, Vec<u8>)| !f.0.ends_with("report.html") && !f.0.ends_with(".md");
        let (a, b): (Vec<_>, Vec<_>) = (
            outputs(a).into_iter().filter(keep).collect(),
            outputs(b).into_iter().filter(keep).collect(),
        );
        assert_eq!(
            a.iter().map(|f| &f.0).collect::<Vec<_>>(),
            b.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
        assert!(
            a == b,
            "a killed and resumed price differs from the uninterrupted one"
        );
    };
    same(&killed, &one);
    // Run again into its folder: the search is read back whole, nothing is fought again.
    let o = price(&killed).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    same(&killed, &one);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Files may grow to at most `bytes`; past that a write fails (SIGXFSZ ignored) as on a
/// full disk.
fn limited(file: &Path, out: &Path, bytes: u64) -> Output {
    let mut c = command(file, out);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        c.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    c.output().unwrap()
}

/// A failed write says which file and why, exits 1 (never a panic's 101), and leaves only
/// whole files; run again with room, the folder ends as a clean run's.
fn fails_cleanly(o: &Output, out: &Path, why: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write ") && err.contains(why), "{err}");
    assert!(
        !err.contains("Error {") && !err.contains("Custom {"),
        "debug text: {err}"
    );
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    nothing_half_written(out);
}

#[test]
fn a_full_disk_fails_clearly_and_the_next_run_finishes_the_job() {
    let dir = temp("faults-disk");
    let file = dir.join("e.toml");
    std::fs::write(&file, EXPERIMENT).unwrap();
    let (one, _) = reference(&dir, &file);
    let clean = outputs(&one);
    let biggest = clean.iter().map(|(_, b)| b.len() as u64).max().unwrap();
    // Too small for a cell file, for a frame, and for the largest file (a chart).
    for limit in [2_000, 12_000, biggest - 1] {
        let out = dir.join(format!("limit-{limit}"));
        fails_cleanly(&limited(&file, &out, limit), &out, "File too large");
        let o = run(&file, &out);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            outputs(&out) == clean,
            "limit {limit}: the finished run differs"
        );
    }
    // `dist --plot` on a full disk: the chart's path and the OS's words, no half file.
    let plot = dir.join("plot");
    std::fs::create_dir_all(&plot).unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_diemon"));
    c.args([
        "dist",
        "3d6",
        "--plot",
        plot.join("a.png").to_str().unwrap(),
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    unsafe {
        c.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: 4096,
                rlim_max: 4096,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
            Ok(())
        });
    }
    let o = c.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("cannot write {}", plot.join("a.png").display()))
            && err.contains("File too large"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(&plot).unwrap().count(),
        0,
        "a file was left"
    );
    // A real full disk where the test may mount a small tmpfs (root, outside a locked-down
    // container); elsewhere the size limit above stands in for it.
    if let Some(mount) = Tmpfs::mount(&dir.join("tmpfs"), "64k") {
        let out = mount.path.join("out");
        fails_cleanly(&run(&file, &out), &out, "No space left on device");
        assert!(mount.grow("16m"), "cannot grow the tmpfs");
        let o = run(&file, &out);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(outputs(&out) == clean, "the tmpfs run differs");
    } else {
        eprintln!("note: cannot mount a tmpfs here; the full disk was simulated with RLIMIT_FSIZE");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tmpfs mounted for one test, unmounted when dropped (even when the test fails).
struct Tmpfs {
    path: PathBuf,
}

impl Tmpfs {
    fn mount(path: &Path, size: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(path).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(path)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Tmpfs {
            path: path.to_path_buf(),
        })
    }

    fn grow(&self, size: &str) -> bool {
        Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.path)
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.path).status();
    }
}

/// Issue 38: the faults that lost or mixed a user's results, each pinned.
mod issue_38 {
    use super::*;
    use crate::cli::diemon;
    use crate::tree;

    /// One cell of 131,072 trials: two batches, so each of two shards runs one.
    const TWO_BATCHES: &str = "name = \"s\"\nkind = \"blast\"\ntrials = 131072\nseed = 3\n\
        [scenario]\nformation = \"line:3\"\n[sweep]\ndistance = [6, 12]\n";

    fn s(p: &Path) -> &str {
        p.to_str().unwrap()
    }

    /// Shards 1/2 and 2/2 of [`TWO_BATCHES`] in `dir/shards/1` and `dir/shards/2`.
    fn shards(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
        let file = dir.join("s.toml");
        std::fs::write(&file, TWO_BATCHES).unwrap();
        let (one, two) = (dir.join("shards/1"), dir.join("shards/2"));
        for (i, out) in [(1, &one), (2, &two)] {
            let shard = format!("{i}/2");
            let (code, _, err) =
                diemon(&["run", s(&file), "--shard", &shard, "--out", s(out), "-q"]);
            assert_eq!(code, 0, "{err}");
        }
        (file, one, two)
    }

    #[test]
    fn a_merge_into_a_folder_holding_its_shards_is_refused_and_touches_nothing() {
        let dir = temp("i38-merge-out");
        let (_, one, two) = shards(&dir);
        let before = tree(&dir.join("shards"));
        // Spelled plainly, with `..`, and through a symbolic link.
        std::os::unix::fs::symlink(dir.join("shards"), dir.join("link")).unwrap();
        let spellings = [
            dir.join("shards"),
            dir.join("shards/1/.."),
            dir.join("link"),
        ];
        for out in &spellings {
            let (code, _, err) = diemon(&["merge", s(&one), s(&two), "--out", s(out), "-q"]);
            assert_eq!(code, 2, "{out:?}: {err}");
            assert!(
                err.contains("holds shard") && err.contains("never touches its inputs"),
                "{err}"
            );
            assert!(
                tree(&dir.join("shards")) == before,
                "{out:?}: a shard changed"
            );
        }
        // A merge killed halfway leaves its temporary folder; the next merge clears it.
        let left = dir.join(".m.merging-4242");
        std::fs::create_dir_all(left.join("cells")).unwrap();
        let (code, _, err) = diemon(&["merge", s(&one), s(&two), "--out", s(&dir.join("m")), "-q"]);
        assert_eq!(code, 0, "{err}");
        assert!(!left.exists(), "the stale merge folder is still there");
        assert!(tree(&dir.join("shards")) == before, "a shard changed");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_merge_refuses_a_cell_of_another_shard_cell_or_seed() {
        let dir = temp("i38-merge-stamps");
        let (file, one, two) = shards(&dir);
        let m = dir.join("m");
        let merge = || diemon(&["merge", s(&one), s(&two), "--out", s(&m), "-q"]);
        let cell = |d: &Path, i: usize| d.join(format!("cells/{i:05}.json"));
        let keep = std::fs::read(cell(&two, 0)).unwrap();
        let refused = |why: &str| {
            let (code, _, err) = merge();
            assert_eq!(code, 2, "{why}: {err}");
            assert!(
                err.contains(s(&cell(&two, 0))) && err.contains("not cell 1 of shard 2/2"),
                "{why}: {err}"
            );
            assert!(!m.exists(), "{why}: the merge wrote {m:?}");
        };
        // Shard 1's cell under shard 2's name.
        std::fs::copy(cell(&one, 0), cell(&two, 0)).unwrap();
        refused("another shard's cell");
        // Shard 2's second cell filed as its first.
        std::fs::copy(cell(&two, 1), cell(&two, 0)).unwrap();
        refused("a cell filed under the wrong index");
        // The same cell of a run with another seed.
        let other = dir.join("other");
        std::fs::write(&file, TWO_BATCHES.replace("seed = 3", "seed = 4")).unwrap();
        let (code, _, err) = diemon(&["run", s(&file), "--shard", "2/2", "--out", s(&other), "-q"]);
        assert_eq!(code, 0, "{err}");
        std::fs::copy(cell(&other, 0), cell(&two, 0)).unwrap();
        refused("a cell of another seed");
        // Put back, the merge adds up.
        std::fs::write(cell(&two, 0), keep).unwrap();
        let (code, _, err) = merge();
        assert_eq!(code, 0, "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_edited_cell_is_refused_on_resume_and_in_a_merge() {
        let dir = temp("i38-checksum");
        let (file, one, two) = shards(&dir);
        let c = two.join("cells/00000.json");
        let text = std::fs::read_to_string(&c).unwrap();
        // One count changed by hand, the JSON still valid.
        let at = text.find("\"trials\":").unwrap() + "\"trials\":".len();
        let edited = format!("{}9{}", &text[..at], &text[at..]);
        std::fs::write(&c, &edited).unwrap();
        let before = tree(&two);
        let (code, _, err) = diemon(&["run", s(&file), "--shard", "2/2", "--out", s(&two), "-q"]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("00000.json: its checksum does not match") && err.contains("remove it"),
            "{err}"
        );
        let (code, _, err) = diemon(&["merge", s(&one), s(&two), "--out", s(&dir.join("m")), "-q"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("its checksum does not match"), "{err}");
        assert!(tree(&two) == before, "a refused run changed the folder");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_price_refuses_a_folder_another_command_holds_before_it_writes_anything() {
        let dir = temp("i38-price-lock");
        let out = dir.join("p");
        let price = || {
            diemon(&[
                "price",
                "kultist",
                "--reference",
                "minifig-hand-weapon",
                "--distance",
                "12",
                "--target-ci",
                "0.05",
                "--out",
                s(&out),
                "-q",
            ])
        };
        // The price's own folder held, then one of the folders it would write inside it
        // (another formation's fit): refused before any cell, in either.
        for held in [out.clone(), out.join("minifig-hand-weapon/ranks_2")] {
            let lock = diemon::experiment::lock::lock(&held).unwrap();
            let (code, _, err) = price();
            assert_eq!(code, 2, "{held:?}: {err}");
            assert!(
                err.contains("being written by another diemon command"),
                "{err}"
            );
            let cells: Vec<_> = tree(&out)
                .into_iter()
                .filter(|(p, _)| p.extension().is_some_and(|x| x == "json"))
                .collect();
            assert!(cells.is_empty(), "{held:?}: cells were written: {cells:?}");
            drop(lock);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_restart_stopped_before_its_first_cell_leaves_no_old_figure_as_current() {
        let dir = temp("i38-restart");
        let file = dir.join("e.toml");
        std::fs::write(&file, EXPERIMENT).unwrap();
        let (out, _) = reference(&dir, &file);
        // The experiment edited; its rerun starts afresh and fails writing its first cell.
        std::fs::write(&file, EXPERIMENT.replace("65536", "65537")).unwrap();
        let o = limited(&file, &out, 2_000);
        assert!(!o.status.success());
        for stale in [
            "summary.csv",
            "summary.parquet",
            "report.html",
            "report.md",
            "charts",
        ] {
            assert!(!out.join(stale).exists(), "{stale} of the old run is left");
        }
        let (code, _, err) = diemon(&["report", s(&out)]);
        assert_eq!(code, 2, "{err}");
        // Frames of one run beside another's manifest (copied in by hand): refused, naming
        // the frame.
        let (code, _, err) = diemon(&["run", s(&file), "--out", s(&out), "-q"]);
        assert_eq!(code, 0, "{err}");
        let old = dir.join("one-again");
        std::fs::write(&file, EXPERIMENT).unwrap();
        assert!(run(&file, &old).status.success());
        std::fs::copy(old.join("summary.parquet"), out.join("summary.parquet")).unwrap();
        let (code, _, err) = diemon(&["report", s(&out)]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains("summary.parquet: its frames come from another run")
                && err.contains("diemon run"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn inputs_are_read_once_capped_and_placed() {
        let dir = temp("i38-inputs");
        // A negative number: its own line and key, not `1:1`.
        let file = dir.join("neg.toml");
        std::fs::write(
            &file,
            "name = \"n\"\nkind = \"blast\"\ntrials = 100\n[scenario]\nformation = \"line:3\"\ndistance = -1\n",
        )
        .unwrap();
        let (code, _, err) = diemon(&["run", s(&file), "--out", s(&dir.join("n"))]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("neg.toml:6:1:") && err.contains("-1"), "{err}");
        assert!(!err.contains("unexpected argument"), "{err}");
        // An experiment on standard input, read once.
        let text = "name = \"piped\"\nkind = \"blast\"\ntrials = 100\n[scenario]\nformation = \"line:3\"\n";
        let mut c = Command::new(env!("CARGO_BIN_EXE_diemon"));
        c.args(["run", "/dev/stdin", "--out", s(&dir.join("piped")), "-q"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // An endless file is refused at the cap, not read into memory.
        let (code, _, err) = diemon(&["unit", "show", "minifig", "--catalog", "/dev/zero"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("larger than 16 MiB"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sigterm_keeps_what_finished_and_exits_143() {
        let dir = temp("i38-sigterm");
        let file = dir.join("e.toml");
        // Cells long enough that the signal lands inside the run.
        std::fs::write(&file, EXPERIMENT.replace("65536", "1310720")).unwrap();
        let out = dir.join("out");
        let child = command(&file, &out).spawn().unwrap();
        let start = Instant::now();
        while !out.join("cells/00000.json").exists() && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(20));
        }
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(143), "{err}");
        assert!(
            err.contains("cells are kept") && err.contains("resume"),
            "{err}"
        );
        nothing_half_written(&out);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
