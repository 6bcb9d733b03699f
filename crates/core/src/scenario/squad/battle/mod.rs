//! One squad duel, turn by turn (see the module overview in `squad`). All state lives in a
//! fixed array, each thread's one [`Field`] that its trials reuse, so a trial allocates
//! nothing and rewrites only its roster's slots.
//!
//! This file holds the state of a trial (the [`Field`] of [`Figure`]s); each room holds one
//! part of the rules that act on it:
//! - [`turn`]: the trial's loop of player turns and each unit's turn (Ch. 4);
//! - [`hooks`]: the few named points where creature rules join the turn;
//! - [`plane`]: where figures stand, how far apart, and the steps they take;
//! - [`field`]: who is nearest, the walk toward the enemy, Sprints, Responses, KnockBack;
//! - [`conduct`]: where a walk ends on a table, by the side's `conduct` (cover);
//! - [`picture`]: the battle as a map draws it (a log that keeps notes only);
//! - [`line`]: the same turn for a battle of plain melee fighters, on a few arrays;
//! - [`strike`]: Actions, targets, Skill rolls, Damage against Armor, Parries;
//! - [`minds`]: Stupidity and Half-Mind Usefulness (Ch. 10.1);
//! - one room per creature rule: [`contagion`], [`spawners`], [`medik`] and [`limbs`],
//!   [`constructs`], [`thralls`], [`supernatural`] units, Summoned [`diemons`], [`fire`];
//! - [`explosives`]: grenades and Launcher Payloads, their Explosions on the plane (Ch. 8.4);
//! - [`flight`]: shells fired beyond 12", coming down turns later (Ch. 8.4 Trajectories);
//! - [`arcs`]: automatic weapons: arc fire, MachineGun bursts and jams (Ch. 8.3);
//! - [`bail`]: Bailing out of an Explosion as a Response (Ch. 4.3);
//! - [`gunnery`]: Gunners' d8 with mounted weapons, their crews, Gunnery Support and homing
//!   in (Ch. 8.5);
//! - [`throws`]: hand weapons thrown at an enemy within a minifig arm's 3" (Ch. 8.4);
//! - [`defence`]: SN dice spent against an attack on their owner (Ch. D.4);
//! - [`hexes`]: SN dice left on an enemy: its Armor weakened, its Actions suppressed, its
//!   Mind Controlled (Ch. D.4, Ch. 10.3).

mod arcs;
mod bail;
mod conduct;
mod constructs;
mod contagion;
mod defence;
mod diemons;
mod explosives;
mod field;
mod fire;
mod flight;
mod gunnery;
mod hexes;
mod hooks;
mod limbs;
mod line;
mod medik;
mod minds;
mod picture;
mod plane;
mod power;
mod rolls;
mod sn_effects;
mod spawners;
mod strike;
mod supernatural;
mod table;
mod thralls;
mod throws;
mod turn;
mod verdict;

pub(super) use hooks::Hooks;
pub(super) use line::Line;
use plane::{Heading, Spot};

use crate::scenario::table::ways::Seen;

use super::Squad;
use super::roster::MAX_PER_SIDE;
use super::tally::TRACK;

/// Within an inch is Close Combat reach; positions are half-inches.
const CONTACT: i32 = 2;
/// The inch a Responding minifig may move to strike (Ch. 4.3's "Angry Inch"), and the full
/// inch a mover must cross inside a responder's range for the responder to act first.
const ANGRY_INCH: i32 = 2;
/// The farthest a Response in Close Combat reaches: contact after the Angry Inch.
pub(super) const RESPONSE_REACH: i32 = CONTACT + ANGRY_INCH;
const SLOTS: usize = 2 * MAX_PER_SIDE as usize;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mode {
    Close,
    Ranged,
}

