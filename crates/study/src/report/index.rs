//! The reports' index: one page, `DIR/index.html`, listing every report under a folder with
//! its question, its answer in one sentence and a thumbnail of its first chart, each linking
//! to the report. It reads each report's card ([`super::about`]), which the report's own
//! writer left beside it.

use std::path::{Path, PathBuf};

use super::ReportError;
use super::about::{self, About};
use super::page::{esc, head, inline};
use crate::export::write_text_atomic;

/// The index's file in its folder.
pub const FILE: &str = "index.html";

/// The reports under `dir`: each folder holding a `report.html`, by name, with its card if
/// it has one.
pub fn reports(dir: &Path) -> std::io::Result<Vec<(String, Option<About>)>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.join("report.html").is_file() {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            found.push((name, about::read(&path)));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// Writes `dir/index.html` over every report under `dir` ([`reports`]); returns its path
/// and the reports it lists.
pub fn write(dir: &Path) -> Result<(PathBuf, usize), ReportError> {
    let found = reports(dir).map_err(|source| ReportError::Create {
        path: dir.to_path_buf(),
        source,
    })?;
    let path = write_text_atomic(dir, FILE, &html(&found))?;
    Ok((path, found.len()))
}

/// The index page: a card a report, in a grid that folds to one column on a phone.
fn html(found: &[(String, Option<About>)]) -> String {
    let mut s = head("diemon reports").replace(
        "</style>",
        ".cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:1em}\n\
         .card{border:1px solid #ddd;padding:.8em;color:inherit;text-decoration:none;display:block}\n\
         .card:hover{border-color:#888}.card img{width:100%;height:auto;display:block}\n\
         .card h2{font-size:1.05em;margin:.5em 0}.card p{margin:.3em 0}\n</style>",
    );
    s.push_str(&format!(
        "<p>{} reports, each a question diemon answered with seeded, replayable battles, \
         Explosions or dice. Each card gives the question, its answer in one sentence and \
         the report's first chart; the report holds the figures with their 95% CIs, the \
         frames (CSV and Parquet) and the command that reproduces it.</p>\n<div class=\"cards\">\n",
        found.len()
    ));
    for (name, card) in found {
        let link = format!("{}/report.html", esc(name));
        match card {
            Some(a) => {
                let img = a
                    .thumbnail
                    .as_ref()
                    .map(|t| {
                        format!(
                            "<img src=\"{}/{}\" alt=\"{}\" loading=\"lazy\">",
                            esc(name),
                            esc(t),
                            esc(&a.title)
                        )
                    })
                    .unwrap_or_default();
                s.push_str(&format!(
                    "<a class=\"card\" href=\"{link}\">{img}<h2>{}</h2><p>{}</p>\
                     <p><code>{}</code></p></a>\n",
                    esc(&a.title),
                    inline(&a.answer),
                    esc(name)
                ));
            }
            None => s.push_str(&format!(
                "<a class=\"card\" href=\"{link}\"><h2>{}</h2><p>(no card: redraw it with \
                 <code>diemon report</code> or run it again)</p></a>\n",
                esc(name)
            )),
        }
    }
    s.push_str("</div>\n</body></html>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_lists_every_report_with_its_card_and_links_to_it() {
        let dir = std::env::temp_dir().join(format!("diemon-index-{}", std::process::id()));
        for name in ["b-run", "a-run", "no-card"] {
            std::fs::create_dir_all(dir.join(name)).unwrap();
            std::fs::write(dir.join(name).join("report.html"), "<html></html>").unwrap();
        }
        // A folder with no report is no report.
        std::fs::create_dir_all(dir.join("cells-only")).unwrap();
        for name in ["a-run", "b-run"] {
            about::write(
                &dir.join(name),
                &About::new(
                    &format!("Q {name} & <more>"),
                    "It wins 55%. More.",
                    Some("x"),
                ),
            )
            .unwrap();
        }
        let (path, n) = write(&dir).unwrap();
        assert_eq!(n, 3);
        let page = std::fs::read_to_string(path).unwrap();
        let a = page.find("a-run/report.html").unwrap();
        let b = page.find("b-run/report.html").unwrap();
        assert!(a < b, "by name");
        assert!(page.contains("Q a-run &amp; &lt;more&gt;"), "{page}");
        assert!(page.contains("<p>It wins 55%.</p>"));
        assert!(page.contains("src=\"a-run/charts/x.png\""));
        assert!(page.contains("no-card/report.html") && page.contains("no card"));
        assert!(!page.contains("cells-only"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
