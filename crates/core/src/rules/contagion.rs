//! Monstrous Contagion (Ch. 10.4): a Contagious Bite's Poison "attacks the Mind rather than
//! the body, so the Poison damage is rolled against the target's Skill instead of Armor.
//! If the Poison Damage Roll is higher than the victim's Skill Roll, then its Mind is
//! destroyed ... At the beginning of the Contagious Biter's next turn, the victim ... rises
//! up to join the Monstrous ranks" with "an Incompetent Skill of 1d4".
//!
//! The bite "only affects minifigs"; the text's optional mental Size Damage against larger
//! Creatures is not modelled (docs/rules-coverage.md).

use crate::dice::{Pmf, SkillExact};

/// Whether the bite's Poison destroys the Mind: Damage higher than the Skill roll (a tie
/// leaves the Mind whole).
pub fn mind_destroyed(poison: i64, skill_roll: i64) -> bool {
    poison > skill_roll
}

/// The victim's Skill roll total, whatever its natural result: its three states mixed.
pub fn skill_total(skill: &SkillExact) -> Pmf {
    let parts: Vec<(f64, &Pmf)> = skill.states.iter().map(|(p, t)| (*p, t)).collect();
    Pmf::mix(&parts)
}

/// P(a bite that hits destroys the victim's Mind), exactly.
pub fn p_mind_destroyed(poison: &Pmf, skill: &SkillExact) -> f64 {
    poison.p_greater(&skill_total(skill))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Die, Expr, SkillRoll};
    use crate::rules::RuleOptions;

    #[test]
    fn higher_poison_than_skill_takes_the_mind() {
        assert!(mind_destroyed(4, 3));
        assert!(!mind_destroyed(3, 3), "a tie keeps the Mind");
        assert!(!mind_destroyed(1, 2));
    }

    #[test]
    fn a_trained_minifig_resists_more_often_than_a_civilian() {
        let o = RuleOptions::default();
        let poison = Expr::parse("1d4 poison")
            .unwrap()
            .exact(&o, 1e-13)
            .total()
            .clone();
        let p = |d: Die| p_mind_destroyed(&poison, &SkillRoll::new(d).exact(&o, 1e-13));
        // 1d4 against a d6 Skill roll: P(D > S) = sum over d of (d - 1)/6 / 4 = 6/24.
        assert!((p(Die::D6) - 0.25).abs() < 1e-12, "{}", p(Die::D6));
        // Against an Incompetent d4 (no Bonus Dice on Skill): (0+1+2+3)/16 = 6/16.
        assert!((p(Die::D4) - 0.375).abs() < 1e-12, "{}", p(Die::D4));
        assert!(p(Die::D10) < p(Die::D6));
    }
}
