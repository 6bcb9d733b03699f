//! Explosions (Ch. 8.4 Heavy Explosions).
//!
//! The Damage Roll's Exp d10s (each with the Bonus Dice it earned) hit everything within 2"
//! of the blast centre for their full total; each further 2" ring removes the highest
//! remaining Exp die, until none is left. Other damage types ride along in every ring but
//! do not widen it ("only the Explosive damage dice add to the Explosion radius"). Loose
//! objects in a ring are Knocked Back one inch per Exp die remaining there.
//!
//! [`ExplosionPlan`] resolves a damage expression once; [`ExplosionPlan::roll`] gives a
//! [`Blast`], whose rings are read off without allocating. [`ExplosionPlan::exact_ring`]
//! gives the exact distribution of a ring's damage.

use std::fmt;

use crate::dice::damage::DamageType;
use crate::dice::expr::{RollPlan, TermKind};
use crate::dice::{Expr, Faces, Log, Pmf};
use crate::rules::RuleOptions;

/// The width of a ring (Ch. 8.4: "within a two-inch radius", "the next two inches").
pub const RING_INCHES: f64 = 2.0;

/// How far a launched physical object flies in a turn (Ch. 8.4 Trajectories: "a maximum
/// speed of 12\" per turn"); a shot at a spot farther off makes its Action roll when it
/// comes down there.
pub const FLIGHT_INCHES: f64 = 12.0;

/// Most Exp dice one Explosion may roll.
pub const MAX_EXP_DICE: usize = 64;

/// Why an expression cannot explode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplosionError {
    /// No Exp dice: nothing sets the radius.
    NoExpDice,
    /// Skill or SuperNatural dice have no place in a Damage Roll.
    NotDamage,
    TooManyDice,
}

impl fmt::Display for ExplosionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExplosionError::NoExpDice => {
                f.write_str("an Explosion needs Exp dice (e.g. 3d10 exp): only they set its radius")
            }
            ExplosionError::NotDamage => f.write_str(
                "an Explosion's Damage holds damage dice and numbers, not Skill or SN dice",
            ),
            ExplosionError::TooManyDice => write!(f, "at most {MAX_EXP_DICE} Exp dice"),
        }
    }
}

/// What one of an Explosion's dice does in the rings it reaches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Exp: Damage, and an inch of KnockBack (Ch. 8.4).
    Exp,
    /// A variant's Damage die (Incendiary Fire, Armor Piercing, Phased): Damage only.
    Damage,
    /// Concussion: its roll in inches of KnockBack, no Damage.
    Concussion,
}

/// An Explosion's Damage rating, resolved for rolling.
#[derive(Clone, Debug)]
pub struct ExplosionPlan {
    expr: Expr,
    plan: RollPlan,
    /// Each term's role if its dice set the radius.
    roles: [Option<Role>; 64],
    /// Dice that set the radius: the number of rings.
    exp_dice: u32,
}

impl ExplosionPlan {
    /// A standard Explosive's Damage: its Exp dice set the radius; other damage rides along
    /// (the firebomb, Ch. 8.4).
    pub fn new(expr: &Expr, opts: &RuleOptions) -> Result<ExplosionPlan, ExplosionError> {
        Self::build(expr, opts, false)
    }

    /// An Explosive Variant's Damage (Ch. 8.4 Explosive Variants): its d10s were swapped for
    /// other Explosive Damage dice, which keep their place in the rings: Fire, Pierce and
    /// Phased dice do Damage, KnockBack (Concussion) dice push.
    pub fn variant(expr: &Expr, opts: &RuleOptions) -> Result<ExplosionPlan, ExplosionError> {
        Self::build(expr, opts, true)
    }

