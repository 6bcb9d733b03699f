//! Divert All Power (Ch. 8.1 Gathering Power): a creation whose weapon is too big for its
//! Power, as the Scorpiosaurus Rex's 5" stinger once Size Damage leaves it 4", "can 'save
//! up' its Power over multiple turns" as a full-turn Action: it neither moves nor acts.
//! "On the following turn" it adds the Power saved to its regular Power "to meet the Power
//! requirement of a single weapon", and afterwards "returns to its regular Power limit".
//!
//! A figure's `divert` holds the inches saved (low 7 bits) and [`DIVERTING`], set on the
//! turn it saves: at its side's next turn the flag clears and the saving stays for that
//! turn; a turn without the flag drops it. The side's `divert` policy says when to save.

use super::*;
use crate::dice::Log;
use crate::scenario::squad::Divert;

/// Set on a figure's `divert` for the turn it spent saving Power.
pub(super) const DIVERTING: u8 = 0x80;

impl Squad {
    /// Unit `i`'s choice at the start of its turn: under its side's `in_reach` policy it
    /// Diverts All Power while an enemy stands within reach of its largest weapon beyond its
    /// Power and what it has saved falls short. Returns whether it did (its turn is over).
    pub(super) fn divert<L: Log + ?Sized>(&self, fl: &mut Field, i: usize, log: &mut L) -> bool {
        let k = &self.kinds[fl.f[i].kind as usize];
        if self.policy[fl.f[i].side as usize].divert == Divert::Never
            || !k.may_divert()
            || fl.f[i].size == 0
        {
            return false;
        }
        let power = k.power.inches(fl.f[i].size);
        let saved = (fl.f[i].divert & !DIVERTING) as u32;
        let Some(near) = self.nearest_as::<false>(fl, i) else {
            return false;
        };
        // The largest weapon beyond its Power that reaches the nearest enemy now.
        let want = k
            .arms
            .iter()
            .filter(|a| a.power.unwrap_or(0) > power)
            .filter(|a| {
                (a.close && near.0 <= CONTACT) || a.range.is_some_and(|r| 2 * r as i32 >= near.0)
            })
            .max_by_key(|a| a.power);
        let Some(arm) = want else {
            return false;
        };
        let need = arm.power.unwrap_or(0);
        if power + saved >= need {
            return false;
        }
        // Saved inches stay below the flag bit; no weapon is that large (MAX_SIZE).
        let now = (saved + power).min((DIVERTING - 1) as u32);
        fl.f[i].divert = now as u8 | DIVERTING;
        fl.f[i].acted = true;
        log.note(format_args!(
            "  {} Diverts All Power: {}\" saved toward its {}\" {}, with {}\" of Power a turn \
             (Ch. 8.1)",
            Who(self, fl, i),
            now,
            need,
            arm.name,
            power
        ));
        true
    }

    /// The start of `side`'s turn over its slots `mine`: Power saved by Diverting lasts the
    /// following turn only (Ch. 8.1). Out of line, so the plain turn's loop stays as it was.
    #[cold]
    #[inline(never)]
    pub(super) fn new_turn_power(&self, fl: &mut Field, side: u8, mine: std::ops::Range<usize>) {
        for f in &mut fl.f[mine] {
            if f.side == side {
                f.divert = if f.divert & DIVERTING != 0 {
                    f.divert & !DIVERTING
                } else {
                    0
                };
            }
        }
    }

