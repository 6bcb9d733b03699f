//! The report's pages: Markdown (charts linked) and HTML (charts inlined), with the same
//! content: the question, the options in force, the results with CIs, each chart and what
//! it shows, and how to reproduce it.

use super::build::{Figure, key, plain, pm, units_text};
use super::chart::Inline;
use super::frames::{Frames, numbers, texts};

/// Columns the results table shows after the parameters, when the run has them.
const COLUMNS: &[(&str, &str, bool)] = &[
    ("p_a_wins", "P(A wins)", true),
    ("p_draw", "P(draw)", true),
    ("mean_turns", "turns", false),
    ("cp_efficiency_a", "B's CP destroyed per CP of A", false),
    ("mean_kills", "kills a turn", false),
    ("kills_per_cp", "kills per CP", false),
    ("p_hit", "P(a shot hits)", true),
    ("p_jam", "P(jam)", true),
    ("p_basic", "P(Basic: 1+ Marks)", true),
    ("p_competent", "P(Competent: 3+)", true),
    ("p_mastery", "P(Mastery: 5+)", true),
    ("mean", "mean Marks", false),
    ("p_wins", "P(wins)", true),
    (
        "p_success_within_tries",
        "P(success within the tries)",
        true,
    ),
    ("p_done", "P(extended roll done)", true),
    ("p_mc", "Monte Carlo check of P(1+ Marks or done)", true),
];

/// Rows of the results table: header, then one row of cells per run cell.
fn results(frames: &Frames) -> (Vec<String>, Vec<Vec<String>>) {
    let df = &frames.summary;
    let axes = frames.axes();
    let params: Vec<Vec<String>> = axes.iter().filter_map(|a| texts(df, a)).collect();
    let shown: Vec<&(&str, &str, bool)> = COLUMNS
        .iter()
        .filter(|(c, _, _)| {
            numbers(df, c).is_some_and(|v| v.iter().any(|x| x.is_some_and(|x| x != 0.0)))
        })
        .collect();
    // A column with CI bounds is an estimate; one without is exact.
    let has_ci = |c: &str| df.column(&format!("{c}_lo")).is_ok();
    let mut header: Vec<String> = axes.clone();
    header.extend(shown.iter().map(|(c, l, _)| {
        if has_ci(c) {
            format!("{l} (95% CI)")
        } else {
            format!("{l} (exact)")
        }
    }));
    // What each side pays for parts that do nothing, beside the cell (issue 21).
    let inert_cp: Vec<Vec<Option<f64>>> = ["inert_cp_a", "inert_cp_b"]
        .iter()
        .filter_map(|c| numbers(df, c))
        .collect();
    let any_inert = inert_cp
        .iter()
        .flatten()
        .any(|x| x.is_some_and(|x| x != 0.0));
    if any_inert {
        header.push("CP paid for inert parts (A / B)".into());
    }
    header.push("trials".into());
    let trials = numbers(df, "trials").unwrap_or_default();
    type Col = (
        Vec<Option<f64>>,
        Vec<Option<f64>>,
        Vec<Option<f64>>,
        bool,
        bool,
    );
    let cols: Vec<Col> = shown
        .iter()
        .map(|(c, _, p)| {
            let v = numbers(df, c).unwrap_or_default();
            let lo = numbers(df, &format!("{c}_lo")).unwrap_or_else(|| v.clone());
            let hi = numbers(df, &format!("{c}_hi")).unwrap_or_else(|| v.clone());
            (v, lo, hi, *p, has_ci(c))
        })
        .collect();
    let rows = (0..df.height())
        .map(|i| {
            let mut r: Vec<String> = params.iter().map(|p| p[i].clone()).collect();
            for (v, lo, hi, p, ci) in &cols {
                r.push(match (v[i], lo[i], hi[i]) {
                    (Some(v), Some(l), Some(h)) if *ci => pm(v, l, h, *p),
                    (Some(v), _, _) => plain(v, *p),
                    _ => "-".into(),
                });
            }
            if any_inert {
                r.push(
                    inert_cp
                        .iter()
                        .map(|c| c[i].map_or("-".into(), |x| format!("{x}")))
                        .collect::<Vec<_>>()
                        .join(" / "),
                );
            }
            r.push(
                trials
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or("-".into(), |t| format!("{t:.0}")),
            );
            r
        })
        .collect();
    (header, rows)
}

