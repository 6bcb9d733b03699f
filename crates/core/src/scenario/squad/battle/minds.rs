//! Minds (Ch. 10.1): Stupidity hands an Incompetent unit to the enemy; Half-Mind Usefulness
//! lets masterless Submissive units be directed by the enemy and Subjugated ones break free.

use super::*;
use crate::dice::Log;
use crate::rules::Stupidity;

impl Squad {
    /// Stupidity (Ch. 10.1): with more than one Stupid unit on `side`, the enemy takes the
    /// first of them in roster order for this turn (option `stupidity`). Returns that unit,
    /// and whether it acts now for the enemy: then it fights for the other side until
    /// [`Squad::release`].
    #[cold]
    #[inline(never)]
    pub(super) fn stupidity<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        side: u8,
        log: &mut L,
    ) -> Option<(usize, bool)> {
        let stupid = |t: usize| {
            fl.f[t].side == side && fl.f[t].alive && self.kinds[fl.f[t].kind as usize].stupid
        };
        if (0..self.roster.len()).filter(|&t| stupid(t)).count() < 2 {
            return None;
        }
        let u = (0..self.roster.len()).find(|&t| stupid(t))?;
        log.note(format_args!(
            "  Stupidity: the enemy takes {} for this turn",
            Who(self, fl, u)
        ));
        // Its turn is the enemy's: it keeps no Action for a Response.
        fl.f[u].acted = true;
        let turncoat = self.opts.stupidity == Stupidity::Turncoat && !fl.f[u].disrupted;
        if turncoat {
            // "control it as if it were his own": it fights for the other side this turn.
            let other = 1 - side;
            fl.alive[side as usize] -= 1;
            fl.alive[other as usize] += 1;
            fl.f[u].side = other;
            fl.moved(0);
            fl.moved(1);
            // `act` skips a unit that has acted only for attacks after a move; clear it.
            fl.f[u].acted = false;
        }
        Some((u, turncoat))
    }

    /// Half-Mind Usefulness at the beginning of `side`'s turn (option `usefulness`,
    /// Ch. 10.1). Without a full-Minded unit standing on the other side, its Subjugated
    /// units break free to `side` for good and its Submissive units are lent to `side` for
    /// this turn (returned: they act first, then go back); `side`'s own Submissive units
    /// without a master are directed by it. Each of them may Move or act, not both.
    #[cold]
    #[inline(never)]
    pub(super) fn usefulness<L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        side: u8,
        log: &mut L,
    ) -> u128 {
        let n = self.roster.len();
        // A summoned Diemon (after the fielded units) is no one's master.
        let master = |fl: &Field, s: u8| {
            (0..self.units).any(|u| {
                let f = &fl.f[u];
                f.alive && f.side == s && self.kinds[f.kind as usize].full_mind
            })
        };
        fl.restricted = 0;
        let mut lent = 0u128;
        let other = 1 - side;
        let other_has_master = master(fl, other);
        let own_has_master = master(fl, side);
        for u in 0..n {
            let f = fl.f[u];
            let k = &self.kinds[f.kind as usize];
            if !f.alive || !(k.submissive || k.subjugated) {
                continue;
            }
            if f.side == other && !other_has_master {
                fl.alive[other as usize] -= 1;
                fl.alive[side as usize] += 1;
                fl.f[u].side = side;
                fl.moved(0);
                fl.moved(1);
                fl.f[u].acted = false;
                fl.restricted |= 1 << u;
                if k.subjugated {
                    log.note(format_args!("  {} breaks free", Who(self, fl, u)));
                } else {
                    log.note(format_args!(
                        "  {} has no master: the enemy directs it",
                        Who(self, fl, u)
                    ));
                    lent |= 1 << u;
                }
            } else if f.side == side && (!own_has_master || self.roster[u].0 != side) {
                // Its owner directs it (a useless Submissive one, or a Subjugated one that
                // broke free to this side): Move or Action.
                fl.restricted |= 1 << u;
            }
        }
        lent
    }

    /// Hands unit `u`, taken by the enemy for its action, back to `side`.
    #[cold]
    #[inline(never)]
    pub(super) fn release(&self, fl: &mut Field, u: usize, side: u8) {
        let other = 1 - side;
        fl.f[u].side = side;
        fl.moved(0);
        fl.moved(1);
        fl.f[u].acted = true;
        if fl.f[u].alive {
            fl.alive[other as usize] -= 1;
            fl.alive[side as usize] += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    #[allow(unused_imports)]
    use super::*;

    #[test]
    fn stupid_units_are_turned_on_their_own_side() {
        // Ch. 10.1 Stupidity: two armed civilians (Incompetent, d4) against a minifig. On
        // A's turn B takes A1 and strikes A2 with it: hit (3), Damage 5 > 4. A1 keeps no
        // Action; B1 then kills A1: hit (3), Damage 5.
        let s = squad(
            &[("civilian+hand-weapon", 2)],
            &[MF],
            0,
            RuleOptions::default(),
        );
        let o = run(&s, &[(Die::D4, 3), (D6, 5), (D6, 3), (D6, 5)]);
        assert_eq!(o.winner, Some(Side::B));
        assert_eq!((o.turns, o.survivors), (2, [0, 1]));
        // Stupidity `off`: both strike B1: A1 fails critically (1), A2 hits (2) and kills (5).
        let mut off = RuleOptions::default();
        off.stupidity = Stupidity::Off;
        let s = squad(&[("civilian+hand-weapon", 2)], &[MF], 0, off);
        let o = run(&s, &[(Die::D4, 1), (Die::D4, 2), (D6, 5)]);
        assert_eq!((o.winner, o.turns), (Some(Side::A), 1));
    }

    #[test]
    fn masterless_horses_are_played_by_the_enemy_under_usefulness_masters() {
        // Ch. 10.1: a Submissive Horse "loses its Usefulness if its master is killed".
        // B first, in contact. Turn 1: B1 kills A1 (3, Damage 5), the side's only full
        // Mind. Turn 2: A's player directs its Horses: A2 hits (4) for 2 against B1's 4;
        // A3 rolls a Critical Failure. Turn 3: B plays both Horses first: A2 finds no
        // enemy of B's but its fellow, which is B's too; A3 kicks A2 (4), Damage 5 against
        // its Armor 1d6 (2): A2 loses an inch. B1 then finishes A2 (3; Damage 6 + 1 against
        // 3). A draw after three turns: A3 and B1 stand.
        let mut o = RuleOptions::default();
        o.usefulness = crate::rules::Usefulness::Masters;
        let a = side_on_spot(&[MF, ("horse", 2)], &o);
        let b = side_on_spot(&[MF], &o);
        let s = Squad::new(a, b, 0, First::B, 3, o).unwrap();
        let script = [
            (D6, 3),
            (D6, 5),
            (D6, 4),
            (D6, 2),
            (D6, 1),
            (D6, 4),
            (D6, 5),
            (D6, 2),
            (D6, 3),
            (D6, 6),
            (D6, 1),
            (D6, 3),
        ];
        let out = run(&s, &script);
        assert_eq!((out.winner, out.survivors), (None, [1, 1]));
    }
}