/// One unit's state in a trial.
#[derive(Copy, Clone, Debug)]
struct Figure {
    kind: u16,
    side: u8,
    alive: bool,
    /// Half-inches along the line (across it: [`Field::lat`]); whole numbers while the
    /// battle is flat ([`Squad::flat`]).
    pos: f32,
    /// Effective Size (Size Damage lowers it).
    size: u32,
    /// An Action saved from its own last turn, for a Response (Ch. 4.3).
    saved: bool,
    acted: bool,
    disrupted: bool,
    recovering: bool,
    /// Close Combat attackers this turn (the three-per-inch limit).
    engaged: u16,
    /// Attacks received this turn (the `spread` policy).
    targeted: u16,
    /// The Damage pooled on it this player turn and the Armor it is rolled against: a
    /// Vermin swarm's bites, and every hit under option `combined_fire` (Ch. 10.4).
    combined: Pool,
    /// Weapons used this turn (bit per weapon), the Power they took (Ch. 8.1) and the hands
    /// they held (each hand once a turn, Ch. 10.1).
    used: u64,
    power_used: u16,
    hands_used: u8,
    /// Cumulative Damage of the weapons of one Multidexterity Action or of a burst, and
    /// its Armor roll (under Combined Fire, on top of `combined`).
    combo: Pool,
    /// Its shield was knocked away by a critically failed Parry (Ch. 8.2).
    shield_lost: bool,
    /// Its Mind was destroyed by Monstrous Contagion: it rises as `rise_as` on side
    /// `rise_side` at the beginning of that side's next turn (Ch. 10.4).
    comatose: bool,
    rise_as: u16,
    rise_side: u8,
    /// Its SN dice (bit per die of its kind) spent this turn, and out in Lasting Effects;
    /// `ward` are those on its own Armor (Ch. D.3, D.4).
    spent: u8,
    lasting: u8,
    ward: u8,
    /// A Blessing on it: 1 + the SN die's index in `Die::ALL` (with `supernatural::CURSE` set,
    /// a Curse), and 1 + its caster's slot.
    blessing: u8,
    blesser: u8,
    /// An Instant Benny from a Sacrificed Thrall: 1 + the index in `Die::ALL` of the die
    /// (Ch. 10.4 Masters and Thralls); gone at the end of its side's turn.
    benny: u8,
    /// Spawned this turn: it has its Move but no Action (Ch. 10.4 Spawners).
    spawned: bool,
    /// Amputations from Ker-Triage! or fire ([`limbs::BEYOND`]: its head, beyond revival).
    lost: u8,
    /// On fire (Ch. 8.3).
    burning: bool,
    /// Explosives thrown or fired so far (each is used once).
    fired: u8,
    /// Its MachineGun jammed: inoperative until an Action reloads it (Ch. 8.3).
    jammed: bool,
    /// Power inches saved by Diverting All Power, and whether it saved them this turn
    /// ([`power::DIVERTING`], Ch. 8.1).
    divert: u8,
}

const EMPTY: Figure = Figure {
    kind: 0,
    side: 0,
    alive: false,
    pos: 0.0,
    size: 0,
    saved: false,
    acted: false,
    disrupted: false,
    recovering: false,
    engaged: 0,
    targeted: 0,
    combined: Pool::EMPTY,
    used: 0,
    power_used: 0,
    hands_used: 0,
    combo: Pool::EMPTY,
    shield_lost: false,
    comatose: false,
    rise_as: 0,
    rise_side: 0,
    spent: 0,
    lasting: 0,
    ward: 0,
    blessing: 0,
    blesser: 0,
    spawned: false,
    benny: 0,
    lost: 0,
    burning: false,
    fired: 0,
    jammed: false,
    divert: 0,
};

/// Cumulative Damage on one target and the Armor it is rolled against, rolled once. Kept in
/// 32 bits (with a sentinel for "not rolled yet") so that a [`Figure`] stays 64 bytes: the
/// trial rewrites every roster slot and scans them, and a larger one slowed every squad duel.
#[derive(Copy, Clone, Debug)]
struct Pool {
    damage: i32,
    armor: i32,
}

impl Pool {
    const NOT_ROLLED: i32 = i32::MIN;
    const EMPTY: Pool = Pool {
        damage: 0,
        armor: Pool::NOT_ROLLED,
    };

    /// Adds `damage` and rolls the pool's Armor the first time: (pooled Damage, Armor).
    #[inline(always)]
    fn add(&mut self, damage: i64, roll: impl FnOnce() -> i64) -> (i64, i64) {
        // Same sums as 64-bit ones for any Damage a roll can make.
        self.damage =
            (self.damage as i64 + damage).clamp(-(i32::MAX as i64), i32::MAX as i64) as i32;
        if self.armor == Pool::NOT_ROLLED {
            self.armor = roll().clamp(i32::MIN as i64 + 1, i32::MAX as i64) as i32;
        }
        (self.damage as i64, self.armor as i64)
    }
}

