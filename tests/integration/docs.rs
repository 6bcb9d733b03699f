//! Keeps docs/rules-coverage.md true: every test it names exists, every option is listed.

use std::fs;
use std::path::Path;

/// The files a test path may name: `a::b::tests::f` is in a/b.rs (or a/b/mod.rs) under one
/// crate's src (the core's, the study's or the binary's), and `squad::f` in the integration
/// test tests/integration/squad.rs.
fn files_of(root: &Path, path: &str) -> Vec<String> {
    let Some((module, _)) = path.rsplit_once("::") else {
        return Vec::new();
    };
    let rel = module.trim_end_matches("::tests").replace("::", "/");
    let mut places = vec![root.join("tests/integration").join(format!("{rel}.rs"))];
    for src in ["crates/core/src", "crates/study/src", "src"] {
        places.push(root.join(src).join(format!("{rel}.rs")));
        places.push(root.join(src).join(&rel).join("mod.rs"));
    }
    places
        .iter()
        .filter_map(|p| fs::read_to_string(p).ok())
        .collect()
}

#[test]
fn rules_coverage_names_real_tests_and_every_option() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/rules-coverage.md")).unwrap();
    let mut named = 0;
    for chunk in doc.split('`').skip(1).step_by(2) {
        if !chunk.contains("::") || chunk.contains(' ') || chunk == "module::tests::name" {
            continue;
        }
        let name = chunk.rsplit("::").next().unwrap();
        // Named with its module, so the reader finds it where the doc says.
        assert!(
            files_of(root, chunk)
                .iter()
                .any(|f| f.contains(&format!("fn {name}("))),
            "docs/rules-coverage.md names a test that is not in its module: {chunk}"
        );
        named += 1;
    }
    assert!(named > 20, "only {named} tests named");
    for o in diemon::rules::OPTIONS {
        assert!(
            doc.contains(&format!("`{}", o.key)),
            "option {} missing",
            o.key
        );
    }
}

#[test]
fn every_flag_has_a_line_of_help() {
    // Issue 24: no argument of any command is left with blank help.
    use clap::CommandFactory;
    fn walk(c: &clap::Command, path: &str, blank: &mut Vec<String>) {
        for a in c.get_arguments() {
            let id = a.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            if a.get_help().is_none() && a.get_long_help().is_none() {
                blank.push(format!("{path} {id}"));
            }
        }
        for s in c.get_subcommands() {
            walk(s, &format!("{path} {}", s.get_name()), blank);
        }
    }
    let mut blank = Vec::new();
    walk(&diemon::cli::Cli::command(), "diemon", &mut blank);
    assert!(blank.is_empty(), "flags without help: {blank:?}");
}

#[test]
fn columns_doc_names_every_column_of_the_shipped_reports() {
    // Issue 24: docs/columns.md lists every column of every frame (sweep axes as a class).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/columns.md")).unwrap();
    let mut missing = std::collections::BTreeSet::new();
    for entry in fs::read_dir(root.join("reports")).unwrap() {
        let dir = entry.unwrap().path();
        // reports/index.html is the reports' first page, no report.
        if !dir.is_dir() {
            continue;
        }
        let manifest: toml::Table = fs::read_to_string(dir.join("manifest.toml"))
            .unwrap()
            .parse()
            .unwrap();
        let axes: Vec<String> = manifest["axes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().replace('-', "_"))
            .collect();
        for f in fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_none_or(|e| e != "csv") {
                continue;
            }
            let text = fs::read_to_string(&f).unwrap();
            let header = text.lines().next().unwrap_or("");
            for col in header.split(',') {
                let base = col.trim_end_matches("_lo").trim_end_matches("_hi");
                if axes.iter().any(|a| a == col) || doc.contains(&format!("`{base}`")) {
                    continue;
                }
                missing.insert(format!("{col} ({})", f.display()));
            }
        }
    }
    assert!(missing.is_empty(), "docs/columns.md lacks: {missing:#?}");
}
