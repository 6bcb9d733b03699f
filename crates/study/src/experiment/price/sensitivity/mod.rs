//! Sensitivity: the price again under each alternative reading of the rules that touches
//! the unit's battles. Every rule option's every other value is first tried on a probe (a
//! few thousand battles a scenario, the same seeds as under the defaults); a reading whose
//! probe battles all end exactly as under the defaults does not touch these battles and is
//! not re-priced. The rest are priced (each scenario family whose probe battles a reading
//! leaves as they were keeps the defaults' games), and the shift of the card price against
//! the defaults', both over the same scenarios, is the tornado chart: readings that push
//! the price beyond the search's grid first (open-ended, at their bound), then the biggest.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::{Priced, Pricing, experiment_spec, file_name, grid, page, reading};
use crate::analysis::card::{Card, Scenario};
use diemon_core::catalog::cost::breakdown;

use crate::experiment::error::{Drive, RunError, Unwatched, io};
use crate::experiment::threads::each;
use crate::experiment::{Catalogs, build};
use crate::question::tally::AnyTally;
use crate::report::chart::{Body, Chart, Range};
use crate::report::sheet::{Section, Table};
use diemon_core::options::{OPTIONS, RuleOptions};
use diemon_core::sim::engine::Shard;

mod ruling;

pub use ruling::{rulings, section};

/// Battles a scenario in the probe that decides whether a reading touches them.
pub const PROBE_TRIALS: u64 = 2000;

/// A reading's shift of the price.
#[derive(Clone, Debug)]
pub struct Shift {
    /// The option's key.
    pub option: &'static str,
    /// The value read.
    pub value: String,
    /// Where the texts leave it open.
    pub source: &'static str,
    /// The card prices under the defaults and under this reading, over the scenarios both
    /// price or bound, or why there is none.
    pub shift: Result<Moved, NoCommon>,
    /// The reading's folder.
    pub folder: PathBuf,
}

/// The card price `from` (the defaults) and `to` (a reading), `[point, lo, hi]` each, over
/// the `common` scenarios both price or bound. A bound is `[inf, x, inf]` (above `x`) or
/// `[0, 0, x]` (below), as [`crate::analysis::card::Card`] gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Moved {
    /// The card price under the defaults.
    pub from: [f64; 3],
    /// The card price under the reading.
    pub to: [f64; 3],
    /// Scenarios both price or bound.
    pub common: usize,
    /// Under the reading, every battle of every scenario ends one way: "wins" or "loses".
    pub decisive: Option<&'static str>,
}

impl Moved {
    /// Where the reading's price is a bound (`above`, or below), its bound.
    pub fn open(&self) -> Option<(bool, f64)> {
        match self.to {
            [p, lo, _] if p == f64::INFINITY => Some((true, lo)),
            [p, lo, hi] if p == 0.0 && lo == 0.0 => Some((false, hi)),
            _ => None,
        }
    }

    /// The shift of the card price, reading against defaults (at its bound when open).
    pub fn by(&self) -> f64 {
        match self.open() {
            Some((_, x)) => x - self.from[0],
            None => self.to[0] - self.from[0],
        }
    }

    /// Whether the reading moves the price beyond the dice: the two CIs do not overlap
    /// (conservative: each CI is already conservative), or the price leaves the grid.
    pub fn beyond_dice(&self) -> bool {
        self.open().is_some() || self.to[1] > self.from[2] || self.to[2] < self.from[1]
    }

    /// In words: "+2.10 CP (card price 14.20 [13.90, 14.50], over 18 scenarios)".
    pub fn text(&self) -> String {
        let over = format!("over {} scenarios", self.common);
        let decisive = self
            .decisive
            .map(|d| format!("; decisive: it {d} every battle of every scenario"))
            .unwrap_or_default();
        match self.open() {
            Some((true, x)) => format!(
                "above {x:.2} CP, {:+.2} CP or more (it wins past the grid's largest count; \
                 {over}{decisive})",
                self.by()
            ),
            Some((false, x)) => format!(
                "below {x:.2} CP, {:+.2} CP or less (it loses past the grid's smallest count; \
                 {over}{decisive})",
                self.by()
            ),
            None => format!(
                "{:+.2} CP (card price {:.2} [{:.2}, {:.2}] against {:.2}, {over}{decisive})",
                self.by(),
                self.to[0],
                self.to[1],
                self.to[2],
                self.from[0]
            ),
        }
    }
}

