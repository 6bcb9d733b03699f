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

use crate::catalog::variant::{Payload, Variant};
use crate::dice::damage::DamageType;
use crate::dice::expr::{RollPlan, TermKind};
use crate::dice::{Expr, Faces, Log, Pmf};
use crate::rules::{RuleOptions, SwapTie};

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
#[non_exhaustive]
pub enum ExplosionError {
    /// No Exp dice: nothing sets the radius.
    NoExpDice,
    /// Skill or SuperNatural dice have no place in a Damage Roll.
    NotDamage,
    /// More dice than an Explosion may roll.
    TooManyDice,
    /// A payload whose dice do not read as an expression (`term`).
    Payload {
        /// The term that does not read.
        term: String,
        /// Why.
        error: Box<crate::dice::expr::ParseError>,
    },
}

impl std::error::Error for ExplosionError {}

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
            ExplosionError::Payload { term, error } => write!(f, "{term:?}: {error}"),
        }
    }
}

/// What one of an Explosion's dice does in the rings it reaches.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Exp: Damage, and an inch of KnockBack (Ch. 8.4).
    Exp,
    /// Incendiary: Fire Damage, which sets a minifig alight (Ch. 8.3).
    Fire,
    /// Armor Piercing: Damage, and it cancels one layer of Deflection.
    Pierce,
    /// Phased: a d12 of Damage that Deflection does not touch.
    Phased,
    /// Concussion: its roll in inches of KnockBack, no Damage.
    Concussion,
}

impl Role {
    /// The order in which tied dice of different types leave the rings (option
    /// `swap_tie`), lowest first.
    fn ranks(tie: SwapTie) -> [u8; 5] {
        // By Role: Exp, Fire, Pierce, Phased, Concussion.
        match tie {
            SwapTie::DamageKept => [1, 2, 3, 4, 0],
            SwapTie::PushKept => [0, 1, 2, 3, 4],
        }
    }

    /// Whether Deflection may take this die (Ch. 8.2: never a d12; a Concussion die does
    /// no Damage to take).
    fn deflectable(self) -> bool {
        matches!(self, Role::Exp | Role::Fire | Role::Pierce)
    }
}

