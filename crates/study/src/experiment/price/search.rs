//! The search for a price: the rounds that narrow each scenario's crossing, kept on disk
//! between rounds so a killed run resumes (`search.json`), each round's cells and their
//! fits checked before the next.

use super::*;

/// The counts a scenario still wants after `have` (sorted), given its `worth` read from
/// them with `units` of the unit, at a listed rate of `rate` references: beyond the grid
/// on the side it never crosses (by steps of about 12%, to [`WIDE`] of the rate and a
/// side's limit), or the whole counts around its crossing not yet fought (so the bracket
/// narrows to one figure and odd and even counts both stand either side). None once the
/// crossing lies between two whole counts, or the grid is as wide as it goes.
pub fn wanted(units: u64, rate: f64, have: &[u64], worth: &Result<Worth, NoWorth>) -> Vec<u64> {
    let max = MAX_PER_SIDE as u64;
    let floor = ((WIDE[0] * rate).floor() as u64).max(1);
    let cap = ((WIDE[1] * rate).ceil() as u64).min(max);
    let (Some(&least), Some(&most)) = (have.first(), have.last()) else {
        return Vec::new();
    };
    let above = || {
        let mut v = Vec::new();
        let mut n = most as f64;
        while v.len() < ADDED {
            n *= 1.12;
            let k = (n.round() as u64).max(v.last().copied().unwrap_or(most) + 1);
            if k > cap {
                break;
            }
            v.push(k);
        }
        v
    };
    let below = || (floor..least).rev().take(ADDED).collect::<Vec<u64>>();
    let count = |ratio: f64| (ratio * units as f64).round() as u64;
    let mut want: Vec<u64> = match worth {
        Err(NoWorth::AlwaysAhead { .. }) => above(),
        Err(NoWorth::AlwaysBehind { .. }) => below(),
        Err(NoWorth::NoFit) => Vec::new(),
        Ok(w) => {
            let [a, b] = w.between.map(count);
            let mut v: Vec<u64> = (a.saturating_sub(1).max(1)..=b + 1)
                .filter(|n| *n <= max && !have.contains(n))
                .collect();
            // One parity never crosses among the cells: fight beyond them.
            if let Some(Doubt::Parity { odd, even }) = &w.doubt {
                for side in [odd, even] {
                    match side {
                        Err(NoWorth::AlwaysAhead { .. }) => {
                            v.extend((most + 1..=(most + 2).min(cap)).chain(above()))
                        }
                        Err(NoWorth::AlwaysBehind { .. }) => v.extend(below()),
                        _ => {}
                    }
                }
            }
            v
        }
    };
    want.sort_unstable();
    want.dedup();
    want.retain(|n| !have.contains(n));
    want.truncate(ADDED * 2);
    // A fit's experiment fights two counts or more: a lone count is fought beside the
    // nearest count already fought, whose trials then add up with the grid's.
    if let [n] = want[..] {
        let near = have
            .iter()
            .copied()
            .min_by_key(|h| (h.abs_diff(n), *h))
            .expect("have is not empty");
        want.push(near);
        want.sort_unstable();
    }
    want
}

