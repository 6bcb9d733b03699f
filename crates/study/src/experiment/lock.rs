//! One writer per output folder: an OS advisory lock on `DIR/.diemon.lock`, held while a
//! command writes the folder and released when the process ends, however it ends. A second
//! `run`, `merge` or `report` into the same folder is refused with exit 2, so two runs never
//! mix their cells (issue 22). What writes a run's files ([`super::sweep::sweep`]) takes
//! the held lock, not a path: a price locks every folder it will write before it writes
//! any (issue 38).

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use super::error::RunError;

/// The lock on a folder; dropping it releases the folder.
#[derive(Debug)]
pub struct FolderLock {
    path: PathBuf,
    /// Held, not read: the OS lock lives as long as the open file.
    _file: File,
}

impl FolderLock {
    /// The folder held.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The lock file's name inside the folder.
pub const LOCK_FILE: &str = ".diemon.lock";

/// Takes the lock on `dir` (created if need be), or says who holds it.
pub fn lock(dir: &Path) -> Result<FolderLock, RunError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| RunError::other(format!("cannot create {}: {e}", dir.display())))?;
    let path = dir.join(LOCK_FILE);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| RunError::other(format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(FolderLock {
            path: dir.to_path_buf(),
            _file: file,
        }),
        Err(TryLockError::WouldBlock) => Err(RunError::input(format!(
            "{} is being written by another diemon command right now\nhint: wait for it to \
             finish, or write elsewhere with --out",
            dir.display()
        ))),
        Err(TryLockError::Error(e)) => Err(RunError::other(format!(
            "cannot lock {}: {e}",
            path.display()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_until_the_first_lets_go() {
        let dir = std::env::temp_dir().join(format!("diemon-lock-{}", std::process::id()));
        let first = lock(&dir).unwrap();
        let second = lock(&dir).unwrap_err();
        let RunError::Input(message) = &second else {
            panic!("a held folder is bad input (exit 2): {second:?}");
        };
        assert!(message.contains("another diemon command"), "{second:?}");
        drop(first);
        assert!(lock(&dir).is_ok(), "released with the first");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