    fn build(
        expr: &Expr,
        opts: &RuleOptions,
        variant: bool,
    ) -> Result<ExplosionPlan, ExplosionError> {
        let mut roles = [None; 64];
        let mut exp_dice = 0u32;
        for (t, term) in expr.terms().iter().enumerate() {
            let role = match term.kind {
                TermKind::Dice {
                    kind: DamageType::Exp,
                    ..
                } => Some(Role::Exp),
                TermKind::Dice {
                    kind: DamageType::KnockBack,
                    ..
                } if variant => Some(Role::Concussion),
                TermKind::Dice {
                    kind: DamageType::Fire | DamageType::Pierce | DamageType::Phased,
                    ..
                } if variant => Some(Role::Damage),
                _ => None,
            };
            match term.kind {
                TermKind::Dice { count, .. } if role.is_some() && !term.negative => {
                    if t >= 64 {
                        return Err(ExplosionError::TooManyDice);
                    }
                    roles[t] = role;
                    exp_dice += count;
                }
                TermKind::Skill(_) | TermKind::Sn(_) => return Err(ExplosionError::NotDamage),
                _ => {}
            }
        }
        if exp_dice == 0 {
            return Err(ExplosionError::NoExpDice);
        }
        if exp_dice as usize > MAX_EXP_DICE {
            return Err(ExplosionError::TooManyDice);
        }
        Ok(ExplosionPlan {
            expr: expr.clone(),
            plan: expr.plan(opts),
            roles,
            exp_dice,
        })
    }

    /// The number of rings: one per Exp die.
    pub fn rings(&self) -> u32 {
        self.exp_dice
    }

    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// Rolls the Damage Roll once and leaves the dice on the table.
    #[inline(always)]
    pub fn roll<F: Faces + ?Sized, L: Log + ?Sized>(&self, faces: &mut F, log: &mut L) -> Blast {
        let mut dice = [(0i64, Role::Exp); MAX_EXP_DICE];
        let mut n = 0;
        let mut ring_sum = 0;
        let roles = &self.roles;
        let out = self.plan.roll_each(faces, log, |term, _, t| {
            if let Some(role) = roles.get(term).copied().flatten()
                && n < MAX_EXP_DICE
            {
                dice[n] = (t, role);
                n += 1;
                ring_sum += t;
            }
        });
        Blast::with_roles(&dice[..n], out.total - ring_sum, out.critical_failure)
    }

    /// The exact distribution of the damage in ring `ring` (0 = within 2"): the lowest
    /// `rings - ring` Exp dice plus the rest, for Ratings of Exp dice and numbers. `None`
    /// for other Ratings (mixed damage types) or beyond the last ring.
    pub fn exact_ring(&self, ring: u32, opts: &RuleOptions, eps: f64) -> Option<Pmf> {
        if ring >= self.exp_dice {
            return None;
        }
        let mut rest = 0;
        for (t, term) in self.expr.terms().iter().enumerate() {
            match term.kind {
                TermKind::Const(c) => rest += if term.negative { -c } else { c },
                _ if self.roles[t] == Some(Role::Exp) => {}
                _ => return None,
            }
        }
        let one = Expr::parse("1d10 exp")
            .expect("a d10 Exp die parses")
            .exact(opts, eps / self.exp_dice as f64)
            .total()
            .clone();
        Some(
            one.sum_of_lowest(self.exp_dice, self.exp_dice - ring)
                .shift(rest),
        )
    }
}

/// One Explosion's Damage Roll, its radius dice sorted highest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Blast {
    dice: [(i64, Role); MAX_EXP_DICE],
    n: usize,
    /// Damage of everything but the radius dice, in every ring.
    rest: i64,
    /// Every added die showed 1 (Ch. 10.3): the defender may declare a dud (Ch. 8.4).
    pub critical_failure: bool,
}

impl Blast {
    /// A Damage Roll whose Exp dice (each with its Bonus Dice) came up `dice`, plus `rest`.
    pub fn new(dice: &[i64], rest: i64, critical_failure: bool) -> Blast {
        let mut d = [(0i64, Role::Exp); MAX_EXP_DICE];
        for (slot, &v) in d.iter_mut().zip(dice) {
            slot.0 = v;
        }
        Self::with_roles(&d[..dice.len().min(MAX_EXP_DICE)], rest, critical_failure)
    }

