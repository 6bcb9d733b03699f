//! The frames' typed rows: what one experiment cell gives the `summary` frame, the
//! `distributions` frame and each table frame (`by_turn`, `by_ring`), by column name, and
//! which column is a run's headline figure.
//!
//! Each answer says its own row ([`crate::question::Answer::row`]); the frames
//! ([`crate::analysis::frame`]) put the rows side by side. A figure with a CI is one call,
//! [`Row::estimate`], which names its `_lo` and `_hi` columns; nothing reads a column's
//! kind from its name.

/// One number of a row.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Figure {
    /// A count or a setting: an integer column, unless another row's figure there is not.
    Whole(i64),
    /// A measured or computed number; none (null) where no trial measured it.
    Real(Option<f64>),
}

impl Figure {
    /// A real number, null for NaN (a figure with no trials behind it).
    pub fn real(x: f64) -> Figure {
        Figure::Real((!x.is_nan()).then_some(x))
    }

    /// As a float, null for none.
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Figure::Whole(n) => Some(n as f64),
            Figure::Real(x) => x,
        }
    }

    /// Whether it holds a number.
    pub fn present(self) -> bool {
        self.as_f64().is_some()
    }
}

/// A whole number a row holds: an integer figure, or past 2^63 - 1 a real one.
pub trait Count {
    /// The count as a figure.
    fn figure(self) -> Figure;
}

impl Count for i64 {
    fn figure(self) -> Figure {
        Figure::Whole(self)
    }
}

impl Count for u32 {
    fn figure(self) -> Figure {
        Figure::Whole(self.into())
    }
}

impl Count for u64 {
    fn figure(self) -> Figure {
        i64::try_from(self).map_or(Figure::Real(Some(self as f64)), Figure::Whole)
    }
}

impl Count for usize {
    fn figure(self) -> Figure {
        (self as u64).figure()
    }
}

/// How a two-number column pair reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ends {
    /// A confidence interval beside a point figure: `NAME_lo` and `NAME_hi`.
    Ci,
    /// A range of its own (a ring's inches): `NAME_from` and `NAME_to`.
    Span,
}

impl Ends {
    /// The two columns' suffixes.
    pub fn suffixes(self) -> [&'static str; 2] {
        match self {
            Ends::Ci => ["_lo", "_hi"],
            Ends::Span => ["_from", "_to"],
        }
    }
}