/// Searches `f`'s scenarios (of pricing `p`) under every pair of conducts: the grid, the
/// default pair into the held folder and each other pair into its own
/// ([`Planned::pair_folder`]), and each distance's added rounds ([`wanted`], at most
/// [`ROUNDS`], read from the game's values) into `round-R-Din/` beside each pair's grid,
/// all raced together ([`race`]). Returns each distance's game, read from every cell it
/// fought. A search written whole before (its [`SEARCH_FILE`] and every folder it names)
/// is read as it is.
pub(super) fn search(
    p: &Pricing,
    f: &Planned,
    held: &crate::experiment::lock::FolderLock,
    threads: Option<usize>,
    watch: &dyn Watch,
    cancel: &AtomicBool,
) -> Result<Vec<value::Played>, RunError> {
    let locks = (1..f.experiments.len())
        .map(|k| crate::experiment::lock::lock(&f.pair_folder(held.path(), k)))
        .collect::<Result<Vec<_>, _>>()?;
    let pairs: Vec<&crate::experiment::lock::FolderLock> =
        std::iter::once(held).chain(&locks).collect();
    let grid = || race::run::Set {
        fine: f.experiments.clone(),
        folders: pairs.iter().map(|l| race::run::Held::Borrowed(l)).collect(),
    };
    let mut race = race::run::Race::new(&f.menus, threads, watch, cancel);
    let record = search_record(held.path(), f);
    let rounds = match record.and_then(|r| written(p, f, &pairs, r).transpose()) {
        Some(sets) => {
            let (rounds, sets) = sets?;
            race.add(std::iter::once(grid()).chain(sets).collect(), true)?;
            rounds
        }
        None => {
            race.add(vec![grid()], false)?;
            let mut rounds: Vec<Round> = Vec::new();
            loop {
                let added = more_rounds(p, f, &race, &rounds);
                if !added.is_empty() {
                    watch.more(
                        added
                            .iter()
                            .map(|r| r.counts.len() * f.experiments.len())
                            .sum::<usize>() as u64,
                    );
                    let sets = added
                        .iter()
                        .map(|r| round_set(p, f, r, &pairs))
                        .collect::<Result<Vec<_>, _>>()?;
                    race.add(sets, false)?;
                    rounds.extend(added);
                    continue;
                }
                if !race.refine()? {
                    break;
                }
            }
            rounds
        }
    };
    let sets = race.finish()?;
    for pair in &sets[0] {
        check_fits(pair, &p.distances)?;
    }
    for (r, set) in rounds.iter().zip(&sets[1..]) {
        for pair in set {
            check_fits(pair, &[r.distance])?;
        }
    }
    crate::export::write_json_atomic(
        held.path(),
        SEARCH_FILE,
        &Search {
            key: search_key(f),
            rounds: rounds.clone(),
        },
    )?;
    race.clear();
    // Each distance's game over the grid and its rounds, each pair's points in set order.
    Ok(p.distances
        .iter()
        .enumerate()
        .map(|(d, &distance)| {
            let rows: Vec<WorthRow> = (0..f.experiments.len())
                .map(|k| {
                    let mut row = sets[0][k][d].clone();
                    for (r, set) in rounds.iter().zip(&sets[1..]) {
                        if r.distance == distance {
                            row.points.extend(set[k][0].points.iter().copied());
                        }
                    }
                    row
                })
                .collect();
            value::play(&f.menus, &rows.iter().collect::<Vec<_>>())
        })
        .collect())
}

/// The record of a finished search, in the family's folder: which rounds it added.
pub const SEARCH_FILE: &str = "search.json";

/// A finished search: the rounds it added, under the key of the grid's experiments.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(super) struct Search {
    key: String,
    rounds: Vec<Round>,
}

/// A round of counts added to a scenario at one distance.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct Round {
    distance: u32,
    /// 2 for the first round after the grid, and so on: its streams ([`round_seed`]).
    round: u32,
    counts: Vec<u64>,
}