/// The parts each side fields that cost CP and do nothing in these battles: (side, part),
/// distinct, in cell order; `None` when the frames do not say (not a squad duel).
pub fn inert_parts(frames: &Frames) -> Option<Vec<(String, String)>> {
    let mut any = false;
    let mut v = Vec::new();
    for side in ["a", "b"] {
        let Some(col) = texts(&frames.summary, &format!("inert_{side}")) else {
            continue;
        };
        any = true;
        for cell in col {
            for part in cell.split("; ").filter(|p| !p.is_empty()) {
                let row = (format!("side {}", side.to_uppercase()), part.to_string());
                if !v.contains(&row) {
                    v.push(row);
                }
            }
        }
    }
    any.then_some(v)
}

/// The section's sentence before the list of inert parts.
fn inert_intro(frames: &Frames, n: usize) -> String {
    let kind = frames.text("kind");
    if n == 0 {
        return "Every part these units pay CP for acts in these battles: no item or trait is \
                inert."
            .into();
    }
    let fitted = match kind {
        "fair-cp" => {
            " The fair CP prices what acts; the inert parts below are paid for and give nothing here."
        }
        "matchups" => {
            " The loadouts below pay for parts that do nothing in these battles: their standing ranks what acts, at a price that includes the rest."
        }
        _ => "",
    };
    format!(
        "These parts cost CP and do nothing in these battles (\"CP paid for inert parts\" in the results).{fitted}"
    )
}

/// Each side's policies as the cells ran them (distinct values, in cell order).
fn policies(frames: &Frames) -> Vec<(String, String)> {
    let mut v = Vec::new();
    for side in ["a", "b"] {
        let Some(col) = texts(&frames.summary, &format!("policy_{side}")) else {
            continue;
        };
        let mut seen: Vec<String> = Vec::new();
        for p in col {
            if !p.is_empty() && !seen.contains(&p) {
                seen.push(p);
            }
        }
        if !seen.is_empty() {
            v.push((format!("side {}", side.to_uppercase()), seen.join("; ")));
        }
    }
    v
}

/// Every option with its value, marking those that differ from the default.
fn options(frames: &Frames) -> Vec<(String, String)> {
    let defaults = diemon_core::rules::RuleOptions::default();
    let mut v = Vec::new();
    if let Some(t) = frames.manifest.get("options").and_then(|o| o.as_table()) {
        for (k, d) in defaults.pairs() {
            let now = t.get(k).and_then(|x| x.as_str()).unwrap_or("");
            v.push((
                k.to_string(),
                if now == d {
                    now.to_string()
                } else {
                    format!("{now} (default {d})")
                },
            ));
        }
    }
    v
}

/// Side `a` or `b`'s units in a few words when every cell fields the same ("minifig-launcher",
/// "3 × hero-hand-weapon"), for chart titles, axes and legends; `None` when a sweep changes
/// them or the kind has no sides.
pub fn side_name(frames: &Frames, side: char) -> Option<String> {
    let spec: toml::Table = frames.text("source").parse().ok()?;
    if let Some(f) = spec.get("fair_cp").and_then(|v| v.as_table()) {
        let key = if side == 'a' { "unit" } else { "reference" };
        return f.get(key).and_then(|v| v.as_str()).map(str::to_string);
    }
    if spec.get("kind").and_then(|v| v.as_str()) != Some("duel") {
        return None;
    }
    let key = side.to_string();
    let swept = spec
        .get("sweep")
        .and_then(|v| v.as_table())
        .is_some_and(|t| t.contains_key(&key));
    if swept {
        return None;
    }
    spec.get("scenario")
        .and_then(|v| v.as_table())
        .and_then(|t| t.get(&key))
        .and_then(|v| v.as_str())
        .map(units_text)
}

