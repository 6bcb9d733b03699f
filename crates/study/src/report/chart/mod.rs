//! Charts as plain values, drawn with plotters to SVG and PNG.
//!
//! A [`Chart`] holds only numbers and labels; [`Chart::svg`] and [`Chart::png`] draw it. The
//! font is bundled (DejaVu Sans, `assets/fonts`) and registered with plotters' `ab_glyph`
//! backend, so charts render the same on a machine without system fonts.

mod cells;
mod crossing;
mod layout;
mod lines;
mod ranges;
mod tips;

use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// Chart size in pixels (PNG) and SVG units.
pub const SIZE: (u32, u32) = (900, 540);

const FONT: &str = "sans-serif";
static REGISTERED: OnceLock<Result<(), DrawError>> = OnceLock::new();

/// A chart that could not be drawn, in plotters' or the encoder's words: a bug or a broken
/// build, never the input's fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DrawError(pub String);

/// Registers the bundled font under "sans-serif" (once per process). It is compiled in, so
/// a failure is a broken build, reported rather than drawing charts without text.
fn font() -> Result<(), DrawError> {
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font(
                FONT,
                FontStyle::Normal,
                include_bytes!("../../../../../assets/fonts/DejaVuSans.ttf"),
            )
            .map_err(|_| {
                DrawError("the bundled font assets/fonts/DejaVuSans.ttf does not load".into())
            })
        })
        .clone()
}

/// One line of a line chart: points `(x, y, lo, hi)`; `lo == hi == y` means no CI.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Its label in the legend.
    pub label: String,
    /// Its points `(x, y, lo, hi)`.
    pub points: Vec<(f64, f64, f64, f64)>,
    /// Drawn as dots (a Monte Carlo estimate) rather than a line.
    pub dots: bool,
    /// Drawn as steps one wide around each whole x (a histogram of counts).
    pub steps: bool,
}

/// What a chart shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// Lines over a numeric x, each with its CI band.
    Lines {
        /// The lines.
        series: Vec<Series>,
        /// Clamp y to 0..1 (a probability).
        probability: bool,
    },
    /// One horizontal bar per category with its CI whisker.
    Bars {
        /// `(label, value, lo, hi)`, top to bottom.
        bars: Vec<(String, f64, f64, f64)>,
        /// Clamp the axis to 0..1 (a probability).
        probability: bool,
    },
    /// A matrix of probabilities (row against column), printed in the cells; row 0 is
    /// drawn at the top.
    Heatmap {
        /// The row labels.
        rows: Vec<String>,
        /// The column labels.
        columns: Vec<String>,
        /// `values[row][column]`; none, an empty cell.
        values: Vec<Vec<Option<f64>>>,
        /// Colours diverge from 50% (a contest: ahead in blue, behind in orange); else
        /// a probability deepens from white (0%) to blue (100%).
        diverging: bool,
        /// Each cell's share of draws, for a win chance: printed under it where it is 1% or
        /// more, so "always loses" and "always draws" never read alike (issue 44).
        draws: Option<Vec<Vec<Option<f64>>>>,
    },
    /// A fitted curve through points with CIs, a 50% line and the crossing with its CI.
    Crossing {
        /// The cells' `(x, y, lo, hi)`.
        points: Vec<(f64, f64, f64, f64)>,
        /// The fitted curve's `(x, y)`.
        curve: Vec<(f64, f64)>,
        /// The crossing `(x, lo, hi)`.
        at: (f64, f64, f64),
    },
    /// One row per label, top to bottom: a dot with its CI, a bar from where the row starts
    /// (a tornado), a marked value (labelled) and a shaded band (labelled).
    Ranges {
        /// The rows, top to bottom.
        rows: Vec<Range>,
        /// What a dot and its whisker are, for the legend ("fair CP (95% CI)").
        dots: String,
        /// A marked value and its label.
        line: Option<(String, f64)>,
        /// A shaded band and its label.
        band: Option<(String, [f64; 2])>,
    },
}

use cells::{cell_text, shade};
pub use layout::{Inline, NARROW, Width};
pub use ranges::Range;
use tips::Tip;

