//! A character's numbers as a dice pool (the Marks text, "Always Average Normal
//! Attributes", "Super Attributes Are Added", "Keep Your Attribute Dice", difficulty).

use crate::rules::{MarksPenalty, RuleOptions};

/// What a roll calls for, as the character sheet gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sheet {
    /// The normal Attributes the roll names (usually two), averaged and rounded down.
    pub attributes: Vec<u32>,
    /// Tempo: the exception to averaging, used whole (replaces `attributes`).
    pub tempo: Option<u32>,
    /// Super Attributes, added whole as d10s.
    pub super_attributes: Vec<u32>,
    /// Ranks in the Superpower used: d10s that count toward the dice kept.
    pub superpower: u32,
    /// Skill or Combat Style: d6s rolled but not kept beyond the Attribute dice.
    pub skill: u32,
    /// Super Skill: d10s, likewise.
    pub super_skill: u32,
    /// Dice taken away for difficulty (-1 Challenging ... -4 or more Super).
    pub difficulty: u32,
}

/// The dice rolled, by group, and how many may be kept.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pool {
    /// Attribute d6s (the averaged normal Attributes, or Tempo).
    pub attr6: u32,
    /// Skill dice rolled as d6s.
    pub skill6: u32,
    /// Super Attribute and Superpower d10s.
    pub attr10: u32,
    /// Skill dice rolled as d10s.
    pub skill10: u32,
}

/// Most dice one pool may roll (far beyond any sheet; keeps exact maths instant).
pub const MAX_DICE: u32 = 60;

/// A sheet whose pool cannot be rolled: bad input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PoolError {
    /// More dice than one pool holds ([`MAX_DICE`]).
    #[error("{dice} dice: at most {MAX_DICE} in one pool")]
    TooMany {
        /// The dice asked for.
        dice: u64,
    },
}

impl Pool {
    /// The pool a sheet rolls, after difficulty (removed in `opts.marks_penalty` order).
    pub fn new(sheet: &Sheet, opts: &RuleOptions) -> Result<Pool, PoolError> {
        Pool::checked(sheet, opts)
    }

    /// The checks of [`Self::new`], in words.
    fn checked(sheet: &Sheet, opts: &RuleOptions) -> Result<Pool, PoolError> {
        // Sums in 64 bits, checked against MAX_DICE before they become a pool: a sheet of
        // 4294967295 Skill dice is refused, never wrapped round to a small pool.
        let attr6 = match sheet.tempo {
            Some(t) => t as u64,
            None if sheet.attributes.is_empty() => 0,
            // "Always round down when averaging."
            None => {
                sheet.attributes.iter().map(|&a| a as u64).sum::<u64>()
                    / sheet.attributes.len() as u64
            }
        };
        let attr10 = sheet
            .super_attributes
            .iter()
            .map(|&a| a as u64)
            .sum::<u64>()
            + sheet.superpower as u64;
        let total = attr6 + sheet.skill as u64 + attr10 + sheet.super_skill as u64;
        if total > MAX_DICE as u64 {
            return Err(PoolError::TooMany { dice: total });
        }
        let mut p = Pool {
            attr6: attr6 as u32,
            skill6: sheet.skill,
            attr10: attr10 as u32,
            skill10: sheet.super_skill,
        };
        let order: [&mut u32; 4] = match opts.marks_penalty {
            MarksPenalty::SkillFirst => {
                [&mut p.skill6, &mut p.attr6, &mut p.skill10, &mut p.attr10]
            }
            MarksPenalty::AttributeFirst => {
                [&mut p.attr6, &mut p.skill6, &mut p.attr10, &mut p.skill10]
            }
        };
        let mut left = sheet.difficulty;
        for group in order {
            let take = left.min(*group);
            *group -= take;
            left -= take;
        }
        Ok(p)
    }

    /// A pool by its four groups (for tests and callers that have them already).
    pub fn of(attr6: u32, skill6: u32, attr10: u32, skill10: u32) -> Pool {
        Pool {
            attr6,
            skill6,
            attr10,
            skill10,
        }
    }

    /// d6s rolled.
    pub fn d6(&self) -> u32 {
        self.attr6 + self.skill6
    }

    /// d10s rolled.
    pub fn d10(&self) -> u32 {
        self.attr10 + self.skill10
    }

    /// Dice in the pool, of every kind.
    pub fn dice(&self) -> u32 {
        self.d6() + self.d10()
    }

    /// How many dice may be kept: the Attribute and Superpower dice.
    pub fn keep(&self) -> u32 {
        self.attr6 + self.attr10
    }

    /// "4d6 + 3d10, keep 6".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.d6() > 0 {
            parts.push(format!("{}d6", self.d6()));
        }
        if self.d10() > 0 {
            parts.push(format!("{}d10", self.d10()));
        }
        if parts.is_empty() {
            parts.push("no dice".into());
        }
        format!("{}, keep {}", parts.join(" + "), self.keep())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marshall_rolls_3d6_and_3d10() {
        // "Marshall has Agility 4, Cunning 2 and Super Agility 3. His equation would be 3d6
        // (average of Agility and Cunning) plus 3d10."
        let sheet = Sheet {
            attributes: vec![4, 2],
            super_attributes: vec![3],
            ..Sheet::default()
        };
        let p = Pool::new(&sheet, &RuleOptions::default()).unwrap();
        assert_eq!((p.d6(), p.d10(), p.keep()), (3, 3, 6));
        // Averages round down: 4 and 1 give 2.
        let odd = Sheet {
            attributes: vec![4, 1],
            ..Sheet::default()
        };
        assert_eq!(Pool::new(&odd, &RuleOptions::default()).unwrap().attr6, 2);
        // Tempo is used whole.
        let tempo = Sheet {
            tempo: Some(5),
            attributes: vec![1, 1],
            ..Sheet::default()
        };
        assert_eq!(Pool::new(&tempo, &RuleOptions::default()).unwrap().attr6, 5);
    }

    #[test]
    fn difficulty_takes_dice_in_the_option_s_order() {
        let sheet = Sheet {
            attributes: vec![3, 3],
            super_attributes: vec![2],
            skill: 2,
            super_skill: 1,
            difficulty: 3,
            ..Sheet::default()
        };
        let mut o = RuleOptions::default();
        // Skill first: both skill d6s, then one Attribute d6 (the keep limit falls by one).
        let p = Pool::new(&sheet, &o).unwrap();
        assert_eq!((p.attr6, p.skill6, p.attr10, p.skill10), (2, 0, 2, 1));
        assert_eq!(p.keep(), 4);
        // Attribute first: all three Attribute d6s (and with them three dice of the keep).
        o.marks_penalty = MarksPenalty::AttributeFirst;
        let p = Pool::new(&sheet, &o).unwrap();
        assert_eq!((p.attr6, p.skill6, p.attr10, p.skill10), (0, 2, 2, 1));
        assert_eq!(p.keep(), 2);
        // More penalty than dice leaves none.
        let all = Sheet {
            difficulty: 99,
            ..sheet
        };
        assert_eq!(Pool::new(&all, &o).unwrap().dice(), 0);
    }
}
