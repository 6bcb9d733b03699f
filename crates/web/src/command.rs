//! The command line a page answer offers: the page's question as `diemon` flags, quoted
//! for a shell, so a figure in the page can be re-run and checked in a terminal.

/// A word for a shell: as is when plain, else in double quotes.
pub fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-*/.,:=@_".contains(c))
    {
        s.to_string()
    } else {
        let mut q = String::from("\"");
        for c in s.chars() {
            if matches!(c, '\\' | '"' | '$' | '`') {
                q.push('\\');
            }
            q.push(c);
        }
        q.push('"');
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_a_shell_needs_it() {
        assert_eq!(quote("d6/2/1d6+1/2d6"), "d6/2/1d6+1/2d6");
        assert_eq!(quote("2d10 exp"), "\"2d10 exp\"");
        assert_eq!(quote("a \"b\" $c"), "\"a \\\"b\\\" \\$c\"");
        assert_eq!(quote(""), "\"\"");
    }
}