/// A heatmap's row labels, column labels and values by row.
type Matrix<'a> = (&'a [String], &'a [String], &'a [Vec<Option<f64>>]);

/// A chart: title, axis labels with units, and its body.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Its title.
    pub title: String,
    /// The x axis's label, with its unit.
    pub x_label: String,
    /// The y axis's label, with its unit.
    pub y_label: String,
    /// What it shows.
    pub body: Body,
}

impl Chart {
    /// A heatmap cell's tooltip: its row and column by their axes, its chance and draws.
    fn cell_tip(
        &self,
        row: Option<&String>,
        column: Option<&String>,
        v: Option<f64>,
        drawn: Option<f64>,
    ) -> String {
        format!(
            "{}: {}\n{}: {}\n{}{}",
            self.y_label,
            bare(row, &self.y_label),
            self.x_label,
            bare(column, &self.x_label),
            v.map_or("no figure".into(), |p| tips::figure(p, true)),
            drawn.map_or(String::new(), |d| format!(
                ", {} draws",
                tips::figure(d, true)
            ))
        )
    }
}

/// A heatmap's row or column name without its axis's name, when it repeats it ("A: 4 ×
/// dimmy" on the axis "A" is "4 × dimmy").
fn bare<'a>(name: Option<&'a String>, axis: &str) -> &'a str {
    let name = name.map_or("", String::as_str);
    name.strip_prefix(axis)
        .and_then(|rest| rest.strip_prefix(": "))
        .unwrap_or(name)
}

/// A histogram's outline: each count `x` a flat step from x - ½ to x + ½, down to 0 where
/// no count is (a gap, and either end).
fn steps(points: &[(f64, f64, f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len() * 4 + 2);
    let mut last: Option<f64> = None;
    for p in points {
        match last {
            Some(x) if (p.0 - x - 1.0).abs() < 1e-9 => {}
            Some(x) => {
                out.push((x + 0.5, 0.0));
                out.push((p.0 - 0.5, 0.0));
            }
            None => out.push((p.0 - 0.5, 0.0)),
        }
        out.push((p.0 - 0.5, p.1));
        out.push((p.0 + 0.5, p.1));
        last = Some(p.0);
    }
    if let Some(x) = last {
        out.push((x + 0.5, 0.0));
    }
    out
}

/// Colours that stay apart for up to eight series (Okabe-Ito).
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(230, 159, 0),
    RGBColor(120, 120, 120),
    RGBColor(0, 0, 0),
];

impl Chart {
    /// The chart's size: [`SIZE`], taller for a ranges chart of many rows (24 pixels a row).
    pub fn size(&self) -> (u32, u32) {
        self.size_as(Width::Full)
    }

    /// Its size at `width`: a narrow chart is [`NARROW`] wide, as tall as it needs.
    pub fn size_as(&self, width: Width) -> (u32, u32) {
        let (w, h) = match width {
            Width::Full => SIZE,
            Width::Narrow => (NARROW, layout::NARROW_HEIGHT),
        };
        match &self.body {
            Body::Ranges { rows, .. } => (w, h.max(140 + 24 * rows.len() as u32)),
            Body::Lines { series, .. } => (w, h + legend_height(series, width)),
            Body::Heatmap {
                rows,
                columns,
                draws,
                ..
            } => heatmap_size((w, h), rows, columns, draws.is_some(), width),
            _ => (w, h),
        }
    }

    /// The chart as an SVG document.
    pub fn svg(&self) -> Result<String, DrawError> {
        self.svg_as(Width::Full)
    }

    /// Both SVGs a page inlines: the full chart, and the narrow one a phone shows (none for
    /// a heatmap of more than four columns, `NARROW_COLUMNS`: it scrolls sideways).
    pub fn inline(&self) -> Result<Inline, DrawError> {
        let narrow = match &self.body {
            Body::Heatmap { columns, .. } if columns.len() > layout::NARROW_COLUMNS => None,
            _ => Some(self.svg_as(Width::Narrow)?),
        };
        Ok(Inline {
            wide: self.svg_as(Width::Full)?,
            narrow,
            title: self.title.clone(),
        })
    }

