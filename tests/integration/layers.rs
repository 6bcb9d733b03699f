//! The import graph of each crate of the workspace: its rooms (top-level modules) depend on
//! each other one way only, in the order its lib.rs states.
//!
//! The crates themselves are held in order by the compiler (diemon-core cannot name
//! diemon-study). Inside a crate only this test holds the rooms. An edge from a file's room
//! is any path that reaches another room: `crate::room`, `super::` climbing to the crate's
//! root, `use crate::{a::{b, c}, d}` with nested groups, wherever it stands in the file.
//! Comments, string literals and `#[cfg(test)]` items do not count (a test may use any room).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::source::{code, rust_files};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The crates whose rooms are ordered, by their src folders.
const CRATES: [&str; 3] = ["crates/core/src", "crates/study/src", "crates/web/src"];

/// The tokens that make up paths: names, `::`, braces, commas and `*`.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_alphanumeric() || d == '_') {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            out.push(text[i..end].to_string());
        } else if c == ':' && chars.peek().is_some_and(|&(_, d)| d == ':') {
            chars.next();
            out.push("::".into());
        } else if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    out
}

/// The first names of each element of the use-tree at `t[i]`: `a` for `a::b`, and `a`, `d`
/// for `{a::{b, c}, d}`.
fn heads(t: &[String], i: usize) -> Vec<String> {
    match t.get(i).map(String::as_str) {
        Some("{") => {
            let mut out = Vec::new();
            let mut depth = 0;
            let mut first = true;
            for tok in &t[i..] {
                match tok.as_str() {
                    "{" => depth += 1,
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    "," if depth == 1 => first = true,
                    name if depth == 1 && first && name != "::" => {
                        out.push(name.to_string());
                        first = false;
                    }
                    _ => {}
                }
            }
            out
        }
        Some(name) => vec![name.to_string()],
        None => Vec::new(),
    }
}

/// The rooms of the crate that `text`, the file at module path `module` (`["scenario",
/// "squad"]` for scenario/squad/mod.rs), names outside its own room.
fn named(text: &str, module: &[String], rooms: &BTreeSet<String>) -> BTreeSet<String> {
    let t = tokens(text);
    let mut out = BTreeSet::new();
    for i in 0..t.len() {
        // A path's start: not itself after `::` (that is the middle of a path).
        if i > 0 && t[i - 1] == "::" {
            continue;
        }
        let mut base: Vec<String> = match t[i].as_str() {
            "crate" => Vec::new(),
            "super" | "self" => module.to_vec(),
            _ => continue,
        };
        let mut j = i;
        loop {
            if t[j] == "super" {
                base.pop();
            }
            if t.get(j + 1).map(String::as_str) != Some("::") {
                break;
            }
            if t.get(j + 2).map(String::as_str) == Some("super") {
                j += 2;
            } else {
                break;
            }
        }
        if !base.is_empty() || t.get(j + 1).map(String::as_str) != Some("::") {
            continue;
        }
        out.extend(heads(&t, j + 2).into_iter().filter(|h| rooms.contains(h)));
    }
    if let Some(own) = module.first() {
        out.remove(own);
    }
    out
}

/// The module path of a file under src: `scenario/squad/mod.rs` is `["scenario", "squad"]`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut m: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if m.last().is_some_and(|l| l == "mod" || l == "lib") {
        m.pop();
    }
    m
}

/// The rooms a crate's lib.rs declares (`pub mod name;`).
fn rooms_of(lib: &str) -> BTreeSet<String> {
    lib.lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|r| r.trim_end_matches(';').to_string())
        .collect()
}

fn graph(src: &Path) -> (Graph, BTreeSet<String>) {
    let rooms = rooms_of(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut g = Graph::new();
    for p in rust_files(src) {
        let module = module_of(p.strip_prefix(src).unwrap());
        let Some(room) = module.first().filter(|r| rooms.contains(*r)) else {
            continue;
        };
        let text = std::fs::read_to_string(&p).unwrap();
        g.entry(room.clone())
            .or_default()
            .extend(named(&code(&text), &module, &rooms));
    }
    (g, rooms)
}

/// The order a lib.rs states, "The rooms depend one way (...): [`a`] and [`b`] -> [`c`] ->
/// ...": each room's rank, rooms joined by `and` sharing one.
fn stated_order(lib: &str) -> BTreeMap<String, usize> {
    // The doc's paragraphs, each on one line.
    let doc: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| if l.trim().is_empty() { "\n" } else { l.trim() })
        .collect::<Vec<_>>()
        .join(" ");
    let para = doc
        .split('\n')
        .find(|p| p.contains("The rooms depend one way"))
        .expect("lib.rs states the rooms' order");
    let para = &para[para.find("):").map_or(0, |k| k + 2)..];
    let para = &para[..para.rfind('.').unwrap_or(para.len())];
    let mut rank = BTreeMap::new();
    for (r, step) in para.split("->").enumerate() {
        for (k, part) in step.split("[`").enumerate() {
            if k > 0
                && let Some(name) = part.split('`').next()
            {
                rank.insert(name.to_string(), r);
            }
        }
    }
    rank
}

