//! Hashes the source of the rules (the core crate's) and of the studies (this crate's) into
//! DIEMON_SOURCE_HASH, so an experiment's resume key changes whenever the code that decides
//! its cells does (a rebuild with the same version number must not resume from cells an
//! older build computed).

use std::path::Path;

use sha2::{Digest, Sha256};

fn add(dir: &Path, h: &mut Sha256) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    // The same order on every machine.
    entries.sort();
    for p in entries {
        if p.is_dir() {
            add(&p, h);
        } else {
            let name = p.to_string_lossy().replace('\\', "/");
            let text = std::fs::read(&p).expect("a source file is readable");
            for part in [name.as_bytes(), &text[..]] {
                h.update((part.len() as u64).to_le_bytes());
                h.update(part);
            }
        }
    }
}

fn main() {
    let mut h = Sha256::new();
    for dir in ["../core/src", "src"] {
        println!("cargo:rerun-if-changed={dir}");
        add(Path::new(dir), &mut h);
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=DIEMON_SOURCE_HASH={hex}");
}