    /// The chart as an SVG document at `width`: a narrow one leaves its title to the page.
    pub fn svg_as(&self, width: Width) -> Result<String, DrawError> {
        font()?;
        let mut s = String::new();
        let tips;
        {
            let root = SVGBackend::with_string(&mut s, self.size_as(width)).into_drawing_area();
            tips = self.draw(&root, width)?;
            root.present().map_err(|e| DrawError(e.to_string()))?;
        }
        // A phone has no hover: the narrow drawing goes without.
        Ok(match width {
            Width::Full => tips::overlay(&s, &tips),
            Width::Narrow => s,
        })
    }

    /// The chart as PNG bytes. Drawn into memory and encoded here, so that writing the
    /// file is the caller's plain (atomic) write with a plain message on a full disk.
    pub fn png(&self) -> Result<Vec<u8>, DrawError> {
        font()?;
        let (w, h) = self.size();
        let mut pixels = vec![0u8; w as usize * h as usize * 3];
        {
            let root = BitMapBackend::with_buffer(&mut pixels, (w, h)).into_drawing_area();
            self.draw(&root, Width::Full)?;
            root.present().map_err(|e| DrawError(e.to_string()))?;
        }
        let image = image::RgbImage::from_raw(w, h, pixels)
            .ok_or_else(|| DrawError("the chart's pixels do not fill its size".into()))?;
        let mut png = std::io::Cursor::new(Vec::new());
        image
            .write_to(&mut png, image::ImageOutputFormat::Png)
            .map_err(|e| DrawError(format!("cannot encode the chart as PNG: {e}")))?;
        Ok(png.into_inner())
    }

