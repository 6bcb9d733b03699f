//! Balancing a catalog (issue 41): the CP table in which every unit is worth its cost
//! against the others, and one number for how far a table is from it.
//!
//! Each unit's card price is the median of its scenarios' prices ([`super::card`]), and a
//! scenario's price is its fitted exchange rate (references a unit) times the reference's
//! cost. The battles do not depend on what anyone costs, so re-pricing at other costs reuses
//! every rate: a unit's price at costs `c` is `median_s(rate_s * c[reference_s])`.
//!
//! **The fixed point.** A table is balanced when every unit costs its price at that table:
//! `c = P(c)`. Only the references' costs enter `P`, so the iteration runs on them, and
//! every other unit follows in one step. `P` is homogeneous (double every cost and every
//! price doubles), so a fixed point fixes the ratios, not the scale: the `anchor` unit keeps
//! its listed cost, and the rest are priced in its CP. When the references price one another
//! inconsistently (A worth 2 B, B worth 2 C, C worth 1 A) no table makes them all fair: the
//! iteration then settles on `c = k P(c)`, and `k` (the **drift**, 1 when consistent) says
//! by how much the references' prices of each other fail to close the loop.
//!
//! **The score.** The imbalance of a table `c` is the root mean square of
//! `ln(P_u(c) / c_u)` over the units with a price: 0 when every unit costs its price, 0.1
//! when the typical unit is about 10% off. A ratio's log treats over- and under-pricing
//! alike.
//!
//! **The CIs** are a seeded parametric bootstrap: each draw takes every fitted rate from a
//! normal with its standard error (a bound stays a bound), solves the fixed point again and
//! scores both tables; the 2.5% and 97.5% quantiles of the draws are the 95% CI.

use rand::{RngExt as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::statistics::{Data, OrderStatistics};

/// How one scenario prices a unit: in references of `reference` (an index into the
/// units), fitted or only bounded.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Rate {
    /// `rate` references a unit, with the fit's standard error.
    Fitted {
        /// The reference's index among the units.
        reference: usize,
        /// References one unit is worth.
        rate: f64,
        /// The fit's standard error of `rate`.
        se: f64,
    },
    /// Worth more than `rate` references (it won every battle of its grid).
    Above {
        /// The reference's index among the units.
        reference: usize,
        /// The bound.
        rate: f64,
    },
    /// Worth less than `rate` references.
    Below {
        /// The reference's index among the units.
        reference: usize,
        /// The bound.
        rate: f64,
    },
}

impl Rate {
    fn reference(&self) -> usize {
        match *self {
            Rate::Fitted { reference, .. }
            | Rate::Above { reference, .. }
            | Rate::Below { reference, .. } => reference,
        }
    }

    /// Its price at costs `c`: a bound above counts as the highest price, below as the
    /// lowest, as the card price counts them.
    fn price(&self, c: &[f64]) -> f64 {
        match *self {
            Rate::Fitted {
                reference, rate, ..
            } => rate * c[reference],
            Rate::Above { .. } => f64::INFINITY,
            Rate::Below { .. } => 0.0,
        }
    }
}

/// A catalog's units with their listed costs and the rates each was priced at.
#[derive(Clone, Debug, PartialEq)]
pub struct Catalog {
    /// Each unit's listed cost in CP.
    pub listed: Vec<f64>,
    /// Each unit's rates, one per scenario.
    pub rates: Vec<Vec<Rate>>,
    /// The unit that keeps its listed cost: the scale of the table.
    pub anchor: usize,
}

/// Why a catalog has no balanced table.
#[derive(Clone, Debug, PartialEq)]
pub enum NoBalance {
    /// A reference has no finite, positive price, so nothing priced against it has one.
    Unpriced(usize),
    /// The references' costs still moved after the last iteration: (the largest move of a
    /// cost's log, the iterations run).
    Cycles(f64, usize),
}

/// The balanced table and how it was reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Balance {
    /// Each unit's proposed cost, in the anchor's CP (infinite or 0 past a bound).
    pub cost: Vec<f64>,
    /// `k` in `c = k P(c)`: 1 when the references price one another consistently.
    pub drift: f64,
    /// Iterations of the fixed point it took.
    pub iterations: usize,
}

