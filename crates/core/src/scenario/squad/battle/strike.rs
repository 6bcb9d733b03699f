//! A strike (Ch. 4.2, 8.1, 8.2, 10.2): a unit's Actions, its target, each weapon's Skill roll
//! and Damage against Armor, Parries and Deflection, and the fall of a unit.

use super::*;
use crate::dice::{Faces, Log};
use crate::rules::{ActionDamage, CombinedFire, combat};
use crate::scenario::blast::arc::Gun;
use crate::scenario::squad::Targeting;

/// What arc fire adds to one attack (Ch. 8.3): the Auto Penalty on the Skill roll, and the
/// modifiers arc fire applies to Damage too (target Size, cover, a BlastGun's distance).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Extra {
    pub action: i64,
    pub damage: i64,
}

/// One attack's Skill die (0 for an Automatic Hit) and whether it hit: a MachineGun checks
/// the die for a jam (Ch. 8.3). `deferred`: its Damage went into the Action's pool
/// (`combo`), to be resolved by the caller.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Struck {
    pub natural: u32,
    pub hit: bool,
    pub deferred: bool,
}

impl Squad {
    /// A unit's Actions this turn: 1 + Multitasking, each with its own target and weapons.
    /// `contact`: whether an enemy stands in Close Combat with it, if the caller's scan
    /// already knows (it holds for the first Action only).
    // Always inlined, as `respond` is (same reason).
    #[inline(always)]
    pub(super) fn attack_turn<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        mut contact: Option<bool>,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        let mut any = false;
        for _ in 0..self.kinds[fl.f[i].kind as usize].actions {
            if !self.action_in::<P, F, L>(fl, i, None, contact.take(), faces, log) {
                break;
            }
            any = true;
        }
        any
    }

    /// One Action ([`Squad::action_in`]), its contact scanned for (tests drive it).
    #[cfg(test)]
    pub(super) fn action<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        forced: Option<usize>,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        self.action_in::<false, F, L>(fl, i, forced, None, faces, log)
    }

    /// One Action: pick a target (or attack `forced`), then strike with its weapons: "one
    /// ranged weapon or two melee weapons" for a standard Mind, and for each level of
    /// Multidexterity "two additional weapons in Close Combat ... one additional weapon in a
    /// Ranged attack" (Ch. 10.1), "provided it has enough hands" (each hand once a turn),
    /// within the Power limit (Ch. 8.1). The Damage of the weapons that hit is added up
    /// against one Armor roll. Returns whether it attacked. `contact`: whether an enemy
    /// stands in Close Combat with it, if known; else it is scanned for.
    pub(super) fn action_in<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        forced: Option<usize>,
        contact: Option<bool>,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        let Some((mode, reach)) = self.mode_of::<P>(fl, i, contact) else {
            return false;
        };
        let target = match forced {
            Some(t) => {
                let d = fl.gap(t, i);
                self.may_strike(fl, i, t, mode, reach, d).then_some(t)
            }
            None => self.pick::<P>(fl, i, mode, reach),
        };
        let Some(t) = target else {
            return false;
        };
        let dist = fl.gap(t, i);
        if mode == Mode::Close
            && self.kinds[fl.f[t].kind as usize].vermin
            && !fl.f[t].disrupted
            && fl.f[i].size >= 1
        {
            self.stomp(fl, i, t, faces, log);
            return true;
        }
        log.note(format_args!(
            "  {} attacks {} ({})",
            Who(self, fl, i),
            Who(self, fl, t),
            How(mode, dist)
        ));
        let most = match mode {
            Mode::Close => 2 + 2 * k.multidexterity,
            Mode::Ranged => 1 + k.multidexterity,
        };
        let power = k.power.inches(fl.f[i].size);
        // The weapons of this Action, strongest first, chosen before any strikes.
        let mut chosen = 0u64;
        let mut n = 0;
        for (w, arm) in k.arms.iter().enumerate() {
            if n == most {
                break;
            }
            let fits = match mode {
                Mode::Close => arm.close,
                Mode::Ranged => arm.range.is_some_and(|r| 2 * r as i32 >= dist),
            };
            let p = arm.power.unwrap_or(0);
            // Ch. 8.1 Power Limits: the sizes added together stay within Power.
            // A jammed MachineGun fires no more until reloaded (Ch. 8.3).
            let jammed = !P && self.any_arc && fl.f[i].jammed && arm.auto == Some(Gun::MachineGun);
            // Power saved by Diverting meets one weapon's requirement on its own (Ch. 8.1).
            let beyond = fl.f[i].power_used as u32 + p > power;
            let saved = beyond
                && !P
                && self.any_divert
                && fl.f[i].power_used == 0
                && p <= power + self.saved_power(fl, i);
            // Or crew in contact lend a mounted gun theirs by teamwork (Ch. 8.1), asked
            // last since it spends their Actions.
            let team = beyond && !saved && !P && self.any_crew && arm.mounted;
            if !fits
                || jammed
                || fl.f[i].used & (1 << w) != 0
                || (beyond && !saved && !team)
                || fl.f[i].hands_used as u32 + arm.grip > k.free_hands
            {
                continue;
            }
            // Burning, it "is limited to using one of his two Hands at most" (Ch. 8.3);
            // fire comes with limbs, so it is checked under `any_limbs`.
            if !P
                && self.any_limbs
                && (!self.wields(fl, i, arm) || (fl.f[i].burning && arm.hands > 1))
            {
                continue;
            }
            if team && (fl.f[i].power_used != 0 || !self.teamwork(fl, i, p - power, log)) {
                continue;
            }
            if saved {
                log.note(format_args!(
                    "  {} adds the {}\" of Power it saved to work its {}",
                    Who(self, fl, i),
                    self.saved_power(fl, i),
                    arm.name
                ));
                fl.f[i].divert = 0;
            }
            fl.f[i].used |= 1 << w;
            fl.f[i].power_used += p as u16; // within Power: at most 4 x Size 1000
            fl.f[i].hands_used += arm.grip as u8;
            chosen |= 1 << w;
            n += 1;
        }
        // Gunnery Support for a mounted weapon fired (Ch. 8.5).
        // An automatic weapon fired alone sweeps its Firing Arc around the target, or a
        // MachineGun bursts at it (Ch. 8.3). One flag for both keeps melee fast.
        if !P
            && self.gunnery_or_arc
            && mode == Mode::Ranged
            && self.special_ranged(fl, i, t, chosen, n, faces, log)
        {
            return true;
        }
        self.strikes::<P, F, L>(fl, i, t, chosen, n, mode, 0, false, faces, log);
        n > 0
    }

    /// How unit `i` attacks this Action, and how far it reaches: in Close Combat when it has
    /// a Close Combat weapon and an enemy stands in contact with it, else at its longest
    /// Range (Ch. 4.2); `None` when it has neither. `contact`: whether an enemy stands in
    /// contact, if the caller knows; else it is scanned for.
    #[inline(always)]
    pub(super) fn mode_of<const P: bool>(
        &self,
        fl: &Field,
        i: usize,
        contact: Option<bool>,
    ) -> Option<(Mode, i32)> {
        let k = &self.kinds[fl.f[i].kind as usize];
        // A unit without a Close Combat weapon skips the contact scan.
        let close = k.any_close()
            && contact.unwrap_or_else(|| {
                if P {
                    // An enemy within contact is one when the nearest is.
                    return self
                        .nearest_as::<P>(fl, i)
                        .is_some_and(|(d, _)| d <= CONTACT);
                }
                self.least(fl, 1 - fl.f[i].side, |t| {
                    (fl.f[t].alive && fl.gap(t, i) <= CONTACT).then_some(())
                })
                .is_some()
            });
        if close {
            Some((Mode::Close, CONTACT))
        } else {
            k.reach().map(|r| (Mode::Ranged, 2 * r as i32))
        }
    }

    /// Whether `i`, attacking this way with this reach, may strike `t` standing `d` from it:
    /// within reach, and `t` may still be engaged ([`Squad::may_engage`]).
    #[inline(always)]
    pub(super) fn may_strike(
        &self,
        fl: &Field,
        i: usize,
        t: usize,
        mode: Mode,
        reach: i32,
        d: i32,
    ) -> bool {
        d <= reach && self.may_engage(fl, i, t, mode)
    }

    /// A ranged Action under the rules a plain battle never meets, out of the hot path: an
    /// automatic weapon fired alone sweeps its Firing Arc around the target, or a MachineGun
    /// bursts at it (Ch. 8.3); a mounted weapon's roll takes Gunnery Support (Ch. 8.5).
    /// Returns whether it struck (else the plain strikes follow).
    #[cold]
    #[inline(never)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    fn special_ranged<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        chosen: u64,
        n: u32,
        faces: &mut F,
        log: &mut L,
    ) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        let support = if self.any_crew {
            self.mounted_support(fl, i, t, chosen, log)
        } else {
            0
        };
        let w = chosen.trailing_zeros() as usize;
        if n == 1 && k.arms[w].auto.is_some() {
            log.note(format_args!("    with {}", k.arms[w].name));
            self.sweep(fl, i, w, t, support, faces, log);
            return true;
        }
        // A target under `bail = all` may dive out of the Range (Ch. 4.3).
        let bailed = self.any_dodge && {
            let reach = (0..k.arms.len())
                .filter(|&w| chosen & (1 << w) != 0)
                .filter_map(|w| k.arms[w].range)
                .max()
                .map_or(0, |r| 2 * r as i32);
            self.bail_from_shot(fl, i, t, reach, faces, log)
        };
        if support != 0 || bailed {
            self.strikes::<false, F, L>(
                fl,
                i,
                t,
                chosen,
                n,
                Mode::Ranged,
                support,
                bailed,
                faces,
                log,
            );
            return true;
        }
        false
    }

    /// The strikes of one Action on `t` with the weapons `chosen` (a bit each, `n` of them):
    /// "several attacks on one target in one action add their damage" (readings §2). A
    /// mounted weapon's roll takes the Action's Gunnery `support`; a ranged weapon whose
    /// target stands beyond its Range (it Bailed) takes -1 to the roll and to Damage a
    /// whole inch Out of Range, rounded up (Ch. 4.2).
    #[inline(always)]
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    fn strikes<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        t: usize,
        mut chosen: u64,
        n: u32,
        mode: Mode,
        support: i64,
        bailed: bool,
        faces: &mut F,
        log: &mut L,
    ) {
        let k = &self.kinds[fl.f[i].kind as usize];
        // Option `action_damage`: pooled by default (readings §2).
        let combine = n > 1 && self.opts.action_damage == ActionDamage::Pooled;
        fl.f[t].combo = self.action_pool(&fl.f[t]);
        if !P && self.any_sn {
            Squad::forget_struck(fl, t);
        }
        let (mut last, mut landed) = (0, false);
        while chosen != 0 && fl.f[t].alive {
            let w = chosen.trailing_zeros() as usize;
            chosen &= chosen - 1;
            log.note(format_args!("    with {}", k.arms[w].name));
            let mut extra = Extra {
                action: if support != 0 && k.arms[w].mounted {
                    support
                } else {
                    0
                },
                damage: 0,
            };
            if bailed {
                let inches = (fl.gap(t, i) + 1) / 2;
                let over = combat::out_of_range(inches as u32, k.arms[w].range.unwrap_or(0));
                extra.action -= over as i64;
                extra.damage -= over as i64;
            }
            let s = self.strike::<P, F, L>(fl, i, w, t, mode, combine, extra, faces, log);
            landed |= s.deferred;
            last = w;
        }
        if landed && fl.f[t].alive {
            self.resolve_action(fl, i, last, t, faces, log);
        }
    }

    /// Where an Action's deferred hits on `t` start (`combo`): empty, or under Combined Fire
    /// the Damage already pooled on it this turn, with its Armor roll.
    #[inline(always)]
    pub(super) fn action_pool(&self, f: &Figure) -> Pool {
        if self.opts.combined_fire == CombinedFire::Turn {
            f.combined
        } else {
            Pool::EMPTY
        }
    }

    /// The Action's deferred hits on `t` against their Armor, by `i`'s weapon `w`; under
    /// Combined Fire they join the turn's pool.
    pub(super) fn resolve_action<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        let Pool { damage, armor } = fl.f[t].combo;
        if self.opts.combined_fire == CombinedFire::Turn {
            fl.f[t].combined = fl.f[t].combo;
        }
        let (damage, armor) = (damage as i64, armor as i64);
        let damage = if self.any_sn {
            self.guarded(fl, t, damage, armor, faces, log)
        } else {
            damage
        };
        self.resolve(fl, i, w, t, damage, armor, log);
    }

    /// Whether `i` may attack `t` this way: Vermin cannot engage the Armored or hard, and
    /// Close Combat takes three attackers per inch of target Size unless a pure Vermin swarm
    /// attacks (Ch. 10.4).
    #[inline]
    pub(super) fn may_engage(&self, fl: &Field, i: usize, t: usize, mode: Mode) -> bool {
        // On a table nothing but parabolic fire reaches a figure wholly behind a wall.
        if self.board.is_some() && self.walled_off(fl, i, t) {
            return false;
        }
        if mode == Mode::Ranged {
            return true;
        }
        let k = &self.kinds[fl.f[i].kind as usize];
        let kt = &self.kinds[fl.f[t].kind as usize];
        if k.vermin && !combat::vermin_can_engage(kt.structure, kt.armored) {
            return false;
        }
        let swarm = k.vermin && self.all_vermin[fl.f[i].side as usize];
        swarm || (fl.f[t].engaged as u32) < combat::close_combat_limit(fl.f[t].size)
    }

    /// The target policy's choice among the enemies `i` can reach.
    pub(super) fn pick<const P: bool>(
        &self,
        fl: &Field,
        i: usize,
        mode: Mode,
        reach: i32,
    ) -> Option<usize> {
        let me = &fl.f[i];
        let policy = self.policy[me.side as usize].target;
        // An enemy out of reach is ruled out without the square root; the rest are measured.
        let s = fl.at(i);
        let in_reach = |t: usize| fl.may_reach(t, s, reach) && fl.gap(t, i) <= reach;
        if P && policy == Targeting::Focus {
            // The same search over the enemy's standing units only (its front's mask).
            let start = self.own(1 - me.side).start;
            let mut up = self.front(fl, 1 - me.side).up;
            while let Some(t) = next_standing(&mut up, start) {
                if in_reach(t) && self.may_engage(fl, i, t, mode) {
                    return Some(t);
                }
            }
            return None;
        }
        if policy == Targeting::Focus && !self.sides_move {
            // The first in the roster that qualifies: no need to look further.
            return self
                .own(1 - me.side)
                .find(|&t| fl.f[t].alive && in_reach(t) && self.may_engage(fl, i, t, mode));
        }
        self.least(fl, 1 - me.side, |t| {
            if !fl.f[t].alive || !fl.may_reach(t, s, reach) {
                return None;
            }
            let d = fl.gap(t, i);
            let ok = d <= reach && self.may_engage(fl, i, t, mode);
            ok.then(|| match policy {
                Targeting::Focus => 0,
                Targeting::Spread => fl.f[t].targeted as i64,
                Targeting::Nearest => d as i64,
                Targeting::Threat => -self.kinds[fl.f[t].kind as usize].cp.in_quarters(),
                Targeting::Combined => -(fl.f[t].combined.damage as i64),
            })
        })
        .map(|(_, t)| t)
    }

    /// One weapon's attack on `t`: modifiers, the Skill roll (or an Automatic Hit on a
    /// Disrupted target in Close Combat), then Damage against Armor; `extra` adds to the
    /// Skill roll and the Damage (arc fire's Auto Penalty and falloff). A point of Fire
    /// damage sets a minifig on fire (Ch. 8.3).
    #[allow(
        clippy::too_many_arguments,
        reason = "a trial's hot path: the dice, the log and the strike's state are passed as they are; bundling them waits on the battle-speed issue, which measures it"
    )]
    pub(super) fn strike<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        w: usize,
        t: usize,
        mode: Mode,
        combine: bool,
        extra: Extra,
        faces: &mut F,
        log: &mut L,
    ) -> Struck {
        let (ki, kt) = (fl.f[i].kind as usize, fl.f[t].kind as usize);
        let (att, tgt) = (&self.kinds[ki], &self.kinds[kt]);
        let index = self.plan_index(ki, w, kt);
        let plan = self.plan_at(index);
        // The plain form rolls a plain d6 plan specialised: the same draws.
        let quick = if P { self.quick(index) } else { None };
        fl.f[t].targeted += 1;
        if mode == Mode::Close {
            fl.f[t].engaged += 1;
        }
        let helpless = fl.f[t].disrupted || (!P && self.any_limbs && self.legless(fl, t));
        let mut struck = Struck {
            natural: 0,
            hit: false,
            deferred: false,
        };
        let (benny, natural) = if mode == Mode::Close && helpless {
            // Ch. 4.1: "Automatic Hits for attackers standing close enough to touch him"
            log.note(format_args!("    Automatic Hit on a Disrupted target"));
            (Some(false), 0)
        } else {
            self.roll_hit::<P, F, L>(fl, i, t, mode, extra.action, plan, quick, faces, log)
        };
        struck.natural = natural;
        let Some(benny) = benny else {
            return struck;
        };
        struck.hit = true;
        if att.arms[w].contagion {
            self.contagion(fl, i, w, t, mode, benny, faces, log);
            return struck;
        }
        if combat::any_hit_kills(tgt.vermin, tgt.cannon_fodder) {
            log.note(format_args!(
                "    {} falls: any hit kills it",
                Who(self, fl, t)
            ));
            self.kill(fl, t);
            return struck;
        }
        if att.arms[w].poison && !combat::poison_affects(tgt.non_living) {
            log.note(format_args!("    Poison does nothing to the Non-Living"));
            return struck;
        }
        // A Parry in Close Combat, and Heavy Armor against every hit.
        let layers = if mode == Mode::Close {
            self.parry(fl, i, w, t, faces, log)
        } else {
            0
        } + tgt.deflection;
        let (mut damage, sn) =
            self.roll_damage::<P, F, L>(fl, i, t, layers, benny, (plan, quick), faces, log);
        if !P && self.any_thrall && fl.f[i].benny != 0 {
            damage += self.instant_benny(fl, i, faces, log);
        }
        damage += extra.damage;
        // "any minifig who takes at least one point of Fire damage is on fire" (Ch. 8.3),
        // once this hit's Armor is rolled.
        let ignites = !P && self.any_fire && att.arms[w].fire && damage >= 1;
        if let Some(cs) = tgt.connection {
            self.knock_apart(fl, t, damage, cs, log);
            if let Some(sn) = &sn {
                self.sn_radius(fl, t, sn, faces, log);
            }
            return struck;
        }
        // Option `combined_fire` (readings §2): every hit this turn pools, by default.
        let combined = self.opts.combined_fire == CombinedFire::Turn;
        // A plain d6 plan's Armor is a number: with nothing to pool there is nothing to
        // roll, so it is resolved at once (the plain form has no fire or SN dice to follow).
        if let Some(q) = quick
            && !att.vermin
            && !combine
            && !combined
        {
            self.resolve(fl, i, w, t, damage, q.armor(), log);
            return struck;
        }
        let Some((mut damage, armor)) = self.pool_hit::<P, F, L>(
            fl,
            t,
            damage,
            (plan, quick),
            combine,
            att.vermin,
            faces,
            log,
        ) else {
            struck.deferred = true;
            self.aftermath(fl, t, ignites, sn.as_ref(), faces, log);
            return struck;
        };
        if !P && self.any_sn {
            damage = self.guarded(fl, t, damage, armor, faces, log);
        }
        self.resolve(fl, i, w, t, damage, armor, log);
        self.aftermath(fl, t, ignites, sn.as_ref(), faces, log);
        struck
    }

    /// Unit `i`'s Skill roll: its kind's, or with the SN die Blessing it (Ch. D.4).
    #[inline(always)]
    pub(super) fn skill_of(&self, fl: &Field, i: usize) -> &crate::dice::skill::SkillPlan {
        let f = &fl.f[i];
        if self.any_sn
            && let Some(d) = self.controlled_skill(fl, i)
        {
            return &self.minds[d.index()];
        }
        if f.blessing != 0 {
            let (plans, idx) = if f.blessing & supernatural::CURSE != 0 {
                (&self.cursed, f.blessing & !supernatural::CURSE)
            } else {
                (&self.blessed, f.blessing)
            };
            if let Some(p) = &plans[f.kind as usize][idx as usize - 1] {
                return p;
            }
        }
        &self.skill[f.kind as usize]
    }

    /// Unit `i`'s Skill modifier for SN dice it has out (0 without SN units).
    #[inline(always)]
    pub(super) fn penalty(&self, fl: &Field, i: usize) -> i64 {
        if self.any_sn {
            self.sn_penalty(fl, i)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    #[allow(unused_imports)]
    use super::*;
    use crate::rules::{ArmorTie, Parry, ParryFumble};

    #[test]
    fn a_disrupted_target_is_hit_automatically_in_close_combat() {
        // armor_tie = dismemberment: a tie knocks the target over (Ch. 10.2), and the next
        // attacker standing next to him hits without a Skill roll (Ch. 4.1).
        let mut o = RuleOptions::default();
        o.armor_tie = ArmorTie::Dismemberment;
        let s = squad(&[("minifig-hand-weapon", 2)], &[MF], 0, o);
        // A1 hits (2), Damage 4 = Armor 4: Disrupted. A2: no Skill roll; Damage 5 kills.
        let out = run(&s, &[(D6, 2), (D6, 4), (D6, 5)]);
        assert_eq!(out.winner, Some(Side::A));
        assert_eq!(out.turns, 1);
        // Under `survive` the tie does nothing and A2 must roll.
        let s = squad(
            &[("minifig-hand-weapon", 2)],
            &[MF],
            0,
            RuleOptions::default(),
        );
        let out = run(&s, &[(D6, 2), (D6, 4), (D6, 2), (D6, 5)]);
        assert_eq!((out.winner, out.ties), (Some(Side::A), 1));
    }

    #[test]
    fn three_attackers_per_inch_of_target() {
        // Four minifigs on one: only three may strike in Close Combat (Ch. 10.4). All three
        // fail (natural 1s); then B's turn: B misses; then A again.
        let mut s = squad_on_spot(
            &[("minifig-hand-weapon", 4)],
            &[MF],
            0,
            RuleOptions::default(),
        );
        s.max_turns = 2;
        let o = run(&s, &[(D6, 1), (D6, 1), (D6, 1), (D6, 1)]);
        assert_eq!(o.winner, None);
        assert_eq!(o.survivors, [4, 1]);
    }

    #[test]
    fn cannon_fodder_hits_for_one_point_whatever_it_carries() {
        // Ch. 10.4: a Heavy Weapon in a Cannon Fodder's hands does 1 point, rolled as no
        // dice, and so does its Mook Weapon: both hit (3 meets Use 3), 1 + 1 against Armor 4.
        let mut s = squad(
            &[("cannon-fodder+heavy-weapon", 1)],
            &[MF],
            0,
            RuleOptions::default(),
        );
        s.max_turns = 1;
        let o = run(&s, &[(D6, 3), (D6, 3)]);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
    }

    #[test]
    fn any_hit_kills_cannon_fodder_without_a_damage_roll() {
        let s = squad(&[MF], &[("cannon-fodder", 1)], 0, RuleOptions::default());
        let o = run(&s, &[(D6, 2)]);
        assert_eq!(o.winner, Some(Side::A));
    }

    #[test]
    fn vermin_bites_add_up_and_cannot_touch_the_armored() {
        // Ch. 10.4: five Vermin bite a minifig (Armor 4): each bite does 1; the fifth makes
        // the Cumulative Damage 5 > 4.
        let s = squad_on_spot(&[("vermin", 5)], &[MF], 0, RuleOptions::default());
        let o = run(&s, &[(D6, 2), (D6, 2), (D6, 2), (D6, 2), (D6, 2)]);
        assert_eq!(o.winner, Some(Side::A));
        assert_eq!(o.turns, 1);
        // Against a minifig in Body Armor they cannot engage at all: nobody rolls on turn 1;
        // on turn 2 the minifig kills one Vermin with any hit: 3 - 1 (a Size 0 target) meets
        // Use 2.
        let mut s = squad_on_spot(
            &[("vermin", 2)],
            &[("minifig-body-armor", 1)],
            0,
            RuleOptions::default(),
        );
        s.max_turns = 2;
        let o = run(&s, &[(D6, 3)]);
        assert_eq!(o.survivors, [1, 1]);
    }

    #[test]
    fn larger_creations_lose_an_inch_per_successful_hit() {
        // A Horse (Size 2", Armor 1d6) takes two successful hits (readings §2). Its
        // Kick or Bite is 1 Action die (d6, Ch. 8.1). Target size +1 for 2" (Ch. 8.2).
        let s = squad(
            &[("minifig-hand-weapon", 2)],
            &[("horse", 1)],
            0,
            RuleOptions::default(),
        );
        // A1: Skill 1+1 = 2 meets Use 2; Damage 5 vs Armor 3: 1" lost. A2: 2, Damage 6 (a
        // Bonus d6 1: 7) vs Armor 2: the Horse falls.
        let o = run(
            &s,
            &[
                (D6, 1 + 1),
                (D6, 5),
                (D6, 3),
                (D6, 2),
                (D6, 6),
                (D6, 1),
                (D6, 2),
            ],
        );
        assert_eq!(o.winner, Some(Side::A));
        assert_eq!(o.turns, 1);
    }

    #[test]
    fn target_policies_choose_differently() {
        // A minifig in contact with two Cannon Fodder, the first already attacked this turn.
        let ro = RuleOptions::default();
        let mk = |t: Targeting| {
            let mut a = side(&[MF], &ro);
            a.policy.target = t;
            let b = side(&[("cannon-fodder", 1), ("minifig-hand-weapon", 1)], &ro);
            Squad::new(a, b, 0, First::A, 1, ro).unwrap()
        };
        let s = mk(Targeting::Focus);
        let mut fl = standing(&s, 0);
        fl.f[1].targeted = 1;
        fl.f[2].pos = 1.0;
        // Focus: the first in the roster; spread: the one attacked least; threat: the
        // minifig (6 CP) over the Cannon Fodder (2 CP); nearest: the Fodder, at 0".
        assert_eq!(s.pick::<false>(&fl, 0, Mode::Close, CONTACT), Some(1));
        // The plain form's search over the standing units picks the same.
        assert_eq!(s.pick::<true>(&fl, 0, Mode::Close, CONTACT), Some(1));
        assert_eq!(
            mk(Targeting::Spread).pick::<false>(&fl, 0, Mode::Close, CONTACT),
            Some(2)
        );
        assert_eq!(
            mk(Targeting::Threat).pick::<false>(&fl, 0, Mode::Close, CONTACT),
            Some(2)
        );
        assert_eq!(
            mk(Targeting::Nearest).pick::<false>(&fl, 0, Mode::Close, CONTACT),
            Some(1)
        );
        // Combined: the minifig, which carries 3 Damage pooled this turn; with no pool
        // anywhere, the first in the roster, as focus.
        let combined = mk(Targeting::Combined);
        assert_eq!(
            combined.pick::<false>(&fl, 0, Mode::Close, CONTACT),
            Some(1)
        );
        fl.f[2].combined.add(3, || 4);
        assert_eq!(
            combined.pick::<false>(&fl, 0, Mode::Close, CONTACT),
            Some(2)
        );
        fl.f[2].combined = Pool::EMPTY;
        // Past the three-per-inch limit the Fodder cannot be picked at all.
        fl.f[1].engaged = 3;
        assert_eq!(s.pick::<false>(&fl, 0, Mode::Close, CONTACT), Some(2));
        assert_eq!(s.pick::<true>(&fl, 0, Mode::Close, CONTACT), Some(2));
        // The fallen are passed over, and none standing in reach is none.
        fl.f[2].alive = false;
        fl.moved(1);
        assert_eq!(s.pick::<true>(&fl, 0, Mode::Close, CONTACT), None);
        assert_eq!(s.pick::<false>(&fl, 0, Mode::Close, CONTACT), None);
    }

    #[test]
    fn multitasking_and_multidexterity_spread_weapons_over_actions() {
        // Professor Monkeyhead (d10, Multitasking 2, Multidexterity 1; Ch. 10.1: "any four of
        // his six hands at the same time") with a Heavy Weapon and four Hand Weapons,
        // targeting `spread`, against two minifigs and a Cannon Fodder. Action 1: four
        // weapons (two, and two more for Multidexterity) at B1, strongest first; their
        // Damage adds up against one Armor roll (readings §2): 4 alone would only tie,
        // 4 + 1 + 3 = 8 kills, and no tie is counted on the way. Action 2: the fifth weapon
        // at B2, the enemy attacked least. Action 3: no weapon is left unused this turn.
        let ro = RuleOptions::default();
        let c = Catalog::builtin();
        let mut spec = c.get("professor-monkeyhead").unwrap().spec.clone();
        spec.weapons = [
            "heavy-weapon",
            "hand-weapon",
            "hand-weapon",
            "hand-weapon",
            "hand-weapon",
        ]
        .map(|w| crate::catalog::unit::WeaponRef::Item(w.into()))
        .to_vec();
        let prof = spec.resolve("prof").unwrap();
        let kind =
            crate::scenario::squad::Kind::from_unit(&prof, crate::catalog::Cp::ZERO, &ro).unwrap();
        let a = SideSpec {
            units: vec![(kind, 1)],
            policy: Policy {
                target: Targeting::Spread,
                ..Policy::default()
            },
        };
        let b = side_on_spot(&[("minifig-hand-weapon", 2), ("cannon-fodder", 1)], &ro);
        let s = Squad::new(a, b, 0, First::A, 2, ro).unwrap();
        let d10 = Die::D10;
        #[rustfmt::skip]
        let o = run(&s, &[
            (d10, 5), (D6, 2),  // Heavy Weapon at B1: 1d6+2 = 4
            (d10, 5), (D6, 1),  // a Hand Weapon: + 1
            (d10, 1),           // a Hand Weapon: Critical Failure
            (d10, 5), (D6, 3),  // a Hand Weapon: + 3; 8 > 4, B1 falls
            (d10, 5), (D6, 2),  // the last Hand Weapon at B2: 2, no effect
            (D6, 1), (D6, 1),   // B2 and the Cannon Fodder fail
        ]);
        assert_eq!((o.winner, o.ties), (None, 0));
        assert_eq!(o.survivors, [1, 2]);
    }

    #[test]
    fn a_standard_mind_strikes_with_two_melee_weapons_and_a_shield_takes_a_hand() {
        // Ch. 10.1: "one ranged weapon or two melee weapons". Two Hand Weapons: 3 + 2 add up
        // to beat Armor 4 where each alone would not.
        let ro = RuleOptions::default();
        let mut s = squad(&[("minifig+hand-weapon+hand-weapon", 1)], &[MF], 0, ro);
        s.max_turns = 1;
        let o = run(&s, &[(D6, 4), (D6, 3), (D6, 2), (D6, 2)]);
        assert_eq!(o.winner, Some(Side::A));
        // A shield holds one of the two hands: one Hand Weapon strikes, 3 < 4.
        let mut s = squad(
            &[("minifig+hand-weapon+hand-weapon+shield", 1)],
            &[MF],
            0,
            ro,
        );
        s.max_turns = 1;
        let o = run(&s, &[(D6, 4), (D6, 3)]);
        assert_eq!(o.winner, None);
        // A Two-Handed Weapon takes both hands: the Hand Weapon stays in its belt.
        let mut s = squad(
            &[("minifig+two-handed-weapon+hand-weapon", 1)],
            &[MF],
            0,
            ro,
        );
        s.max_turns = 1;
        let o = run(&s, &[(D6, 4), (D6, 1), (D6, 2)]);
        assert_eq!(o.winner, None, "2d6 = 3 < 4, and no second weapon");
        // A ranged attack takes one weapon: two pistols at 4" fire one shot.
        let mut s = squad(
            &[("minifig+short-ranged-weapon+short-ranged-weapon", 1)],
            &[MF],
            4,
            ro,
        );
        s.max_turns = 1;
        let o = run(&s, &[(D6, 3), (D6, 3)]);
        assert_eq!(o.winner, None);
    }

    #[test]
    fn issue_40_one_action_s_hits_pool_or_stand_alone_by_option() {
        // The same two Hand Weapon hits, 3 and 2, against Armor 4: pooled (the default,
        // readings §2) 5 beats it; under `action_damage=separate` each is its own attack.
        // Each unit's hits alone (`combined_fire=off`): Combined Fire would pool even
        // separate attacks.
        for (reading, wins) in [
            (ActionDamage::Pooled, true),
            (ActionDamage::Separate, false),
        ] {
            let ro = RuleOptions {
                action_damage: reading,
                combined_fire: CombinedFire::Off,
                ..RuleOptions::default()
            };
            let mut s = squad(&[("minifig+hand-weapon+hand-weapon", 1)], &[MF], 0, ro);
            s.max_turns = 1;
            let o = run(&s, &[(D6, 4), (D6, 3), (D6, 2), (D6, 2)]);
            assert_eq!(o.winner == Some(Side::A), wins, "{reading:?}");
        }
    }

    #[test]
    fn issue_40_two_units_hits_combine_against_one_armor_by_option() {
        // Ch. 10.4 Combined Fire: two minifigs in contact with one hit it for 3 and 2 in
        // one player turn. Pooled (the default, readings §2) 5 beats Armor 4; under
        // `combined_fire=off` each hit stands alone. The line form and the general turn
        // both play it.
        for (reading, falls) in [(CombinedFire::Turn, true), (CombinedFire::Off, false)] {
            let ro = RuleOptions {
                combined_fire: reading,
                ..RuleOptions::default()
            };
            let mut s = squad_on_spot(&[("minifig-hand-weapon", 2)], &[MF], 0, ro);
            s.max_turns = 1;
            assert!(s.line.is_some());
            let script = [(D6, 4), (D6, 3), (D6, 4), (D6, 2)];
            let o = run(&s, &script);
            assert_eq!(o.winner == Some(Side::A), falls, "{reading:?}");
            s.line = None;
            assert_eq!(run(&s, &script), o, "{reading:?}: the general turn");
            // Narrated, the second hit says what it adds to (issue 40, item 10).
            use crate::scenario::Scenario;
            let mut told = crate::dice::Narration::default();
            s.trial(&mut crate::dice::Script::new(&script), &mut told);
            let notes = told.notes();
            let said = notes.iter().any(|n| n.contains("2 more on B1"));
            assert_eq!(said, falls, "{reading:?}: {notes:?}");
        }
    }

    #[test]
    fn issue_40_combined_fire_starts_afresh_each_player_turn() {
        // A hits a Hero-less minifig for 3 in turn 1; B's answer is a Critical Failure; A
        // hits for 2 in turn 3. Turn 1's 3 is gone: 2 < 4, and both stand.
        let mut s = squad(&[MF], &[MF], 0, RuleOptions::default());
        s.max_turns = 3;
        let script = [(D6, 4), (D6, 3), (D6, 1), (D6, 4), (D6, 2)];
        let o = run(&s, &script);
        assert_eq!((o.winner, o.survivors), (None, [1, 1]));
        s.line = None;
        assert_eq!(run(&s, &script), o);
    }

    #[test]
    fn heavy_armor_deflects_the_highest_damage_die_of_every_hit() {
        // Option `heavy_armor = 1`: a Two-Handed Weapon hits (4 meets Use 4); its 2d6 roll
        // 6 (a Bonus d6: 1) and 3 = 10, but one level of Deflection takes the 7: 3 < 4.
        let mk = |levels: &str| {
            let mut o = RuleOptions::default();
            o.assign(&format!("heavy_armor={levels}")).unwrap();
            let mut s = squad(
                &[("minifig+two-handed-weapon", 1)],
                &[("minifig-hand-weapon+heavy-armor", 1)],
                0,
                o,
            );
            s.max_turns = 1;
            s
        };
        let script = [(D6, 4), (D6, 6), (D6, 1), (D6, 3)];
        assert_eq!(run(&mk("1"), &script).winner, None);
        // Narrated, the deflected die has its line (issue 40), and so does the outcome.
        use crate::scenario::Scenario;
        let mut told = crate::dice::Narration::default();
        let mut dice = crate::dice::Script::new(&script);
        mk("1").trial(&mut dice, &mut told);
        let notes = told.notes();
        assert!(
            notes
                .iter()
                .any(|n| n.contains("Deflection takes 7 off the Damage")),
            "{notes:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("Damage 3 vs Armor 4: no effect on B1")),
            "{notes:?}"
        );
        // `0`: Heavy Armor only slows; 10 > 4.
        assert_eq!(run(&mk("0"), &script).winner, Some(Side::A));
    }

    #[test]
    fn a_minifig_shield_parries_as_a_one_inch_melee_shield() {
        // Option `shield = parry`: A's Hand Weapon hits (2); B Parries (2 meets the 1"
        // Melee Shield's Use 2, Ch. 8.1) and its one layer of Deflection takes the only
        // Damage die.
        let mk = |reading: &str| {
            let mut o = RuleOptions::default();
            o.assign(&format!("shield={reading}")).unwrap();
            let mut s = squad(&[MF], &[("minifig+hand-weapon+shield", 1)], 0, o);
            s.max_turns = 1;
            s
        };
        let o = run(&mk("parry"), &[(D6, 2), (D6, 2), (D6, 5)]);
        assert_eq!(o.winner, None);
        // `inert`: no Parry roll; 5 > 4.
        let o = run(&mk("inert"), &[(D6, 2), (D6, 5)]);
        assert_eq!(o.winner, Some(Side::A));
    }

    #[test]
    fn issue_40_a_fumbled_parry_knocks_the_shield_away_or_keeps_it_by_option() {
        // Ch. 8.2: a hand-held weapon "can be knocked away on a critically failed Parry".
        // B's Parry rolls a 1: no Deflection either way; by default the shield is gone, so
        // the next hit meets no Parry roll; under `parry_fumble=kept` it Parries again (2
        // meets Use 2: one layer).
        for (reading, lost) in [(ParryFumble::KnockedAway, true), (ParryFumble::Kept, false)] {
            let o = RuleOptions {
                parry_fumble: reading,
                ..RuleOptions::default()
            };
            let s = squad(&[MF], &[("minifig+hand-weapon+shield", 1)], 0, o);
            let mut fl = standing(&s, 0);
            let mut dice = crate::dice::Script::new(&[(D6, 1)]);
            assert_eq!(s.parry(&mut fl, 0, 0, 1, &mut dice, &mut NoLog), 0);
            assert!(dice.is_done());
            assert_eq!(fl.f[1].shield_lost, lost, "{reading:?}");
            let next: &[(Die, u32)] = if lost { &[] } else { &[(D6, 2)] };
            let mut dice = crate::dice::Script::new(next);
            let layers = s.parry(&mut fl, 0, 0, 1, &mut dice, &mut NoLog);
            assert!(dice.is_done());
            assert_eq!(layers, if lost { 0 } else { 1 }, "{reading:?}");
        }
    }

    #[test]
    fn power_follows_effective_size() {
        // Ch. 8.1 Scorpiosaurus Rex: at Size 3" "he can either attack with the 5" stinger and
        // one 1" claw (5"+1"=6"), or with his two 1" claws"; after an inch of Size Damage
        // (Power 4") "he no longer has the strength to use it, and is limited to using his
        // two claws".
        let ro = RuleOptions::default();
        let s = Squad::new(
            side(&[("scorpiosaurus-rex", 1)], &ro),
            side(&[MF], &ro),
            0,
            First::B,
            2,
            ro,
        )
        .unwrap();
        #[rustfmt::skip]
        let o = run(&s, &[
            (D6, 3), (D6, 6), (D6, 1), (D6, 2), // B: 3 + 1 (Size 3"), Damage 7 > Armor 2
            (D6, 5), (D6, 3),                   // Rex: a Claw Blade, Use 2; Damage 3
            (D6, 4), (D6, 2),                   // the other Claw Blade: 3 + 2 > 4
        ]);
        assert_eq!(o.winner, Some(Side::A));
        // Undamaged, he strikes with the BioStinger (Use 6: a 5 misses) and one Claw Blade
        // (a 1: Critical Failure).
        let s = Squad::new(
            side(&[("scorpiosaurus-rex", 1)], &ro),
            side(&[MF], &ro),
            0,
            First::A,
            1,
            ro,
        )
        .unwrap();
        let o = run(&s, &[(D6, 5), (D6, 1)]);
        assert_eq!(o.winner, None);
    }

    #[test]
    fn a_melee_shield_parry_deflects_damage_dice() {
        // Automaton against Automaton (Ch. 8.1): A's Giant Sword hits (3 + 1 for a 2"
        // target meets Use 4); B Parries with the Giant Shield: 6 + 1 (a 3" weapon) meets
        // Use 6, three layers of Deflection remove all three Damage dice (8, 5, 4): 0
        // against Armor 2d10. B's turn: a natural 1.
        let ro = RuleOptions::default();
        let auto = [("automaton", 1)];
        let mk = |o: RuleOptions| Squad::new(side(&auto, &o), side(&auto, &o), 0, First::A, 2, o);
        let d10 = Die::D10;
        #[rustfmt::skip]
        let o = run(&mk(ro).unwrap(), &[
            (D6, 3), (D6, 6),                     // hit; Parry 6 + 1 >= 6
            (D6, 6), (D6, 2), (D6, 5), (D6, 4),   // 3d6 = 8 + 5 + 4, all deflected
            (d10, 3), (d10, 4),                   // Armor 7
            (D6, 1),                              // B: Critical Failure
        ]);
        assert_eq!((o.winner, o.ties), (None, 0));
        // parry=off: no Parry roll; 17 > 7 costs B an inch, and at Effective Size 1" its
        // Power (2") no longer moves the 3" sword (Ch. 8.1): B cannot attack.
        let mut off = ro;
        off.parry = Parry::Off;
        #[rustfmt::skip]
        let o = run(&mk(off).unwrap(), &[
            (D6, 3), (D6, 6), (D6, 2), (D6, 5), (D6, 4), (d10, 3), (d10, 4),
        ]);
        assert_eq!(o.winner, None);
        // A critically failed Parry knocks the shield away: the next hit is not Parried.
        let s = Squad::new(
            side(&[("automaton", 2)], &ro),
            side(&auto, &ro),
            0,
            First::A,
            1,
            ro,
        )
        .unwrap();
        #[rustfmt::skip]
        let o = run(&s, &[
            (D6, 3), (D6, 1), (D6, 2), (D6, 2), (D6, 2), (d10, 5), (d10, 5), // Parry fails: 6 vs 10
            (D6, 3), (D6, 6), (D6, 1), (D6, 6), (D6, 1), (D6, 6), (D6, 1),
        ]);
        // Combined Fire: 6 + 21 against the turn's first Armor roll, 10, and no new roll.
        assert_eq!(o.winner, None, "27 > 10 takes one inch of two");
        // Too Large: the 2" Automaton cannot Parry a 1" minifig.
        let s = Squad::new(side(&[MF], &ro), side(&auto, &ro), 0, First::A, 1, ro).unwrap();
        let o = run(&s, &[(D6, 1)]);
        assert_eq!(o.winner, None);
    }

    #[test]
    fn a_vermin_is_stomped_at_use_0() {
        // Ch. 10.4: "a unit can choose one of them to try to stomp on ... an Attack with
        // Use:0". A natural 2, -1 for the Size 0 target: 1 misses a Hand Weapon's Use 2 but
        // squashes the Vermin, with no Damage roll.
        let s = squad(&[MF], &[("vermin", 1)], 0, RuleOptions::default());
        let o = run(&s, &[(D6, 2)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
        // Only a Critical Failure misses; then the Vermin bites back (hit 4, Damage 1 vs
        // Armor 4: nothing).
        let s = Squad {
            max_turns: 2,
            ..squad(&[MF], &[("vermin", 1)], 0, RuleOptions::default())
        };
        let o = run(&s, &[(D6, 1), (D6, 4)]);
        assert_eq!((o.winner, o.turns), (None, 2));
    }
}