    /// A Damage Roll of radius dice with their roles.
    pub fn with_roles(dice: &[(i64, Role)], rest: i64, critical_failure: bool) -> Blast {
        let mut d = [(0i64, Role::Exp); MAX_EXP_DICE];
        let n = dice.len().min(MAX_EXP_DICE);
        d[..n].copy_from_slice(&dice[..n]);
        // "Removes the highest remaining die"; equal rolls in a stable order.
        d[..n].sort_by_key(|b| std::cmp::Reverse(b.0));
        Blast {
            dice: d,
            n,
            rest,
            critical_failure,
        }
    }

    /// Rings reached: one per radius die.
    pub fn rings(&self) -> usize {
        self.n
    }

    /// Damage in ring `ring` (0 = within 2"): the highest `ring` radius dice removed;
    /// `None` beyond the last ring. Concussion dice do no Damage.
    pub fn damage(&self, ring: usize) -> Option<i64> {
        (ring < self.n).then(|| {
            self.rest
                + self.dice[ring..self.n]
                    .iter()
                    .filter(|(_, r)| *r != Role::Concussion)
                    .map(|(v, _)| v)
                    .sum::<i64>()
        })
    }

    /// KnockBack inches in ring `ring`: an inch per Exp die remaining (Ch. 8.4), plus the
    /// rolls of the Concussion dice remaining.
    pub fn knockback(&self, ring: usize) -> u32 {
        self.dice[ring.min(self.n)..self.n]
            .iter()
            .map(|&(v, r)| match r {
                Role::Exp => 1,
                Role::Concussion => v.max(0) as u32,
                Role::Damage => 0,
            })
            .sum()
    }
}

