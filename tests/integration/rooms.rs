//! The rooms stay small (issue 42): no function over [`MAX_FN`] lines and no file over
//! [`MAX_FILE`] lines of code, in every crate of the workspace. Test items and comments
//! do not count (`source::code` cuts them).
//!
//! No function is over its bound. The files still over theirs are listed in [`OVER`] with
//! their size when it was written: a listed file may shrink, never grow, and a room not
//! listed that goes over fails. Split one along the rules' own seams, then take it off the
//! list.

use std::collections::BTreeMap;
use std::path::Path;

use crate::source::{code, rust_files};

/// The most lines a function may take, its signature and closing brace included.
const MAX_FN: usize = 120;
/// The most lines of code a file may hold.
const MAX_FILE: usize = 600;

/// The rooms over a bound when the check was written (issue 42), to be split: the file,
/// the function (empty for the file itself) and its lines then.
const OVER: &[(&str, &str, usize)] = &[];

/// Each function in `code` (comments, strings and test items blanked) with its lines, from
/// its `fn` to its closing brace; a function without a body is none.
fn functions(code: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(k) = code[from..].find("fn ") {
        let at = from + k;
        from = at + 3;
        // `fn` as a word: not the end of a longer name.
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let name: String = code[at + 3..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        let rest = &code[at..];
        let (Some(open), semi) = (rest.find('{'), rest.find(';')) else {
            continue;
        };
        if semi.is_some_and(|s| s < open) {
            continue;
        }
        let mut depth = 0;
        let mut close = None;
        for (i, c) in rest[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else { continue };
        out.push((name, rest[..close].matches('\n').count() + 1));
    }
    out
}

/// Lines of code in `code`: those with anything left on them.
fn lines_of_code(code: &str) -> usize {
    code.lines().filter(|l| !l.trim().is_empty()).count()
}

/// Every room over a bound in the workspace: (file, function or "", lines).
fn over() -> Vec<(String, String, usize)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for src in [
        "crates/core/src",
        "crates/study/src",
        "crates/web/src",
        "src",
    ] {
        for p in rust_files(&root.join(src)) {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let c = code(&std::fs::read_to_string(&p).unwrap());
            let n = lines_of_code(&c);
            if n > MAX_FILE {
                out.push((rel.clone(), String::new(), n));
            }
            for (name, n) in functions(&c) {
                if n > MAX_FN {
                    out.push((rel.clone(), name, n));
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_room_grows_past_its_bound() {
    let listed: BTreeMap<(&str, &str), usize> = OVER.iter().map(|&(f, n, l)| ((f, n), l)).collect();
    let mut bad = Vec::new();
    for (file, name, lines) in over() {
        let what = if name.is_empty() {
            format!("{file}: {lines} lines of code (at most {MAX_FILE})")
        } else {
            format!("{file}: fn {name}: {lines} lines (at most {MAX_FN})")
        };
        match listed.get(&(file.as_str(), name.as_str())) {
            Some(&then) if lines <= then => {}
            Some(&then) => bad.push(format!("{what}, grown from {then}")),
            None => bad.push(what),
        }
    }
    // A listed room now within its bound comes off the list, so the list stays true.
    let still: Vec<(String, String)> = over().into_iter().map(|(f, n, _)| (f, n)).collect();
    for &(file, name, _) in OVER {
        if !still.iter().any(|(f, n)| f == file && n == name) {
            bad.push(format!(
                "{file} {name}: within its bound now: take it off OVER"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "rooms over their bounds (split them along the rules' seams):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_measure_counts_code_not_comments_tests_or_strings() {
    let text = "/// doc\nfn small() {\n    let s = \"a\n b\";\n}\n\n\
                #[cfg(test)]\nmod tests {\n    fn t() {}\n}\n\
                trait T { fn bare(&self); }\nfn big() {\n    // note\n    x();\n}\n";
    let c = code(text);
    // Lines keep their places: the string's break and the test module's lines stay.
    assert_eq!(c.lines().count(), text.lines().count());
    let f = functions(&c);
    assert_eq!(f, [("small".to_string(), 4), ("big".to_string(), 4)]);
    // fn small (4: the string's `;` stays on its last line), trait T, fn big (3).
    assert_eq!(lines_of_code(&c), 8);
}
