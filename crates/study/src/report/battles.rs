//! A report's example battles (issue 43): the maps a run drew of one battle of each cell
//! fought on a table (`maps/cell-NNN.svg`, written by `diemon run`), each on the page
//! with a slider that steps through it turn by turn.

use std::path::Path;

/// The folder of a run's maps.
pub const DIR: &str = "maps";

/// A run's maps, in cell order: (file name, SVG).
pub fn load(dir: &Path) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(dir.join(DIR)) else {
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("cell-") && n.ends_with(".svg"))
        .filter_map(|n| {
            let svg = std::fs::read_to_string(dir.join(DIR).join(&n)).ok()?;
            Some((n, svg))
        })
        .collect();
    out.sort();
    out
}

/// The turns a map holds: its last `data-turn`.
fn last_turn(svg: &str) -> u32 {
    svg.match_indices(r#"class="turn" data-turn=""#)
        .filter_map(|(i, m)| {
            let rest = &svg[i + m.len()..];
            rest[..rest.find('"')?].parse().ok()
        })
        .max()
        .unwrap_or(0)
}

/// The SVG's own title (the cell and how its battle ended).
fn title(svg: &str) -> &str {
    svg.find("<title>")
        .and_then(|i| {
            let rest = &svg[i + 7..];
            Some(&rest[..rest.find("</title>")?])
        })
        .unwrap_or("")
}

/// The page's section: each map in a figure, a slider under it.
pub fn html(maps: &[(String, String)]) -> String {
    if maps.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "<h2>Example battles</h2>\n<p>The first trial of each cell fought on a table, replayed \
         (the same dice the run drew). Side A (blue) starts at the bottom edge, side B (red) at \
         the top; lines are walks (dotted: steps back, the Angry Inch, KnockBack), orange lines \
         hits and grey dashes misses, crosses falls. Move the slider to step through the \
         turns.</p>\n",
    );
    for (name, svg) in maps {
        let last = last_turn(svg);
        let body = svg.find("<svg").map_or(svg.as_str(), |i| &svg[i..]);
        s.push_str(&format!(
            "<section class=\"battle\">\n<figure>\n{body}\n<figcaption>{} ({name})</figcaption>\n\
             </figure>\n<p><label>turn <input type=\"range\" min=\"1\" max=\"{last}\" \
             value=\"{last}\" oninput=\"step(this)\"> <output>{last}</output> of {last}</label></p>\n\
             </section>\n",
            title(svg)
        ));
    }
    s.push_str(
        "<script>function step(r){var n=+r.value,m=r.closest('section').querySelector('svg');\
         m.querySelectorAll('g.turn').forEach(function(g){g.style.display=+g.dataset.turn<=n?'':'none'});\
         m.querySelectorAll('g.at').forEach(function(g){g.style.display=+g.dataset.turn===n?'':'none'});\
         r.nextElementSibling.value=n}</script>\n",
    );
    s
}

/// The Markdown section: a link to each map.
pub fn markdown(maps: &[(String, String)]) -> String {
    if maps.is_empty() {
        return String::new();
    }
    let mut s =
        String::from("## Example battles\n\nThe first trial of each cell fought on a table:\n\n");
    for (name, svg) in maps {
        s.push_str(&format!("- [{}](maps/{name})\n", title(svg)));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_43_a_map_steps_through_its_turns_on_the_page() {
        let svg = r#"<svg><title>cell 1: A wins</title><g class="turn" data-turn="1"></g><g class="turn" data-turn="12"></g></svg>"#;
        let maps = vec![("cell-001.svg".to_string(), svg.to_string())];
        let h = html(&maps);
        assert!(h.contains(r#"max="12" value="12""#), "{h}");
        assert!(h.contains("<figcaption>cell 1: A wins (cell-001.svg)</figcaption>"));
        assert!(markdown(&maps).contains("- [cell 1: A wins](maps/cell-001.svg)"));
        assert_eq!(html(&[]), "");
    }
}
