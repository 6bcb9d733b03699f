//! Errors in input files (catalogs, experiments): the file, line and column, what is
//! wrong, and a hint.

use std::fmt;

/// A place in an input file and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The file, as the user named it.
    pub file: String,
    /// Its line, from 1.
    pub line: usize,
    /// Its column, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// How to mend it.
    pub hint: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )?;
        if !self.hint.is_empty() {
            write!(f, "\n  hint: {}", self.hint)?;
        }
        Ok(())
    }
}

/// The largest input file diemon reads (a catalog, an experiment, a roster): far above any
/// real one, so a wrong path (`/dev/zero`) is refused instead of filling memory.
pub const MAX_INPUT: u64 = 16 << 20;

/// Why an input file cannot be read ([`read`]); the message follows its path.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file cannot be opened or read.
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// More than [`MAX_INPUT`] bytes.
    #[error(
        "it is larger than {} MiB, far more than any catalog, experiment or roster",
        MAX_INPUT >> 20
    )]
    TooLarge,
    /// Not UTF-8 text: byte `at` is the first that is not.
    #[error(
        "it is not UTF-8 text (byte {at} is not): a catalog, experiment or roster is a TOML file"
    )]
    NotText {
        /// The byte offset of the first byte that is not UTF-8.
        at: usize,
    },
}

/// Reads an input file once, as text, refusing one larger than [`MAX_INPUT`]: a pipe or
/// `/dev/stdin` can be read only once, so every reader of a file takes its text from here.
pub fn read(path: &std::path::Path) -> Result<String, ReadError> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(ReadError::TooLarge);
    }
    String::from_utf8(bytes).map_err(|e| ReadError::NotText {
        at: e.utf8_error().valid_up_to(),
    })
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A function that places a message at a byte offset of `text` (the file `file`), with a
/// hint: how a parser reports what it found wrong.
pub fn at<'a>(file: &'a str, text: &'a str) -> impl Fn(usize, String, &str) -> InputError + 'a {
    move |offset, message, hint| {
        let (line, column) = line_column(text, offset);
        InputError {
            file: file.into(),
            line,
            column,
            message,
            hint: hint.into(),
        }
    }
}

/// The `candidates` nearest `word` by edit distance (`edits`, case-blind): at most a
/// third of its length away (at least one edit), and at most one edit farther than the
/// nearest; nearest first, three at most. "Did you mean" hints over whole names.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let w: Vec<char> = word.to_lowercase().chars().collect();
    let most = (w.len().div_ceil(3)).max(1);
    let mut near: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter_map(|c| {
            let d = edits(&w, &c.to_lowercase().chars().collect::<Vec<_>>());
            (d <= most).then_some((d, c))
        })
        .collect();
    near.sort();
    let best = near.first().map_or(0, |n| n.0);
    near.into_iter()
        .take_while(|n| n.0 <= best + 1)
        .take(3)
        .map(|(_, c)| c)
        .collect()
}

/// The edits (insert, delete, replace, swap two neighbours) from `a` to `b` (optimal string
/// alignment): `trail` is two from `trials`.
fn edits(a: &[char], b: &[char]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let same = (a[i - 1] == b[j - 1]) as usize;
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + 1 - same);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// For a TOML reader's "unknown field `x`, expected one of `a`, `b`, ..." message: "did you
/// mean `a`?" for the fields nearest `x`, if any is near.
pub fn unknown_field_hint(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (field, expected) = rest.split_once('`')?;
    let names = expected.split('`').skip(1).step_by(2);
    let near = nearest(field, names);
    (!near.is_empty()).then(|| {
        let list: Vec<String> = near.iter().map(|n| format!("`{n}`")).collect();
        format!("did you mean {}?", list.join(" or "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_suggests_the_whole_name_it_misspells() {
        let units = [
            "minifig",
            "minifig-hand-weapon",
            "minifig-heavy-weapon",
            "hero",
        ];
        assert_eq!(
            nearest("minifig-hand-wepon", units),
            ["minifig-hand-weapon"]
        );
        assert_eq!(nearest("HERO", units), ["hero"]);
        assert!(nearest("dragon", units).is_empty());
        assert_eq!(edits(&['a', 'b'], &[]), 2);
        assert_eq!(edits(&['a', 'b'], &['b', 'a']), 1);
        let fields = ["name", "kind", "seed", "trials", "target_ci"];
        assert_eq!(nearest("trail", fields), ["trials"]);
        let m = "unknown field `skil`, expected one of `name`, `source`, `skill`, `size`";
        assert_eq!(
            unknown_field_hint(m).as_deref(),
            Some("did you mean `skill`?")
        );
        assert_eq!(
            unknown_field_hint("unknown field `colour`, expected `name`"),
            None
        );
        assert_eq!(unknown_field_hint("invalid type: string"), None);
    }

    #[test]
    fn an_input_file_is_read_once_and_capped() {
        let dir = std::env::temp_dir().join(format!("diemon-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let small = dir.join("a.toml");
        std::fs::write(&small, "name = \"a\"\n").unwrap();
        assert_eq!(read(&small).unwrap(), "name = \"a\"\n");
        let big = dir.join("big.toml");
        std::fs::write(&big, vec![b'#'; MAX_INPUT as usize + 1]).unwrap();
        let e = read(&big).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge) && e.to_string().contains("larger than 16 MiB"));
        std::fs::write(&big, [0xff, 0xfe]).unwrap();
        let e = read(&big).unwrap_err();
        assert!(matches!(e, ReadError::NotText { at: 0 }) && e.to_string().contains("not UTF-8"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
