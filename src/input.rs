//! Errors in input files (catalogs, experiments): the file, line and column, what is
//! wrong, and a hint.

use std::fmt;

/// A place in an input file and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
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

/// Reads an input file once, as text, refusing one larger than [`MAX_INPUT`]: a pipe or
/// `/dev/stdin` can be read only once, so every reader of a file takes its text from here.
pub fn read(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!(
            "it is larger than {} MiB, far more than any catalog, experiment or roster",
            MAX_INPUT >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "it is not UTF-8 text (byte {} is not): a catalog, experiment or roster is a TOML file",
            e.utf8_error().valid_up_to()
        )
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