/// At most this many iterations of the fixed point. Half steps near a median's kink close
/// slowly: a thousand bootstrap draws of five units left 77 unsettled at 200 iterations
/// (to 1e-12), 2 at 5,000 (to 1e-10).
pub const MAX_ITERATIONS: usize = 5000;

/// The fixed point is reached when no reference's price differs from its cost by more than
/// this share.
pub const CONVERGED: f64 = 1e-10;

impl Catalog {
    /// Each unit's card price at costs `c`: the median of its scenarios' prices (None
    /// without a scenario).
    pub fn prices(&self, c: &[f64]) -> Vec<Option<f64>> {
        (0..self.rates.len()).map(|u| self.price(u, c)).collect()
    }

    /// Unit `u`'s card price at costs `c`.
    fn price(&self, u: usize, c: &[f64]) -> Option<f64> {
        let rates = &self.rates[u];
        (!rates.is_empty()).then(|| {
            let mut p = Data::new(rates.iter().map(|r| r.price(c)).collect::<Vec<_>>());
            p.median()
        })
    }

    /// The references: the units some scenario is priced against.
    fn references(&self) -> Vec<usize> {
        let mut r: Vec<usize> = self.rates.iter().flatten().map(Rate::reference).collect();
        r.sort_unstable();
        r.dedup();
        r
    }

    /// The balanced table (see the module doc).
    pub fn balance(&self) -> Result<Balance, NoBalance> {
        let refs = self.references();
        let mut c = self.listed.clone();
        // Only the references' costs enter a price: the iteration prices them (and the
        // anchor) alone, and everyone else once at the end.
        let mut p: Vec<Option<f64>> = vec![None; self.listed.len()];
        for it in 1..=MAX_ITERATIONS {
            for &u in refs.iter().chain([&self.anchor]) {
                p[u] = self.price(u, &c);
            }
            let anchor = p[self.anchor].filter(|x| x.is_finite() && *x > 0.0);
            let Some(anchor) = anchor else {
                return Err(NoBalance::Unpriced(self.anchor));
            };
            let scale = self.listed[self.anchor] / anchor;
            let mut moved = 0f64;
            for &r in &refs {
                let target = match p[r] {
                    Some(x) if x.is_finite() && x > 0.0 => x * scale,
                    _ => return Err(NoBalance::Unpriced(r)),
                };
                moved = moved.max((target / c[r]).ln().abs());
                // Half way, in logs: a plain step can swing between two tables for ever
                // (each reference priced by the other alone), a half step settles.
                c[r] = (c[r] * target).sqrt();
            }
            if moved <= CONVERGED {
                let p = self.prices(&c);
                let cost = p
                    .iter()
                    .zip(&self.listed)
                    .map(|(p, l)| p.map_or(*l, |x| x * scale))
                    .collect();
                return Ok(Balance {
                    cost,
                    drift: scale,
                    iterations: it,
                });
            }
        }
        let scale = p[self.anchor].map_or(f64::NAN, |a| self.listed[self.anchor] / a);
        let moved = refs
            .iter()
            .filter_map(|&r| p[r].map(|x| (x * scale / c[r]).ln().abs()))
            .fold(0.0, f64::max);
        Err(NoBalance::Cycles(moved, MAX_ITERATIONS))
    }

    /// The imbalance of the table `c`: the root mean square of `ln(price / cost)` over the
    /// units priced finitely above 0 at `c` (None if none is).
    pub fn imbalance(&self, c: &[f64]) -> Option<f64> {
        let logs: Vec<f64> = self
            .prices(c)
            .iter()
            .zip(c)
            .filter_map(|(p, c)| {
                p.filter(|p| p.is_finite() && *p > 0.0)
                    .map(|p| (p / c).ln())
            })
            .collect();
        (!logs.is_empty())
            .then(|| (logs.iter().map(|x| x * x).sum::<f64>() / logs.len() as f64).sqrt())
    }

