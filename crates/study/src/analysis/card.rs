//! The card price: one number for a unit's stat card, from the prices of several scenarios,
//! and the verdict on a listed cost set against it.
//!
//! The scenarios' prices differ by far more than their dice (the battle decides them), so
//! the card price is a stated summary of them: their **median**. Its 95% CI reads every
//! scenario's CI at the same end: the median of the lower ends to the median of the upper
//! ends. The median never falls as any one price rises, so if every scenario's true price
//! lies in its CI, the true median lies in this one; it is conservative. A scenario priced
//! only as a bound ("above 30 CP": it wins every battle of the grid) counts as the highest
//! price (below a bound: the lowest), so the median stays right while fewer than half the
//! scenarios are bounds, and becomes a bound itself when more are.
//!
//! The verdict weighs the listed cost against the card price with a tolerance the designer
//! chooses (default [`TOLERANCE`], a share of the listed cost): **fair** when the card
//! price's CI reaches the band `listed +- tolerance`, over- or under-priced by the gap
//! otherwise.

use statrs::statistics::{Data, Max, Median, Min, OrderStatistics};

/// The default tolerance of a verdict: 10% of the listed cost either way (about one CP on a
/// Hero, half a CP on a minifig).
pub const TOLERANCE: f64 = 0.10;

/// One scenario's price for the card: a price with its CI, or a bound.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Scenario {
    /// `[point, lo, hi]`.
    Priced([f64; 3]),
    /// Above this many CP (it wins every battle of the grid).
    Above(f64),
    /// Below this many CP.
    Below(f64),
}

impl Scenario {
    /// `[point, lo, hi]`, a bound at the far end: above `x` is `[inf, x, inf]`, below is
    /// `[0, 0, x]`.
    fn ends(self) -> [f64; 3] {
        match self {
            Scenario::Priced(p) => p,
            Scenario::Above(x) => [f64::INFINITY, x, f64::INFINITY],
            Scenario::Below(x) => [0.0, 0.0, x],
        }
    }
}

/// The card price of a set of scenarios.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Card {
    /// The median scenario price `[point, lo, hi]` (95%). The point is infinite when the
    /// median is a bound above `lo`, and 0 when it is a bound below `hi`.
    pub price: [f64; 3],
    /// The scenarios' interquartile range and lowest to highest price (bounds at their ends).
    pub quartiles: [f64; 2],
    /// The lowest and highest scenario price.
    pub range: [f64; 2],
    /// How many scenarios it summarises.
    pub scenarios: usize,
}

impl Card {
    /// The card price of `scenarios` (None without any).
    pub fn of(scenarios: &[Scenario]) -> Option<Card> {
        if scenarios.is_empty() {
            return None;
        }
        let ends: Vec<[f64; 3]> = scenarios.iter().map(|s| s.ends()).collect();
        let column = |i: usize| Data::new(ends.iter().map(|e| e[i]).collect::<Vec<f64>>());
        let (mut points, lo, hi) = (column(0), column(1), column(2));
        Some(Card {
            price: [points.median(), lo.median(), hi.median()],
            quartiles: [points.lower_quartile(), points.upper_quartile()],
            range: [points.min(), points.max()],
            scenarios: scenarios.len(),
        })
    }

    /// The card price in words: "12.40 CP [11.90, 13.10]", or "above 30.00 CP".
    pub fn text(&self) -> String {
        let [p, lo, hi] = self.price;
        if p == f64::INFINITY {
            format!("above {lo:.2} CP")
        } else if p == 0.0 && lo == 0.0 {
            format!("below {hi:.2} CP")
        } else {
            format!("{p:.2} CP [{lo:.2}, {hi:.2}]")
        }
    }
}

/// The card price of `fits` (the fits a price may rest on) and the verdict on `listed` CP
/// at the default tolerance, in words: "card price 12.75 CP [12.69, 12.80], the median of 3
/// fits a price may rest on; verdict against the listed 13 CP, within 10%: fair". None
/// without a fit.
pub fn sentence(listed: f64, fits: &[Scenario]) -> Option<String> {
    let c = Card::of(fits)?;
    Some(format!(
        "card price {}, the median of {} fit{} a price may rest on; verdict against the listed \
         {listed} CP, within {:.0}%: {}",
        c.text(),
        c.scenarios,
        diemon_core::plural::s(c.scenarios),
        TOLERANCE * 100.0,
        verdict(listed, Some(&c), TOLERANCE).word()
    ))
}

/// The listed cost against the card price.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The card price's CI reaches within the tolerance of the listed cost.
    Fair,
    /// Listed above the card price: by `[point, least, most]` CP (the gap to the card
    /// price and to its CI's ends; infinite where the card price is a bound).
    OverPriced {
        /// `[point, least, most]` CP.
        by: [f64; 3],
    },
    /// Listed below it.
    UnderPriced {
        /// `[point, least, most]` CP.
        by: [f64; 3],
    },
    /// No scenario gave a price or a bound.
    Unknown,
}

