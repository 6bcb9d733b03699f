//! The import graph of `src/`: the top-level rooms depend on each other one way only.
//!
//! Each file's `crate::ROOM` paths (in `use` lists too) count as an edge from its room;
//! comments and the `#[cfg(test)]` module at a file's end do not (a test may use any room).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// A file's source without comments and without its trailing test module.
fn code(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    body.lines()
        .map(|l| match l.find("//") {
            // A `//` inside a string (a URL) is rare in code; a comment is what it cuts.
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rooms `text` names after `crate::`, in plain paths and in `use crate::{a, b::c}`.
fn named(text: &str, rooms: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let heads: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            // Nested braces close early; the heads before them are what counts.
            inner
                .split(',')
                .map(|p| p.trim().split("::").next().unwrap_or(""))
                .collect()
        } else {
            vec![
                rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .next()
                    .unwrap_or(""),
            ]
        };
        out.extend(
            heads
                .into_iter()
                .filter(|h| rooms.contains(*h))
                .map(String::from),
        );
    }
    out
}

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut rooms = BTreeSet::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        let stem = p.file_stem().unwrap().to_string_lossy().to_string();
        if p.is_dir() || (stem != "lib" && stem != "main") {
            rooms.insert(stem);
        }
    }
    let mut g = Graph::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p.strip_prefix(&src).unwrap();
            let room = rel.iter().next().unwrap().to_string_lossy();
            let room = room.trim_end_matches(".rs").to_string();
            if !rooms.contains(&room) {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let deps = named(&code(&text), &rooms);
            let entry = g.entry(room.clone()).or_default();
            entry.extend(deps.into_iter().filter(|d| *d != room));
        }
    }
    g
}

/// A cycle through `start`, if any, as the rooms along it.
fn cycle(g: &Graph, start: &str) -> Option<Vec<String>> {
    fn walk(
        g: &Graph,
        at: &str,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in g.get(at).into_iter().flatten() {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(g, next, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(g, start, start, &mut path, &mut BTreeSet::new()).then(|| {
        path.push(start.to_string());
        path
    })
}

#[test]
fn the_rooms_import_one_way() {
    let g = graph();
    assert!(g.len() >= 10, "rooms found: {:?}", g.keys());
    for room in g.keys() {
        if let Some(c) = cycle(&g, room) {
            panic!("import cycle: {}", c.join(" -> "));
        }
    }
    // The experiment layer holds questions, never the command line.
    assert!(!g["experiment"].contains("cli"), "{:?}", g["experiment"]);
    // The leaves.
    for leaf in ["options", "export"] {
        assert!(
            g.get(leaf).is_none_or(|d| d.is_empty()),
            "{leaf} imports {:?}",
            g[leaf]
        );
    }
}

#[test]
fn the_checker_sees_a_cycle_and_a_grouped_use() {
    let rooms: BTreeSet<String> = ["dice", "rules", "sim"].map(String::from).into();
    let text = "use crate::{dice::Die, rules::X};\nfn f() {} // crate::sim in a comment\n\
                #[cfg(test)]\nmod tests { use crate::sim; }";
    assert_eq!(
        named(&code(text), &rooms),
        ["dice", "rules"].map(String::from).into()
    );
    assert_eq!(
        named("crate::sim::go()", &rooms),
        ["sim"].map(String::from).into()
    );
    let mut g = Graph::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("a".into());
    assert_eq!(cycle(&g, "a").unwrap(), ["a", "b", "a"]);
    g.get_mut("b").unwrap().clear();
    assert!(cycle(&g, "a").is_none());
}