    /// The catalog with every fitted rate drawn from a normal about it with its standard
    /// error (a rate drawn at or below 0 is kept at a hundredth of the fit).
    fn drawn(&self, rng: &mut Xoshiro256PlusPlus) -> Catalog {
        let mut out = self.clone();
        for rates in &mut out.rates {
            for r in rates {
                if let Rate::Fitted { rate, se, .. } = r
                    && *se > 0.0
                {
                    let n = Normal::new(0.0, 1.0).expect("a standard normal");
                    let z = n.inverse_cdf(rng.random::<f64>().clamp(1e-12, 1.0 - 1e-12));
                    *rate = (*rate + z * *se).max(*rate / 100.0);
                }
            }
        }
        out
    }
}

/// A figure with its 95% CI from the bootstrap.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Interval {
    /// The figure.
    pub point: f64,
    /// The interval's lower end.
    pub lo: f64,
    /// Its upper end.
    pub hi: f64,
}

/// The balanced table and both scores, each with its 95% CI.
#[derive(Clone, Debug, PartialEq)]
pub struct Sheet {
    /// The table of the full data.
    pub balance: Balance,
    /// Each unit's proposed cost.
    pub cost: Vec<Interval>,
    /// The imbalance of the listed table and of the proposed one as the card lists it,
    /// re-priced at it.
    pub listed_score: Interval,
    /// The imbalance of the proposed table.
    pub proposed_score: Interval,
    /// The imbalance of each of the `others` tables [`sheet`] was given.
    pub other_scores: Vec<Interval>,
    /// Bootstrap draws used, and those whose fixed point failed (left out).
    pub draws: usize,
    /// Draws whose fixed point failed.
    pub failed: usize,
}