/// Who the sides are, from the experiment's text: "A = 3 × hero-hand-weapon, B = ...", so a
/// reader never has to guess which side "A" is.
pub fn sides(frames: &Frames) -> Option<String> {
    let spec: toml::Table = frames.text("source").parse().ok()?;
    let empty = toml::Table::new();
    let scenario = spec
        .get("scenario")
        .and_then(|v| v.as_table())
        .unwrap_or(&empty);
    let sweep = spec
        .get("sweep")
        .and_then(|v| v.as_table())
        .unwrap_or(&empty);
    let one = |v: &toml::Value| -> Option<String> {
        match v {
            toml::Value::String(s) => Some(units_text(s)),
            toml::Value::Array(a) => Some(
                a.iter()
                    .filter_map(|x| x.as_str().map(units_text))
                    .collect::<Vec<_>>()
                    .join(", or "),
            ),
            _ => None,
        }
    };
    let side = |k: &str| scenario.get(k).or_else(|| sweep.get(k)).and_then(one);
    if let Some(f) = spec.get("fair_cp").and_then(|v| v.as_table()) {
        let unit = f.get("unit").and_then(|v| v.as_str())?;
        let reference = f.get("reference").and_then(|v| v.as_str())?;
        return Some(format!(
            "A = {unit} (one or more), B = as many {reference} as each cell counts"
        ));
    }
    if spec.get("kind").and_then(|v| v.as_str()) != Some("duel") {
        return None;
    }
    let budget = scenario.contains_key("budget") || sweep.contains_key("budget");
    let fill = if budget {
        " (each side as many as the budget buys)"
    } else {
        ""
    };
    match (side("a"), side("b")) {
        (Some(a), Some(b)) => Some(format!("A = {a}; B = {b}{fill}")),
        (Some(a), None) => Some(format!("A = {a}{fill}")),
        (None, Some(b)) => Some(format!("B = {b}{fill}")),
        // Stat-line duels: the default line is a minifig with a Hand Weapon.
        (None, None) => Some(
            "A and B = a minifig with a Hand Weapon (Skill d6, Use 2, Damage 1d6, Armor 4) \
             unless the sweep changes one"
                .into(),
        ),
    }
}

/// The page's title: the question the experiment asks (its description), else its name.
pub(super) fn title(frames: &Frames) -> String {
    let d = frames.text("description").trim();
    if d.is_empty() {
        frames.text("name").to_string()
    } else {
        d.to_string()
    }
}

fn header_lines(frames: &Frames) -> Vec<String> {
    let k = key(frames);
    let cells = frames
        .manifest
        .get("cells")
        .and_then(|c| c.as_integer())
        .unwrap_or(0);
    let have = frames.summary.height() as i64;
    let partial = (have < cells).then(|| {
        format!(
            "partial: only {have} of {cells} cells finished (the run was stopped; running it \
             again resumes it)"
        )
    });
    partial
        .into_iter()
        .chain([
            format!(
                "experiment `{}`, kind `{}`, {} cells of {} trials each, seed {}, diemon {}",
                frames.text("name"),
                frames.text("kind"),
                frames
                    .manifest
                    .get("cells")
                    .and_then(|c| c.as_integer())
                    .unwrap_or(0),
                frames
                    .manifest
                    .get("trials")
                    .and_then(|c| c.as_integer())
                    .unwrap_or(0),
                frames
                    .manifest
                    .get("seed")
                    .and_then(|c| c.as_integer())
                    .unwrap_or(0),
                frames.text("diemon_version"),
            ),
            if k.exact {
                format!(
                    "key figure: {}, exact (Monte Carlo figures, such as the check of each \
                 cell, with 95% confidence intervals)",
                    k.label
                )
            } else {
                format!("key figure: {}, with 95% confidence intervals", k.label)
            },
        ])
        .collect()
}

/// The report as Markdown; charts are linked from `charts/`.
pub fn markdown(frames: &Frames, figures: &[Figure], battles: &str) -> String {
    let mut s = format!("# {}\n\n", title(frames));
    if let Some(who) = sides(frames) {
        s.push_str(&format!("**{who}**\n\n"));
    }
    for l in header_lines(frames) {
        s.push_str(&format!("- {l}\n"));
    }
    s.push_str("\n## Figures\n\n");
    for f in figures {
        s.push_str(&format!(
            "### {}\n\n![{}](charts/{}.svg)\n\n{}\n\n",
            f.chart.title, f.chart.title, f.stem, f.sentence
        ));
    }
    s.push_str(battles);
    let (header, rows) = results(frames);
    s.push_str("## Results\n\n");
    s.push_str(&format!("| {} |\n", header.join(" | ")));
    s.push_str(&format!("|{}\n", "---|".repeat(header.len())));
    for r in rows {
        s.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    if let Some(parts) = inert_parts(frames) {
        s.push_str(&format!(
            "\n## Priced but inert\n\n{}\n\n",
            inert_intro(frames, parts.len())
        ));
        for (side, part) in &parts {
            s.push_str(&format!("- {side}: {part}\n"));
        }
    }
    s.push_str("\n## Rule options in force\n\n");
    for (k, v) in options(frames) {
        s.push_str(&format!("- `{k}` = {v}\n"));
    }
    let p = policies(frames);
    if !p.is_empty() {
        s.push_str("\n## Policies in force\n\n");
        for (k, v) in p {
            s.push_str(&format!("- {k}: {v}\n"));
        }
    }
    s.push_str(&format!(
        "\n## The experiment\n\n```toml\n{}\n```\n\nReproduce: `diemon run` on this file (same \
         seed, same digits, on any thread count). `diemon report` on this folder redraws this \
         page from the Parquet files. Full figures: `summary.parquet` / `.csv`.\n",
        frames.text("source").trim_end()
    ));
    s
}

pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Escaped text with Markdown's inline code (`like this`) as `<code>`.
pub(super) fn inline(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    // An odd number of backticks leaves the last one as it is.
    let paired = parts.len() % 2 == 1;
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i % 2 == 1 && (paired || i + 1 < parts.len()) {
            out.push_str(&format!("<code>{}</code>", esc(p)));
        } else {
            if i % 2 == 1 {
                out.push('`');
            }
            out.push_str(&esc(p));
        }
    }
    out
}

