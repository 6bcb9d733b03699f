//! Reading the workspace's own Rust source as code: comments, strings and test items
//! blanked or cut, for the checks that read the source (`layers`, `rooms`).

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, in a stable order.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// `text` without comments, string and char literals (their insides become blanks, so
/// positions keep their meaning), and without `#[cfg(test)]` items.
pub fn code(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let start = i;
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
            out.extend(std::iter::repeat_n('\n', newlines(&b[start..i])));
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && raw_start(&b, i) {
            // r"..." or r#"..."#: up to the same number of hashes after a quote.
            let mut j = i + 1;
            let mut hashes = 0;
            while b[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            while j < b.len()
                && !(b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')))
            {
                j += 1;
            }
            out.push_str("\"\"");
            out.extend(std::iter::repeat_n('\n', newlines(&b[i..j.min(b.len())])));
            i = j + 1 + hashes;
        } else if c == '"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
            out.extend(std::iter::repeat_n(
                '\n',
                newlines(&b[start..i.min(b.len())]),
            ));
        } else if c == '\'' && char_literal(&b, i) {
            i += 1;
            while i < b.len() && b[i] != '\'' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    without_test_items(&out)
}

/// The line breaks in `chars`.
fn newlines(chars: &[char]) -> usize {
    chars.iter().filter(|&&c| c == '\n').count()
}

/// Whether `r` at `i` opens a raw string (not the end of a name like `for`).
fn raw_start(b: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|k| b[k]);
    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
        return false;
    }
    let mut j = i + 1;
    while b.get(j) == Some(&'#') {
        j += 1;
    }
    b.get(j) == Some(&'"')
}

/// Whether `'` at `i` opens a char literal (`'a'`, `'\n'`), not a lifetime (`'a`).
fn char_literal(b: &[char], i: usize) -> bool {
    match b.get(i + 1) {
        Some('\\') => true,
        Some(_) => b.get(i + 2) == Some(&'\''),
        None => false,
    }
}

/// `text` with every item under `#[cfg(test)]` cut out: a `{ ... }` block (to its
/// matching brace) or a line up to `;`.
fn without_test_items(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        let semi = item.find(';');
        let end = match item.find('{') {
            Some(open) if semi.is_none_or(|s| open < s) => {
                let mut depth = 0;
                let mut end = item.len();
                for (k, ch) in item[open..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = open + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            _ => semi.map_or(item.len(), |s| s + 1),
        };
        out.extend(std::iter::repeat_n('\n', item[..end].matches('\n').count()));
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}