/// A side's living units at the two ends of its stretch of the line (issue 27): a unit
/// standing beyond either end has that end as its nearest enemy, found without a scan.
/// Each end is (position, slot), the lowest slot among those standing there. Rebuilt on
/// demand after [`Field::moved`] marks it stale.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Front {
    low: (i32, u8),
    high: (i32, u8),
    /// Some unit of the side stands.
    any: bool,
    /// The side's standing units, a bit each from the first of its roster range: the plain
    /// form's loops over a side visit only these.
    up: u64,
    fresh: bool,
}

impl Front {
    const STALE: Front = Front {
        low: (0, 0),
        high: (0, 0),
        any: false,
        up: 0,
        fresh: false,
    };
}

/// One end of a side's stretch of the line: (position, index in its roster range).
type End = (i32, usize);

/// Where a side stands on the line, from its `units` (position, standing) in roster order:
/// a bit per standing unit, and its lowest and highest standing units as (position,
/// index), ties to the lower index (the order the nearest-enemy scan breaks ties in); no
/// ends when none stands. At most 64 units (a side's most). Shared by the general turn's
/// [`Front`] and the line form.
#[inline(always)]
fn ends_of(units: impl Iterator<Item = (i32, bool)>) -> (u64, Option<(End, End)>) {
    // Keys that order by position, then index: the least is the low end; the greatest
    // position with the least index is the high end. The fallen take no part: arithmetic,
    // so no branch.
    let (mut low, mut high, mut up) = (u64::MAX, 0u64, 0u64);
    for (t, (p, standing)) in units.enumerate() {
        let at = (p as i64 - i32::MIN as i64) as u64;
        let alive = standing as u64;
        low = low.min(((at << 8) | t as u64) | alive.wrapping_sub(1));
        high = high.max(((at << 8) | (255 - t as u64)) & alive.wrapping_neg());
        up |= alive << t;
    }
    let place = |k: u64| ((k >> 8) as i64 + i32::MIN as i64) as i32;
    let ends = (up != 0).then(|| {
        (
            (place(low), (low & 255) as usize),
            (place(high), 255 - (high & 255) as usize),
        )
    });
    (up, ends)
}

/// The standing unit of `units` (position, standing) nearest to `at`: the distance in
/// half-inches and its index, ties to the lower index. Without data-dependent branches
/// (they mispredicted): the fallen count as farthest, and only a strictly nearer unit beats
/// the best.
#[inline(always)]
fn nearest_of(units: impl Iterator<Item = (i32, bool)>, at: i32) -> Option<(i32, usize)> {
    let (mut best, mut who) = (u64::MAX, 0);
    for (t, (p, standing)) in units.enumerate() {
        let fallen = (!standing) as u64;
        let d = (p - at).unsigned_abs() as u64 | fallen.wrapping_neg();
        (best, who) = if d < best { (d, t) } else { (best, who) };
    }
    (best != u64::MAX).then_some((best as i32, who))
}

/// The lowest standing unit left in `up` (a [`Front`]'s mask, bits from slot `start`),
/// taken out of it.
#[inline(always)]
fn next_standing(up: &mut u64, start: usize) -> Option<usize> {
    if *up == 0 {
        return None;
    }
    let t = start + up.trailing_zeros() as usize;
    *up &= *up - 1;
    Some(t)
}

impl Field {
    /// A unit of `side` moved, fell, rose or changed sides: its front is rebuilt when next
    /// asked for. Every write of a position or of `alive` calls it.
    #[inline(always)]
    fn moved(&self, side: u8) {
        self.fronts[(side & 1) as usize].set(Front::STALE);
    }
}

/// An attack's kind as narration names it, formatted only when a log keeps notes.
struct How(Mode, i32);

impl std::fmt::Display for How {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Mode::Close => f.write_str("Close Combat"),
            Mode::Ranged => write!(f, "ranged, {}\"", self.1 as f64 / 2.0),
        }
    }
}

/// A unit as narration names it: "A2 minifig-hand-weapon".
struct Who<'a>(&'a Squad, &'a Field, usize);

