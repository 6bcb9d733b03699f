//! Experiment files: the shipped ones resolve, a run writes its frames atomically and
//! reproducibly, and a bad file writes nothing.

use std::path::{Path, PathBuf};

use crate::cli::diemon;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("diemon-exp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn every_shipped_experiment_resolves() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "toml") {
            let e = diemon::experiment::load(&p).unwrap_or_else(|e| panic!("{p:?}: {e:?}"));
            assert!(!e.cells.is_empty(), "{p:?}");
            n += 1;
        }
    }
    assert!(n >= 2, "only {n} experiments shipped");
}

#[test]
fn a_run_writes_csv_parquet_and_manifest_reproducibly() {
    let dir = temp("run");
    let file = dir.join("small.toml");
    std::fs::write(
        &file,
        "name = \"small\"\nkind = \"blast\"\ntrials = 2000\n[scenario]\nformation = \"line:5\"\n[sweep]\ndistance = [6, 18]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let (code, text, err) = diemon(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("small: 2 cells of 2000 trials"), "{text}");
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("cell,distance,"), "{header}");
    assert!(
        header.contains("mean_kills,mean_kills_lo,mean_kills_hi"),
        "{header}"
    );
    assert_eq!(lines.count(), 2);
    let dist = std::fs::read_to_string(out.join("distributions.csv")).unwrap();
    assert!(
        dist.starts_with("cell,distance,metric,value,probability"),
        "{dist}"
    );
    assert!(dist.contains(",kills,"), "{dist}");
    assert!(out.join("distributions.parquet").exists());
    let parquet = std::fs::read(out.join("summary.parquet")).unwrap();
    assert_eq!(&parquet[..4], b"PAR1");
    assert!(
        parquet.windows(15).any(|w| w == b"diemon_manifest"),
        "the manifest travels in the Parquet metadata"
    );
    let manifest = std::fs::read_to_string(out.join("manifest.toml")).unwrap();
    assert!(manifest.contains("name = \"small\""), "{manifest}");
    // No temporary files are left behind.
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    // Same seed, same digits, on another thread count (a fresh folder: no resuming).
    let out1 = dir.join("out1");
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ];
        args.extend(extra);
        let (code, _, err) = diemon(&args);
        assert_eq!(code, 0, "{err}");
        std::fs::read_to_string(out.join("summary.csv")).unwrap()
    };
    assert_eq!(run(&out1, &["--threads", "1"]), csv);
    // A run killed after its first cell resumes, and the result is the same.
    std::fs::remove_file(out.join("cells/00001.json")).unwrap();
    std::fs::remove_file(out.join("summary.csv")).unwrap();
    assert_eq!(run(&out, &[]), csv);
    // Kept cells are read back, not run again: a doctored kept cell shows through.
    std::fs::write(out.join("cells/00000.json"), "{\"mean_kills\": 99.0}").unwrap();
    assert!(run(&out, &[]).contains("99.0"));
    // A changed experiment starts afresh: a kept cell of the old one would be wrong.
    std::fs::write(
        &file,
        std::fs::read_to_string(&file)
            .unwrap()
            .replace("2000", "2001"),
    )
    .unwrap();
    assert!(!run(&out, &[]).contains("99.0"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_experiment_names_the_place_and_writes_nothing() {
    let dir = temp("bad");
    let out = dir.join("out");
    for (text, want) in [
        (
            "name = \"b\"\nkind = \"blast\"\ntrials = 10\nbogus = 1\n",
            ":4:1: unknown field `bogus`",
        ),
        (
            "name = \"b\"\nkind = \"fight\"\ntrials = 10\n",
            ":2:8: kind \"fight\"",
        ),
        (
            "name = \"b\"\nkind = \"blast\"\ntrials = 10\n[sweep]\nformation = [\"grid:5x5\", \"blob:3\"]\n",
            ":5:1: cell 2",
        ),
        (
            "name = \"b c\"\nkind = \"blast\"\ntrials = 10\n",
            ":1:8: name \"b c\"",
        ),
    ] {
        let file = dir.join("bad.toml");
        std::fs::write(&file, text).unwrap();
        let (code, _, err) = diemon(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{text}: {err}");
        assert!(err.contains(want), "{text}: {err}");
        assert!(!out.exists(), "nothing is written for a bad file");
    }
    let (code, _, err) = diemon(&["run", "no/such/file.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read it"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_default_experiment_is_the_shipped_file() {
    // `diemon run` with no file runs experiments/launcher-vs-swarm.toml, built in.
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/launcher-vs-swarm.toml"),
    )
    .unwrap();
    assert_eq!(diemon::experiment::DEFAULT, shipped);
    let e = diemon::experiment::default_experiment().unwrap();
    assert_eq!((e.name.as_str(), e.cells.len()), ("launcher-vs-swarm", 16));
}