/// What re-pricing found.
#[derive(Clone, Debug)]
pub struct Sensitivity {
    /// The card price under the defaults, over every scenario.
    pub base: f64,
    /// Readings that touched the battles: open-ended ones first, then the biggest shift.
    pub shifts: Vec<Shift>,
    /// Options none of whose readings changed a probe battle.
    pub untouched: Vec<&'static str>,
}

/// Every other value of every option than the one in force (`set`, else the default):
/// `(key, value, source)`.
pub fn readings(set: &[(String, String)]) -> Vec<(&'static str, &'static str, &'static str)> {
    let mut out = Vec::new();
    for o in OPTIONS {
        let now = set
            .iter()
            .find(|(k, _)| k == o.key)
            .map_or(o.default, |(_, v)| v.as_str());
        for v in o.values {
            // `...` stands for more numbers in a list of values, and is no value.
            if *v != now && RuleOptions::default().set(o.key, v).is_ok() {
                out.push((o.key, *v, o.source));
            }
        }
    }
    out
}

/// Each probe battle's outcome (its cell's tally) for `p`, by scenario family (a reference
/// and formation, in the plan's order): every scenario at the listed exchange rate,
/// [`PROBE_TRIALS`] battles each.
fn probe(
    p: &Pricing,
    listed: diemon_core::catalog::Cp,
    cp: &(dyn Fn(&str) -> Result<diemon_core::catalog::Cp, RunError> + Sync),
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Result<Vec<Vec<AnyTally>>, RunError> {
    let mut out = Vec::new();
    for (reference, formation, table) in super::families(p) {
        let (units, counts) = grid(listed, cp(reference)?).map_err(RunError::input)?;
        // The two counts about the listed rate: the fewest a fair-CP experiment takes.
        let m = (counts.len() / 2).max(1);
        let middle = &counts[m - 1..=m];
        let menus = super::menus(p, reference, table)?;
        // The table the price stands on: as wide as the whole grid needs.
        let width = match table == super::PLANE {
            true => 0,
            false => super::fit::width(formation, &menus, units, &counts)?.0,
        };
        let mut family = Vec::new();
        for k in 0..menus.pairs() {
            let spec = experiment_spec(
                p,
                &super::Fit {
                    reference,
                    formation,
                    table: super::on(table, width),
                    distances: &p.distances,
                    units,
                    counts: middle,
                    trials: PROBE_TRIALS,
                    target_ci: None,
                    conduct: menus.pair(k),
                },
            );
            let e = build("a sensitivity probe", spec, &Catalogs::Files(None))
                .map_err(crate::experiment::sweep::input_errors)?;
            for (i, cell) in e.cells.iter().enumerate() {
                let v = crate::experiment::sweep::run_cell(
                    &e,
                    i,
                    cell,
                    threads,
                    None,
                    Vec::new(),
                    cancel,
                )?;
                // The tally alone: a cell's answer also holds its speed, which differs run
                // to run. Every fair-CP cell keeps its tally.
                family.push(
                    v.tally()
                        .cloned()
                        .ok_or_else(|| RunError::other("a sensitivity probe cell kept no tally"))?,
                );
            }
        }
        out.push(family);
    }
    Ok(out)
}

/// No scenario both readings price or bound: nothing to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no scenario priced or bounded under both readings (see each one's no_price)")]
pub struct NoCommon;

/// The card prices of `base` and `alt` over the scenarios both price or bound, each
/// scenario as the card counts it ([`super::ScenarioPrice::for_card`]).
pub fn shift(base: &[Option<Scenario>], alt: &[Option<Scenario>]) -> Result<Moved, NoCommon> {
    let (mut from, mut to) = (Vec::new(), Vec::new());
    for (a, b) in alt.iter().zip(base) {
        if let (Some(a), Some(b)) = (a, b) {
            to.push(*a);
            from.push(*b);
        }
    }
    let (Some(f), Some(t)) = (Card::of(&from), Card::of(&to)) else {
        return Err(NoCommon);
    };
    let all = |above: bool| {
        !alt.is_empty()
            && alt.iter().all(|s| match s {
                Some(Scenario::Above(_)) => above,
                Some(Scenario::Below(_)) => !above,
                _ => false,
            })
    };
    Ok(Moved {
        from: f.price,
        to: t.price,
        common: from.len(),
        decisive: if all(true) {
            Some("wins")
        } else if all(false) {
            Some("loses")
        } else {
            None
        },
    })
}

/// How a sensitivity keeps its readings.
#[derive(Clone, Copy, Debug)]
pub struct Keep<'a> {
    /// Keep each reading's experiments whole, with their reports (charts and pages);
    /// otherwise a reading keeps its prices frame and record alone ([`super::reading`]).
    pub whole: bool,
    /// The command that prices the defaults with no `-o` (nor `--sensitivity`, `--parts`):
    /// each reading's frame records it with the reading's options.
    pub command: &'a str,
}