    /// Draws the chart on `root`; returns its hover boxes.
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        width: Width,
    ) -> Result<Vec<Tip>, DrawError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| DrawError(e.to_string());
        root.fill(&WHITE).map_err(err)?;
        match &self.body {
            Body::Lines {
                series,
                probability,
            } => self.lines(root, series, *probability, width),
            Body::Bars { bars, probability } => self.bars(root, bars, *probability, width),
            Body::Heatmap {
                rows,
                columns,
                values,
                diverging,
                draws,
            } => self.heatmap(
                root,
                (rows, columns, values),
                *diverging,
                draws.as_deref(),
                width,
            ),
            Body::Crossing { points, curve, at } => self.crossing(root, points, curve, *at, width),
            Body::Ranges {
                rows,
                dots,
                line,
                band,
            } => self.ranges(root, rows, dots, line.as_ref(), band.as_ref(), width),
        }
    }

    fn bars<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        bars: &[(String, f64, f64, f64)],
        probability: bool,
        width: Width,
    ) -> Result<Vec<Tip>, DrawError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| DrawError(e.to_string());
        let n = bars.len().max(1);
        let top = if probability {
            1.0
        } else {
            let hi = bars.iter().map(|b| b.3).fold(0.0, f64::max);
            if hi > 0.0 { hi * 1.1 } else { 1.0 }
        };
        let names: Vec<String> = bars.iter().map(|b| width.fit(&b.0)).collect();
        let longest = names.iter().map(|b| b.chars().count()).max().unwrap_or(4) as u32;
        let mut c = self
            .builder(root, width)
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size((longest * 8).clamp(60, 320))
            // A segmented range 0..k has k + 1 segments.
            .build_cartesian_2d(0.0..top, (0..n - 1).into_segmented())
            .map_err(err)?;
        c.configure_mesh()
            .x_desc(width.fit_legend(&self.x_label))
            .y_desc(width.fit_legend(&self.y_label))
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .disable_y_mesh()
            .light_line_style(RGBColor(235, 235, 235))
            .x_labels(width.x_labels())
            .y_labels(n)
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()
            .map_err(err)?;
        // A sixth of a row's height above and below each bar (at most 6px): many rows keep
        // visible bars, not hairlines.
        let row = c.plotting_area().dim_in_pixel().1 / n as u32;
        let gap = (row / 6).min(6);
        c.draw_series(bars.iter().enumerate().map(|(i, b)| {
            let mut r = Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(i)),
                    (b.1, SegmentValue::Exact(i + 1)),
                ],
                PALETTE[0].mix(0.75).filled(),
            );
            r.set_margin(gap, gap, 0, 0);
            r
        }))
        .map_err(err)?;
        c.draw_series(bars.iter().enumerate().map(|(i, b)| {
            PathElement::new(
                vec![
                    (b.2, SegmentValue::CenterOf(i)),
                    (b.3, SegmentValue::CenterOf(i)),
                ],
                BLACK.stroke_width(2),
            )
        }))
        .map_err(err)?;
        // A box over each bar and its whisker.
        Ok(bars
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let a = c.backend_coord(&(b.2.min(0.0), SegmentValue::Exact(i)));
                let z = c.backend_coord(&(b.1.max(b.3), SegmentValue::Exact(i + 1)));
                let text = format!(
                    "{}\n{}: {}",
                    b.0,
                    self.x_label,
                    tips::with_ci(b.1, b.2, b.3, probability)
                );
                Tip::between(a, z, text)
            })
            .collect())
    }

    /// A heatmap's key: the shades from 0% (bottom) to 100% (top), labelled; a diverging
    /// map says which side each end favours.
    fn colour_key<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        diverging: bool,
        width: Width,
    ) -> Result<(), DrawError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| DrawError(e.to_string());
        let mut c = ChartBuilder::on(area)
            .margin_top(60)
            .margin_bottom(70)
            .margin_right(8)
            .y_label_area_size(46)
            .build_cartesian_2d(0.0..1.0, 0.0..1.0)
            .map_err(err)?;
        c.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .y_labels(5)
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .label_style((FONT, width.small(13)))
            .draw()
            .map_err(err)?;
        const STEPS: usize = 50;
        c.draw_series((0..STEPS).map(|k| {
            let (y0, y1) = (k as f64 / STEPS as f64, (k + 1) as f64 / STEPS as f64);
            Rectangle::new(
                [(0.0, y0), (1.0, y1)],
                shade((y0 + y1) / 2.0, diverging).filled(),
            )
        }))
        .map_err(err)?;
        if diverging {
            let style = TextStyle::from((FONT, width.small(12)).into_font());
            area.draw(&Text::new("row ahead", (4, 40), style.clone()))
                .map_err(err)?;
            let h = area.dim_in_pixel().1 as i32;
            area.draw(&Text::new("row behind", (4, h - 55), style))
                .map_err(err)?;
        }
        Ok(())
    }

    /// A [`Body::Heatmap`]: its row and column labels and its values, by row.
    fn heatmap<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        (rows, columns, values): Matrix,
        diverging: bool,
        draws: Option<&[Vec<Option<f64>>]>,
        width: Width,
    ) -> Result<Vec<Tip>, DrawError> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| DrawError(e.to_string());
        let n = rows.len().max(1);
        let m = columns.len().max(1);
        // The tips name rows and columns in full.
        let (names, heads) = (rows, columns);
        let mut tips = Vec::new();
        let rows: Vec<String> = rows
            .iter()
            .map(|r| match width {
                Width::Full => r.clone(),
                Width::Narrow => layout::clip(r, layout::NARROW_ROW),
            })
            .collect();
        let longest = rows.iter().map(|r| r.chars().count()).max().unwrap_or(4) as u32;
        // Row 0 is drawn at the top.
        let row_of = |y: usize| n - 1 - y;
        // The colour key on the right: what a shade means.
        let (root, key) =
            root.split_horizontally(root.dim_in_pixel().0.saturating_sub(width.pick(110, 76)));
        self.colour_key(&key, diverging, width)?;
        let label_area = (longest * 8 + 24).clamp(60, 340);
        // A narrow chart's column labels fit their cells, a character to 8 pixels.
        let cell = (root.dim_in_pixel().0.saturating_sub(label_area + 32)) / m as u32;
        let columns: Vec<String> = columns
            .iter()
            .map(|c| match width {
                Width::Full => c.clone(),
                Width::Narrow => layout::clip(c, (cell / 8).max(3) as usize),
            })
            .collect();
        let mut c = self
            .builder(&root, width)
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(label_area)
            .build_cartesian_2d((0..m - 1).into_segmented(), (0..n - 1).into_segmented())
            .map_err(err)?;
        c.configure_mesh()
            .disable_mesh()
            .x_desc(width.fit_legend(&self.x_label))
            .y_desc(width.fit_legend(&self.y_label))
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .x_labels(m)
            .y_labels(n)
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(j) => columns.get(*j).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(y) => rows.get(row_of(*y)).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()
            .map_err(err)?;
        for (i, row) in values.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                let y = row_of(i);
                let fill = v.map_or(RGBColor(225, 225, 225), |p| shade(p, diverging));
                c.draw_series(std::iter::once(Rectangle::new(
                    [
                        (SegmentValue::Exact(j), SegmentValue::Exact(y)),
                        (SegmentValue::Exact(j + 1), SegmentValue::Exact(y + 1)),
                    ],
                    fill.filled(),
                )))
                .map_err(err)?;
                let drawn = draws
                    .and_then(|d| d.get(i)?.get(j).copied().flatten())
                    .filter(|d| *d >= 0.005);
                tips.push(Tip::between(
                    c.backend_coord(&(SegmentValue::Exact(j), SegmentValue::Exact(y))),
                    c.backend_coord(&(SegmentValue::Exact(j + 1), SegmentValue::Exact(y + 1))),
                    self.cell_tip(names.get(i), heads.get(j), *v, drawn),
                ));
                let (text, ink) = cell_text(*v, diverging);
                let centre = |size| {
                    TextStyle::from((FONT, size).into_font()).color(&ink).pos(
                        plotters::style::text_anchor::Pos::new(
                            plotters::style::text_anchor::HPos::Center,
                            plotters::style::text_anchor::VPos::Center,
                        ),
                    )
                };
                let at = (SegmentValue::CenterOf(j), SegmentValue::CenterOf(y));
                let Some(d) = drawn else {
                    c.draw_series(std::iter::once(Text::new(text, at, centre(15))))
                        .map_err(err)?;
                    continue;
                };
                // Two lines: the figure above the centre, the draws below it.
                let draw = format!("{:.0}% draws", (d * 100.0).clamp(0.0, 100.0));
                for (t, dy, size) in [(text, -8, 15), (draw, 9, width.small(12))] {
                    c.draw_series(std::iter::once(
                        EmptyElement::at(at.clone()) + Text::new(t, (0, dy), centre(size)),
                    ))
                    .map_err(err)?;
                }
            }
        }
        Ok(tips)
    }
}

