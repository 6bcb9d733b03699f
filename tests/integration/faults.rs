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
fn outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().unwrap() != ".diemon.lock" {
                let mut bytes = std::fs::read(&p).unwrap();
                if p.parent().unwrap().ends_with("cells") {
                    let mut v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                    v.as_object_mut().unwrap().remove("trials_per_sec");
                    bytes = v.to_string().into_bytes();
                }
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                files.push((rel, bytes));
            }
        }
    }
    files.sort();
    files
}

/// What a later run would trust is whole: no temporary file is left, and every cell file
/// is a complete JSON document.
fn nothing_half_written(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            !name.contains(".tmp"),
            "a temporary file was left: {}",
            p.display()
        );
        if p.is_dir() {
            nothing_half_written(&p);
        } else if dir.ends_with("cells") {
            let bytes = std::fs::read(&p).unwrap();
            assert!(
                serde_json::from_slice::<serde_json::Value>(&bytes).is_ok(),
                "{} is not whole",
                p.display()
            );
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

#[test]
fn runs_killed_at_random_points_resume_to_the_same_bytes() {
    let dir = temp("faults-kill");
    let file = dir.join("e.toml");
    std::fs::write(&file, EXPERIMENT).unwrap();
    let (one, took) = reference(&dir, &file);
    let killed = dir.join("killed");
    // Seeded points in the run's span (a fixed LCG, so the schedule is the same every time).
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..6 {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let at = took.mul_f64((x >> 11) as f64 / (1u64 << 53) as f64);
        let mut child = command(&file, &killed).spawn().unwrap();
        std::thread::sleep(at);
        child.kill().unwrap(); // SIGKILL: no handler runs
        child.wait().unwrap();
        if killed.exists() {
            nothing_half_written(&killed);
        }
    }
    let o = run(&file, &killed);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        outputs(&killed) == outputs(&one),
        "a killed and resumed run differs from the uninterrupted one"
    );
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
