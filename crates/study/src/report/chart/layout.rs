//! A chart's two layouts (issue 44): the full one the files and a wide page show, and a
//! narrow one a phone shows, drawn at [`NARROW`] pixels so that its text, at the same font
//! sizes, stays readable when the page is 390 pixels wide (the full chart's would shrink to
//! 4 or 5 pixels). The narrow chart leaves its title to the page, which wraps it, and
//! shortens labels that would not fit, ending them with "…"; the full chart beside it keeps
//! every word.

use plotters::chart::ChartBuilder;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};

use super::{Chart, FONT};

/// A narrow chart's width in pixels: its smallest text (plotters draws a size-14 font at
/// 11.3 pixels) is over 9 pixels high in a 390-pixel page's 358-pixel column.
pub const NARROW: u32 = 440;

/// A narrow chart's height before its legend or rows.
pub const NARROW_HEIGHT: u32 = 400;

/// Most characters of a row or bar label beside a narrow plot (about 8 pixels each): the
/// plot keeps at least half the width.
const NARROW_LABEL: usize = 20;

/// Most characters of a heatmap's row label in a narrow chart: its cells need the room.
pub const NARROW_ROW: usize = 16;

/// Most characters of a legend entry under a narrow plot.
const NARROW_LEGEND: usize = 46;

/// Which layout a chart is drawn in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Width {
    /// A desktop page's width.
    Full,
    /// A phone's width.
    Narrow,
}

impl Width {
    /// A row, bar or heatmap label as this layout prints it.
    pub fn fit(self, label: &str) -> String {
        match self {
            Width::Full => label.to_string(),
            Width::Narrow => clip(label, NARROW_LABEL),
        }
    }

    /// A legend entry as this layout prints it.
    pub fn fit_legend(self, label: &str) -> String {
        match self {
            Width::Full => label.to_string(),
            Width::Narrow => clip(label, NARROW_LEGEND),
        }
    }

    /// A small text's font size: at least 14 in a narrow chart, read at about 10 pixels.
    pub fn small(self, size: u32) -> u32 {
        match self {
            Width::Full => size,
            Width::Narrow => size.max(14),
        }
    }

    /// `full` in the full layout, else `narrow` (a width or margin in pixels).
    pub fn pick(self, full: u32, narrow: u32) -> u32 {
        match self {
            Width::Full => full,
            Width::Narrow => narrow,
        }
    }

    /// Labels along a bar, crossing or ranges chart's x axis (plotters' own 11 in full).
    pub fn x_labels(self) -> usize {
        match self {
            Width::Full => 11,
            Width::Narrow => 5,
        }
    }

    /// Most labels along a line chart's numeric x axis.
    pub fn most_x_labels(self) -> usize {
        match self {
            Width::Full => 13,
            Width::Narrow => 7,
        }
    }
}

/// `s` cut to at most `most` characters, the last of them "…" when it was cut.
pub fn clip(s: &str, most: usize) -> String {
    if s.chars().count() <= most {
        return s.to_string();
    }
    let mut out: String = s.chars().take(most.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Most columns of a heatmap drawn narrow: a wider one is shown at its full size on a
/// phone, in a box that scrolls sideways as a wide table does (its cells' figures would not
/// fit a narrow column).
pub const NARROW_COLUMNS: usize = 4;

/// Both drawings of a chart a page inlines, and its title (the narrow one's is the page's).
/// No narrow drawing: the full one scrolls sideways on a phone.
#[derive(Clone, Debug, PartialEq)]
pub struct Inline {
    /// The full-width drawing, as SVG text.
    pub wide: String,
    /// The phone-width drawing, if it differs.
    pub narrow: Option<String>,
    /// The chart's title.
    pub title: String,
}

impl Chart {
    /// A chart builder on `root` with this chart's title as its caption, in the full layout.
    pub(super) fn builder<'a, 'b, DB: DrawingBackend>(
        &'b self,
        root: &'a DrawingArea<DB, Shift>,
        width: Width,
    ) -> ChartBuilder<'a, 'b, DB> {
        let mut b = ChartBuilder::on(root);
        if width == Width::Full {
            b.caption(&self.title, (FONT, 24));
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_what_fits_and_marks_what_it_cuts() {
        assert_eq!(clip("minifig-rifle", 20), "minifig-rifle");
        assert_eq!(clip("against minifig-hand-weapon", 10), "against m…");
        assert_eq!(clip("against minifig-hand-weapon", 10).chars().count(), 10);
        assert_eq!(Width::Full.fit(&"x".repeat(60)).len(), 60);
        assert_eq!(
            Width::Narrow.fit(&"x".repeat(60)).chars().count(),
            NARROW_LABEL
        );
    }
}
