//! A chart's lines: each series as a line or steps with its CI band, and the tips that
//! name each point.

use super::*;

impl Chart {
    pub(super) fn lines<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        series: &[Series],
        probability: bool,
        width: Width,
    ) -> Result<Vec<Tip>, DrawError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| DrawError(e.to_string());
        let all = series.iter().flat_map(|s| s.points.iter());
        let (x0, x1) = span(all.clone().map(|p| p.0));
        // Steps reach half a unit either side of their first and last counts.
        let (x0, x1) = if series.iter().any(|s| s.steps) {
            (x0 - 0.5, x1 + 0.5)
        } else {
            (x0, x1)
        };
        let (y0, y1) = if probability {
            (0.0, 1.0)
        } else {
            let (lo, hi) = span(all.flat_map(|p| [p.2, p.3]));
            (lo.min(0.0), hi + (hi - lo.min(0.0)) * 0.08)
        };
        // The legend sits below the plot, never over a line (issue 44).
        let (root, below) = root.split_vertically(
            root.dim_in_pixel()
                .1
                .saturating_sub(legend_height(series, width)),
        );
        let mut c = self
            .builder(&root, width)
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        // Whole-number x (a count, a distance in inches) gets whole-number labels.
        let whole = series
            .iter()
            .flat_map(|s| s.points.iter())
            .all(|p| p.0.fract() == 0.0);
        c.configure_mesh()
            .x_desc(width.fit_legend(&self.x_label))
            .y_desc(width.fit_legend(&self.y_label))
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .light_line_style(RGBColor(235, 235, 235))
            .x_labels(if whole {
                ((x1 - x0) as usize + 1).clamp(2, width.most_x_labels())
            } else {
                width.most_x_labels().min(10)
            })
            .x_label_formatter(&|x| {
                if !whole {
                    format!("{x:.1}")
                } else if (x - x.round()).abs() < 1e-9 {
                    format!("{x:.0}")
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(err)?;
        for (i, s) in series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let has_ci = s.points.iter().any(|p| p.2 != p.3);
            if has_ci && !s.dots {
                // The CI band: upper edge out, lower edge back.
                let band: Vec<(f64, f64)> = s
                    .points
                    .iter()
                    .map(|p| (p.0, p.3))
                    .chain(s.points.iter().rev().map(|p| (p.0, p.2)))
                    .collect();
                c.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.18))))
                    .map_err(err)?;
            }
            let legend = move |(x, y): (i32, i32)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3))
            };
            if s.dots {
                c.draw_series(
                    s.points
                        .iter()
                        .map(|p| Circle::new((p.0, p.1), 3, colour.filled())),
                )
                .map_err(err)?
                .label(&s.label)
                .legend(legend);
                if has_ci {
                    c.draw_series(s.points.iter().map(|p| {
                        PathElement::new(vec![(p.0, p.2), (p.0, p.3)], colour.stroke_width(1))
                    }))
                    .map_err(err)?;
                }
            } else if s.steps {
                c.draw_series(LineSeries::new(steps(&s.points), colour.stroke_width(2)))
                    .map_err(err)?
                    .label(&s.label)
                    .legend(legend);
            } else {
                c.draw_series(LineSeries::new(
                    s.points.iter().map(|p| (p.0, p.1)),
                    colour.stroke_width(2),
                ))
                .map_err(err)?
                .label(&s.label)
                .legend(legend);
                c.draw_series(
                    s.points
                        .iter()
                        .map(|p| Circle::new((p.0, p.1), 3, colour.filled())),
                )
                .map_err(err)?;
            }
        }
        if legend_height(series, width) > 0 {
            legend_below(&below, series, width)?;
        }
        Ok(self.line_tips(series, probability, |p| c.backend_coord(&p)))
    }

    /// A line chart's tooltips: a box round each point, or along each step's top; `at`
    /// places a point in pixels.
    pub(super) fn line_tips(
        &self,
        series: &[Series],
        probability: bool,
        at: impl Fn((f64, f64)) -> (i32, i32),
    ) -> Vec<Tip> {
        let mut tips = Vec::new();
        for s in series {
            for p in &s.points {
                let mut text = if s.label.is_empty() {
                    String::new()
                } else {
                    format!("{}\n", s.label)
                };
                text.push_str(&format!(
                    "{}: {}\n{}: {}",
                    self.x_label,
                    tips::figure(p.0, false),
                    self.y_label,
                    tips::with_ci(p.1, p.2, p.3, probability)
                ));
                tips.push(if s.steps {
                    let (a, b) = (at((p.0 - 0.5, p.1)), at((p.0 + 0.5, p.1)));
                    Tip::between((a.0, a.1 - 4), (b.0, b.1 + 4), text)
                } else {
                    Tip::around(at((p.0, p.1)), 6, text)
                });
            }
        }
        tips
    }
}