/// The balance sheet of `cat`: its fixed point and scores, with CIs from `draws` seeded
/// bootstrap draws. The proposed table is scored as `card` writes it (rounded to what a
/// stat card lists), and each of the `others` tables (a formula's, say) on the same draws.
pub fn sheet(
    cat: &Catalog,
    draws: usize,
    seed: u64,
    card: impl Fn(f64) -> f64,
    others: &[Vec<f64>],
) -> Result<Sheet, NoBalance> {
    let balance = cat.balance()?;
    let table: Vec<f64> = balance.cost.iter().map(|c| card(*c)).collect();
    let score = |c: &Catalog, table: &[f64]| c.imbalance(table).unwrap_or(f64::NAN);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let n = cat.listed.len();
    let mut costs: Vec<Vec<f64>> = vec![Vec::with_capacity(draws); n];
    let (mut listed, mut proposed) = (Vec::new(), Vec::new());
    let mut other: Vec<Vec<f64>> = vec![Vec::with_capacity(draws); others.len()];
    let mut failed = 0;
    for _ in 0..draws {
        let d = cat.drawn(&mut rng);
        match d.balance() {
            Ok(b) => {
                for (u, c) in b.cost.iter().enumerate() {
                    costs[u].push(*c);
                }
                listed.push(score(&d, &cat.listed));
                proposed.push(score(&d, &table));
                for (scores, t) in other.iter_mut().zip(others) {
                    scores.push(score(&d, t));
                }
            }
            Err(_) => failed += 1,
        }
    }
    let interval = |point: f64, xs: Vec<f64>| {
        let mut d = Data::new(xs);
        Interval {
            point,
            lo: d.quantile(0.025),
            hi: d.quantile(0.975),
        }
    };
    Ok(Sheet {
        cost: balance
            .cost
            .iter()
            .zip(costs)
            .map(|(p, xs)| interval(*p, xs))
            .collect(),
        listed_score: interval(score(cat, &cat.listed), listed),
        proposed_score: interval(score(cat, &table), proposed),
        other_scores: others
            .iter()
            .zip(other)
            .map(|(t, xs)| interval(score(cat, t), xs))
            .collect(),
        balance,
        draws,
        failed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rate` references `reference`, exactly.
    fn fitted(reference: usize, rate: f64) -> Rate {
        Rate::Fitted {
            reference,
            rate,
            se: 0.0,
        }
    }

    /// Units worth `worth` (in any CP), priced exactly against the references `refs` at
    /// two scenarios each, listed at `listed`.
    fn exact(worth: &[f64], refs: &[usize], listed: &[f64]) -> Catalog {
        let rates = worth
            .iter()
            .map(|w| refs.iter().map(|&r| fitted(r, w / worth[r])).collect())
            .collect();
        Catalog {
            listed: listed.to_vec(),
            rates,
            anchor: 0,
        }
    }

    #[test]
    fn consistent_rates_balance_to_the_worths_in_the_anchors_cp() {
        // Worths 3 : 6 : 9 : 12 against references 0 and 1; listed 6, 10, 10, 10. The anchor
        // keeps 6 CP, so the table is 6, 12, 18, 24, and every unit is fair there.
        let cat = exact(&[3.0, 6.0, 9.0, 12.0], &[0, 1], &[6.0, 10.0, 10.0, 10.0]);
        let b = cat.balance().unwrap();
        for (c, want) in b.cost.iter().zip([6.0, 12.0, 18.0, 24.0]) {
            assert!((c - want).abs() < 1e-9, "{:?}", b.cost);
        }
        assert!((b.drift - 1.0).abs() < 1e-9);
        assert!(cat.imbalance(&b.cost).unwrap() < 1e-9);
        // The listed table (6, 10, 10, 10) prices each unit at the median of its two
        // scenarios, against unit 0 at 6 and unit 1 at 10: 5.5, 11, 16.5 and 22.
        let logs = [5.5 / 6.0, 11.0 / 10.0, 16.5 / 10.0, 22.0 / 10.0].map(|x: f64| x.ln());
        let want = (logs.iter().map(|x| x * x).sum::<f64>() / 4.0).sqrt();
        assert!((cat.imbalance(&cat.listed).unwrap() - want).abs() < 1e-12);
    }

    #[test]
    fn references_that_do_not_close_the_loop_drift() {
        // Unit 1 is worth 2 of unit 0 and unit 0 worth 1 of unit 1 by the other scenario:
        // with one scenario each against the other, 0 = 1 x c1 and 1 = 2 x c0 cannot both
        // hold. The iteration settles at c = k P(c) with k = 1 / sqrt(2).
        let cat = Catalog {
            listed: vec![6.0, 12.0],
            rates: vec![vec![fitted(1, 1.0)], vec![fitted(0, 2.0)]],
            anchor: 0,
        };
        match cat.balance() {
            Ok(b) => {
                assert!((b.drift - 0.5f64.sqrt()).abs() < 1e-9, "{b:?}");
                assert!((b.cost[0] - 6.0).abs() < 1e-9, "{b:?}");
            }
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn a_reference_without_a_price_stops_the_balance() {
        let cat = Catalog {
            listed: vec![6.0, 9.0],
            rates: vec![
                vec![fitted(0, 1.0)],
                vec![Rate::Above {
                    reference: 1,
                    rate: 3.0,
                }],
            ],
            anchor: 0,
        };
        assert_eq!(cat.balance(), Err(NoBalance::Unpriced(1)));
    }

    #[test]
    fn the_bootstrap_is_seeded_and_its_interval_holds_the_point() {
        // Worths 6 : 9 : 15 with a 5% standard error on every rate: the same seed gives the
        // same sheet; the proposed costs' CIs hold their points, and re-priced at the proposal
        // the catalog is nearer balance than as listed (6, 6, 6).
        let mut cat = exact(&[6.0, 9.0, 15.0], &[0, 1], &[6.0, 6.0, 6.0]);
        for rates in &mut cat.rates {
            for r in rates {
                if let Rate::Fitted { rate, se, .. } = r {
                    *se = 0.05 * *rate;
                }
            }
        }
        // A third table, the worths exactly, scores 0 in every draw's point.
        let worths = vec![vec![6.0, 9.0, 15.0]];
        let a = sheet(&cat, 400, 7, |x| x, &worths).unwrap();
        assert_eq!(a, sheet(&cat, 400, 7, |x| x, &worths).unwrap());
        assert_ne!(a, sheet(&cat, 400, 8, |x| x, &worths).unwrap());
        assert!(a.other_scores[0].point < 1e-9, "{a:?}");
        assert!(a.other_scores[0].hi < a.listed_score.lo, "{a:?}");
        assert_eq!(a.failed, 0);
        for c in &a.cost {
            assert!(c.lo <= c.point && c.point <= c.hi, "{c:?}");
        }
        assert!((a.cost[2].point - 15.0).abs() < 1e-9);
        assert!(a.proposed_score.hi < a.listed_score.lo, "{a:?}");
    }
}