/// Re-prices `p` (priced under the defaults as `base`) under every reading that touches its
/// battles, into `dir/sensitivity/KEY=VALUE/`.
pub fn sensitivity(
    p: &Pricing,
    base: &Priced,
    dir: &Path,
    keep: Keep,
    drive: Drive,
    out: &mut dyn Write,
) -> Result<Sensitivity, RunError> {
    let base_card = base.card.map_or(f64::NAN, |c| c.price[0]);
    let all = readings(&p.options);
    io(writeln!(
        out,
        "\nsensitivity: {} readings of {} options, each probed with {PROBE_TRIALS} battles a \
         scenario under the defaults' seeds",
        all.len(),
        OPTIONS.len()
    ))?;
    let base_cards: Vec<Option<Scenario>> = base.scenarios.iter().map(|s| s.for_card()).collect();
    let tried = run_readings(p, base.listed, &all, None, dir, keep, drive)?;
    let mut shifts = Vec::new();
    for (&(key, value, source), t) in all.iter().zip(tried) {
        let Some(Some(to)) = t? else { continue };
        let s = Shift {
            option: key,
            value: value.to_string(),
            source,
            shift: shift(&base_cards, &to),
            folder: reading_folder(dir, key, value),
        };
        io(writeln!(
            out,
            "  {}={}: {}",
            s.option,
            s.value,
            match &s.shift {
                Ok(m) => m.text(),
                Err(why) => why.to_string(),
            }
        ))?;
        shifts.push(s);
    }
    let touched_options: std::collections::BTreeSet<&str> =
        shifts.iter().map(|s| s.option).collect();
    // Open-ended first (a price pushed out of the grid moves most of all), then by size; a
    // reading with no common scenario last, but listed.
    let size = |s: &Shift| {
        s.shift.as_ref().map_or((0, -1.0), |m| {
            (usize::from(m.open().is_some()) + 1, m.by().abs())
        })
    };
    shifts.sort_by(|a, b| {
        let (x, y) = (size(a), size(b));
        y.0.cmp(&x.0).then(y.1.total_cmp(&x.1))
    });
    let untouched = OPTIONS
        .iter()
        .map(|o| o.key)
        .filter(|k| !touched_options.contains(k))
        .collect();
    Ok(Sensitivity {
        base: base_card,
        shifts,
        untouched,
    })
}

