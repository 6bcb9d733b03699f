//! A ranges chart: one row per label, a dot with its CI whisker, and optionally a bar from
//! where the row starts (a tornado's baseline, a gap's zero), a marked value (a listed
//! cost) and a shaded band (a spread). Rows read top to bottom in the order given.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::tips::{self, Tip};
use super::{Chart, DrawError, FONT, PALETTE, Series, Width, corner, legend, span};

/// One row: its label, where its bar starts, its figure and the figure's CI.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    /// Its label.
    pub label: String,
    /// The bar runs from here to `to`; equal to `to`, the row is a dot alone.
    pub from: f64,
    /// Where the bar ends: the row's figure.
    pub to: f64,
    /// The figure's CI, lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

impl Chart {
    pub(super) fn ranges<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        rows: &[Range],
        dots: &str,
        line: Option<&(String, f64)>,
        band: Option<&(String, [f64; 2])>,
        width: Width,
    ) -> Result<Vec<Tip>, DrawError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| DrawError(e.to_string());
        let n = rows.len().max(1) as f64;
        let xs = rows
            .iter()
            .flat_map(|r| [r.from, r.to, r.lo, r.hi])
            .chain(line.map(|l| l.1))
            .chain(band.into_iter().flat_map(|b| b.1));
        let (x0, x1) = span(xs);
        let pad = (x1 - x0) * 0.06;
        let labels: Vec<String> = rows.iter().map(|r| width.fit(&r.label)).collect();
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(4) as u32;
        let mut c = self
            .builder(root, width)
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size((longest * 8 + 12).clamp(60, 380))
            .build_cartesian_2d((x0 - pad)..(x1 + pad), 0.0..n)
            .map_err(err)?;
        c.configure_mesh()
            .x_desc(width.fit_legend(&self.x_label))
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(width.x_labels())
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(err)?;
        // Row i's centre, counted from the top.
        let y = |i: usize| n - i as f64 - 0.5;
        if let Some((label, [lo, hi])) = band {
            c.draw_series(std::iter::once(Rectangle::new(
                [(*lo, 0.0), (*hi, n)],
                RGBColor(200, 200, 200).mix(0.35).filled(),
            )))
            .map_err(err)?
            .label(label.as_str())
            .legend(|(x, y)| {
                Rectangle::new(
                    [(x, y - 6), (x + 20, y + 6)],
                    RGBColor(200, 200, 200).mix(0.6).filled(),
                )
            });
        }
        // Bars a third of a row thick: blue to the right of where they start, orange to the
        // left.
        c.draw_series(
            rows.iter()
                .enumerate()
                .filter(|(_, r)| r.from != r.to)
                .map(|(i, r)| {
                    let colour = if r.to > r.from {
                        PALETTE[0]
                    } else {
                        PALETTE[1]
                    };
                    Rectangle::new(
                        [(r.from, y(i) - 0.3), (r.to, y(i) + 0.3)],
                        colour.mix(0.7).filled(),
                    )
                }),
        )
        .map_err(err)?;
        c.draw_series(rows.iter().enumerate().map(|(i, r)| {
            PathElement::new(vec![(r.lo, y(i)), (r.hi, y(i))], BLACK.stroke_width(2))
        }))
        .map_err(err)?;
        c.draw_series(
            rows.iter()
                .enumerate()
                .map(|(i, r)| Circle::new((r.to, y(i)), 4, BLACK.filled())),
        )
        .map_err(err)?
        .label(dots)
        .legend(|(x, y)| Circle::new((x + 10, y), 4, BLACK.filled()));
        if let Some((label, at)) = line {
            c.draw_series(LineSeries::new(
                [(*at, 0.0), (*at, n)],
                PALETTE[5].stroke_width(3),
            ))
            .map_err(err)?
            .label(label.as_str())
            .legend(|(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], PALETTE[5].stroke_width(3))
            });
        }
        // The labels beside their rows, right-aligned against the plot.
        let style = TextStyle::from((FONT, 14).into_font())
            .pos(Pos::new(HPos::Right, VPos::Center))
            .color(&BLACK);
        let left = c.backend_coord(&(x0 - pad, 0.0)).0 - 6;
        for (i, label) in labels.iter().enumerate() {
            let py = c.backend_coord(&(x0, y(i))).1;
            root.draw(&Text::new(label.clone(), (left, py), style.clone()))
                .map_err(err)?;
        }
        // The legend in the corner the rows' ends and whiskers crowd least.
        let ends = Series {
            label: String::new(),
            points: rows
                .iter()
                .enumerate()
                .flat_map(|(i, r)| [r.from, r.to, r.lo, r.hi].map(|x| (x, y(i), y(i), y(i))))
                .collect(),
            dots: true,
            steps: false,
        };
        legend(&mut c, corner(&[ends], (x0 - pad, x1 + pad), (0.0, n)))?;
        Ok(self.row_tips(rows, |x, i| c.backend_coord(&(x, y(i)))))
    }

    /// A box along each row, from its whisker's ends to its bar's; `at` places a figure on
    /// row `i` in pixels.
    fn row_tips(&self, rows: &[Range], at: impl Fn(f64, usize) -> (i32, i32)) -> Vec<Tip> {
        rows.iter()
            .enumerate()
            .map(|(i, r)| {
                let lo = r.lo.min(r.from).min(r.to);
                let hi = r.hi.max(r.from).max(r.to);
                let (a, z) = (at(lo, i), at(hi, i));
                let text = format!(
                    "{}\n{}: {}",
                    r.label,
                    self.x_label,
                    tips::with_ci(r.to, r.lo, r.hi, false)
                );
                Tip::between((a.0 - 6, a.1 - 8), (z.0 + 6, z.1 + 8), text)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::chart::Body;

    #[test]
    fn each_row_is_labelled_with_its_dot_whisker_and_bar() {
        let chart = Chart {
            title: "t".into(),
            x_label: "CP".into(),
            y_label: String::new(),
            body: Body::Ranges {
                rows: vec![
                    Range {
                        label: "first row".into(),
                        from: 10.0,
                        to: 12.0,
                        lo: 11.5,
                        hi: 12.5,
                    },
                    Range {
                        label: "second row".into(),
                        from: 9.0,
                        to: 9.0,
                        lo: 8.8,
                        hi: 9.2,
                    },
                ],
                dots: "price (95% CI)".into(),
                line: Some(("listed 13 CP".into(), 13.0)),
                band: Some(("spread".into(), [9.0, 12.0])),
            },
        };
        let svg = chart.svg().unwrap();
        for want in [
            "first row",
            "second row",
            "price (95% CI)",
            "listed 13 CP",
            "spread",
        ] {
            assert!(svg.contains(want), "{want}");
        }
        // A dot a row and a legend dot; a tooltip a row, naming the axis.
        assert_eq!(svg.matches("<circle").count(), 3);
        assert_eq!(svg.matches("<title>").count(), 2);
        assert!(svg.contains("<title>first row\nCP: 12 [11.5, 12.5]</title>"));
        assert!(chart.png().unwrap().starts_with(b"\x89PNG"));
    }
}