/// Draws the legend box at `at`.
fn legend<'a, DB: DrawingBackend + 'a>(
    c: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    at: SeriesLabelPosition,
) -> Result<(), DrawError> {
    c.configure_series_labels()
        .position(at)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .label_font((FONT, 14))
        .draw()
        .map_err(|e| DrawError(e.to_string()))
}

/// A line chart's legend in the area `below` its plot: each series' colour and label.
fn legend_below<DB: DrawingBackend>(
    below: &DrawingArea<DB, Shift>,
    series: &[Series],
    width: Width,
) -> Result<(), DrawError> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| DrawError(e.to_string());
    let style =
        TextStyle::from((FONT, 14).into_font()).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Left,
            plotters::style::text_anchor::VPos::Center,
        ));
    let per_row = legend_columns(series, width);
    for (i, s) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let (x, y) = (
            80 + (i % per_row) as i32 * 420,
            10 + (i / per_row) as i32 * LEGEND_ROW,
        );
        below
            .draw(&PathElement::new(
                vec![(x, y), (x + 24, y)],
                colour.stroke_width(3),
            ))
            .map_err(err)?;
        below
            .draw(&Text::new(
                width.fit_legend(&s.label),
                (x + 32, y),
                style.clone(),
            ))
            .map_err(err)?;
    }
    Ok(())
}

/// Pixels a legend row takes below a line chart.
const LEGEND_ROW: i32 = 20;

/// Entries a row of a line chart's legend: two while every label fits half the width (one
/// in a narrow chart).
fn legend_columns(series: &[Series], width: Width) -> usize {
    if width == Width::Full && series.iter().all(|s| s.label.chars().count() <= 46) {
        2
    } else {
        1
    }
}