/// The edges that go against `order`: a room may import only rooms stated before it.
fn against(g: &Graph, order: &BTreeMap<String, usize>) -> Vec<String> {
    let mut bad = Vec::new();
    for (from, deps) in g {
        for to in deps {
            match (order.get(from), order.get(to)) {
                (Some(a), Some(b)) if b < a => {}
                _ => bad.push(format!("{from} imports {to}")),
            }
        }
    }
    bad
}

#[test]
fn each_crates_rooms_import_in_the_order_its_lib_rs_states() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for src in CRATES {
        let src = root.join(src);
        let (g, rooms) = graph(&src);
        assert!(rooms.len() >= 5, "{}: rooms {rooms:?}", src.display());
        let order = stated_order(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
        let stated: BTreeSet<String> = order.keys().cloned().collect();
        assert_eq!(stated, rooms, "{}: the stated order's rooms", src.display());
        let bad = against(&g, &order);
        assert!(
            bad.is_empty(),
            "{}: against the stated order: {bad:?}",
            src.display()
        );
    }
    // The binary holds the command line only; the rest it re-exports.
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    assert_eq!(rooms_of(&lib), ["cli".to_string()].into());
}

#[test]
fn the_checker_sees_every_import_form() {
    let rooms: BTreeSet<String> = ["dice", "rules", "sim", "marks", "options", "scenario"]
        .map(String::from)
        .into();
    let m = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let text = "use crate::{dice::{Die, Log}, rules::X};\n\
                fn f() { let s = \"crate::options\"; } // crate::sim in a comment\n\
                /* crate::sim in a block */\n\
                #[cfg(test)]\nmod tests { use crate::sim; }\n\
                use crate::marks::Pool;";
    assert_eq!(
        named(&code(text), &m(&["scenario"]), &rooms),
        ["dice", "marks", "rules"].map(String::from).into()
    );
    // `super::` up to the crate's root names a room; one short of it stays at home.
    let deep = m(&["scenario", "squad", "battle"]);
    assert_eq!(
        named("use super::super::super::sim::X;", &deep, &rooms),
        ["sim"].map(String::from).into()
    );
    assert!(named("use super::super::dice::X;", &deep, &rooms).is_empty());
    assert_eq!(
        named("use super::{options, rules::Y};", &m(&["sim"]), &rooms),
        ["options", "rules"].map(String::from).into()
    );
    // Its own room is no edge; a path's middle is not its start.
    assert!(
        named(
            "crate::scenario::x; a::crate_like::sim",
            &m(&["scenario"]),
            &rooms
        )
        .is_empty()
    );
    assert_eq!(
        module_of(Path::new("scenario/squad/mod.rs")),
        m(&["scenario", "squad"])
    );
    assert_eq!(module_of(Path::new("dice/die.rs")), m(&["dice", "die"]));
    // Strings, raw strings and chars are blanked, lifetimes kept.
    assert_eq!(
        code("f(r#\"crate::sim\"#, 'x', '\\'', &'a T)"),
        "f(\"\", ' ', ' ', &'a T)"
    );
}

#[test]
fn the_order_check_fails_an_edge_against_the_stated_order() {
    let lib = "//! The rooms depend one way (the test): [`options`] and [`input`] (leaves) ->\n\
               //! [`dice`] -> [`sim`].\n\nmore";
    let order = stated_order(lib);
    assert_eq!(order["options"], 0);
    assert_eq!(order["input"], 0);
    assert_eq!(order["sim"], 2);
    let mut g = Graph::new();
    g.entry("sim".into()).or_default().insert("dice".into());
    assert!(against(&g, &order).is_empty());
    g.entry("dice".into()).or_default().insert("sim".into());
    g.entry("options".into())
        .or_default()
        .insert("input".into());
    assert_eq!(
        against(&g, &order),
        ["dice imports sim", "options imports input"]
    );
}
