//! A melee duel: two units in base contact attack in turn until one dies.
//!
//! Each attack is [`AttackPlan::attack`] (Skill vs Use, Critical Failure, Overskill, Damage
//! vs Armor), resolved once per side by [`Attacker::against`]. A kill ends the duel. A tie of Damage and Armor does nothing here under every
//! `armor_tie` choice: the Disruption of `dismemberment` / `something_bad` lasts only "until
//! his following turn" (Ch. 4.3), which in an alternating one-on-one duel comes before the
//! next attack against him; Amputation needs limbs, which arrive with stat blocks (issue 4).
//! Ties are still counted. See docs/model.md.

use crate::dice::{Die, Expr, Faces, Log, ParseError};
use crate::rules::RuleOptions;
use crate::rules::attack::{AttackPlan, AttackResult, Attacker, PlainAttack};
use crate::sim::Estimate;

use super::{Scenario, Tally};

/// One side of a duel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// Its name as printed.
    pub name: String,
    /// Its attack: Skill, Use and Damage.
    pub attacker: Attacker,
    /// Armor: a number (minifig 4) or dice rolled fresh for each hit.
    pub armor: Expr,
}

/// Why a side of a duel cannot be built; `field` names the part and `text` what was given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FighterError {
    /// Not `SKILL/USE/DAMAGE/ARMOR`.
    #[error("{0:?}: expected SKILL/USE/DAMAGE/ARMOR, e.g. d6/2/1d6/4")]
    Shape(String),
    /// An expression that does not parse.
    #[error("{field} {text:?}: {error}")]
    Expr {
        /// The stat at fault (`SKILL`, `DAMAGE`, ...).
        field: &'static str,
        /// The expression as written.
        text: String,
        /// Why it does not parse.
        error: Box<ParseError>,
    },
    /// The Skill is not a single die (Ch. 10.1).
    #[error("skill {0:?} must be a single Skill die like d6 (Ch. 10.1)")]
    Skill(String),
    /// The Use rating is not a whole number.
    #[error("Use {0:?} is not a whole number (Ch. 4.2 Use ratings)")]
    Use(String),
    /// A Skill die inside Damage or Armor.
    #[error("{0} cannot contain a Skill die")]
    SkillIn(&'static str),
}

impl Fighter {
    /// The side as answers name it: "A (Skill d6, Use 2, Damage 1d6, Armor 4)".
    pub fn described(&self) -> String {
        format!(
            "{} (Skill {}, Use {}, Damage {}, Armor {})",
            self.name,
            self.attacker.skill.die(),
            self.attacker.use_rating,
            self.attacker.damage,
            self.armor
        )
    }

    /// Builds a side from its four fields: `skill` a die like `d6` (Ch. 10.1: one die),
    /// `use_rating` a whole number, `damage` and `armor` dice expressions.
    pub fn from_parts(
        name: &str,
        skill: &str,
        use_rating: &str,
        damage: &str,
        armor: &str,
    ) -> Result<Fighter, FighterError> {
        let expr = |field: &'static str, text: &str| {
            Expr::parse(text).map_err(|error| FighterError::Expr {
                field,
                text: text.to_string(),
                error: Box::new(error),
            })
        };
        let skill = expr("skill", &format!("{skill} skill"))
            .ok()
            .filter(|e| e.terms().len() == 1)
            .and_then(|e| e.skill())
            .ok_or_else(|| FighterError::Skill(skill.to_string()))?;
        let use_rating = use_rating
            .trim()
            .parse()
            .map_err(|_| FighterError::Use(use_rating.to_string()))?;
        let damage = expr("damage", damage)?;
        let armor = expr("armor", armor)?;
        for (field, e) in [("damage", &damage), ("armor", &armor)] {
            if e.skill().is_some() {
                return Err(FighterError::SkillIn(field));
            }
        }
        Ok(Fighter {
            name: name.into(),
            attacker: Attacker {
                skill,
                use_rating,
                damage,
            },
            armor,
        })
    }

    /// Parses the shorthand `SKILL/USE/DAMAGE/ARMOR`, e.g. `d6/2/1d6/4` (a minifig with a
    /// Hand Weapon).
    pub fn parse(name: &str, spec: &str) -> Result<Fighter, FighterError> {
        match spec.split('/').collect::<Vec<_>>()[..] {
            [skill, use_rating, damage, armor] => {
                Fighter::from_parts(name, skill.trim(), use_rating, damage, armor)
            }
            _ => Err(FighterError::Shape(spec.to_string())),
        }
    }
}