impl std::fmt::Display for Who<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Who(s, fl, i) = *self;
        if i >= s.units {
            // "A1 pyromantik's 4pion": named by its summoner.
            let c = s.pions[i - s.units].0 as usize;
            return write!(
                f,
                "{}'s {}",
                Who(s, fl, c),
                s.kinds[fl.f[i].kind as usize].key
            );
        }
        // Named by its place in the roster, whichever side it fights for now.
        let side = s.roster[i].0;
        let n = i - s.own(side).start + 1;
        let name = if side == 0 { 'A' } else { 'B' };
        write!(f, "{name}{n} {}", s.kinds[fl.f[i].kind as usize].key)
    }
}

#[derive(Debug)]
struct Field {
    f: [Figure; SLOTS],
    /// Each slot's place across the line, in half-inches ([`plane`]), kept apart from
    /// [`Figure`], which fills a cache line.
    lat: [f32; SLOTS],
    /// Every figure stands on one line and only moves along it ([`Squad::flat`]): distances
    /// are differences of positions.
    flat: bool,
    /// Each side's [`Front`], kept for the plain form's nearest-enemy question.
    fronts: [std::cell::Cell<Front>; 2],
    alive: [u32; 2],
    ties: u32,
    /// Minds destroyed by Monstrous Contagion.
    converted: u32,
    /// Fallen units revived by Mediks.
    revived: u32,
    /// Units felled by each side's Explosives: enemies, and its own side.
    blasted: [u32; 2],
    blasted_own: [u32; 2],
    /// Enemies felled by each side's automatic weapons.
    swept: [u32; 2],
    /// Carriers whose semi-stable Explosives an Explosion activated: they go off at the end
    /// of the player turn; and carriers whose Explosives go off now (bit per slot, Ch. 8.4).
    primed: u128,
    blown: u128,
    /// Thralls fallen since the last Sacrifices were resolved (bit per slot).
    fallen_thralls: u128,
    /// Useless Half-Minded units this turn: Move or Action, not both (bit per slot).
    restricted: u128,
    /// Kills wait in `pending` while `deferring`: a Response that lands at the same time as
    /// the attack it answers (Ch. 4.3 "both Actions occur simultaneously").
    deferring: bool,
    pending: u128,
    /// Units standing on each side, and Minds converted so far, after each player turn.
    standing: [[u8; TRACK]; 2],
    converted_by: [u8; TRACK],
    /// Each slot's Damage from this player turn's Explosions and the Armor it is rolled
    /// against (`stacking=cumulative`, Ch. 8.4); kept apart from [`Figure`], which fills a
    /// cache line, and cleared each turn only where Explosions stack.
    blast: [Pool; SLOTS],
    /// A sweep's enemies in its arc, (angle, slot, inches), in order: scratch kept here
    /// so that a sweep zeroes no 3 KB array of its own (a third of a MachineGun battle's
    /// instructions); nothing a sweep's strikes do sweeps again.
    arc: [(f64, usize, f64); SLOTS],
    /// The weapons each slot has thrown (a bit each, Ch. 8.4), out of its hands until it
    /// picks them up where they fell (`fell`, half-inches along the line). Kept apart from
    /// [`Figure`]; each turn's `used` starts from it where a side throws.
    thrown: [u64; SLOTS],
    fell: [Spot; SLOTS],
    /// Hostile Lasting SN Effects on each slot ([`hexes`]); cleared as the slots are
    /// placed, where a unit has SN dice.
    hex: [hexes::Hex; SLOTS],
    /// The Damage dice of the hit being resolved on a unit that may cancel them with its SN
    /// dice ([`defence`]): scratch, filled by the hit and emptied as it is resolved.
    struck: defence::Struck,
    /// Each gun's homing in on its target ([`gunnery::Homing`]); cleared as the slots are
    /// placed, where a side has crew.
    homing: [gunnery::Homing; SLOTS],
    /// Shells in flight beyond 12" ([`flight`]), the first `flying` of them in the order
    /// they were fired.
    shells: [flight::Shell; flight::SHELLS],
    flying: u8,
    /// Where each figure faces ([`Heading`]), on a table (Ch. 4.3's Cone of Vision).
    face: [Heading; SLOTS],
    /// On a table: each side's turns running holding the centre, and the side that won
    /// the objective (1 + side; 0: none yet).
    held: [u32; 2],
    won: u8,
    /// On a table, the turns round terrain that a walk's goal sees, for walkers who leap
    /// and for those who may not: kept between walks to one goal, forgotten each trial.
    seen: [std::cell::Cell<Seen>; 2],
}

