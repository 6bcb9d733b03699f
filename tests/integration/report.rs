//! Reports: every run writes one, `diemon report` redraws it from the Parquet files alone,
//! and `diemon dist --plot` draws a distribution.

use crate::cli::diemon;
use crate::{ok, temp};

#[test]
fn a_run_writes_a_report_that_parquet_alone_redraws() {
    let dir = temp("report-run");
    let file = dir.join("r.toml");
    std::fs::write(
        &file,
        "name = \"r\"\ndescription = \"Two sweeps\"\nkind = \"blast\"\ntrials = 3000\n[scenario]\nformation = \"grid:3x3\"\n[sweep]\ndistance = [6, 12]\nspacing = [1.0, 2.0]\n",
    )
    .unwrap();
    let out = dir.join("o");
    let (code, text, err) = diemon(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("report.html (self-contained)"), "{text}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    // The question, the figures with their sentences, the results, the options.
    // Issue 24: the question is the title; the experiment's name is under it.
    assert!(md.starts_with("# Two sweeps"), "{md}");
    assert!(md.contains("experiment `r`"), "{md}");
    assert!(
        html.contains("<code>r</code>") && !html.contains("`r`"),
        "inline code"
    );
    assert!(
        md.contains("![mean kills a turn by distance](charts/sweep.svg)"),
        "{md}"
    );
    assert!(md.contains("mean kills a turn "), "{md}");
    assert!(
        md.contains("| distance | spacing | kills a turn (95% CI)"),
        "{md}"
    );
    assert!(md.contains("`d4_bonus` = none"), "{md}");
    // Self-contained: the charts are inline, nothing is fetched.
    assert!(
        html.contains("<svg") && !html.contains("src=\"http"),
        "{html}"
    );
    assert!(!html.contains("<?xml"), "no XML header inside HTML");
    for stem in ["sweep", "kills_histogram", "rings"] {
        for ext in ["svg", "png"] {
            let f = out.join("charts").join(format!("{stem}.{ext}"));
            assert!(f.exists(), "{f:?}");
        }
    }
    // From the Parquet files alone (no manifest.toml, no cells, no CSV): the same report.
    let bare = dir.join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    for f in [
        "summary.parquet",
        "distributions.parquet",
        "by_ring.parquet",
    ] {
        std::fs::copy(out.join(f), bare.join(f)).unwrap();
    }
    let (code, _, err) = diemon(&["report", bare.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(bare.join("report.md")).unwrap(), md);
    assert_eq!(
        std::fs::read_to_string(bare.join("report.html")).unwrap(),
        html
    );
    // A folder with nothing to report on is bad input.
    let (code, _, err) = diemon(&["report", dir.join("nothing").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a folder"), "{err}");
    let (code, _, err) = diemon(&["report", file.parent().unwrap().to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("no summary.parquet or summary.csv"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_fair_cp_report_says_what_the_unit_is_worth() {
    let dir = temp("report-fair");
    let file = dir.join("f.toml");
    std::fs::write(
        &file,
        "name = \"f\"\nkind = \"fair-cp\"\ntrials = 4000\n[fair_cp]\nunit = \"minifig-hand-weapon\"\nreference = \"minifig-hand-weapon\"\nunits = 4\ncounts = [3, 4, 5]\n",
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
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("minifig-hand-weapon is worth "), "{md}");
    assert!(md.contains("listed 6 CP"), "{md}");
    assert!(out.join("charts/fair_cp.png").exists());
    assert!(md.contains("### What a minifig-hand-weapon is worth in minifig-hand-weapons\n"));
    // Issue 44: fits swept over a distance each name theirs in the title.
    std::fs::write(
        &file,
        "name = \"f\"\nkind = \"fair-cp\"\ntrials = 4000\n[sweep]\ndistance = [2, 12]\n[fair_cp]\nunit = \"minifig-hand-weapon\"\nreference = \"minifig-hand-weapon\"\nunits = 4\ncounts = [3, 4, 5]\n",
    )
    .unwrap();
    ok(&[
        "run",
        file.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    for d in ["2", "12"] {
        let title = format!(
            "### What a minifig-hand-weapon is worth in minifig-hand-weapons, {d}\" apart\n"
        );
        assert!(md.contains(&title), "{md}");
    }
    // Issue 39: one card price and one verdict for the page, by the price pages' rule: a
    // minifig against itself is fair at its own 6 CP.
    assert!(
        md.contains("Card price ")
            && md.contains("the median of 2 fits a price may rest on; ")
            && md.contains("verdict against the listed 6 CP, within 10%: fair."),
        "{md}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dist_plots_exact_against_monte_carlo() {
    let dir = temp("report-dist");
    let svg = dir.join("d.svg");
    let (code, _, err) = diemon(&[
        "dist",
        "2d10 exp",
        "--mc",
        "20000",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("2d10 exp: exact distribution against Monte Carlo"),
        "{text}"
    );
    assert!(text.contains("20000 Monte Carlo rolls (95% CI)"));
    let png = dir.join("d.png");
    let (code, said, err) = diemon(&["dist", "d6", "--plot", png.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    // Issue 44: it says what it wrote, in the table and in the JSON.
    assert!(
        said.ends_with(&format!("chart: {}\n", png.display())),
        "{said}"
    );
    let (_, json, _) = diemon(&["dist", "d6", "--json", "--plot", png.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["plot"], png.display().to_string());
    let (code, _, err) = diemon(&["dist", "d6", "--plot", dir.join("d.pdf").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("expected a file ending in .svg or .png"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_committed_example_reports_are_what_the_code_makes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    // Every shipped experiment has a committed report made from the file as it is now.
    for entry in std::fs::read_dir(root.join("experiments")).unwrap() {
        let file = entry.unwrap().path();
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = root.join("reports").join(&name);
        for f in [
            "summary.parquet",
            "summary.csv",
            "report.md",
            "report.html",
            "manifest.toml",
        ] {
            assert!(
                dir.join(f).exists(),
                "reports/{name}/{f} is missing: run `diemon run {}`",
                file.display()
            );
        }
        let manifest: toml::Table = std::fs::read_to_string(dir.join("manifest.toml"))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            manifest["source"].as_str(),
            Some(std::fs::read_to_string(&file).unwrap().as_str()),
            "reports/{name} was made from another version of {}",
            file.display()
        );
    }
    // Issue 21: a matchups report names the loadouts that carry inert parts, or says there
    // are none.
    let md = std::fs::read_to_string(root.join("reports/matchups/report.md")).unwrap();
    assert!(
        md.contains("## Priced but inert"),
        "reports/matchups/report.md"
    );
    assert!(
        md.contains("no item or trait is inert") || md.contains("- side "),
        "reports/matchups/report.md names no inert part and does not say there is none"
    );
    // One small one, regenerated bit for bit: its summary and its report.
    let dir = temp("report-curated");
    let (code, _, err) = diemon(&[
        "run",
        root.join("experiments/exploding-d4s.toml")
            .to_str()
            .unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let committed = root.join("reports/exploding-d4s");
    for f in ["summary.csv", "summary.parquet", "report.md"] {
        assert!(
            std::fs::read(dir.join(f)).unwrap() == std::fs::read(committed.join(f)).unwrap(),
            "reports/exploding-d4s/{f} differs from what the code makes now: rerun the experiment"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn issue_44_the_reports_index_lists_every_report_and_what_it_links_to_is_there() {
    // reports/index.html is what `diemon index` writes over the committed reports: a card
    // a report (its about.json), each link and thumbnail a file that exists.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let page = std::fs::read_to_string(root.join("index.html"))
        .expect("reports/index.html is missing: run `diemon index`");
    let found = diemon::report::index::reports(&root).unwrap();
    assert!(found.len() > 20, "{} reports", found.len());
    for (name, card) in &found {
        let card = card
            .as_ref()
            .unwrap_or_else(|| panic!("reports/{name} has no about.json: run it again"));
        assert!(!card.answer.is_empty(), "reports/{name}: no answer");
        assert!(
            page.contains(&format!("href=\"{name}/report.html\"")),
            "the index does not list {name}: run `diemon index`"
        );
        if let Some(t) = &card.thumbnail {
            assert!(root.join(name).join(t).is_file(), "reports/{name}/{t}");
            assert!(
                page.contains(&format!("src=\"{name}/{t}\"")),
                "{name}'s thumbnail"
            );
        }
    }
    // Nothing it links to is missing.
    for link in page
        .split("href=\"")
        .skip(1)
        .chain(page.split("src=\"").skip(1))
    {
        let target = &link[..link.find('"').unwrap()];
        assert!(root.join(target).exists(), "the index links to {target}");
    }
}

#[test]
fn a_column_keeps_one_type_across_experiments() {
    // Issue 24: a column means one thing everywhere, so an analyst can stack the frames of
    // every shipped experiment; counts are integers, and swept columns are snake_case.
    use polars::prelude::*;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen: std::collections::BTreeMap<(String, String), (DataType, String)> =
        Default::default();
    let mut clashes = Vec::new();
    for entry in std::fs::read_dir(root.join("reports")).unwrap() {
        let dir = entry.unwrap().path();
        // reports/index.html is the reports' first page, no report.
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_none_or(|e| e != "parquet") {
                continue;
            }
            let frame = f.file_stem().unwrap().to_string_lossy().into_owned();
            let file = std::fs::File::open(&f).unwrap();
            let df = ParquetReader::new(file).finish().unwrap();
            for c in df.columns() {
                let name = c.name().to_string();
                assert!(
                    !name.contains('-'),
                    "{}: column {name} is not snake_case",
                    f.display()
                );
                let key = (frame.clone(), name.clone());
                let here = f.display().to_string();
                match seen.get(&key) {
                    Some((t, at)) if t != c.dtype() => clashes.push(format!(
                        "{frame}.{name}: {t} in {at}, {} in {here}",
                        c.dtype()
                    )),
                    Some(_) => {}
                    None => {
                        seen.insert(key, (c.dtype().clone(), here));
                    }
                }
            }
        }
    }
    assert!(clashes.is_empty(), "{clashes:#?}");
    for (frame, col) in [
        ("by_turn", "turn"),
        ("by_ring", "ring"),
        ("fair_cp", "cells_fitted"),
        ("distributions", "value"),
    ] {
        let t = &seen[&(frame.to_string(), col.to_string())].0;
        assert!(t.is_integer(), "{frame}.{col} is {t}");
    }
}

#[test]
fn every_committed_chart_has_tooltips_naming_its_axes() {
    // Issues 24 and 44: every chart kind has hover tooltips, one for each point (a legend's
    // dot has none), bar, cell or row, and each names an axis ("axis: figure").
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    for entry in std::fs::read_dir(root.join("reports")).unwrap() {
        let charts = entry.unwrap().path().join("charts");
        for f in std::fs::read_dir(&charts).into_iter().flatten() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".svg") {
                continue;
            }
            let svg = std::fs::read_to_string(&f).unwrap();
            let circles = svg.matches("<circle").count();
            let titles: Vec<&str> = svg
                .split("<title>")
                .skip(1)
                .map(|t| t.split("</title>").next().unwrap_or(""))
                .collect();
            assert!(!titles.is_empty(), "{}: no tooltip", f.display());
            assert!(titles.len() + 1 >= circles, "{}", f.display());
            for t in &titles {
                assert!(t.contains(": "), "{}: tooltip {t:?}", f.display());
            }
            checked += (circles > 0) as usize;
        }
    }
    assert!(checked > 10, "only {checked} charts with points");
}

#[test]
fn every_committed_parquet_file_carries_its_manifest() {
    // Issue 44: docs/experiments.md promises `diemon_manifest` in every Parquet file; the
    // price kinds wrote it under other keys.
    let reports = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut files = Vec::new();
    let mut stack = vec![reports];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "parquet") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 40, "{} Parquet files", files.len());
    for f in &files {
        let m = diemon::report::frames::parquet_manifest(f).unwrap();
        let m = m.unwrap_or_else(|| panic!("{} has no diemon_manifest", f.display()));
        let t: toml::Table = m.parse().unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(
            t.contains_key("kind") && t.contains_key("diemon_version"),
            "{}",
            f.display()
        );
        // Issue 44: one integer type for every count (counts mixed UInt64 and Int64).
        use polars::prelude::{DataType, ParquetReader, SerReader};
        let df = ParquetReader::new(std::fs::File::open(f).unwrap())
            .finish()
            .unwrap();
        for c in df.columns() {
            assert!(
                !c.dtype().is_integer() || c.dtype() == &DataType::Int64,
                "{}: {} is {}",
                f.display(),
                c.name(),
                c.dtype()
            );
        }
    }
}

#[test]
fn a_price_folder_is_refused_not_redrawn_poorer() {
    // `diemon report` on the balance's folder once rewrote its page as a sweep's, losing
    // the ranking and the balanced table. It is refused (exit 2) and the page kept.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/price-catalog");
    let dir = temp("report-price").join("price-catalog");
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&root).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
        }
    }
    let before = std::fs::read(dir.join("report.md")).unwrap();
    let (code, _, err) = diemon(&["report", dir.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("a price's or the balance's folder"), "{err}");
    assert!(err.contains("hint: run that command again"), "{err}");
    assert_eq!(std::fs::read(dir.join("report.md")).unwrap(), before);
}