/// Sorts a results table by the clicked column: numbers (the figure before any "%" or
/// " ± ") as numbers, else as text; a second click reverses. No external code.
pub(super) const SORT: &str = "document.querySelectorAll('table.sortable').forEach(function(t){\
var hs=t.querySelectorAll('th');hs.forEach(function(h,i){var up=true;h.addEventListener('click',\
function(){var rows=Array.prototype.slice.call(t.querySelectorAll('tr')).slice(1);\
var key=function(r){var s=r.children[i].textContent;var n=parseFloat(s);return isNaN(n)?s:n;};\
rows.sort(function(a,b){var x=key(a),y=key(b);var c=(typeof x==='number'&&typeof y==='number')?\
x-y:String(x).localeCompare(String(y));return up?c:-c;});up=!up;\
rows.forEach(function(r){t.appendChild(r);});});});});";

/// An HTML page's head and its `<h1>`, for an escaped `name`: the style every report
/// shares, no external resources.
pub(super) fn head(name: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>{name} - \
         diemon report</title>\n<style>\nbody{{font-family:sans-serif;max-width:960px;margin:2em \
         auto;padding:0 1em;color:#222}}\ntable{{border-collapse:collapse;font-size:14px}}\n\
         td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}\nth{{background:#f3f3f3}}\n\
         figure{{margin:1.5em 0}}figcaption{{margin-top:.4em}}\npre{{background:#f6f6f6;padding:\
         1em;overflow-x:auto}}\nsvg{{max-width:100%;height:auto}}\n.scroll{{overflow-x:auto;max-width:100%}}\n\
         body{{overflow-wrap:anywhere}}\ncode{{background:#f3f3f3;padding:0 .2em}}\n\
         td.n{{white-space:nowrap;overflow-wrap:normal}}\nth{{overflow-wrap:normal}}\n.narrow{{display:none}}\n\
         .chart-title{{font-weight:bold;margin:0 0 .3em}}\n\
         @media (max-width:640px){{.wide{{display:none}}.narrow{{display:block}}\
         .pan{{overflow-x:auto}}.pan svg{{max-width:none}}}}\n\
         th.sortable{{cursor:pointer}}\n</style>\n<meta name=\"viewport\" \
         content=\"width=device-width,initial-scale=1\">\n</head><body>\n<h1>{name}</h1>\n"
    )
}

/// A figure as a page inlines it: the full chart, and for a phone (a screen at most 640
/// pixels wide) the narrow one under its title as text that wraps, or, with none, the full
/// one at its own size in a box that scrolls sideways; then the caption.
pub(super) fn figure(svg: &Inline, caption: &str) -> String {
    // The SVG's own XML header is not allowed inside HTML.
    let body = |svg: &str| svg.find("<svg").map_or(svg, |i| &svg[i..]).to_string();
    let chart = match &svg.narrow {
        Some(narrow) => format!(
            "<div class=\"wide\">{}</div>\n<div class=\"narrow\"><p class=\"chart-title\">{}</p>\n{}</div>",
            body(&svg.wide),
            esc(&svg.title),
            body(narrow)
        ),
        None => format!(
            "<p class=\"chart-title narrow\">{}</p>\n<div class=\"pan\">{}</div>",
            esc(&svg.title),
            body(&svg.wide)
        ),
    };
    format!(
        "<figure>\n{chart}\n<figcaption>{}</figcaption>\n</figure>\n",
        inline(caption)
    )
}

/// A table cell: a short one (a figure, a name, a verdict with its CI such as "under-priced
/// by 10.23 CP (10.08 to 10.38)") never wraps, so no number breaks across lines; a long
/// one (a sentence) wraps at its spaces.
/// `html` is the cell's content, `plain` its text.
pub(super) fn cell(html: &str, plain: &str) -> String {
    if plain.chars().count() <= SHORT_CELL {
        format!("<td class=\"n\">{html}</td>")
    } else {
        format!("<td>{html}</td>")
    }
}

/// The longest cell kept on one line: a verdict with three-digit CP and its CI fits.
const SHORT_CELL: usize = 48;

/// The report as one HTML file: the charts' SVG inlined, no external resources.
pub fn html(frames: &Frames, figures: &[Figure], svgs: &[Inline], battles: &str) -> String {
    let name = esc(&title(frames));
    let mut s = format!(
        "{}{}<ul>\n",
        head(&name),
        sides(frames)
            .map(|w| format!("<p><strong>{}</strong></p>\n", esc(&w)))
            .unwrap_or_default()
    );
    for l in header_lines(frames) {
        s.push_str(&format!("<li>{}</li>\n", inline(&l)));
    }
    s.push_str("</ul>\n<h2>Figures</h2>\n");
    for (f, svg) in figures.iter().zip(svgs) {
        s.push_str(&figure(svg, &f.sentence));
    }
    s.push_str(battles);
    let (header, rows) = results(frames);
    s.push_str("<h2>Results</h2>\n<div class=\"scroll\"><table class=\"sortable\">\n<tr>");
    for h in &header {
        s.push_str(&format!(
            "<th class=\"sortable\" title=\"sort by this column\">{}</th>",
            esc(h)
        ));
    }
    s.push_str("</tr>\n");
    for r in rows {
        s.push_str("<tr>");
        for c in r {
            s.push_str(&cell(&esc(&c), &c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table></div>\n");
    if let Some(parts) = inert_parts(frames) {
        s.push_str(&format!(
            "<h2>Priced but inert</h2>\n<p>{}</p>\n<ul>\n",
            inline(&inert_intro(frames, parts.len()))
        ));
        for (side, part) in &parts {
            s.push_str(&format!("<li>{}: {}</li>\n", esc(side), esc(part)));
        }
        s.push_str("</ul>\n");
    }
    s.push_str("<h2>Rule options in force</h2>\n<ul>\n");
    for (k, v) in options(frames) {
        s.push_str(&format!(
            "<li><code>{}</code> = {}</li>\n",
            esc(&k),
            esc(&v)
        ));
    }
    s.push_str(&format!(
        "</ul>\n<h2>The experiment</h2>\n<pre>{}</pre>\n<p>Reproduce: <code>diemon run</code> \
         on this file (same seed, same digits, on any thread count). <code>diemon report</code> \
         on this folder redraws this page from the Parquet files.</p>\n<script>{SORT}</script>\n\
         </body></html>\n",
        esc(frames.text("source").trim_end())
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(source: &str) -> Frames {
        let mut manifest = toml::Table::new();
        manifest.insert("source".into(), source.into());
        Frames {
            manifest,
            summary: polars::prelude::DataFrame::empty(),
            distributions: None,
            by_ring: None,
            by_turn: None,
            fair_cp: None,
            matchups: None,
        }
    }

    #[test]
    fn issue_44_a_side_is_named_where_every_cell_fields_the_same() {
        let duel =
            "kind = \"duel\"\n[scenario]\na = \"minifig-launcher\"\nb = \"hero-hand-weapon*3\"\n";
        assert_eq!(
            side_name(&frames(duel), 'a').as_deref(),
            Some("minifig-launcher")
        );
        assert_eq!(
            side_name(&frames(duel), 'b').as_deref(),
            Some("3 × hero-hand-weapon")
        );
        // A swept side has no one name.
        let swept =
            "kind = \"duel\"\n[scenario]\nb = \"ogre\"\n[sweep]\na = [\"hero\", \"ogre\"]\n";
        assert_eq!(side_name(&frames(swept), 'a'), None);
        let fair =
            "kind = \"fair-cp\"\n[fair_cp]\nunit = \"horse\"\nreference = \"minifig-rifle\"\n";
        assert_eq!(
            side_name(&frames(fair), 'b').as_deref(),
            Some("minifig-rifle")
        );
        assert_eq!(side_name(&frames("kind = \"blast\""), 'a'), None);
    }
}