/// The readings `all` of `p` (whose unit is listed at `listed`), each re-priced or found
/// untouched and kept in its folder under `dir`; with `share`, only shard `I/N`'s (reading
/// `k` is item `offset + k` of the shard's deal). Each reading's scenarios as the card counts
/// them, `None` if untouched; `None` for a reading another shard runs.
#[allow(clippy::type_complexity)]
pub fn run_readings(
    p: &Pricing,
    listed: diemon_core::catalog::Cp,
    all: &[(&'static str, &'static str, &'static str)],
    share: Option<(Shard, usize)>,
    dir: &Path,
    keep: Keep,
    drive: Drive,
) -> Result<Vec<Result<Option<Option<Vec<Option<Scenario>>>>, RunError>>, RunError> {
    let catalog = crate::question::catalog(p.catalog.as_ref(), None)?;
    let cp = |name: &str| -> Result<diemon_core::catalog::Cp, RunError> {
        let u = catalog
            .equipped(name)
            .map_err(|e| RunError::input(e.to_string()))?;
        Ok(breakdown(&u).total())
    };
    let mine = |k: usize| share.is_none_or(|(s, o)| super::shard::mine(s, o + k));
    // The defaults' probe, once, and only if some reading of this run needs it.
    let defaults = std::sync::OnceLock::new();
    // The defaults' families, read back from the price before the sensitivity (on one
    // machine, and when the readings' folders keep only their prices).
    let families = (share.is_none() && !keep.whole)
        .then(|| Families::new(p, dir, drive.threads, drive.cancel));
    let indexed: Vec<(usize, &(&'static str, &'static str, &'static str))> =
        all.iter().enumerate().collect();
    // The readings side by side: each is seeded on its own, so none depends on another.
    drive.watch.begin_items(
        all.iter().enumerate().filter(|(k, _)| mine(*k)).count() as u64,
        0,
        "readings",
    );
    let tried = each(&indexed, |&(k, &(key, value, _))| {
        if !mine(k) {
            return Ok(None);
        }
        // After Ctrl-C, a reading not yet begun is not begun (planning one takes a while).
        if drive.cancel.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(RunError::Interrupted(String::new()));
        }
        let r = reprice(
            p,
            listed,
            (key, value),
            (&defaults, families.as_ref()),
            &cp,
            (dir, keep),
            drive,
        );
        drive.watch.done();
        r.map(Some)
    });
    drive.watch.finish();
    if tried
        .iter()
        .any(|r| matches!(r, Err(RunError::Interrupted(_))))
    {
        let kept = tried.iter().filter(|r| matches!(r, Ok(Some(_)))).count();
        return Err(RunError::Interrupted(format!(
            "interrupted: {kept} readings are kept in {} (and the cells of those under way)\n\
             hint: run the same command again to resume from them",
            dir.join("sensitivity").display()
        )));
    }
    Ok(tried)
}

/// A reading's folder: `dir/sensitivity/KEY=VALUE`.
pub fn reading_folder(dir: &Path, key: &str, value: &str) -> PathBuf {
    dir.join("sensitivity")
        .join(format!("{key}={}", file_name(value)))
}

/// The defaults' probe, run on first need.
type Probe = std::sync::OnceLock<Result<Vec<Vec<AnyTally>>, RunError>>;

/// The defaults' scenario families, each searched on first need into the price's own
/// folders (where the price before the sensitivity wrote it whole: read back, not fought),
/// for the readings that touch none of its probe battles.
struct Families<'a> {
    p: &'a Pricing,
    dir: &'a Path,
    threads: Option<usize>,
    cancel: &'a AtomicBool,
    plan: std::sync::OnceLock<Result<super::Plan, RunError>>,
    games: Vec<std::sync::OnceLock<Result<Vec<super::value::Played>, RunError>>>,
}

impl<'a> Families<'a> {
    fn new(
        p: &'a Pricing,
        dir: &'a Path,
        threads: Option<usize>,
        cancel: &'a AtomicBool,
    ) -> Families<'a> {
        Families {
            p,
            dir,
            threads,
            cancel,
            plan: std::sync::OnceLock::new(),
            games: (0..super::families(p).count())
                .map(|_| std::sync::OnceLock::new())
                .collect(),
        }
    }

    /// Family `k`'s games under the defaults.
    fn games(&self, k: usize) -> Result<Vec<super::value::Played>, RunError> {
        self.games[k]
            .get_or_init(|| {
                let plan = self
                    .plan
                    .get_or_init(|| super::plan(self.p))
                    .as_ref()
                    .map_err(RunError::clone)?;
                let f = &plan.fits[k];
                let held = crate::experiment::lock::lock(&super::folder_of(self.dir, f))?;
                super::search(self.p, f, &held, self.threads, &Unwatched, self.cancel)
            })
            .clone()
    }
}

/// Re-prices `p` under `key = value` if the reading changes a probe battle (against the
/// `defaults`' probe, run on first need), and keeps it ([`reading`]): its scenarios as the
/// card counts them, or `None` if it touched no probe battle. A scenario family none of
/// whose probe battles it changes keeps the defaults' games, when `families` gives them.
/// A reading kept by an earlier run under the same key is read back, not priced or probed
/// again.
fn reprice(
    p: &Pricing,
    listed: diemon_core::catalog::Cp,
    (key, value): (&'static str, &'static str),
    (defaults, families): (&Probe, Option<&Families>),
    cp: &(dyn Fn(&str) -> Result<diemon_core::catalog::Cp, RunError> + Sync),
    (dir, keep): (&Path, Keep),
    drive: Drive,
) -> Result<Option<Vec<Option<Scenario>>>, RunError> {
    let mut options: Vec<(String, String)> = p
        .options
        .iter()
        .filter(|(k, _)| k != key)
        .cloned()
        .collect();
    options.push((key.to_string(), value.to_string()));
    let alt = Pricing {
        options,
        reports: keep.whole,
        ..p.clone()
    };
    let folder = reading_folder(dir, key, value);
    let plan = super::plan(&alt)?;
    let stamp = plan.key();
    if let Some(kept) = reading::read(&folder, &stamp) {
        return Ok(kept.scenarios);
    }
    // Its error keeps its kind: an interrupted probe is an interrupted run (exit 130).
    let defaults = defaults
        .get_or_init(|| probe(p, listed, cp, drive.threads, drive.cancel))
        .as_ref()
        .map_err(RunError::clone)?;
    let _held = crate::experiment::lock::lock(&folder)?;
    let probed = probe(&alt, listed, cp, drive.threads, drive.cancel)?;
    if probed == *defaults {
        reading::write(
            &folder,
            &reading::Record {
                key: stamp,
                scenarios: None,
            },
        )?;
        return Ok(None);
    }
    let mut said = Vec::new();
    // A family the reading leaves every probe battle of as it was keeps the defaults' games.
    let untouched =
        |k: usize| families.filter(|_| probed.len() == defaults.len() && probed[k] == defaults[k]);
    let priced = super::run(
        &alt,
        &plan,
        &folder,
        Drive {
            watch: &Unwatched,
            ..drive
        },
        &mut said,
        &|k| untouched(k).map(|f| f.games(k)),
    )?;
    let command = alt
        .options
        .iter()
        .fold(keep.command.to_string(), |c, (k, v)| {
            format!("{c} -o {k}={v}")
        });
    if keep.whole {
        page::write(&folder, &priced, None, None, &command)?;
    } else {
        page::write_prices(&folder, &priced, &command)?;
    }
    let scenarios: Vec<Option<Scenario>> = priced.scenarios.iter().map(|s| s.for_card()).collect();
    // The record first: once it is written, the cells are no longer needed.
    reading::write(
        &folder,
        &reading::Record {
            key: stamp,
            scenarios: Some(scenarios.clone()),
        },
    )?;
    if !keep.whole {
        reading::prune(&folder, &plan)?;
    }
    Ok(Some(scenarios))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readings_are_every_other_value_of_every_option() {
        let all = readings(&[]);
        // Every value but the one in force, and no `...` (it stands for more numbers).
        assert!(all.contains(&("d4_bonus", "all", "Ch. 4.2 vs Ch. 10.1, 10.3")));
        assert!(!all.iter().any(|r| r.0 == "d4_bonus" && r.1 == "none"));
        assert!(!all.iter().any(|r| r.1 == "..."));
        assert!(all.iter().any(|r| r.0 == "bonus_chain" && r.1 == "0"));
        // With an option set, its default becomes an alternative and its value is not.
        let set = readings(&[("d4_bonus".into(), "all".into())]);
        assert!(set.iter().any(|r| r.0 == "d4_bonus" && r.1 == "none"));
        assert!(!set.iter().any(|r| r.0 == "d4_bonus" && r.1 == "all"));
        assert_eq!(set.len(), all.len());
    }

    fn shift_of(option: &'static str, at: f64) -> Shift {
        Shift {
            option,
            value: "x".into(),
            source: "Ch. 1",
            shift: Ok(Moved {
                from: [10.0, 9.9, 10.1],
                to: [at, at - 0.1, at + 0.1],
                common: 1,
                decisive: None,
            }),
            folder: PathBuf::new(),
        }
    }

    #[test]
    fn a_ruling_is_needed_where_a_reading_moves_the_price_beyond_its_ci() {
        let s = Sensitivity {
            base: 10.0,
            // In the tornado's order, as `sensitivity` sorts them.
            shifts: vec![
                shift_of("a", 12.0),
                shift_of("b", 9.5),
                shift_of("c", 10.05),
                shift_of("d", 10.5),
                shift_of("e", 10.4),
            ],
            untouched: vec![],
        };
        let named: Vec<&str> = rulings(&s).iter().map(|r| r.option).collect();
        // c's CI overlaps the defaults'; at most three are named.
        assert_eq!(named, ["a", "b", "d"]);
        // An option with two readings beyond their CI is named once, by its first.
        let mut twice = s.clone();
        twice.shifts.insert(1, shift_of("a", 11.0));
        let named: Vec<&str> = rulings(&twice).iter().map(|r| r.option).collect();
        assert_eq!(named, ["a", "b", "d"]);
        let sec = section(&s);
        assert!(sec.paragraphs[1].contains("`a` (Ch. 1): `x` moves the price +2.00 CP"));
    }

    #[test]
    fn issue_39_a_reading_that_leaves_the_grid_is_open_ended_and_a_ruling() {
        // Under heavy_armor=2 the unit wins every battle the search fields: its card price
        // is a bound, drawn at it, and needs a ruling first.
        let open = Shift {
            option: "heavy_armor",
            value: "2".into(),
            source: "Ch. 8",
            shift: Ok(Moved {
                from: [24.0, 23.5, 24.5],
                to: [f64::INFINITY, 60.0, f64::INFINITY],
                common: 18,
                decisive: Some("wins"),
            }),
            folder: PathBuf::new(),
        };
        let m = open.shift.as_ref().unwrap();
        assert_eq!(m.open(), Some((true, 60.0)));
        assert_eq!(m.by(), 36.0);
        assert!(m.beyond_dice() && m.text().contains("decisive: it wins every battle"));
        let s = Sensitivity {
            base: 24.0,
            shifts: vec![open, shift_of("b", 12.0)],
            untouched: vec![],
        };
        let named: Vec<&str> = rulings(&s).iter().map(|r| r.option).collect();
        assert_eq!(named, ["heavy_armor", "b"]);
        let sec = section(&s);
        let Some((_, chart, _)) = &sec.figure else {
            panic!("a tornado")
        };
        let Body::Ranges { rows, .. } = &chart.body else {
            panic!("bars")
        };
        assert_eq!(rows[0].label, "heavy_armor=2 (> 60.0)");
        assert_eq!((rows[0].from, rows[0].to), (24.0, 60.0));
        assert!(
            sec.paragraphs[1].contains("`heavy_armor` (Ch. 8): `2` moves the price above 60.00 CP")
        );
        let t = sec.table.unwrap();
        assert_eq!(t.rows[0][2], "above 60.00");
        assert!(
            t.rows[0][3].starts_with(">= +36.00 (decisive"),
            "{:?}",
            t.rows[0]
        );
    }
}