/// A heatmap's size from the (width, height) of its kind of chart: tall enough for two
/// lines of text in every row (a figure and its draws), and, at full width, wide enough
/// that each column's label and its cells' text fit side by side (a character to 8
/// pixels, as the row labels are measured).
fn heatmap_size(
    (w, h): (u32, u32),
    rows: &[String],
    columns: &[String],
    draws: bool,
    width: Width,
) -> (u32, u32) {
    let row = if draws { 46 } else { 30 };
    let h = h.max(150 + row * rows.len() as u32);
    if width == Width::Narrow {
        return (w, h);
    }
    let chars = |v: &[String]| v.iter().map(|r| r.chars().count()).max().unwrap_or(4) as u32;
    let label_area = (chars(rows) * 8 + 24).clamp(60, 340);
    let cell = (chars(columns) * 8 + 12).max(if draws { 84 } else { 48 });
    // The colour key (110), the margins and the row labels beside the cells.
    (
        w.max(label_area + 110 + 64 + cell * columns.len() as u32),
        h,
    )
}

/// The height of a line chart's legend below its plot (none for a lone unlabelled line).
fn legend_height(series: &[Series], width: Width) -> u32 {
    if series.len() > 1 || series.iter().any(|s| !s.label.is_empty()) {
        (8 + series.len().div_ceil(legend_columns(series, width)) as i32 * LEGEND_ROW) as u32
    } else {
        0
    }
}

/// The corner whose quarter of the plot holds the fewest points (ties: upper right), so the
/// legend hides as little as it can.
fn corner(series: &[Series], x: (f64, f64), y: (f64, f64)) -> SeriesLabelPosition {
    let count = |right: bool, top: bool| {
        series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|p| {
                let fx = (p.0 - x.0) / (x.1 - x.0);
                let fy = (p.3.max(p.1) - y.0) / (y.1 - y.0);
                let fy_lo = (p.2.min(p.1) - y.0) / (y.1 - y.0);
                (if right { fx >= 0.55 } else { fx <= 0.45 })
                    && (if top { fy >= 0.55 } else { fy_lo <= 0.45 })
            })
            .count()
    };
    [
        (SeriesLabelPosition::UpperRight, count(true, true)),
        (SeriesLabelPosition::UpperLeft, count(false, true)),
        (SeriesLabelPosition::LowerRight, count(true, false)),
        (SeriesLabelPosition::LowerLeft, count(false, false)),
    ]
    .into_iter()
    .min_by_key(|(_, n)| *n)
    .map_or(SeriesLabelPosition::UpperRight, |(p, _)| p)
}