impl Field {
    /// An empty field with `alive` units a side (the slots are filled by the caller).
    /// Inlined so the 8 KB field is built in place, not copied.
    #[inline(always)]
    const fn new(alive: [u32; 2]) -> Field {
        Field {
            f: [EMPTY; SLOTS],
            lat: [0.0; SLOTS],
            flat: true,
            fronts: [const { std::cell::Cell::new(Front::STALE) }; 2],
            alive,
            ties: 0,
            converted: 0,
            revived: 0,
            blasted: [0; 2],
            blasted_own: [0; 2],
            swept: [0; 2],
            primed: 0,
            blown: 0,
            fallen_thralls: 0,
            restricted: 0,
            deferring: false,
            pending: 0,
            standing: [[0; TRACK]; 2],
            converted_by: [0; TRACK],
            blast: [Pool::EMPTY; SLOTS],
            arc: [(0.0, 0, 0.0); SLOTS],
            thrown: [0; SLOTS],
            fell: [(0.0, 0.0); SLOTS],
            hex: [hexes::Hex::NONE; SLOTS],
            struck: defence::Struck::EMPTY,
            homing: [gunnery::Homing::NONE; SLOTS],
            shells: [flight::Shell::NONE; flight::SHELLS],
            flying: 0,
            face: [(0.0, 0.0); SLOTS],
            held: [0; 2],
            won: 0,
            seen: [const { std::cell::Cell::new(Seen::NONE) }; 2],
        }
    }

    /// Makes a used field what [`Field::new`] makes, but for its slots (the caller fills
    /// those): a trial reuses its thread's field rather than build 8 KB afresh.
    #[inline(always)]
    fn clear(&mut self, alive: [u32; 2]) {
        // Every field named, so a new one cannot be forgotten here.
        let Field {
            f: _,
            lat: _,
            flat: _,
            fronts,
            alive: a,
            ties,
            converted,
            revived,
            blasted,
            blasted_own,
            swept,
            primed,
            blown,
            fallen_thralls,
            restricted,
            deferring,
            pending,
            standing,
            converted_by,
            blast: _,
            arc: _,
            thrown: _,
            fell: _,
            hex: _,
            struck,
            homing: _,
            shells: _,
            flying,
            face: _,
            held,
            won,
            seen,
        } = self;
        // `hex` and `homing` are cleared as the slots are placed, where a unit has SN dice
        // or a side has crew.
        // `thrown` is cleared as the slots are placed, where a side throws; `lat` and
        // `flat` are written as the slots are placed.
        // `blast` is cleared at the start of every player turn where Explosions stack.
        for c in fronts.iter() {
            c.set(Front::STALE);
        }
        *a = alive;
        (*ties, *converted, *revived) = (0, 0, 0);
        (*blasted, *blasted_own, *swept) = ([0; 2], [0; 2], [0; 2]);
        (*primed, *blown, *fallen_thralls, *restricted, *pending) = (0, 0, 0, 0, 0);
        *deferring = false;
        *standing = [[0; TRACK]; 2];
        *converted_by = [0; TRACK];
        *struck = defence::Struck::EMPTY;
        // Only the first `flying` shells are ever read.
        *flying = 0;
        // `face` is written as the slots are placed, on a table.
        (*held, *won) = ([0; 2], 0);
        for c in seen.iter() {
            c.set(Seen::NONE);
        }
    }
}

/// A thread's field between trials, and how many of its slots a trial may have written
/// (the rest are as [`Field::new`] left them).
struct Reused {
    field: Field,
    written: usize,
}

thread_local! {
    /// Each thread's field, reused by its trials (issue 27): building a fresh 8 KB field
    /// every trial cost a default squad duel nearly a fifth of its time.
    static FIELD: std::cell::RefCell<Reused> = const {
        std::cell::RefCell::new(Reused {
            field: Field::new([0; 2]),
            written: 0,
        })
    };
}

/// A field with every fielded unit standing, side B `gap` half-inches from side A: for
/// tests that drive one step of a turn.
#[cfg(test)]
fn standing(s: &Squad, gap: i32) -> Field {
    let mut fl = Field::new([s.count[0] as u32, s.count[1] as u32]);
    for (slot, &(side, kind)) in fl.f.iter_mut().zip(&s.roster).take(s.units) {
        *slot = Figure {
            kind,
            side,
            alive: true,
            size: s.kinds[kind as usize].size,
            pos: if side == 0 { 0.0 } else { gap as f32 },
            ..EMPTY
        };
    }
    fl
}

