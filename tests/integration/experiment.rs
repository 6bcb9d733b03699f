//! Experiment files: the shipped ones resolve, a run writes its frames atomically and
//! reproducibly, and a bad file writes nothing.

use std::path::Path;

use diemon::experiment::price::roster;

use crate::cli::diemon;
use crate::{ok, temp};

#[test]
fn every_shipped_experiment_resolves() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&p).unwrap();
            if roster::is_roster(&text) {
                let r = roster::parse(&p.display().to_string(), &text, p.parent())
                    .unwrap_or_else(|e| panic!("{p:?}: {e:?}"));
                assert!(!r.units.is_empty(), "{p:?}");
            } else {
                let e = diemon::experiment::load(&p).unwrap_or_else(|e| panic!("{p:?}: {e:?}"));
                assert!(!e.cells.is_empty(), "{p:?}");
            }
            n += 1;
        }
    }
    assert!(n >= 2, "only {n} experiments shipped");
}

#[test]
fn a_run_writes_csv_parquet_and_manifest_reproducibly() {
    let dir = temp("exp-run");
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
    // A run killed after its first cell resumes, and every file is the same.
    let files = [
        "summary.parquet",
        "distributions.csv",
        "distributions.parquet",
        "by_ring.csv",
        "manifest.toml",
    ];
    let before: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(out.join(f)).unwrap())
        .collect();
    std::fs::remove_file(out.join("cells/00001.json")).unwrap();
    std::fs::remove_file(out.join("summary.csv")).unwrap();
    assert_eq!(run(&out, &[]), csv);
    for (f, b) in files.iter().zip(&before) {
        assert!(
            std::fs::read(out.join(f)).unwrap() == *b,
            "{f} differs after resuming"
        );
    }
    // Kept cells are read back, not run again: a doctored kept cell (with its run's stamp
    // and a checksum of its new text) shows through.
    let cell0 = out.join("cells/00000.json");
    let question = &diemon::experiment::load(&file).unwrap().cells[0].question;
    let (kept, stamp) =
        diemon::experiment::cell::unseal(&std::fs::read(&cell0).unwrap(), question).unwrap();
    let diemon::question::Answer::Blast(mut doctored) = kept else {
        panic!("a blast's cell holds a blast's answer");
    };
    doctored.mean_kills = 99.0;
    let doctored = diemon::question::Answer::Blast(doctored);
    std::fs::write(
        &cell0,
        diemon::experiment::cell::seal(&doctored, &stamp).unwrap(),
    )
    .unwrap();
    assert!(run(&out, &[]).contains("99.0"));
    // Issue 38: a cell edited by hand (its checksum no longer matches) is refused, naming
    // the file and how to run it again; nothing is written.
    let sealed = std::fs::read_to_string(&cell0).unwrap();
    std::fs::write(&cell0, sealed.replace("99.0", "98.0")).unwrap();
    let summary = std::fs::read(out.join("summary.csv")).unwrap();
    let (code, _, err) = diemon(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("00000.json: its checksum does not match") && err.contains("remove it"),
        "{err}"
    );
    assert_eq!(std::fs::read(out.join("summary.csv")).unwrap(), summary);
    std::fs::remove_file(&cell0).unwrap();
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
    let dir = temp("exp-bad");
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
        (
            "name = \"b\"\nkind = \"blast\"\ntrials = 10\noutputs = [\"xlsx\"]\n",
            ":4:11: output \"xlsx\" is not a format",
        ),
        (
            "name = \"b\"\nkind = \"duel\"\ntrials = 10\ntarget_ci = 0.7\n",
            ":4:13: cell 1 (): --target-ci 0.7: expected a half-width above 0 and below 0.5",
        ),
        (
            "name = \"b\"\nkind = \"blast\"\ntrials = 10\n[sweep]\nd4_bonus = [\"none\", \"often\"]\n",
            ":5:1: cell 2 (d4_bonus = often): -o d4_bonus=often: option d4_bonus cannot be \"often\"",
        ),
        (
            "name = \"b\"\nkind = \"blast\"\ntrials = 0\n",
            ":3:10: trials 0",
        ),
        (
            "name = \"b\"\nkind = \"blast\"\ntrials = 10\n[sweep]\ndistance = []\n",
            ":5:1: sweep axis \"distance\" has no values",
        ),
        (
            "name = \"b\"\nkind = \"blast\"\ntrials = 10\n[scenario]\nthreads = 4\n",
            ":5:1: \"threads\" is set by the experiment itself",
        ),
        (
            "name = \"b\"\nkind = \"blast\"\ntrials = 10\n[scenario]\ndistance = 6\n[sweep]\ndistance = [6]\n",
            ":7:1: \"distance\" is both a scenario input and a sweep axis",
        ),
        (
            "name = \"b\"\nkind = \"fair-cp\"\ntrials = 10\n",
            ":2:8: kind \"fair-cp\" takes a [fair_cp] section",
        ),
        (
            "name = \"b\"\nkind = \"duel\"\ntrials = 10\n[matchups]\nunits = [\"x\", \"y\"]\n",
            ":5:9: kind \"duel\" takes no [fair_cp] or [matchups]",
        ),
        (
            "name = \"b\"\nkind = \"fair-cp\"\ntrials = 10\n[fair_cp]\nunit = \"hero-hand-weapon\"\nreference = \"minifig-hand-weapon\"\ncounts = [4]\n",
            ":7:10: counts [4]: the fit needs at least two sizes",
        ),
        (
            "name = \"b\"\nkind = \"fair-cp\"\ntrials = 10\n[scenario]\nb = \"minifig\"\n[fair_cp]\nunit = \"hero-hand-weapon\"\nreference = \"minifig-hand-weapon\"\ncounts = [1, 2]\n",
            ":5:1: \"b\": a fair-cp experiment sets the sides itself",
        ),
        (
            "name = \"b\"\nkind = \"fair-cp\"\ntrials = 10\n[fair_cp]\nunit = \"hero-hand-weapon\"\nreference = \"minifig\"\ncounts = [1, 2]\nsize = 3\n",
            ":8:1: unknown field `size`",
        ),
        (
            "name = \"b\"\nkind = \"fair-cp\"\ntrials = 10\n[fair_cp]\nunit = \"dragon\"\nreference = \"minifig-hand-weapon\"\ncounts = [1, 2]\n",
            ":5:8: cell 1 (count = 1): side A",
        ),
        (
            "name = \"b\"\nkind = \"matchups\"\ntrials = 10\n[matchups]\nunits = [\"minifig-pistol\", \"minifig-rifle\"]\n",
            ":5:9: matchups need a budget (equal CP) or a count (equal heads)",
        ),
        (
            "name = \"b\"\nkind = \"matchups\"\ntrials = 10\n[scenario]\nbudget = 20\n[matchups]\nunits = [\"minifig-pistol\", \"minifig-pistol\"]\n",
            ":7:9: \"minifig-pistol\" is listed twice",
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

#[test]
fn a_shard_with_no_batch_warns_and_keeps_the_schema() {
    // Issue 24: 20,000 trials are one batch; shard 2/2 gets none. It says so, its lines say
    // so (no NaN), its frames have the single run's columns, and the merge is still exact.
    let dir = temp("exp-empty-shard");
    let file = dir.join("e.toml");
    std::fs::write(
        &file,
        "name = \"e\"\nkind = \"duel\"\ntrials = 2000\n[scenario]\na = \"minifig-hand-weapon*2\"\nb = \"minifig-hand-weapon*2\"\n[sweep]\ndistance = [4, 8]\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let at = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let (code, out, err) = diemon(&["run", f, "--shard", "2/2", "--out", &at("s2")]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning: shard 2/2 runs no trials"), "{err}");
    assert!(
        out.contains("no trials in this shard") && !out.contains("NaN"),
        "{out}"
    );
    ok(&["run", f, "--shard", "1/2", "--out", &at("s1"), "-q"]);
    ok(&["run", f, "--out", &at("one"), "-q"]);
    for frame in ["summary.csv", "by_turn.csv", "distributions.csv"] {
        let header = |d: &str| {
            let t = std::fs::read_to_string(dir.join(d).join(frame)).unwrap();
            t.lines().next().unwrap_or("").to_string()
        };
        assert_eq!(header("s2"), header("one"), "{frame}");
    }
    ok(&["merge", &at("s1"), &at("s2"), "--out", &at("m"), "-q"]);
    let one = std::fs::read(dir.join("one/summary.parquet")).unwrap();
    assert!(one == std::fs::read(dir.join("m/summary.parquet")).unwrap());
}