/// The range of `v`, widened when it is a single value (plotters needs a span).
fn span(v: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = v
        .filter(|x| x.is_finite())
        .fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    if lo > hi {
        (0.0, 1.0)
    } else if lo == hi {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Chart {
        Chart {
            title: "P(A wins) by distance".into(),
            x_label: "distance (inches)".into(),
            y_label: "P(A wins)".into(),
            body: Body::Lines {
                series: vec![Series {
                    label: "a=x".into(),
                    points: vec![(4.0, 0.4, 0.38, 0.42), (16.0, 0.6, 0.58, 0.62)],
                    dots: false,
                    steps: false,
                }],
                probability: true,
            },
        }
    }

    #[test]
    fn issue_44_a_legend_sits_below_the_plot_and_the_chart_grows_for_it() {
        let line = |label: &str| Series {
            label: label.into(),
            points: vec![(0.0, 0.5, 0.4, 0.6), (1.0, 0.6, 0.5, 0.7)],
            dots: false,
            steps: false,
        };
        let chart = |series: Vec<Series>| Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            body: Body::Lines {
                series,
                probability: true,
            },
        };
        // A lone unlabelled line: no legend, the plain size.
        assert_eq!(chart(vec![line("")]).size(), SIZE);
        // Three short labels: two a row, two rows below the plot.
        let short = vec![line("a"), line("b"), line("c")];
        assert_eq!(legend_columns(&short, Width::Full), 2);
        assert_eq!(legend_columns(&short, Width::Narrow), 1);
        assert_eq!(chart(short).size().1, SIZE.1 + 8 + 2 * LEGEND_ROW as u32);
        // A long label takes the whole width: a row each.
        let long = vec![line(&"x".repeat(60)), line("b")];
        assert_eq!(legend_columns(&long, Width::Full), 1);
        assert_eq!(
            chart(long.clone()).size().1,
            SIZE.1 + 8 + 2 * LEGEND_ROW as u32
        );
        // Every label is drawn into the SVG, below the plot.
        let svg = chart(long.clone()).svg().unwrap();
        assert!(svg.contains(&"x".repeat(60)));
        // The narrow chart: its own width, no title (the page prints it), the long label
        // cut to fit with its mark.
        let c = Chart {
            title: "a title only the page prints".into(),
            ..chart(long)
        };
        assert_eq!(c.size_as(Width::Narrow).0, NARROW);
        let narrow = c.svg_as(Width::Narrow).unwrap();
        assert!(narrow.contains(&format!("width=\"{NARROW}\"")));
        assert!(!narrow.contains("a title only"));
        assert!(!narrow.contains(&"x".repeat(60)));
        assert!(narrow.contains(&format!("{}…", "x".repeat(45))));
        assert!(c.svg().unwrap().contains("a title only"));
    }

    #[test]
    fn each_point_has_its_figure_as_a_hover_tooltip() {
        // Issues 24 and 44: hovering a point shows its series, each axis by name and the
        // figure with its CI, as a percentage on a probability axis.
        let svg = sample().svg().unwrap();
        assert_eq!(svg.matches("<title>").count(), 2);
        assert!(
            svg.contains("<title>a=x\ndistance (inches): 16\nP(A wins): 60% [58%, 62%]</title>")
        );
    }

    #[test]
    fn issue_44_bars_cells_and_crossings_have_tooltips_naming_their_axes() {
        let chart = |body| Chart {
            title: "t".into(),
            x_label: "score".into(),
            y_label: "unit".into(),
            body,
        };
        let bars = chart(Body::Bars {
            bars: vec![("rifle".into(), 0.9712, 0.96, 0.98)],
            probability: true,
        });
        let svg = bars.svg().unwrap();
        assert!(
            svg.contains("<title>rifle\nscore: 97.1% [96%, 98%]</title>"),
            "{svg}"
        );
        let heat = chart(Body::Heatmap {
            rows: vec!["wizard".into()],
            columns: vec!["aim".into(), "hold".into()],
            values: vec![vec![Some(0.985), Some(0.0)]],
            diverging: false,
            draws: Some(vec![vec![None, Some(1.0)]]),
        });
        let svg = heat.svg().unwrap();
        assert!(svg.contains("<title>unit: wizard\nscore: aim\n98.5%</title>"));
        assert!(svg.contains("<title>unit: wizard\nscore: hold\n0%, 100% draws</title>"));
        let crossing = chart(Body::Crossing {
            points: vec![(2.0, 0.576, 0.57, 0.58)],
            curve: vec![(1.0, 0.8), (3.0, 0.2)],
            at: (2.127, 2.118, 2.136),
        });
        let svg = crossing.svg().unwrap();
        assert!(svg.contains("<title>the 50% point\nscore: 2.13 [2.12, 2.14]</title>"));
        assert!(svg.contains("<title>score: 2\nunit: 57.6% [57%, 58%]</title>"));
        // A phone has no hover: the narrow drawing has none.
        assert_eq!(
            bars.svg_as(Width::Narrow)
                .unwrap()
                .matches("<title>")
                .count(),
            0
        );
    }

    #[test]
    fn renders_text_with_the_bundled_font() {
        let svg = sample().svg().unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        // Titles and axis labels are there as text, and the band as a polygon.
        assert!(svg.contains("P(A wins) by distance"));
        assert!(svg.contains("distance (inches)"));
        assert!(svg.contains("<polygon"));
        let bytes = sample().png().unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
    }

    #[test]
    fn a_single_value_still_spans() {
        assert_eq!(span([3.0].into_iter()), (2.5, 3.5));
        assert_eq!(span(std::iter::empty()), (0.0, 1.0));
    }
}
