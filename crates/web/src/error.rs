//! Errors as the page shows them: the message the terminal would print (with the caret
//! under the offending text), and where it points, so the page can mark the field.

use serde::Serialize;

use diemon_core::dice::ParseError;
use diemon_core::options::OptionError;

/// A question the page cannot answer, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Error {
    /// The field at fault, as the page names its inputs (`expr`, `a.damage`, `options`).
    pub field: String,
    /// What went wrong, with a hint; for an expression, the terminal's located message.
    pub message: String,
    /// For an expression: the 1-based column and width of the offending text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// Its width in characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<usize>,
}

impl Error {
    /// A plain error on `field`.
    pub fn input(field: &str, message: impl Into<String>) -> Error {
        Error {
            field: field.to_string(),
            message: message.into(),
            column: None,
            width: None,
        }
    }

    /// An expression `text` in `field` that does not parse: located as the terminal does.
    pub fn expr(field: &str, name: &str, text: &str, e: &ParseError) -> Error {
        Error {
            field: field.to_string(),
            message: e.render(name, text),
            column: Some(e.column),
            width: Some(e.width),
        }
    }
}

impl From<OptionError> for Error {
    fn from(e: OptionError) -> Error {
        Error::input("options", e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diemon_core::dice::Expr;

    #[test]
    fn an_expression_error_points_where_the_terminal_does() {
        let e = Expr::parse("2d7 exp").unwrap_err();
        let w = Error::expr("expr", "<expression>", "2d7 exp", &e);
        assert_eq!(w.column, Some(e.column));
        assert!(w.message.starts_with("<expression>:1:"), "{}", w.message);
        assert!(w.message.contains("\n  2d7 exp\n  "), "{}", w.message);
    }
}
