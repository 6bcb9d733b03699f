//! A sheet: a report page made from plain values rather than one run's frames. A price
//! (its scenarios, its sensitivity) and a roster of prices are answers of several runs, so
//! their pages are built by the caller as a [`Sheet`] of sections, each with an optional
//! chart, paragraphs, links, a table and a list. [`write()`] draws it like a run's report:
//! `charts/STEM.svg` and `.png`, `report.md` and a self-contained `report.html`.

use std::path::{Path, PathBuf};

use super::ReportError;
use super::chart::{Chart, Inline};
use super::page::{SORT, cell, esc, head, inline};
use crate::export::{write_bytes_atomic, write_text_atomic};

/// A page: its title, the lines under it, and its sections.
#[derive(Clone, Debug, Default)]
pub struct Sheet {
    /// Its title.
    pub title: String,
    /// Short lines under the title (inline `code` allowed).
    pub lines: Vec<String>,
    /// Its sections, in order.
    pub sections: Vec<Section>,
    /// Its answer in one sentence, for the reports' index ([`super::about`]); else the
    /// first chart's caption's first sentence.
    pub answer: Option<String>,
}

/// A section: a heading, then (each optional) a chart with its caption, paragraphs, links
/// to other pages, a table and a list.
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// Its heading.
    pub heading: String,
    /// The chart's file stem, the chart and its caption.
    pub figure: Option<(String, Chart, String)>,
    /// Its paragraphs.
    pub paragraphs: Vec<String>,
    /// Text and a relative path.
    pub links: Vec<(String, String)>,
    /// Its table.
    pub table: Option<Table>,
    /// A bulleted list.
    pub list: Vec<String>,
    /// Preformatted text (a command to reproduce the page).
    pub code: Option<String>,
}

/// A table of text cells under a header.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// The header cells.
    pub header: Vec<String>,
    /// The rows' cells.
    pub rows: Vec<Vec<String>>,
}

/// Writes `dir/report.md`, `dir/report.html` and `dir/charts/*`; returns the files written.
pub fn write(dir: &Path, sheet: &Sheet) -> Result<Vec<PathBuf>, ReportError> {
    let charts = dir.join("charts");
    let mut written = Vec::new();
    let mut svgs = Vec::new();
    for (stem, chart, _) in sheet.sections.iter().filter_map(|s| s.figure.as_ref()) {
        std::fs::create_dir_all(&charts).map_err(|source| ReportError::Create {
            path: charts.clone(),
            source,
        })?;
        let svg = chart.inline()?;
        written.push(write_text_atomic(
            &charts,
            &format!("{stem}.svg"),
            &svg.wide,
        )?);
        written.push(write_bytes_atomic(
            &charts,
            &format!("{stem}.png"),
            &chart.png()?,
        )?);
        svgs.push(svg);
    }
    written.push(write_text_atomic(dir, "report.md", &markdown(sheet))?);
    written.push(write_text_atomic(dir, "report.html", &html(sheet, &svgs))?);
    let first = sheet.sections.iter().find_map(|s| s.figure.as_ref());
    let mut card = super::about::About::new(
        &sheet.title,
        first.map_or("", |f| f.2.as_str()),
        first.map(|f| f.0.as_str()),
    );
    if let Some(a) = &sheet.answer {
        card.answer = a.clone();
    }
    super::about::write(dir, &card)?;
    written.push(dir.join(super::about::FILE));
    Ok(written)
}

/// The sheet as Markdown, its charts linked.
pub fn markdown(sheet: &Sheet) -> String {
    let mut s = format!("# {}\n\n", sheet.title);
    for l in &sheet.lines {
        s.push_str(&format!("- {l}\n"));
    }
    for sec in &sheet.sections {
        s.push_str(&format!("\n## {}\n\n", sec.heading));
        if let Some((stem, chart, caption)) = &sec.figure {
            s.push_str(&format!(
                "![{}](charts/{stem}.png)\n\n{caption}\n\n",
                chart.title
            ));
        }
        for p in &sec.paragraphs {
            s.push_str(&format!("{p}\n\n"));
        }
        for (text, path) in &sec.links {
            s.push_str(&format!("- [{text}]({path})\n"));
        }
        if let Some(t) = &sec.table {
            s.push_str(&format!("| {} |\n", t.header.join(" | ")));
            s.push_str(&format!(
                "|{}\n",
                t.header.iter().map(|_| "---|").collect::<String>()
            ));
            for r in &t.rows {
                s.push_str(&format!("| {} |\n", r.join(" | ")));
            }
            s.push('\n');
        }
        for l in &sec.list {
            s.push_str(&format!("- {l}\n"));
        }
        if let Some(c) = &sec.code {
            s.push_str(&format!("\n```\n{}\n```\n", c.trim_end()));
        }
    }
    s
}

