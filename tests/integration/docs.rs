//! Keeps docs/rules-coverage.md true: every test it names exists, every option is listed.

use std::fs;
use std::path::Path;

fn sources(dir: &Path, out: &mut String) {
    for entry in fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push_str(&fs::read_to_string(&p).unwrap());
        }
    }
}

#[test]
fn rules_coverage_names_real_tests_and_every_option() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/rules-coverage.md")).unwrap();
    let mut code = String::new();
    sources(&root.join("src"), &mut code);
    sources(&root.join("tests"), &mut code);
    let mut named = 0;
    for chunk in doc.split('`').skip(1).step_by(2) {
        if !chunk.contains("::") || chunk.contains(' ') {
            continue;
        }
        let name = chunk.rsplit("::").next().unwrap();
        assert!(
            code.contains(&format!("fn {name}(")),
            "docs/rules-coverage.md names a test that does not exist: {chunk}"
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
