//! Where a fair-CP curve crosses 50%: the points, the fitted curve and the crossing with
//! its CI.

use super::*;

impl Chart {
    pub(super) fn crossing<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        points: &[(f64, f64, f64, f64)],
        curve: &[(f64, f64)],
        at: (f64, f64, f64),
        width: Width,
    ) -> Result<Vec<Tip>, DrawError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| DrawError(e.to_string());
        let (x0, x1) = span(points.iter().map(|p| p.0).chain([at.1, at.2]));
        let pad = (x1 - x0) * 0.05;
        let mut c = self
            .builder(root, width)
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d((x0 - pad)..(x1 + pad), 0.0..1.0)
            .map_err(err)?;
        c.configure_mesh()
            .x_desc(width.fit_legend(&self.x_label))
            .y_desc(width.fit_legend(&self.y_label))
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .light_line_style(RGBColor(235, 235, 235))
            .x_labels(width.x_labels())
            .draw()
            .map_err(err)?;
        // The crossing's CI as a shaded strip, then the 50% line and the crossing itself.
        c.draw_series(std::iter::once(Rectangle::new(
            [(at.1, 0.0), (at.2, 1.0)],
            PALETTE[1].mix(0.2).filled(),
        )))
        .map_err(err)?
        .label(format!("50% point {:.3} [{:.3}, {:.3}]", at.0, at.1, at.2))
        .legend(|(x, y)| {
            Rectangle::new([(x, y - 5), (x + 20, y + 5)], PALETTE[1].mix(0.4).filled())
        });
        c.draw_series(LineSeries::new(
            [(x0 - pad, 0.5), (x1 + pad, 0.5)],
            RGBColor(150, 150, 150).stroke_width(1),
        ))
        .map_err(err)?;
        c.draw_series(LineSeries::new(
            [(at.0, 0.0), (at.0, 1.0)],
            PALETTE[1].stroke_width(2),
        ))
        .map_err(err)?;
        c.draw_series(LineSeries::new(
            curve.iter().copied(),
            PALETTE[0].stroke_width(2),
        ))
        .map_err(err)?
        .label("read here (log-odds line)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], PALETTE[0].stroke_width(3)));
        c.draw_series(
            points
                .iter()
                .map(|p| PathElement::new(vec![(p.0, p.2), (p.0, p.3)], BLACK.stroke_width(2))),
        )
        .map_err(err)?;
        c.draw_series(
            points
                .iter()
                .map(|p| Circle::new((p.0, p.1), 4, BLACK.filled())),
        )
        .map_err(err)?
        .label("cells (95% CI)")
        .legend(|(x, y)| Circle::new((x + 10, y), 4, BLACK.filled()));
        legend(&mut c, SeriesLabelPosition::UpperRight)?;
        // The crossing's line, then each cell over it.
        let (top, bottom) = (c.backend_coord(&(at.0, 1.0)), c.backend_coord(&(at.0, 0.0)));
        let mut tips = vec![Tip::between(
            (top.0 - 4, top.1),
            (bottom.0 + 4, bottom.1),
            format!(
                "the 50% point\n{}: {} [{}, {}]",
                self.x_label,
                tips::figure(at.0, false),
                tips::figure(at.1, false),
                tips::figure(at.2, false)
            ),
        )];
        tips.extend(points.iter().map(|p| {
            Tip::around(
                c.backend_coord(&(p.0, p.1)),
                6,
                format!(
                    "{}: {}\n{}: {}",
                    self.x_label,
                    tips::figure(p.0, false),
                    self.y_label,
                    tips::with_ci(p.1, p.2, p.3, true)
                ),
            )
        }));
        Ok(tips)
    }
}
