//! What each die did, for narration and replay.
//!
//! Rolling functions take a [`Log`]. Simulations pass [`NoLog`], which compiles away, so the
//! trial loop neither allocates nor branches on logging; `diemon roll` passes a `Vec` and
//! narrates it.

use super::die::Die;

/// Why a die was rolled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A die of a regular roll (Damage, Armor, a stat).
    Regular,
    /// A Bonus Die earned by a top face (Ch. 4.2; readings §1).
    Bonus,
    /// The unit's own Skill (Action) die (Ch. 4.2).
    Skill,
    /// An extra die rolled for a Blessing; the highest is kept (Ch. D.4).
    Blessing,
    /// An extra die rolled for a Curse; the lowest is kept (Ch. D.4).
    Curse,
    /// A SuperNatural die rolled by its owner (Ch. D.3).
    SuperNatural,
    /// A SuperNatural Bonus Die (same size, Ch. D.3).
    SnBonus,
    /// A Fumble Die rolled by the opponent against the Effect (Ch. D.3).
    Fumble,
    /// A SuperNatural Bonus Fumble Die (Ch. D.3).
    FumbleBonus,
    /// A double-Fumbled die rolled again by its owner (option `double_fumble`).
    DoubleFumble,
}

/// One die as it fell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DieEvent {
    /// Which term of the expression rolled it (0-based).
    pub term: usize,
    /// The die rolled.
    pub die: Die,
    /// The natural face.
    pub face: u32,
    /// What the roll was for.
    pub role: Role,
    /// What it added to the total (0 for a die that was not kept or fumbled).
    pub counted: i64,
}

/// Receives every die rolled, and what a scenario narrates between them.
pub trait Log {
    /// Whether [`Log::note`] keeps notes: a trial that narrates nothing may take a form
    /// that writes none (the squad battle's line form, issue 27). No default, so a new log
    /// that keeps notes cannot lose them by forgetting to say so.
    const NOTES: bool;

    /// Notes one die rolled.
    fn die(&mut self, event: DieEvent);

    /// A line of narration (a turn, a move, an attack and its result). `format_args!` costs
    /// nothing until a log that keeps notes formats it; the default drops it.
    #[inline(always)]
    fn note(&mut self, _what: std::fmt::Arguments<'_>) {}

    /// Something a battle's map draws; built only where [`Log::NOTES`] holds, and the
    /// default drops it.
    #[inline(always)]
    fn scene(&mut self, _what: super::Scene) {}
}

/// Discards events; used in simulations.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoLog;

impl Log for NoLog {
    const NOTES: bool = false;

    #[inline(always)]
    fn die(&mut self, _: DieEvent) {}
}

impl Log for Vec<DieEvent> {
    const NOTES: bool = false;

    fn die(&mut self, event: DieEvent) {
        self.push(event);
    }
}

/// One entry of a [`Narration`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A die rolled.
    Die(DieEvent),
    /// A line of narration.
    Note(String),
}

/// Keeps dice and notes in order, for replaying a trial as a narrated fight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Narration(pub Vec<Entry>);

impl Narration {
    /// The notes alone, in order: what a test of the story reads.
    pub fn notes(&self) -> Vec<&str> {
        self.0
            .iter()
            .filter_map(|e| match e {
                Entry::Note(n) => Some(n.as_str()),
                Entry::Die(_) => None,
            })
            .collect()
    }
}

impl Log for Narration {
    const NOTES: bool = true;

    fn die(&mut self, event: DieEvent) {
        self.0.push(Entry::Die(event));
    }

    fn note(&mut self, what: std::fmt::Arguments<'_>) {
        self.0.push(Entry::Note(what.to_string()));
    }
}
