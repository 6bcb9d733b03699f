//! A report's card for the reports' index ([`super::index`]): its title, its answer in one
//! sentence and its first chart, written beside the page as `about.json` by whichever
//! writer drew the page, so the index reads typed values and never parses a page back.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::export::{ExportError, write_json_atomic};

/// The card's file in a report's folder.
pub const FILE: &str = "about.json";

/// What the index shows of a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct About {
    /// The page's title: the question it answers.
    pub title: String,
    /// Its answer in one sentence.
    pub answer: String,
    /// Its first chart, relative to the folder (`charts/STEM.png`), if it draws one.
    pub thumbnail: Option<String>,
}

impl About {
    /// A card whose answer is the first sentence of `text` (a figure's caption).
    pub fn new(title: &str, text: &str, stem: Option<&str>) -> About {
        About {
            title: title.to_string(),
            answer: first_sentence(text),
            thumbnail: stem.map(|s| format!("charts/{s}.png")),
        }
    }
}

/// The first sentence of `text`: up to the first ". " (a decimal point is no end), or all.
pub fn first_sentence(text: &str) -> String {
    let t = text.trim();
    match t.find(". ") {
        Some(i) => t[..=i].to_string(),
        None => t.to_string(),
    }
}

/// Writes `about` into `dir` (temporary file, then renamed).
pub fn write(dir: &Path, about: &About) -> Result<(), ExportError> {
    write_json_atomic(dir, FILE, about).map(|_| ())
}

/// The card in `dir`, if one is there and reads.
pub fn read(dir: &Path) -> Option<About> {
    serde_json::from_str(&std::fs::read_to_string(dir.join(FILE)).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_the_captions_first_sentence() {
        let a = About::new(
            "The fair CP of a Hero",
            "hero-hand-weapon is worth 2.127 ± 0.009 minifigs = 12.76 CP (95% CI). It is read \
             where the curve crosses 50%.",
            Some("fair_cp"),
        );
        assert_eq!(
            a.answer,
            "hero-hand-weapon is worth 2.127 ± 0.009 minifigs = 12.76 CP (95% CI)."
        );
        assert_eq!(a.thumbnail.as_deref(), Some("charts/fair_cp.png"));
        assert_eq!(first_sentence(" one line, no stop "), "one line, no stop");
    }
}
