//! The binary in a real terminal, as a person runs it: every line of the README tour
//! finishes, and Ctrl-C stops every long run within seconds with exit 130.
//!
//! CI has no terminal (stderr is a pipe, so no progress bar draws), which is how a command
//! that hung at its first bar passed CI. These tests give the binary a pseudo-terminal
//! (`openpty`) as its controlling terminal, so bars draw and Ctrl-C arrives as a person's
//! does: a `^C` byte typed into the terminal, turned into SIGINT by the line discipline.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A command running with a pseudo-terminal as its stdin, stdout, stderr and controlling
/// terminal; what it prints is collected from the other end.
struct Terminal {
    child: Child,
    keyboard: File,
    screen: Arc<Mutex<Vec<u8>>>,
    /// Disconnects when the reader has drained the terminal to its end (the command and
    /// every copy of its side closed).
    drained: std::sync::mpsc::Receiver<()>,
}

impl Terminal {
    fn run(args: &[&str], cwd: &Path) -> Terminal {
        let (mut master, mut slave) = (0, 0);
        let size = libc::winsize {
            ws_row: 40,
            ws_col: 120,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty writes two descriptors we then own.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: both descriptors are fresh and owned here alone.
        let (master, slave) =
            unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_diemon"));
        cmd.args(args)
            .current_dir(cwd)
            .env_remove("NO_COLOR")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                // A session of its own with the terminal as its controlling terminal, so
                // `^C` reaches it as SIGINT.
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("diemon starts");
        let keyboard = File::from(master.try_clone().unwrap());
        let screen = Arc::new(Mutex::new(Vec::new()));
        // Drain the terminal, or a full buffer would stop the command.
        let mut tty = File::from(master);
        let sink = Arc::clone(&screen);
        let (done, drained) = std::sync::mpsc::channel::<()>();
        // Nothing else holds the terminal's other side now (`cmd` and its copies are gone
        // with this call), so the reader meets its end when the command exits.
        drop(cmd);
        std::thread::spawn(move || {
            let _done = done;
            let mut buf = [0u8; 8192];
            while let Ok(n) = tty.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Terminal {
            child,
            keyboard,
            screen,
            drained,
        }
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    /// Waits up to `limit` for the exit code; `None` if it is still running (then killed).
    fn wait(&mut self, limit: Duration) -> Option<i32> {
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if let Some(s) = self.child.try_wait().unwrap() {
                // Every byte it printed is read once the reader meets the end.
                let _ = self.drained.recv_timeout(Duration::from_secs(10));
                return Some(s.code().unwrap_or(-1));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        None
    }

    /// Types Ctrl-C.
    fn ctrl_c(&mut self) {
        self.keyboard.write_all(&[0x03]).unwrap();
    }
}

/// A folder holding the shipped experiments and catalogs, where runs write their reports.
fn workspace(name: &str) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = crate::temp(name);
    for sub in ["experiments", "catalogs"] {
        std::fs::create_dir_all(d.join(sub)).unwrap();
        for f in std::fs::read_dir(root.join(sub)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, d.join(sub).join(f.file_name().unwrap())).unwrap();
        }
    }
    d
}

/// The README tour's commands, as words (double quotes group; a `#` starts a comment).
fn tour() -> Vec<Vec<String>> {
    let readme = include_str!("../../README.md");
    let start = readme
        .find("## A five-minute tour")
        .expect("README has the tour");
    let block = &readme[start..];
    let block = &block[block.find("```sh\n").expect("the tour is a sh block") + 6..];
    let block = &block[..block.find("```").expect("the block ends")];
    block
        .lines()
        .filter(|l| l.starts_with("diemon "))
        .map(|l| {
            let mut words = Vec::new();
            let mut word = String::new();
            let (mut quoted, mut any) = (false, false);
            for c in l.chars() {
                match c {
                    '"' => {
                        quoted = !quoted;
                        any = true;
                    }
                    '#' if !quoted && word.is_empty() => break,
                    ' ' if !quoted => {
                        if any {
                            words.push(std::mem::take(&mut word));
                        }
                        any = false;
                    }
                    c => {
                        word.push(c);
                        any = true;
                    }
                }
            }
            if any {
                words.push(word);
            }
            words.remove(0); // "diemon"
            words
        })
        .collect()
}

#[test]
fn the_tour_is_read_as_words() {
    let t = tour();
    assert!(t.len() >= 30, "{} lines", t.len());
    assert_eq!(t[0], ["dist", "2d10 exp", "--armor", "4"]);
    assert!(
        t.iter()
            .all(|w| !w.is_empty() && !w.iter().any(|x| x.starts_with('#')))
    );
}

#[test]
#[ignore = "slow: the whole README tour, about 45 s; .ci/run runs it (cargo test --release -- --ignored)"]
fn every_line_of_the_readme_tour_finishes_in_a_terminal() {
    let dir = workspace("tour");
    for words in tour() {
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let mut t = Terminal::run(&args, &dir);
        // A hang is forever; the slowest line takes about 15 s on two cores.
        let code = t.wait(Duration::from_secs(180));
        assert_eq!(
            code,
            Some(0),
            "diemon {} in a terminal:\n{}",
            words.join(" "),
            t.screen()
        );
    }
}

/// Starts `args` in a terminal, types Ctrl-C once the run is under way, and checks that it
/// stops within seconds with exit 130 and says what it kept.
fn stops_on_ctrl_c(args: &[&str], dir: &Path, kept: &str) {
    let mut t = Terminal::run(args, dir);
    // Under way: its progress bar (or first line) is on the screen.
    let start = Instant::now();
    while t.screen().is_empty() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(600));
    assert!(
        t.child.try_wait().unwrap().is_none(),
        "diemon {args:?} ended before Ctrl-C:\n{}",
        t.screen()
    );
    t.ctrl_c();
    let code = t.wait(Duration::from_secs(4));
    let screen = t.screen();
    assert_eq!(code, Some(130), "diemon {args:?} after Ctrl-C:\n{screen}");
    assert!(
        screen.contains(kept),
        "diemon {args:?}: {kept:?} in\n{screen}"
    );
}

#[test]
fn ctrl_c_stops_every_long_run_with_exit_130() {
    let dir = workspace("ctrl-c");
    let finished = "the figures above cover the";
    stops_on_ctrl_c(&["duel", "--trials", "1G"], &dir, finished);
    stops_on_ctrl_c(
        &[
            "duel",
            "--a",
            "minifig-hand-weapon*50",
            "--b",
            "minifig-hand-weapon*50",
        ],
        &dir,
        finished,
    );
    stops_on_ctrl_c(&["blast", "--trials", "1G"], &dir, finished);
    stops_on_ctrl_c(&["dist", "2d10 exp", "--mc", "10000000000"], &dir, finished);
    stops_on_ctrl_c(
        &[
            "marks",
            "--attr",
            "3,3",
            "--skill",
            "1",
            "--mc",
            "1000000000",
        ],
        &dir,
        finished,
    );
    std::fs::write(
        dir.join("experiments/long.toml"),
        "name = \"long\"\nkind = \"duel\"\ntrials = 1000000000\n[scenario]\n\
         a = \"minifig-hand-weapon*6\"\nb = \"minifig-hand-weapon*6\"\n[sweep]\ndistance = [6, 12]\n",
    )
    .unwrap();
    stops_on_ctrl_c(
        &["run", "experiments/long.toml"],
        &dir,
        "run the same command again to resume",
    );
}