/// What the rooms' tests share: squads from the built-in catalog, scripted trials.
#[cfg(test)]
mod testing {
    pub(super) use crate::catalog::Catalog;
    pub(super) use crate::dice::{Die, NoLog};
    pub(super) use crate::rules::{RuleOptions, Stupidity};
    pub(super) use crate::scenario::duel::{First, Side};
    pub(super) use crate::scenario::squad::{Policy, SideSpec, Sprint, Squad, SquadOutcome};

    pub(super) fn side(units: &[(&str, u32)], opts: &RuleOptions) -> SideSpec {
        side_with(units, Policy::default(), opts)
    }

    /// A 24" square table with `terrain`, each side's zone `zone` inches deep (the fronts
    /// `24 - 2 zone` apart).
    pub(super) fn square(
        terrain: Vec<crate::scenario::table::Terrain>,
        zone: f64,
    ) -> crate::scenario::table::Table {
        use crate::scenario::table::Table;
        Table::new(
            24.0,
            24.0,
            terrain,
            Table::edge_zones(24.0, 24.0, zone).unwrap(),
        )
        .unwrap()
    }

    /// A side of built-in `units` under policy `p`.
    pub(super) fn side_with(units: &[(&str, u32)], p: Policy, opts: &RuleOptions) -> SideSpec {
        let units: Vec<(String, u32)> = units.iter().map(|(k, n)| (k.to_string(), *n)).collect();
        SideSpec::from_catalog(&Catalog::builtin(), &units, p, opts).unwrap()
    }

    pub(super) fn squad(
        a: &[(&str, u32)],
        b: &[(&str, u32)],
        distance: u32,
        opts: RuleOptions,
    ) -> Squad {
        Squad::new(side(a, &opts), side(b, &opts), distance, First::A, 50, opts).unwrap()
    }

    /// A side of built-in `units` standing on one spot (`spacing` 0): every figure of it
    /// in contact with the others, and the line's positions the plane's.
    pub(super) fn side_on_spot(units: &[(&str, u32)], opts: &RuleOptions) -> SideSpec {
        side_with(units, on_spot(), opts)
    }

    /// The default policy with the side on one spot (`spacing` 0).
    pub(super) fn on_spot() -> Policy {
        Policy {
            spacing: crate::scenario::squad::Spacing(0),
            ..Policy::default()
        }
    }

    /// [`squad`] with each side on one spot ([`side_on_spot`]).
    pub(super) fn squad_on_spot(
        a: &[(&str, u32)],
        b: &[(&str, u32)],
        distance: u32,
        opts: RuleOptions,
    ) -> Squad {
        let (a, b) = (side_on_spot(a, &opts), side_on_spot(b, &opts));
        Squad::new(a, b, distance, First::A, 50, opts).unwrap()
    }

    /// `s` in every form that plays its battle (issue 42): as built (the line form where it
    /// qualifies), the general turn's plain form where the battle is plain, and the general
    /// turn with every branch.
    pub(super) fn forms(s: &Squad) -> Vec<(&'static str, Squad)> {
        let mut out = vec![("built", s.clone())];
        if s.line.is_some() {
            out.push((
                "plain",
                Squad {
                    line: None,
                    ..s.clone()
                },
            ));
        }
        if s.plain {
            out.push((
                "general",
                Squad {
                    line: None,
                    plain: false,
                    ..s.clone()
                },
            ));
        }
        out
    }

    /// One scripted trial of `s`, played in every form that qualifies ([`forms`]): each
    /// must use up the same dice to the same outcome.
    pub(super) fn run(s: &Squad, script: &[(Die, u32)]) -> SquadOutcome {
        let mut forms = forms(s).into_iter();
        let (_, built) = forms.next().expect("the squad as built");
        let o = crate::scenario::scripted(&built, script);
        for (name, f) in forms {
            assert_eq!(crate::scenario::scripted(&f, script), o, "the {name} form");
        }
        o
    }

    pub(super) const D6: Die = Die::D6;
    pub(super) const MF: (&str, u32) = ("minifig-hand-weapon", 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_figure_fits_in_a_cache_line() {
        // Every trial rewrites its roster's slots and scans them: at 96 bytes a squad duel
        // ran 25% slower.
        assert!(std::mem::size_of::<Figure>() <= 64);
    }
}