/// A SHA-256 over the resume keys of `f`'s grid experiments.
pub(super) fn search_key(f: &Planned) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for e in &f.experiments {
        let k = e.key();
        h.update((k.len() as u64).to_le_bytes());
        h.update(k.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The search record in `dir` under `f`'s key, if one is there.
pub(super) fn search_record(dir: &Path, f: &Planned) -> Option<Search> {
    let text = std::fs::read_to_string(dir.join(SEARCH_FILE)).ok()?;
    let s: Search = serde_json::from_str(&text).ok()?;
    (s.key == search_key(f)).then_some(s)
}

/// The rounds of `record` as sets, when every pair's grid and rounds were written whole;
/// none otherwise (the search runs again, from whatever its race kept).
#[allow(clippy::type_complexity)]
pub(super) fn written<'a>(
    p: &Pricing,
    f: &Planned,
    pairs: &[&'a crate::experiment::lock::FolderLock],
    record: Search,
) -> Result<Option<(Vec<Round>, Vec<race::run::Set<'a>>)>, RunError> {
    let whole = |e: &crate::experiment::Experiment, dir: &Path| -> Result<bool, RunError> {
        let m = crate::experiment::sweep::manifest(e, None)?;
        Ok(crate::experiment::sweep::kept_count(e, dir, &m) == e.cells.len())
    };
    for (e, l) in f.experiments.iter().zip(pairs) {
        if !whole(e, l.path())? {
            return Ok(None);
        }
    }
    let mut sets = Vec::new();
    for r in &record.rounds {
        let set = round_set(p, f, r, pairs)?;
        for (e, l) in set.fine.iter().zip(&set.folders) {
            if !whole(e, l.lock().path())? {
                return Ok(None);
            }
        }
        sets.push(set);
    }
    Ok(Some((record.rounds, sets)))
}

/// The rounds the search of `f` wants next, from the values `race` has fought so far: at
/// each distance with rounds left ([`ROUNDS`]), the counts [`wanted`] reads from its game.
pub(super) fn more_rounds(
    p: &Pricing,
    f: &Planned,
    race: &race::run::Race,
    rounds: &[Round],
) -> Vec<Round> {
    let mut added = Vec::new();
    for &distance in &p.distances {
        let done = rounds.iter().filter(|r| r.distance == distance).count() as u32;
        if done >= ROUNDS {
            continue;
        }
        let rows = race.rows(&distance.to_string());
        let played = value::play(&f.menus, &rows.iter().collect::<Vec<_>>());
        let rate = f.units as f64 * played.row.cp_unit / played.row.cp_reference;
        let mut have: Vec<u64> = played.row.points.iter().map(|q| q.count).collect();
        have.sort_unstable();
        let mut counts = wanted(f.units, rate, &have, &played.row.worth);
        // A table holds so many: a count that would not deploy is not fought.
        counts.retain(|&n| n <= f.most);
        if !counts.is_empty() {
            added.push(Round {
                distance,
                round: done + 2,
                counts,
            });
        }
    }
    added
}

/// Round `r` of `f`'s search as a set: one experiment per pair, each with its own streams
/// ([`round_seed`]), into `round-R-Din/` under each pair's folder (`pairs`).
pub(super) fn round_set<'a>(
    p: &Pricing,
    f: &Planned,
    r: &Round,
    pairs: &[&crate::experiment::lock::FolderLock],
) -> Result<race::run::Set<'a>, RunError> {
    let seeded = Pricing {
        seed: round_seed(p.seed, r.round, r.distance),
        ..p.clone()
    };
    let fine = (0..f.experiments.len())
        .map(|k| {
            let added = Fit {
                reference: &f.reference,
                formation: &f.formation,
                table: super::on(&f.table, f.width),
                distances: &[r.distance],
                units: f.units,
                counts: &r.counts,
                trials: p.trials,
                target_ci: p.target_ci,
                conduct: f.menus.pair(k),
            };
            let mut e = build(
                &format!(
                    "round {} of the price of {} against {} in {}{} at {}\"",
                    r.round,
                    p.unit,
                    f.reference,
                    f.formation,
                    super::on_words(&f.table),
                    r.distance
                ),
                experiment_spec(&seeded, &added),
                &Catalogs::Files(None),
            )
            .map_err(crate::experiment::sweep::input_errors)?;
            e.report = false;
            Ok(e)
        })
        .collect::<Result<Vec<_>, RunError>>()?;
    let folders = pairs
        .iter()
        .map(|h| {
            crate::experiment::lock::lock(
                &h.path().join(format!("round-{}-{}in", r.round, r.distance)),
            )
            .map(race::run::Held::Owned)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(race::run::Set { fine, folders })
}

/// Checks a price experiment's fits against its `distances`: one fit each, in order.
pub(super) fn check_fits(fits: &[WorthRow], distances: &[u32]) -> Result<(), RunError> {
    // Every price experiment sweeps the distance, one fit each, in the file's order.
    if fits.len() != distances.len()
        || fits.iter().zip(distances).any(|(r, d)| {
            !r.group
                .iter()
                .any(|(k, v)| k == "distance" && v == &d.to_string())
        })
    {
        return Err(RunError::other("a price's fits do not match its distances"));
    }
    Ok(())
}

/// One experiment's cells, counted on the whole price's watch: its cells as they end (and
/// those a resumed run kept), never a bar of its own. A roster counts each unit's whole
/// price on its one bar the same way (a `begin` only adds the cells kept).
pub(super) struct Cells<'a>(pub(super) &'a dyn Watch);

impl Watch for Cells<'_> {
    fn begin(&self, _total: u64, kept: u64) {
        self.0.kept(kept)
    }
    fn kept(&self, n: u64) {
        self.0.kept(n)
    }
    // A cell's parameters alone would not say which of the experiments side by side it is
    // in: the bar counts, and names none.
    fn done(&self) {
        self.0.done()
    }
    fn more(&self, n: u64) {
        self.0.more(n)
    }
    fn suspend(&self, f: &mut dyn FnMut()) {
        self.0.suspend(f)
    }
}