/// The ring a point `distance` inches from the blast centre is in (Ch. 8.4): within 2" is
/// ring 0, over 2" and within 4" ring 1, and so on. A point on a ring's edge is in the
/// inner ring, however its distance rounded ([`crate::rules::measure`]).
pub fn ring_at(distance: f64) -> usize {
    let d = distance - crate::rules::measure::EDGE;
    if d <= RING_INCHES {
        0
    } else {
        (d / RING_INCHES).ceil() as usize - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Die, NoLog, Script};

    #[test]
    fn wall_demolition() {
        // Ch. 8.4 example: a 3d10 Explosion rolls 3, 6, 7: 16 within 2", 9 in the next two
        // inches, 3 in the outermost two. The wall's 3d10 Armor rolls 15: destroyed within
        // 2" (16 > 15) and Knocked Back three inches; the rest survives (9 < 15). The ground
        // (Armor 8) is destroyed within 4" (9 > 8), not beyond (3 < 8).
        let p =
            ExplosionPlan::new(&Expr::parse("3d10 exp").unwrap(), &RuleOptions::default()).unwrap();
        let mut dice = Script::new(&[(Die::D10, 3), (Die::D10, 6), (Die::D10, 7)]);
        let b = p.roll(&mut dice, &mut NoLog);
        assert!(dice.is_done());
        let rings: Vec<i64> = (0..4).filter_map(|r| b.damage(r)).collect();
        assert_eq!(rings, [16, 9, 3]);
        assert_eq!(b.knockback(0), 3);
        let wall = 4 + 2 + 9;
        assert!(b.damage(0).unwrap() > wall && b.damage(1).unwrap() < wall);
        let ground = 8;
        assert!(b.damage(1).unwrap() > ground && b.damage(2).unwrap() < ground);
        // Rings: the wall "two inches underneath" Boyle's tower is in ring 0.
        assert_eq!(
            (
                ring_at(0.0),
                ring_at(2.0),
                ring_at(2.1),
                ring_at(4.0),
                ring_at(5.0)
            ),
            (0, 0, 1, 1, 2)
        );
    }

    #[test]
    fn the_highest_die_goes_with_its_bonus_dice() {
        // A 10 earns a Bonus d6 (Ch. 4.2): 10 + 4 = 14 is the highest die, removed whole.
        let p =
            ExplosionPlan::new(&Expr::parse("2d10 exp").unwrap(), &RuleOptions::default()).unwrap();
        let mut dice = Script::new(&[(Die::D10, 10), (Die::D6, 4), (Die::D10, 9)]);
        let b = p.roll(&mut dice, &mut NoLog);
        assert_eq!(
            (b.damage(0), b.damage(1), b.damage(2)),
            (Some(23), Some(9), None)
        );
    }

    #[test]
    fn mixed_damage_rides_along_but_does_not_widen() {
        // Ch. 8.4 firebomb: 2d10 Exp + 1d4 Fire + 1: 2d10+1d4+1, then 1d10+1d4+1, then none.
        let p = ExplosionPlan::new(
            &Expr::parse("2d10 exp + 1d4 fire + 1").unwrap(),
            &RuleOptions::default(),
        )
        .unwrap();
        assert_eq!(p.rings(), 2);
        let mut dice = Script::new(&[(Die::D10, 5), (Die::D10, 8), (Die::D4, 3)]);
        let b = p.roll(&mut dice, &mut NoLog);
        assert_eq!(
            (b.damage(0), b.damage(1), b.damage(2)),
            (Some(17), Some(9), None)
        );
        assert_eq!(b.knockback(1), 1);
        assert_eq!(
            ExplosionPlan::new(&Expr::parse("2d4 fire").unwrap(), &RuleOptions::default())
                .unwrap_err(),
            ExplosionError::NoExpDice
        );
    }

    #[test]
    fn variants_keep_their_dice_in_the_rings() {
        // Ch. 8.4 Explosive Variants. Incendiary 2d4 Fire: rings 7, then 3, no KnockBack.
        let o = RuleOptions::default();
        let inc = ExplosionPlan::variant(&Expr::parse("2d4 fire").unwrap(), &o).unwrap();
        let mut dice = Script::new(&[(Die::D4, 4), (Die::D4, 3)]);
        let b = inc.roll(&mut dice, &mut NoLog);
        assert_eq!(
            (b.damage(0), b.damage(1), b.knockback(0)),
            (Some(7), Some(3), 0)
        );
        // Concussion 2d6 KnockBack: no Damage; 5" + 2" of KnockBack, then 2".
        let con = ExplosionPlan::variant(&Expr::parse("2d6 knockback").unwrap(), &o).unwrap();
        let mut dice = Script::new(&[(Die::D6, 5), (Die::D6, 2)]);
        let b = con.roll(&mut dice, &mut NoLog);
        assert_eq!(
            (b.damage(0), b.knockback(0), b.knockback(1)),
            (Some(0), 7, 2)
        );
        // A standard Explosive's Fire die is a firebomb's: it does not widen the radius.
        assert_eq!(
            ExplosionPlan::new(&Expr::parse("1d10 exp + 2d4 fire").unwrap(), &o)
                .unwrap()
                .rings(),
            1
        );
    }

    #[test]
    fn exact_rings_are_order_statistics() {
        // Ring 1 of 2d10 exp is the lower die: P(= 1) = 1 - (9/10)^2 = 0.19.
        let o = RuleOptions::default();
        let p = ExplosionPlan::new(&Expr::parse("2d10 exp + 1").unwrap(), &o).unwrap();
        let r1 = p.exact_ring(1, &o, 1e-12).unwrap();
        assert!((r1.prob(2) - 0.19).abs() < 1e-12, "{}", r1.prob(2));
        let r0 = p.exact_ring(0, &o, 1e-12).unwrap();
        let full = Expr::parse("2d10 exp + 1").unwrap().exact(&o, 1e-12);
        assert!((r0.mean() - full.total().mean()).abs() < 1e-9);
        assert!(p.exact_ring(2, &o, 1e-12).is_none());
    }
}