/// Who attacks first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum First {
    /// A attacks first.
    A,
    /// B attacks first.
    B,
    /// A d6 roll-off before the duel: odd, A; even, B.
    Random,
}

impl First {
    /// Who goes first in one trial; `Random` rolls a d6 (odd: A).
    #[inline(always)]
    pub fn resolve<F: Faces + ?Sized>(self, faces: &mut F) -> Side {
        match self {
            First::A => Side::A,
            First::B => Side::B,
            First::Random => {
                if faces.face(Die::D6) % 2 == 1 {
                    Side::A
                } else {
                    Side::B
                }
            }
        }
    }
}

/// A side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// Side A.
    A,
    /// Side B.
    B,
}

/// A duel, validated, with each side's attack against the other resolved once.
#[derive(Clone, Debug)]
pub struct Duel {
    a: Fighter,
    b: Fighter,
    first: First,
    max_attacks: u32,
    opts: RuleOptions,
    /// A attacking B, and B attacking A.
    a_hits_b: AttackPlan,
    b_hits_a: AttackPlan,
    /// The two plans specialised, when both are plain stat lines (issue 27): the trial
    /// rolls these instead, draw for draw the same.
    plain: Option<Plain>,
}

/// Both sides' attacks as [`PlainAttack`]s, and whether every die is a d6.
#[derive(Copy, Clone, Debug)]
struct Plain {
    a_hits_b: PlainAttack,
    b_hits_a: PlainAttack,
    d6: bool,
}

impl Duel {
    /// A duel of `a` and `b`; after `max_attacks` attacks (both sides together) it is a draw.
    pub fn new(a: Fighter, b: Fighter, first: First, max_attacks: u32, opts: RuleOptions) -> Duel {
        let a_hits_b = a.attacker.against(&b.armor, &opts);
        let b_hits_a = b.attacker.against(&a.armor, &opts);
        let plain = PlainAttack::of(&a_hits_b)
            .zip(PlainAttack::of(&b_hits_a))
            .map(|(a_hits_b, b_hits_a)| Plain {
                a_hits_b,
                b_hits_a,
                d6: a_hits_b.all_d6() && b_hits_a.all_d6(),
            });
        Duel {
            a_hits_b,
            b_hits_a,
            plain,
            a,
            b,
            first,
            max_attacks,
            opts,
        }
    }

    /// Side A.
    pub fn a(&self) -> &Fighter {
        &self.a
    }

    /// Side B.
    pub fn b(&self) -> &Fighter {
        &self.b
    }

    /// Who attacks first.
    pub fn first(&self) -> First {
        self.first
    }

    /// Attacks after which a duel is a draw.
    pub fn max_attacks(&self) -> u32 {
        self.max_attacks
    }

    /// The rule options it rolls under.
    pub fn opts(&self) -> &RuleOptions {
        &self.opts
    }
}

/// One duel's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DuelOutcome {
    /// `None` for a draw at `max_attacks`.
    pub winner: Option<Side>,
    /// The side that attacked first.
    pub first: Side,
    /// Attacks made.
    pub attacks: u32,
    /// Hits whose Damage exactly equalled Armor.
    pub ties: u32,
}

impl Scenario for Duel {
    type Outcome = DuelOutcome;
    type Tally = DuelTally;

    #[inline(always)] // into the batch loop, so the RNG state can live in registers
    fn trial<F: Faces + ?Sized, L: Log + ?Sized>(&self, faces: &mut F, log: &mut L) -> DuelOutcome {
        // One trial loop per kind of plan, chosen here once per trial (a predictable branch).
        match self.plain {
            Some(p) if p.d6 => self.alternate(&Specialised::<true>(p), faces, log),
            Some(p) => self.alternate(&Specialised::<false>(p), faces, log),
            None => self.alternate(self, faces, log),
        }
    }

    fn key(&self, t: &DuelTally) -> Estimate {
        Estimate::proportion(t.a_wins, t.trials, crate::sim::CONFIDENCE)
    }
}

/// Who rolls which attack: the general plans or their specialised forms. A trait, not a
/// closure, so that each form's attack is inlined into the trial's loop (a closure was
/// called out of line, and the RNG state went through memory at every die).
trait Attacks {
    fn attack<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        side: Side,
        faces: &mut F,
        log: &mut L,
    ) -> AttackResult;
}