/// One cell's row, in the order its answer says its figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// Point figures, by column.
    pub figures: Vec<(&'static str, Figure)>,
    /// Two-number columns: a CI beside its point, or a span.
    pub pairs: Vec<(&'static str, Ends, [Figure; 2])>,
    /// Text columns (a side's policies, what it never uses).
    pub texts: Vec<(&'static str, String)>,
    /// Distributions: a metric's `(value, probability)` pairs.
    pub dists: Vec<(&'static str, Vec<(f64, f64)>)>,
    /// Tables of their own, a row each entry (`by_turn`: one per turn).
    pub tables: Vec<(&'static str, Vec<Row>)>,
}

impl Row {
    /// A count. One past an integer column's range (2^63) is a real number, as JSON
    /// would have written it, never clamped.
    pub fn whole(&mut self, name: &'static str, n: impl Count) -> &mut Row {
        self.figures.push((name, n.figure()));
        self
    }

    /// A number (NaN: null).
    pub fn real(&mut self, name: &'static str, x: f64) -> &mut Row {
        self.figures.push((name, Figure::real(x)));
        self
    }

    /// A number the answer may lack: no column from this row when it does.
    pub fn maybe(&mut self, name: &'static str, x: Option<f64>) -> &mut Row {
        if let Some(x) = x {
            self.real(name, x);
        }
        self
    }

    /// A figure and its 95% CI: `NAME`, `NAME_lo`, `NAME_hi`.
    pub fn estimate(&mut self, name: &'static str, point: f64, ci: [f64; 2]) -> &mut Row {
        self.real(name, point);
        self.pairs.push((name, Ends::Ci, ci.map(Figure::real)));
        self
    }

    /// An estimate the answer may lack: none without a CI; a CI without its point (no
    /// trials behind it) keeps its columns, the point null.
    pub fn maybe_estimate(
        &mut self,
        name: &'static str,
        point: Option<f64>,
        ci: Option<[f64; 2]>,
    ) -> &mut Row {
        if let Some(ci) = ci {
            self.estimate(name, point.unwrap_or(f64::NAN), ci);
        }
        self
    }

    /// A range: `NAME_from` and `NAME_to`.
    pub fn span(&mut self, name: &'static str, ends: [Figure; 2]) -> &mut Row {
        self.pairs.push((name, Ends::Span, ends));
        self
    }

    /// A text column.
    pub fn text(&mut self, name: &'static str, text: String) -> &mut Row {
        self.texts.push((name, text));
        self
    }

    /// A distribution: `(value, probability)` pairs of metric `name`.
    pub fn dist(
        &mut self,
        name: &'static str,
        pairs: impl IntoIterator<Item = (f64, f64)>,
    ) -> &mut Row {
        self.dists.push((name, pairs.into_iter().collect()));
        self
    }

    /// A table of its own.
    pub fn table(&mut self, name: &'static str, rows: Vec<Row>) -> &mut Row {
        self.tables.push((name, rows));
        self
    }

    /// The point figure of column `name`, if the row has it.
    pub fn figure(&self, name: &str) -> Option<Figure> {
        self.figures
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, f)| *f)
    }

    /// The CI of column `name`, if the row has one.
    pub fn ci(&self, name: &str) -> Option<[Figure; 2]> {
        self.pairs
            .iter()
            .find(|(n, e, _)| *n == name && *e == Ends::Ci)
            .map(|(_, _, v)| *v)
    }
}

/// The headline figure of a run: the one its sweep lines, its report's key chart and its
/// precision target speak of.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Headline {
    /// Its column.
    pub column: &'static str,
    /// Its name in words.
    pub label: &'static str,
    /// A probability (drawn on 0..1, printed as a percentage).
    pub probability: bool,
    /// Computed exactly, so it has no CI.
    pub exact: bool,
}

/// A duel's headline: P(side A wins).
pub const A_WINS: Headline = Headline {
    column: "p_a_wins",
    label: "P(side A wins)",
    probability: true,
    exact: false,
};

/// A Marks contest's: P(wins), exact.
pub const CONTEST: Headline = Headline {
    column: "p_wins",
    label: "P(wins the contest)",
    probability: true,
    exact: true,
};

/// A Marks roll's: P(Competent: 3+ Marks), exact.
pub const COMPETENT: Headline = Headline {
    column: "p_competent",
    label: "P(Competent: 3+ Marks)",
    probability: true,
    exact: true,
};

/// A blast's: mean kills a turn.
pub const MEAN_KILLS: Headline = Headline {
    column: "mean_kills",
    label: "mean kills a turn",
    probability: false,
    exact: false,
};

/// The headline candidates, first present first.
pub const HEADLINES: [Headline; 4] = [A_WINS, CONTEST, COMPETENT, MEAN_KILLS];

/// The headline of a run whose columns `has` says, if it has one.
pub fn headline(has: impl Fn(&str) -> bool) -> Option<Headline> {
    HEADLINES.into_iter().find(|h| has(h.column))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_estimate_names_its_ends_and_nan_is_null() {
        let mut r = Row::default();
        r.estimate("p_a_wins", 0.25, [0.2, f64::NAN])
            .whole("trials", 400u64)
            .maybe("kills_per_cp", None);
        assert_eq!(r.figure("p_a_wins"), Some(Figure::Real(Some(0.25))));
        assert_eq!(r.figure("trials"), Some(Figure::Whole(400)));
        assert_eq!(r.figure("kills_per_cp"), None);
        assert_eq!(
            r.ci("p_a_wins"),
            Some([Figure::Real(Some(0.2)), Figure::Real(None)])
        );
        assert_eq!(Figure::real(f64::NAN), Figure::Real(None));
        // A count past an integer column is a real number, not clamped to 2^63 - 1.
        r.whole("huge", u64::MAX);
        assert_eq!(r.figure("huge"), Some(Figure::Real(Some(u64::MAX as f64))));
    }

    #[test]
    fn the_headline_is_the_first_column_present() {
        let cols = |c: &'static [&'static str]| move |n: &str| c.contains(&n);
        assert_eq!(
            headline(cols(&["mean_kills", "p_a_wins"])).unwrap().column,
            "p_a_wins"
        );
        assert_eq!(
            headline(cols(&["p_competent", "p_wins"])).unwrap().column,
            "p_wins"
        );
        assert_eq!(
            headline(cols(&["p_competent"])).unwrap().column,
            "p_competent"
        );
        assert_eq!(
            headline(cols(&["mean_kills"])).unwrap().column,
            "mean_kills"
        );
        assert_eq!(headline(cols(&["trials"])), None);
    }
}