#[test]
fn shards_merge_into_exactly_the_single_run() {
    let dir = temp("exp-shards");
    let file = dir.join("s.toml");
    // Three batches a cell (3 x 65536 + 17 trials), so every shard has work.
    std::fs::write(
        &file,
        "name = \"s\"\nkind = \"blast\"\ntrials = 196625\n[scenario]\nformation = \"line:3\"\n[sweep]\ndistance = [6, 18]\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let at = |n: &str| dir.join(n).to_str().unwrap().to_string();
    ok(&["run", f, "--out", &at("one"), "-q"]);
    for i in 1..=3 {
        let text = ok(&[
            "run",
            f,
            "--shard",
            &format!("{i}/3"),
            "--out",
            &at(&format!("s{i}")),
            "-q",
        ]);
        assert!(text.contains(&format!("shard {i}/3")), "{text}");
    }
    // Not every shard: refused, nothing written.
    let (code, _, err) = diemon(&["merge", &at("s1"), &at("s3"), "--out", &at("m")]);
    assert_eq!(code, 2);
    assert!(err.contains("shard 2/3 is missing"), "{err}");
    let (code, _, err) = diemon(&["merge", &at("s1"), &at("s1"), &at("s2"), "--out", &at("m")]);
    assert_eq!(code, 2);
    assert!(err.contains("shard 1/3 is given twice"), "{err}");
    assert!(!dir.join("m").exists());
    // Every shard, in any order: the single run's files, byte for byte.
    let text = ok(&[
        "merge",
        &at("s3"),
        &at("s1"),
        &at("s2"),
        "--out",
        &at("m"),
        "-q",
    ]);
    assert!(text.contains("3 shards added up"), "{text}");
    for name in [
        "summary.csv",
        "summary.parquet",
        "distributions.csv",
        "distributions.parquet",
        "manifest.toml",
    ] {
        let one = std::fs::read(dir.join("one").join(name)).unwrap();
        let merged = std::fs::read(dir.join("m").join(name)).unwrap();
        assert!(one == merged, "{name} differs after the merge");
    }
    // Issue 22: a merge into one of its inputs (or inside one) is refused, and the input is
    // left exactly as it was.
    let files = |d: &str| {
        let mut v: Vec<(String, Vec<u8>)> = Vec::new();
        for sub in ["", "cells"] {
            for f in std::fs::read_dir(dir.join(d).join(sub)).unwrap() {
                let p = f.unwrap().path();
                if p.is_file() {
                    v.push((p.display().to_string(), std::fs::read(&p).unwrap()));
                }
            }
        }
        v.sort();
        v
    };
    let before = files("s2");
    // Issue 38: nor into a folder that holds one (`--out` is replaced whole), however the
    // path is spelled.
    let holder = dir.join("s2/..").display().to_string();
    for out in [
        at("s2"),
        dir.join("s2/cells/x").display().to_string(),
        holder,
    ] {
        let (code, _, err) = diemon(&["merge", &at("s1"), &at("s2"), &at("s3"), "--out", &out]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("never touches its inputs"), "{err}");
    }
    assert!(files("s2") == before, "shard 2's folder changed");
    // A shard that has not finished a cell is named, and nothing is written.
    std::fs::remove_file(dir.join("s2/cells/00001.json")).unwrap();
    let (code, _, err) = diemon(&["merge", &at("s1"), &at("s2"), &at("s3"), "--out", &at("m2")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("(shard 2/3) has not finished cell 2 of 2"),
        "{err}"
    );
    assert!(
        !dir.join("m2").exists(),
        "an unfinished merge wrote {}",
        at("m2")
    );
    // Shards of another experiment do not mix.
    std::fs::write(
        &file,
        std::fs::read_to_string(&file)
            .unwrap()
            .replace("[6, 18]", "[6, 12]"),
    )
    .unwrap();
    ok(&["run", f, "--shard", "2/3", "--out", &at("other"), "-q"]);
    let (code, _, err) = diemon(&[
        "merge",
        &at("s1"),
        &at("other"),
        &at("s3"),
        "--out",
        &at("m3"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("come from different experiments"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_unit_against_itself_is_worth_one_of_itself() {
    // Four minifigs against n of the same: by symmetry (who moves first is random) the 50%
    // point is n = 4, a ratio of 1, worth the unit's own CP. The 95% CI covers it
    // (alpha = 0.05; the seed is fixed, so this test always gives the same answer).
    let dir = temp("exp-fair");
    let file = dir.join("f.toml");
    std::fs::write(
        &file,
        "name = \"f\"\nkind = \"fair-cp\"\ntrials = 20000\nseed = 1\n[fair_cp]\nunit = \"minifig-hand-weapon\"\nreference = \"minifig-hand-weapon\"\nunits = 4\ncounts = [3, 4, 5]\n",
    )
    .unwrap();
    let text = ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        dir.join("o").to_str().unwrap(),
        "-q",
    ]);
    assert!(text.contains("minifig-hand-weapon is worth"), "{text}");
    let csv = std::fs::read_to_string(dir.join("o/fair_cp.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| -> f64 {
        row[header.iter().position(|h| *h == name).unwrap()]
            .parse()
            .unwrap()
    };
    assert!(col("ratio_lo") <= 1.0 && 1.0 <= col("ratio_hi"), "{csv}");
    assert!(
        col("ratio_hi") - col("ratio_lo") < 0.1,
        "a useful CI: {csv}"
    );
    assert!(
        col("fair_cp_lo") <= 6.0 && 6.0 <= col("fair_cp_hi"),
        "{csv}"
    );
    assert_eq!(col("cp_unit_listed"), 6.0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_small_runs_summary_is_pinned() {
    // The whole summary of a small seeded run, digit for digit: a change to any rule,
    // stream or column shows here (record it under "Value-breaking" in CHANGELOG.md, then
    // rerun with DIEMON_BLESS=1 to write the new snapshot).
    let dir = temp("exp-snap");
    let file = dir.join("snap.toml");
    std::fs::write(
        &file,
        "name = \"snap\"\nkind = \"duel\"\ntrials = 3000\nseed = 5\n[scenario]\nb = \"minifig-hand-weapon*3\"\n[sweep]\na = [\"minifig-pistol*3\", \"minifig-rifle*2\"]\ndistance = [4, 16]\n",
    )
    .unwrap();
    ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        dir.join("o").to_str().unwrap(),
        "-q",
    ]);
    let got = std::fs::read_to_string(dir.join("o/summary.csv")).unwrap();
    let snap =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/snapshots/small-summary.csv");
    if std::env::var_os("DIEMON_BLESS").is_some() {
        std::fs::write(&snap, &got).unwrap();
    }
    let want = std::fs::read_to_string(&snap).unwrap();
    assert!(got == want, "the summary changed:\n{got}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_ci_target_stops_each_cell_and_outputs_choose_the_formats() {
    let dir = temp("exp-target");
    let file = dir.join("t.toml");
    std::fs::write(
        &file,
        "name = \"t\"\nkind = \"duel\"\ntrials = 2000000\ntarget_ci = 0.005\noutputs = [\"csv\"]\n[scenario]\nb = \"minifig-pistol*3\"\n[sweep]\na = [\"minifig-hand-weapon*3\", \"minifig-rifle*2\"]\n",
    )
    .unwrap();
    let out = dir.join("o");
    let text = ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert!(
        text.contains("up to 2000000 trials until the 95% CI is within +-0.005"),
        "{text}"
    );
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |row: &[&str], name: &str| -> f64 {
        row[header.iter().position(|h| *h == name).unwrap()]
            .parse()
            .unwrap()
    };
    for line in lines {
        let row: Vec<&str> = line.split(',').collect();
        // Stopped at a check (every 1,024 trials through the first batch) once the
        // half-width met the target, far below the cap.
        let trials = col(&row, "trials");
        assert!(trials < 65536.0 && trials % 1024.0 == 0.0, "{line}");
        assert!(
            col(&row, "p_a_wins_hi") - col(&row, "p_a_wins_lo") <= 0.01,
            "{line}"
        );
    }
    assert!(
        !out.join("summary.parquet").exists(),
        "outputs = [\"csv\"] writes no Parquet"
    );
    let (code, _, err) = diemon(&["run", file.to_str().unwrap(), "--shard", "1/2"]);
    assert_eq!(code, 2);
    assert!(err.contains("stops each cell at a CI target"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn marks_experiments_run_exact_with_a_checked_monte_carlo() {
    // A Marks sweep: exact figures per cell, each cell also rolled from its own seeded
    // streams and tested against its exact table; two axes make a heatmap.
    let dir = temp("exp-marks");
    let file = dir.join("m.toml");
    std::fs::write(
        &file,
        "name = \"m\"\nkind = \"marks\"\ntrials = 5000\n[scenario]\nskill = 1\n[sweep]\nattr = [2, 4]\ndifficulty = [0, 2]\n",
    )
    .unwrap();
    let out = dir.join("o");
    ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    let csv = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    for c in [
        "attr",
        "difficulty",
        "p_competent",
        "p_mc",
        "p_mc_lo",
        "p_mc_hi",
        "mc_p_value",
    ] {
        assert!(header.contains(&c), "{c} missing: {header:?}");
    }
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<f64>> = csv
        .lines()
        .skip(1)
        .map(|l| {
            l.split(',')
                .map(|x| x.parse().unwrap_or(f64::NAN))
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        // The Monte Carlo check agrees with the exact table: chi-squared at alpha = 0.001,
        // and P(1+ Marks) within 4 standard errors of the exact (alpha about 6e-5 a cell).
        assert!(r[col("mc_p_value")] > 0.001, "{r:?}");
        let se = (r[col("p_mc_hi")] - r[col("p_mc_lo")]) / (2.0 * 1.96);
        assert!(
            (r[col("p_mc")] - r[col("p_basic")]).abs() < 4.0 * se,
            "{r:?}"
        );
    }
    // More Attribute dice help; difficulty hurts (cells: attr 2/d0, 2/d2, 4/d0, 4/d2).
    let p = |i: usize| rows[i][col("p_competent")];
    assert!(p(2) > p(0) && p(0) > p(1) && p(2) > p(3), "{rows:?}");
    let dist = std::fs::read_to_string(out.join("distributions.csv")).unwrap();
    assert!(dist.contains(",pmf,"), "{dist}");
    assert!(out.join("charts/grid.svg").exists() && out.join("charts/grid.png").exists());
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        report.contains("P(Competent: 3+ Marks) runs from"),
        "{report}"
    );
    // Thread count never changes a digit; the file's seed picks every stream.
    let again = dir.join("again");
    ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
        "-q",
        "--threads",
        "1",
    ]);
    assert_eq!(
        csv,
        std::fs::read_to_string(again.join("summary.csv")).unwrap()
    );
    // A Marks cell the command would refuse is caught before anything runs.
    std::fs::write(
        &file,
        "name = \"m\"\nkind = \"marks\"\ntrials = 10\n[sweep]\nskill = [1, 2]\n",
    )
    .unwrap();
    let (code, _, err) = diemon(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        dir.join("bad").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no die can be kept") && err.contains("m.toml:5"),
        "{err}"
    );
    assert!(!dir.join("bad").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 20: after a unit in a user catalog changes, a re-run starts afresh with the new
/// figures; unchanged, it resumes. The catalog path is read from the experiment's folder,
/// and its text is kept in the manifest.
#[test]
fn editing_a_user_catalog_gives_new_figures_not_stale_ones() {
    let dir = temp("exp-catalog-edit");
    std::fs::create_dir_all(dir.join("units")).unwrap();
    let file = dir.join("brutes.toml");
    std::fs::write(
        &file,
        "name = \"brutes\"\nkind = \"duel\"\ntrials = 4000\n[scenario]\ncatalog = \"units/mine.toml\"\n\
         a = \"brute*2\"\nb = \"minifig-hand-weapon*2\"\n",
    )
    .unwrap();
    let unit = |skill: &str| {
        format!(
            "[brute]\nname = \"Brute\"\nsource = \"a test\"\nsize = 1\nstructure = \"0\"\narmor = \"4\"\nmove = 5\n\
             skill = \"{skill}\"\nweapons = [\"hand-weapon\"]\n"
        )
    };
    let out = dir.join("out");
    let run = || {
        // From another working directory than the experiment's: the path is relative to it.
        let (code, text, err) = diemon(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let cell: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("cells/00000.json")).unwrap()).unwrap();
        let manifest = std::fs::read_to_string(out.join("manifest.toml")).unwrap();
        let key = std::fs::read_to_string(out.join("cells/resume-key")).unwrap();
        (
            text,
            cell["p_a_wins"].as_f64().unwrap(),
            cell["cp_a"].clone(),
            manifest + &key,
        )
    };
    std::fs::write(dir.join("units/mine.toml"), unit("d6")).unwrap();
    let (_, p_d6, cp_d6, m_d6) = run();
    assert!(
        m_d6.contains("[catalogs]") && m_d6.contains("skill = \"d6\""),
        "the manifest keeps the catalog's text:\n{m_d6}"
    );
    let (text, p_again, _, m_again) = run();
    assert!(text.contains("resuming: 1 of 1 cells kept"), "{text}");
    assert_eq!((p_again, &m_again), (p_d6, &m_d6));
    // A better Skill die: a new resume key, new figures and a new listed CP.
    std::fs::write(dir.join("units/mine.toml"), unit("d10")).unwrap();
    let (text, p_d10, cp_d10, m_d10) = run();
    assert!(text.contains("starting afresh"), "{text}");
    assert!(!text.contains("resuming"), "{text}");
    assert!(
        p_d10 > p_d6 + 0.05,
        "d10 brutes win more: {p_d10} vs {p_d6}"
    );
    assert_ne!(cp_d10, cp_d6, "the listed CP follows the catalog");
    // The resume key (kept beside the cells) moved with the catalog.
    let key = |m: &str| m.lines().last().unwrap().to_string();
    assert_ne!(key(&m_d10), key(&m_d6));
}

/// Issue 22: one writer per folder. While a run writes a folder, a second run into it is
/// refused with exit 2 and changes nothing; and a kept cell that another run wrote (its
/// stamp differs) is refused on resume, never mixed in.
#[test]
fn a_folder_takes_one_writer_and_never_mixes_runs() {
    let dir = temp("exp-one-writer");
    let long = dir.join("long.toml");
    std::fs::write(
        &long,
        "name = \"long\"\nkind = \"duel\"\ntrials = 1000000000\n[sweep]\ndistance = [1, 2]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_diemon"))
        .args([
            "run",
            long.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The first run holds the folder once its manifest is written.
    let start = std::time::Instant::now();
    while !out.join("manifest.toml").exists() && start.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let manifest = std::fs::read(out.join("manifest.toml")).unwrap();
    let (code, _, err) = diemon(&[
        "run",
        long.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("being written by another diemon command"),
        "{err}"
    );
    assert_eq!(std::fs::read(out.join("manifest.toml")).unwrap(), manifest);

    // Two finished runs, seeds 1 and 2; a cell of the seed-2 run copied into the seed-1 folder.
    let small = |seed: u64| {
        let f = dir.join(format!("s{seed}.toml"));
        std::fs::write(
            &f,
            format!("name = \"s\"\nkind = \"duel\"\ntrials = 2000\nseed = {seed}\n[sweep]\ndistance = [1, 2]\n"),
        )
        .unwrap();
        f
    };
    let (one, two) = (dir.join("one"), dir.join("two"));
    ok(&[
        "run",
        small(1).to_str().unwrap(),
        "--out",
        one.to_str().unwrap(),
        "-q",
    ]);
    ok(&[
        "run",
        small(2).to_str().unwrap(),
        "--out",
        two.to_str().unwrap(),
        "-q",
    ]);
    std::fs::copy(two.join("cells/00001.json"), one.join("cells/00001.json")).unwrap();
    let summary = std::fs::read(one.join("summary.csv")).unwrap();
    let (code, _, err) = diemon(&[
        "run",
        small(1).to_str().unwrap(),
        "--out",
        one.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("00001.json was not written by this run"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(one.join("summary.csv")).unwrap(),
        summary,
        "nothing rewritten"
    );
}

/// Issue 22: a blast experiment's cells are checked like a duel's before anything is written:
/// a `target_ci` of 0 or nan, and a `burst` for an Explosive, are refused with exit 2 and
/// leave no folder behind.
#[test]
fn every_kind_checks_each_cell_before_writing() {
    let dir = temp("exp-blast-check");
    let file = dir.join("b.toml");
    for (extra, says) in [
        (
            "target_ci = 0\n",
            "--target-ci 0: expected a half-width above 0",
        ),
        ("target_ci = nan\n", "--target-ci NaN"),
        (
            "[scenario]\nburst = 3\n",
            "--arc and --burst are for automatic weapons",
        ),
    ] {
        std::fs::write(
            &file,
            format!("name = \"b\"\nkind = \"blast\"\ntrials = 1000\n{extra}"),
        )
        .unwrap();
        let out = dir.join("out");
        let (code, _, err) = diemon(&[
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{extra}: {err}");
        assert!(err.contains(says), "{extra}: {err}");
        assert!(!out.exists(), "{extra}: {} was written", out.display());
    }
}

/// Issue 22: a run stopped by Ctrl-C keeps frames of the cells it finished, and `report`
/// on that folder says how many cells it has and how many are missing, exiting 1 unless
/// asked for a partial report (which says so at the top).
#[test]
fn a_partial_folder_is_reported_as_partial() {
    let dir = temp("exp-partial");
    let file = dir.join("p.toml");
    std::fs::write(
        &file,
        "name = \"p\"\nkind = \"duel\"\ntrials = 200000\n[scenario]\nb = \"minifig-hand-weapon*40\"\n\
         [sweep]\na = [\"minifig-hand-weapon\", \"minifig-hand-weapon*40\"]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_diemon"))
        .args([
            "run",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !out.join("cells/00000.json").exists() && start.elapsed().as_secs() < 60 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait_with_output().unwrap().status;
    assert_eq!(status.code(), Some(130));
    let rows = std::fs::read_to_string(out.join("summary.csv"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(rows, 2, "a header and the finished cell");
    let (code, _, err) = diemon(&["report", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("1 of 2 cells finished (1 missing)"), "{err}");
    let (code, text, err) = diemon(&["report", out.to_str().unwrap(), "--partial"]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("a partial report"), "{text}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("partial: only 1 of 2 cells finished"), "{md}");
}