impl Attacks for Duel {
    #[inline(always)]
    fn attack<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        side: Side,
        faces: &mut F,
        log: &mut L,
    ) -> AttackResult {
        match side {
            Side::A => self.a_hits_b.attack(faces, log),
            Side::B => self.b_hits_a.attack(faces, log),
        }
    }
}

/// The [`Plain`] attacks, with every die a d6 when `D6`.
struct Specialised<const D6: bool>(Plain);

impl<const D6: bool> Attacks for Specialised<D6> {
    #[inline(always)]
    fn attack<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        side: Side,
        faces: &mut F,
        log: &mut L,
    ) -> AttackResult {
        match side {
            Side::A => self.0.a_hits_b.attack::<D6, F, L>(faces, log),
            Side::B => self.0.b_hits_a.attack::<D6, F, L>(faces, log),
        }
    }
}

impl Duel {
    /// The duel's loop: who goes first, then `attacks` in turn until a kill or
    /// `max_attacks`.
    #[inline(always)]
    fn alternate<A: Attacks, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        attacks: &A,
        faces: &mut F,
        log: &mut L,
    ) -> DuelOutcome {
        let first = self.first.resolve(faces);
        let mut side = first;
        let mut ties = 0;
        for n in 1..=self.max_attacks {
            if L::NOTES {
                log.note(format_args!("attack {n}: {side:?} strikes"));
            }
            match attacks.attack(side, faces, log) {
                AttackResult::Kill => {
                    return DuelOutcome {
                        winner: Some(side),
                        first,
                        attacks: n,
                        ties,
                    };
                }
                AttackResult::Tie => ties += 1,
                _ => {}
            }
            side = match side {
                Side::A => Side::B,
                Side::B => Side::A,
            };
        }
        DuelOutcome {
            winner: None,
            first,
            attacks: self.max_attacks,
            ties,
        }
    }
}

/// Counts over many duels.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DuelTally {
    /// Duels counted.
    pub trials: u64,
    /// Duels A won.
    pub a_wins: u64,
    /// Duels B won.
    pub b_wins: u64,
    /// Duels drawn at the attack limit.
    pub draws: u64,
    /// Duels in which A attacked first.
    pub a_first: u64,
    /// Duels won by the side that attacked first.
    pub first_wins: u64,
    /// Attacks, over all duels.
    pub attacks: u64,
    /// Sum of each duel's attacks squared.
    pub attacks_sq: u128,
    /// Hits whose Damage exactly equalled Armor, over all duels.
    pub ties: u64,
}

crate::sim::tally::add_by_field!(DuelTally {
    trials,
    a_wins,
    b_wins,
    draws,
    a_first,
    first_wins,
    attacks,
    attacks_sq,
    ties,
});

impl Tally<DuelOutcome> for DuelTally {
    #[inline]
    fn record(&mut self, o: &DuelOutcome) {
        self.trials += 1;
        match o.winner {
            Some(Side::A) => self.a_wins += 1,
            Some(Side::B) => self.b_wins += 1,
            None => self.draws += 1,
        }
        self.a_first += (o.first == Side::A) as u64;
        self.first_wins += (o.winner == Some(o.first)) as u64;
        self.attacks += o.attacks as u64;
        self.attacks_sq += (o.attacks as u128) * (o.attacks as u128);
        self.ties += o.ties as u64;
    }

    fn trials(&self) -> u64 {
        self.trials
    }
}