/// What one ring of an Explosion does to a figure behind its Deflection.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RingHit {
    /// Damage against its Armor.
    pub damage: i64,
    /// The part of it that is Fire (Ch. 8.3: a point of it sets a minifig alight).
    pub fire: i64,
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
    /// Which tied die leaves first, by Role ([`Role::ranks`]).
    ranks: [u8; 5],
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

    /// The Explosion of an Explosive's `payload` (Ch. 8.4; Explosive Variants: each of its
    /// dice keeps a d10's place in the rings).
    pub fn of(payload: Payload, opts: &RuleOptions) -> Result<ExplosionPlan, ExplosionError> {
        let term = payload.term();
        let e = Expr::parse(&term).map_err(|error| ExplosionError::Payload {
            term,
            error: Box::new(error),
        })?;
        let variant = Variant::ALL[1..].iter().any(|v| payload.has(*v));
        Self::build(&e, opts, variant)
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
                    kind: DamageType::Fire,
                    ..
                } if variant => Some(Role::Fire),
                TermKind::Dice {
                    kind: DamageType::Pierce,
                    ..
                } if variant => Some(Role::Pierce),
                TermKind::Dice {
                    kind: DamageType::Phased,
                    ..
                } if variant => Some(Role::Phased),
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
            ranks: Role::ranks(opts.swap_tie),
        })
    }

    /// The number of rings: one per Exp die.
    pub fn rings(&self) -> u32 {
        self.exp_dice
    }

    /// The Damage expression the Explosion rolls.
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
        Blast::ranked(
            &dice[..n],
            &self.ranks,
            out.total - ring_sum,
            out.critical_failure,
        )
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

    /// A Damage Roll of radius dice with their roles, ties between types as option
    /// `swap_tie` says.
    pub fn with_roles(dice: &[(i64, Role)], rest: i64, critical_failure: bool) -> Blast {
        Self::ranked(
            dice,
            &Role::ranks(SwapTie::default()),
            rest,
            critical_failure,
        )
    }

    fn ranked(dice: &[(i64, Role)], ranks: &[u8; 5], rest: i64, critical_failure: bool) -> Blast {
        let mut d = [(0i64, Role::Exp); MAX_EXP_DICE];
        let n = dice.len().min(MAX_EXP_DICE);
        d[..n].copy_from_slice(&dice[..n]);
        // "Removes the highest remaining die"; a tie between types goes by `ranks`, dice
        // of one type in a stable order.
        d[..n].sort_by_key(|b| (std::cmp::Reverse(b.0), ranks[b.1 as usize]));
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
                Role::Fire | Role::Pierce | Role::Phased => 0,
            })
            .sum()
    }

    /// Ring `ring`'s hit on a figure with `layers` of Deflection (Ch. 8.2): each Armor
    /// Piercing die remaining cancels a layer (Ch. 8.4 Explosive Variants); each layer left
    /// takes the highest remaining die it may (never a Phased d12, Ch. 8.2, 8.4), as the
    /// next rings out do. `None` beyond the last ring. Without Deflection it is
    /// [`Blast::damage`].
    pub fn hit(&self, ring: usize, layers: u32) -> Option<RingHit> {
        let damage = self.damage(ring)?;
        let dice = &self.dice[ring..self.n];
        let pierce = dice.iter().filter(|(_, r)| *r == Role::Pierce).count() as u32;
        let mut left = layers.saturating_sub(pierce);
        let (mut off, mut fire_off) = (0, 0);
        // Highest first: the dice are sorted.
        for &(v, r) in dice {
            if left == 0 {
                break;
            }
            if r.deflectable() {
                left -= 1;
                off += v;
                if r == Role::Fire {
                    fire_off += v;
                }
            }
        }
        let fire: i64 = dice
            .iter()
            .filter(|(_, r)| *r == Role::Fire)
            .map(|(v, _)| v)
            .sum();
        Some(RingHit {
            damage: damage - off,
            fire: (fire - fire_off).max(0),
        })
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
    fn issue_40_a_ring_behind_deflection_loses_its_highest_dice_but_not_phased_ones() {
        // Ch. 8.2: a layer takes the highest Damage die, never a d12; Ch. 8.4 Explosive
        // Variants: each Pierce die cancels a layer, and Fire taken off is Fire not taken.
        let o = RuleOptions::default();
        let roll = |v: Variant, dice: &[(Die, u32)]| {
            let mut s = Script::new(dice);
            let b = ExplosionPlan::of(Payload::of(v, dice.len() as u32), &o)
                .unwrap()
                .roll(&mut s, &mut NoLog);
            assert!(s.is_done());
            b
        };
        let exp = roll(Variant::Explosive, &[(Die::D10, 7), (Die::D10, 3)]);
        let hit = |b: &Blast, ring, layers| b.hit(ring, layers).map(|h| (h.damage, h.fire));
        assert_eq!(hit(&exp, 0, 0), Some((10, 0)));
        assert_eq!(hit(&exp, 0, 1), Some((3, 0)));
        assert_eq!(hit(&exp, 0, 2), Some((0, 0)));
        assert_eq!(hit(&exp, 1, 1), Some((0, 0)));
        assert_eq!(hit(&exp, 2, 0), None);
        // Without Deflection a hit is the ring's Damage; on Exp dice each layer is a ring
        // further out (how squad battles deflected an Explosion before variants).
        for ring in 0..2 {
            assert_eq!(exp.hit(ring, 0).map(|h| h.damage), exp.damage(ring));
            for l in 0..4 {
                let out = exp.damage(ring + l as usize).unwrap_or(0);
                assert_eq!(exp.hit(ring, l).unwrap().damage, out);
            }
        }
        let fire = roll(Variant::Incendiary, &[(Die::D4, 3), (Die::D4, 2)]);
        assert_eq!(hit(&fire, 0, 1), Some((2, 2)));
        assert_eq!(hit(&fire, 1, 1), Some((0, 0)));
        // Two Pierce dice cancel two layers: all 5 + 2 through two, one die off through three.
        let pierce = roll(Variant::ArmorPiercing, &[(Die::D6, 5), (Die::D6, 2)]);
        assert_eq!(hit(&pierce, 0, 2), Some((7, 0)));
        assert_eq!(hit(&pierce, 0, 3), Some((2, 0)));
        // Out in ring 1 only the 2 is left: it cancels one layer of two.
        assert_eq!(hit(&pierce, 1, 2), Some((0, 0)));
        assert_eq!(hit(&pierce, 1, 1), Some((2, 0)));
        let phased = roll(Variant::Phased, &[(Die::D12, 9)]);
        assert_eq!(hit(&phased, 0, 5), Some((9, 0)));
        // Concussion dice do no Damage, so no layer is spent on them.
        let con = roll(Variant::Concussion, &[(Die::D6, 4)]);
        assert_eq!((hit(&con, 0, 1), con.knockback(0)), (Some((0, 0)), 4));
    }

    #[test]
    fn issue_40_a_tie_between_die_types_goes_as_the_attacker_chooses() {
        // Ch. 8.4: "In the case of a tie between different die types, the attacking player
        // chooses which to remove first". 1d10 Exp and 1d6 KnockBack both roll 4: under
        // `damage_kept` the Concussion die leaves first, so ring 1 keeps 4 Damage and an
        // inch of push; under `push_kept` the d10 leaves, and ring 1 pushes 4" for no Damage.
        let payload = Payload {
            dice: [1, 0, 0, 1, 0],
        };
        for (tie, ring1) in [
            (SwapTie::DamageKept, (Some(4), 1)),
            (SwapTie::PushKept, (Some(0), 4)),
        ] {
            let o = RuleOptions {
                swap_tie: tie,
                ..RuleOptions::default()
            };
            let p = ExplosionPlan::of(payload, &o).unwrap();
            assert_eq!(p.rings(), 2);
            let mut s = Script::new(&[(Die::D10, 4), (Die::D6, 4)]);
            let b = p.roll(&mut s, &mut NoLog);
            assert_eq!((b.damage(0), b.knockback(0)), (Some(4), 5), "{tie:?}");
            assert_eq!((b.damage(1), b.knockback(1)), ring1, "{tie:?}");
        }
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
