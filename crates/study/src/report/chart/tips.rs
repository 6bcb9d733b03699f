//! Hover tooltips (issue 44): each point, bar, cell and row a chart draws gets a box laid
//! over the full drawing with a `<title>`, which a browser shows on hover (a phone has no
//! hover, so the narrow drawing goes without). The text names the axes and their units and
//! gives figures to three significant digits, percentages with their sign:
//! "budget (CP): 28", "P(A wins): 98.6% [98.4%, 98.8%]".

use std::fmt::Write;

/// One hover box in the SVG's pixels (left, top, right, bottom) and what it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Tip {
    pub at: [i32; 4],
    pub text: String,
}

impl Tip {
    /// A box `half` pixels either way of the point `(x, y)`.
    pub fn around((x, y): (i32, i32), half: i32, text: String) -> Tip {
        Tip {
            at: [x - half, y - half, x + half, y + half],
            text,
        }
    }

    /// A box between two corners, in any order.
    pub fn between(a: (i32, i32), b: (i32, i32), text: String) -> Tip {
        Tip {
            at: [a.0.min(b.0), a.1.min(b.1), a.0.max(b.0), a.1.max(b.1)],
            text,
        }
    }
}

/// `v` to three significant digits (a whole number as it is), or as a percentage of 1 with
/// its sign when `percent`: 0.986 is "98.6%", 0.0035 "0.35%".
pub fn figure(v: f64, percent: bool) -> String {
    if percent {
        return format!("{}%", significant(v * 100.0));
    }
    significant(v)
}

/// `v` to three significant digits, trailing zeros dropped; whole numbers in full.
fn significant(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    if v == v.round() {
        return format!("{v:.0}");
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (2 - magnitude).clamp(0, 9) as usize;
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".into() } else { s }
}

/// A figure with its interval, when it has one: "98.6% [98.4%, 98.8%]".
pub fn with_ci(v: f64, lo: f64, hi: f64, percent: bool) -> String {
    if lo == hi {
        return figure(v, percent);
    }
    format!(
        "{} [{}, {}]",
        figure(v, percent),
        figure(lo, percent),
        figure(hi, percent)
    )
}

/// The SVG with each tip's box laid over it, last so that it is on top: invisible, and
/// showing its text on hover.
pub fn overlay(svg: &str, tips: &[Tip]) -> String {
    let Some(end) = svg.rfind("</svg>") else {
        return svg.to_string();
    };
    let mut boxes = String::from("<g fill=\"#000\" fill-opacity=\"0\">\n");
    for t in tips {
        let [x0, y0, x1, y1] = t.at;
        let text = t
            .text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        let _ = writeln!(
            boxes,
            "<rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\"><title>{text}</title></rect>",
            (x1 - x0).max(1),
            (y1 - y0).max(1)
        );
    }
    boxes.push_str("</g>\n");
    format!("{}{boxes}{}", &svg[..end], &svg[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_have_three_significant_digits_and_percent_signs() {
        assert_eq!(figure(0.98612, true), "98.6%");
        assert_eq!(figure(0.0035, true), "0.35%");
        assert_eq!(figure(1.0, true), "100%");
        assert_eq!(figure(28.0, false), "28");
        assert_eq!(figure(12.7634, false), "12.8");
        assert_eq!(figure(0.123456, false), "0.123");
        assert_eq!(figure(1234.6, false), "1235");
        assert_eq!(figure(-0.0001, false), "-0.0001");
        assert_eq!(with_ci(0.5, 0.49, 0.51, true), "50% [49%, 51%]");
        assert_eq!(with_ci(3.0, 3.0, 3.0, false), "3");
    }

    #[test]
    fn each_tip_is_an_invisible_box_with_its_text_on_top() {
        let svg = overlay(
            "<svg><circle/></svg>\n",
            &[Tip::around((10, 20), 5, "a <b> & c".into())],
        );
        assert_eq!(
            svg,
            "<svg><circle/><g fill=\"#000\" fill-opacity=\"0\">\n<rect x=\"5\" y=\"15\" \
             width=\"10\" height=\"10\"><title>a &lt;b&gt; &amp; c</title></rect>\n</g>\n\
             </svg>\n"
        );
        assert_eq!(overlay("not svg", &[]), "not svg");
    }
}