/// The sheet as one HTML file, its charts' SVG inlined (`svgs` in the order of the
/// sections' figures).
pub fn html(sheet: &Sheet, svgs: &[Inline]) -> String {
    let mut s = head(&esc(&sheet.title));
    if !sheet.lines.is_empty() {
        s.push_str("<ul>\n");
        for l in &sheet.lines {
            s.push_str(&format!("<li>{}</li>\n", inline(l)));
        }
        s.push_str("</ul>\n");
    }
    let mut svgs = svgs.iter();
    for sec in &sheet.sections {
        s.push_str(&format!("<h2>{}</h2>\n", esc(&sec.heading)));
        if let Some((_, _, caption)) = &sec.figure
            && let Some(svg) = svgs.next()
        {
            s.push_str(&super::page::figure(svg, caption));
        }
        for p in &sec.paragraphs {
            s.push_str(&format!("<p>{}</p>\n", inline(p)));
        }
        if !sec.links.is_empty() {
            s.push_str("<ul>\n");
            for (text, path) in &sec.links {
                s.push_str(&format!(
                    "<li><a href=\"{}\">{}</a></li>\n",
                    esc(path),
                    inline(text)
                ));
            }
            s.push_str("</ul>\n");
        }
        if let Some(t) = &sec.table {
            s.push_str("<div class=\"scroll\"><table class=\"sortable\">\n<tr>");
            for h in &t.header {
                s.push_str(&format!(
                    "<th class=\"sortable\" title=\"sort by this column\">{}</th>",
                    esc(h)
                ));
            }
            s.push_str("</tr>\n");
            for r in &t.rows {
                s.push_str("<tr>");
                for c in r {
                    s.push_str(&cell(&inline(c), c));
                }
                s.push_str("</tr>\n");
            }
            s.push_str("</table></div>\n");
        }
        if !sec.list.is_empty() {
            s.push_str("<ul>\n");
            for l in &sec.list {
                s.push_str(&format!("<li>{}</li>\n", inline(l)));
            }
            s.push_str("</ul>\n");
        }
        if let Some(c) = &sec.code {
            s.push_str(&format!("<pre>{}</pre>\n", esc(c.trim_end())));
        }
    }
    s.push_str(&format!("<script>{SORT}</script>\n</body></html>\n"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sheet_writes_each_part_in_both_pages() {
        let sheet = Sheet {
            title: "The price of <x>".into(),
            lines: vec!["listed `13` CP".into()],
            sections: vec![Section {
                heading: "Scenarios".into(),
                paragraphs: vec!["one price a scenario".into()],
                links: vec![("a report".into(), "a/report.html".into())],
                table: Some(Table {
                    header: vec!["scenario".into(), "price".into()],
                    rows: vec![vec!["line".into(), "12.5".into()]],
                }),
                list: vec!["a warning".into()],
                code: Some("diemon price x".into()),
                ..Section::default()
            }],
            answer: None,
        };
        let h = html(&sheet, &[]);
        assert!(h.contains("<h1>The price of &lt;x&gt;</h1>"), "{h}");
        for want in [
            "<li>listed <code>13</code> CP</li>",
            "<h2>Scenarios</h2>",
            "<p>one price a scenario</p>",
            "<a href=\"a/report.html\">a report</a>",
            "<td class=\"n\">line</td><td class=\"n\">12.5</td>",
            "<li>a warning</li>",
            "<pre>diemon price x</pre>",
        ] {
            assert!(h.contains(want), "{want}");
        }
        let m = markdown(&sheet);
        for want in [
            "# The price of <x>",
            "| scenario | price |\n|---|---|\n| line | 12.5 |",
            "- [a report](a/report.html)",
        ] {
            assert!(m.contains(want), "{want}\n{m}");
        }
    }
}