impl DuelTally {
    /// Mean number of attacks per duel, with its 95% CI.
    pub fn mean_attacks(&self) -> Estimate {
        Estimate::count_mean(
            self.attacks as i128,
            self.attacks_sq as i128,
            self.trials,
            crate::sim::CONFIDENCE,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{NoLog, Script, SkillRoll};

    fn minifig(name: &str) -> Fighter {
        Fighter::parse(name, "d6/3/1d6/4").unwrap()
    }

    #[test]
    fn shorthand_builds_a_validated_side() {
        let f = minifig("a");
        assert_eq!(f.attacker.skill, SkillRoll::new(Die::D6));
        assert_eq!(f.attacker.use_rating, 3);
        assert_eq!(f.armor, Expr::parse("4").unwrap());
        assert!(matches!(
            Fighter::parse("a", "d6/3/1d6"),
            Err(FighterError::Shape(_))
        ));
        assert!(matches!(
            Fighter::parse("a", "2d6/3/1d6/4"),
            Err(FighterError::Skill(_))
        ));
        assert!(matches!(
            Fighter::parse("a", "d6+1/3/1d6/4"),
            Err(FighterError::Skill(_))
        ));
        assert!(matches!(
            Fighter::parse("a", "d6/x/1d6/4"),
            Err(FighterError::Use(_))
        ));
        assert!(matches!(
            Fighter::parse("a", "d6/3/2d7/4"),
            Err(FighterError::Expr {
                field: "damage",
                ..
            })
        ));
        assert_eq!(
            Fighter::parse("a", "d6/3/1d6/d6 skill"),
            Err(FighterError::SkillIn("armor"))
        );
    }

    #[test]
    fn a_specialised_duel_plays_the_general_one_draw_for_draw() {
        // Issue 27: the plain forms change no seeded digit. Same streams, whole tallies.
        use crate::sim::engine::Engine;
        use crate::sim::progress::Silent;
        let run = |d: &Duel| Engine::tally_of(d, 42, 0, 30_000, &Silent);
        for (a, b, d6) in [
            ("d6/2/1d6/4", "d6/2/1d6/4", true),
            ("d6/3/2d6+1/5", "d6/5/1d6/3", true),
            ("d8/3/1d8/5", "d6/2/1d6/4", false),
        ] {
            let (a, b) = (
                Fighter::parse("a", a).unwrap(),
                Fighter::parse("b", b).unwrap(),
            );
            let duel = Duel::new(a, b, First::Random, 1000, RuleOptions::default());
            let plain = duel.plain.expect("plain stat lines");
            assert_eq!(plain.d6, d6);
            let general = Duel {
                plain: None,
                ..duel.clone()
            };
            let t = run(&duel);
            assert_eq!(t, run(&general), "{:?}", duel.a);
            assert!(t.a_wins > 0 && t.b_wins > 0);
        }
        // Dice Armor is not plain: the general plans roll it.
        let a = Fighter::parse("a", "d6/2/1d6/1d6").unwrap();
        let d = Duel::new(a.clone(), a, First::A, 10, RuleOptions::default());
        assert!(d.plain.is_none());
    }

    #[test]
    fn alternates_until_a_kill() {
        let duel = Duel::new(
            minifig("a"),
            minifig("b"),
            First::A,
            10,
            RuleOptions::default(),
        );
        // A misses (2); B hits (4) and ties (4); A hits (5) and kills (5).
        let mut dice = Script::new(&[
            (Die::D6, 2),
            (Die::D6, 4),
            (Die::D6, 4),
            (Die::D6, 5),
            (Die::D6, 5),
        ]);
        let o = duel.trial(&mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert_eq!(
            o,
            DuelOutcome {
                winner: Some(Side::A),
                first: Side::A,
                attacks: 3,
                ties: 1
            }
        );
        // Narrated (issue 40): each attack names its attacker and says what its dice did,
        // in the specialised form and the general one alike.
        let script = [
            (Die::D6, 2),
            (Die::D6, 4),
            (Die::D6, 4),
            (Die::D6, 5),
            (Die::D6, 5),
        ];
        let mut general = duel.clone();
        general.plain = None;
        for d in [&duel, &general] {
            let mut told = crate::dice::Narration::default();
            d.trial(&mut Script::new(&script), &mut told);
            let notes = told.notes();
            assert_eq!(
                notes,
                [
                    "attack 1: A strikes",
                    "  miss",
                    "attack 2: B strikes",
                    "  Damage 4 = Armor 4: a tie",
                    "attack 3: A strikes",
                    "  Damage 5 vs Armor 4: it falls",
                ]
            );
        }
    }

    #[test]
    fn draw_at_the_attack_limit_and_roll_off() {
        let duel = Duel::new(
            minifig("a"),
            minifig("b"),
            First::Random,
            2,
            RuleOptions::default(),
        );
        // Roll-off 4: B first. Both miss.
        let mut dice = Script::new(&[(Die::D6, 4), (Die::D6, 2), (Die::D6, 1)]);
        let o = duel.trial(&mut dice, &mut NoLog);
        assert!(dice.is_done());
        assert_eq!(o.winner, None);
        assert_eq!(o.first, Side::B);
        let mut t = DuelTally::default();
        t.record(&o);
        assert_eq!((t.draws, t.a_first, t.attacks), (1, 0, 2));
    }
}