/// The verdict on `listed` CP against `card`, with `tolerance` a share of `listed`.
pub fn verdict(listed: f64, card: Option<&Card>, tolerance: f64) -> Verdict {
    let Some(c) = card else {
        return Verdict::Unknown;
    };
    let [p, lo, hi] = c.price;
    let band = [listed * (1.0 - tolerance), listed * (1.0 + tolerance)];
    if hi < band[0] {
        // Below a bound, the card price is somewhere from 0 up: no point gap, a least one.
        let point = if p == 0.0 && lo == 0.0 {
            f64::INFINITY
        } else {
            listed - p
        };
        Verdict::OverPriced {
            by: [point, listed - hi, listed - lo],
        }
    } else if lo > band[1] {
        Verdict::UnderPriced {
            by: [p - listed, lo - listed, hi - listed],
        }
    } else {
        Verdict::Fair
    }
}

impl Verdict {
    /// In a few words: "fair", "over-priced by 2.10 CP (1.80 to 2.40)".
    pub fn word(&self) -> String {
        let by = |[p, a, b]: [f64; 3]| {
            if p.is_finite() {
                format!("{p:.2} CP ({a:.2} to {b:.2})")
            } else {
                format!("at least {a:.2} CP")
            }
        };
        match self {
            Verdict::Fair => "fair".into(),
            Verdict::OverPriced { by: x } => format!("over-priced by {}", by(*x)),
            Verdict::UnderPriced { by: x } => format!("under-priced by {}", by(*x)),
            Verdict::Unknown => "no verdict".into(),
        }
    }

    /// The frame's word: fair, over-priced, under-priced or none.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Fair => "fair",
            Verdict::OverPriced { .. } => "over-priced",
            Verdict::UnderPriced { .. } => "under-priced",
            Verdict::Unknown => "none",
        }
    }

    /// The signed gap `[point, least, most]`: positive when over-priced.
    pub fn gap(&self) -> Option<[f64; 3]> {
        match self {
            Verdict::OverPriced { by } => Some(*by),
            Verdict::UnderPriced { by } => Some(by.map(|x| -x)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_card_price_is_the_median_with_every_ci_read_at_one_end() {
        let s = [
            Scenario::Priced([10.0, 9.0, 11.0]),
            Scenario::Priced([14.0, 13.0, 16.0]),
            Scenario::Priced([12.0, 11.5, 12.5]),
        ];
        let c = Card::of(&s).unwrap();
        // Points 10, 12, 14; lower ends 9, 11.5, 13; upper ends 11, 12.5, 16.
        assert_eq!(c.price, [12.0, 11.5, 12.5]);
        assert_eq!(c.range, [10.0, 14.0]);
        assert_eq!(c.scenarios, 3);
        assert!(c.quartiles[0] <= 12.0 && 12.0 <= c.quartiles[1]);
        assert_eq!(c.text(), "12.00 CP [11.50, 12.50]");
        // An even count: the mean of the middle two.
        let c = Card::of(&s[..2]).unwrap();
        assert_eq!(c.price, [12.0, 11.0, 13.5]);
        assert_eq!(Card::of(&[]), None);
    }

    #[test]
    fn bounds_count_at_the_far_end_and_a_median_bound_is_a_bound() {
        let one = [
            Scenario::Priced([10.0, 9.0, 11.0]),
            Scenario::Above(30.0),
            Scenario::Priced([12.0, 11.0, 13.0]),
        ];
        let c = Card::of(&one).unwrap();
        assert_eq!(c.price, [12.0, 11.0, 13.0]);
        assert_eq!(c.range[1], f64::INFINITY);
        let most = [Scenario::Above(30.0), Scenario::Above(25.0), one[0]];
        let c = Card::of(&most).unwrap();
        assert_eq!(c.price[0], f64::INFINITY);
        assert_eq!(c.text(), "above 25.00 CP");
        let c = Card::of(&[Scenario::Below(2.0)]).unwrap();
        assert_eq!(c.text(), "below 2.00 CP");
    }

    #[test]
    fn the_verdict_allows_the_tolerance_either_way() {
        let card = |p: f64| Card {
            price: [p, p - 0.2, p + 0.2],
            quartiles: [p; 2],
            range: [p; 2],
            scenarios: 1,
        };
        // 10 CP listed, 10% either way: 9 to 11.
        assert_eq!(verdict(10.0, Some(&card(9.0)), 0.1), Verdict::Fair);
        assert_eq!(verdict(10.0, Some(&card(11.1)), 0.1), Verdict::Fair);
        let v = verdict(10.0, Some(&card(8.0)), 0.1);
        let Verdict::OverPriced { by } = v else {
            panic!("{v:?}")
        };
        assert!((by[0] - 2.0).abs() < 1e-12 && (by[1] - 1.8).abs() < 1e-12);
        assert_eq!(v.gap().map(|g| g[0] > 0.0), Some(true));
        assert!(matches!(
            verdict(10.0, Some(&card(12.0)), 0.1),
            Verdict::UnderPriced { .. }
        ));
        // A tighter tolerance turns the same figures over-priced.
        assert!(matches!(
            verdict(10.0, Some(&card(9.0)), 0.05),
            Verdict::OverPriced { .. }
        ));
        // Above a bound far over the listed cost: under-priced by at least the gap.
        let above = Card::of(&[Scenario::Above(30.0)]).unwrap();
        let v = verdict(10.0, Some(&above), 0.1);
        assert_eq!(v.word(), "under-priced by at least 20.00 CP");
        let below = Card::of(&[Scenario::Below(0.25)]).unwrap();
        let v = verdict(2.0, Some(&below), 0.1);
        assert_eq!(v.word(), "over-priced by at least 1.75 CP");
        assert_eq!(verdict(10.0, None, 0.1), Verdict::Unknown);
    }
}