    /// The Power unit `i` may add to its regular Power for one weapon this turn: what it
    /// saved by Diverting (Ch. 8.1).
    #[inline]
    pub(super) fn saved_power(&self, fl: &Field, i: usize) -> u32 {
        (fl.f[i].divert & !DIVERTING) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::catalog::Catalog;
    use crate::dice::Die::D6;
    use crate::scenario::squad::{Policy, SideSpec};

    /// A Scorpiosaurus Rex already down to 2" of Effective Size, in contact with a minifig.
    fn rex_at_two(divert: Divert) -> (Squad, Box<Field>) {
        let o = RuleOptions::default();
        let c = Catalog::builtin();
        let policy = Policy {
            divert,
            ..Policy::default()
        };
        let a = SideSpec::from_catalog(&c, &[("scorpiosaurus-rex".into(), 1)], policy, &o).unwrap();
        let s = Squad::new(a, side(&[MF], &o), 1, First::A, 50, o).unwrap();
        let mut fl = s.start();
        fl.f[0].size = 2;
        (s, fl)
    }

    #[test]
    fn issue_40_a_rex_at_two_inches_diverts_a_turn_then_stings_with_the_power_saved() {
        // Ch. 8.1: at Effective Size 2" the Rex has 4" of Power, short of the 5" stinger.
        // Under `in_reach` its first turn saves 4" and does nothing else (no dice drawn);
        // its next turn adds them (8") for the stinger alone. The minifig lies Disrupted, so
        // every strike hits (Ch. 4.1): the stinger's 5d6, all 1s, make 5 against Armor 4.
        let (s, mut fl) = rex_at_two(Divert::InReach);
        fl.f[1].disrupted = true;
        s.new_turn::<false>(&mut fl, 0);
        let mut dice = crate::dice::Script::new(&[]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert_eq!(fl.f[0].divert, 4 | DIVERTING);
        assert!(fl.f[0].acted && fl.f[1].alive && dice.is_done());
        s.new_turn::<false>(&mut fl, 0);
        assert_eq!(s.saved_power(&fl, 0), 4, "kept for the following turn");
        let stinger = s.kinds[0]
            .arms
            .iter()
            .position(|a| a.power == Some(5))
            .unwrap();
        let mut dice = crate::dice::Script::new(&[(D6, 1); 5]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && !fl.f[1].alive);
        assert_eq!(
            fl.f[0].used,
            1 << stinger,
            "the stinger alone: a single activation"
        );
        assert_eq!(s.saved_power(&fl, 0), 0, "spent");
        // A battle that may Divert leaves the plain form and the line form.
        assert!(!s.plain && s.line.is_none());
    }

    #[test]
    fn issue_40_without_the_policy_or_at_full_size_the_rex_never_diverts() {
        // `never`: the two 1" claws strike at once (automatic hits on the Disrupted
        // minifig, 1 + 1 against Armor 4).
        let (s, mut fl) = rex_at_two(Divert::Never);
        fl.f[1].disrupted = true;
        s.new_turn::<false>(&mut fl, 0);
        let mut dice = crate::dice::Script::new(&[(D6, 1), (D6, 1)]);
        s.act(&mut fl, 0, &mut dice, &mut NoLog);
        assert!(dice.is_done() && fl.f[0].divert == 0);
        // At 3" its 6" of Power works the stinger: no saving needed.
        let (s, mut fl) = rex_at_two(Divert::InReach);
        fl.f[0].size = 3;
        s.new_turn::<false>(&mut fl, 0);
        assert!(!s.divert(&mut fl, 0, &mut NoLog));
    }

    #[test]
    fn issue_40_power_saved_and_left_unused_is_gone_after_the_following_turn() {
        // "Afterwards, the creation returns to its regular Power limit."
        let (s, mut fl) = rex_at_two(Divert::InReach);
        fl.f[0].divert = 4 | DIVERTING;
        s.new_turn::<false>(&mut fl, 0);
        assert_eq!(s.saved_power(&fl, 0), 4);
        s.new_turn::<false>(&mut fl, 0);
        assert_eq!(s.saved_power(&fl, 0), 0);
    }

    #[test]
    fn issue_40_a_gun_beyond_power_is_inert_unless_diverted_or_crewed() {
        // A minifig (2" of Power) with a 3" Gun on a carriage: no strike ever picks it alone
        // (Ch. 8.1), so it is named as priced but inert, unless its side Diverts All Power
        // or fields crew Gunners to lend theirs (2" more).
        let text = "[big-rifle]\nname = \"R\"\nsource = \"test\"\nsize = 1\nstructure = \"0\"\n\
                    armor = \"4\"\nmove = 5\nweapons = [{ kind = \"gun\", size = 3, mount = \
                    \"carriage\", name = \"Long Gun\" }]\n";
        let c = Catalog::with_text("t.toml", text).unwrap();
        let o = RuleOptions::default();
        let inert = |units: &[(&str, u32)], divert| {
            let units: Vec<(String, u32)> =
                units.iter().map(|(k, n)| (k.to_string(), *n)).collect();
            let p = Policy {
                divert,
                ..Policy::default()
            };
            SideSpec::from_catalog(&c, &units, p, &o).unwrap().units[0]
                .0
                .inert
                .clone()
        };
        let alone = inert(&[("big-rifle", 1)], Divert::Never);
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[0].part, "Long Gun");
        assert!(alone[0].why.contains("3\" of Power to work and it has 2\""));
        assert_eq!(alone[0].cp, crate::catalog::cp::Cp::whole(9), "3 x WSize");
        assert!(inert(&[("big-rifle", 1)], Divert::InReach).is_empty());
        assert!(inert(&[("big-rifle", 1), ("gunner", 1)], Divert::Never).is_empty());
    }
}
