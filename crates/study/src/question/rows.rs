//! Each answer's row of its experiment's frames ([`crate::schema::Row`]): every column a
//! cell gives, named here and nowhere else. A row holds the answer's seeded figures only:
//! not its timing (trials a second, threads), which two runs of one seed do not share.

use super::Answer;
use super::blast::{BlastAnswer, RingRow};
use super::duel::DuelAnswer;
use super::marks::MarksAnswer;
use super::outcomes::{Outcomes, Share};
use super::run::Ran;
use super::squad::{SquadAnswer, TurnRow};
use crate::schema::{Figure, Row};
use diemon_core::marks::levels::LEVELS;
use diemon_core::scenario::squad::{Conduct, Policy};

impl Answer {
    /// The answer's row of its experiment's frames.
    pub fn row(&self) -> Row {
        let mut r = Row::default();
        match self {
            Answer::Duel(a) => a.fill(&mut r),
            Answer::Squad(a) => a.fill(&mut r),
            Answer::Blast(a) => a.fill(&mut r),
            Answer::Marks(a) => a.fill(&mut r),
        }
        r
    }
}

impl Ran {
    fn fill(&self, r: &mut Row) {
        r.whole("trials", self.trials).whole("seed", self.seed);
    }
}

/// Each outcome's column, in [`Outcomes::NAMES`] order.
const OUTCOMES: [&str; 4] = ["p_a_wins", "p_b_wins", "p_draw", "p_first_side_wins"];

impl Outcomes {
    fn fill(&self, r: &mut Row) {
        for (name, Share { point, ci }) in OUTCOMES.into_iter().zip(self.shares) {
            r.estimate(name, point, ci);
        }
    }
}

impl DuelAnswer {
    fn fill(&self, r: &mut Row) {
        self.ran.fill(r);
        self.outcomes.fill(r);
        r.estimate("mean_attacks", self.mean_attacks, self.ci_mean_attacks)
            .whole("armor_ties", self.armor_ties);
    }
}

impl SquadAnswer {
    fn fill(&self, r: &mut Row) {
        self.ran.fill(r);
        self.outcomes.fill(r);
        r.whole("units_a", self.units_a)
            .whole("units_b", self.units_b)
            .real("cp_a", self.cp_a.as_f64())
            .real("cp_b", self.cp_b.as_f64())
            .real("cp_gap", self.cp_gap.as_f64())
            .real("distance", self.distance)
            .whole("room", self.room)
            .estimate("mean_turns", self.mean_turns, self.ci_mean_turns)
            .estimate("survivors_a", self.survivors_a, self.ci_survivors_a)
            .estimate("survivors_b", self.survivors_b, self.ci_survivors_b)
            .estimate("cp_left_a", self.cp_left_a, self.ci_cp_left_a)
            .estimate("cp_left_b", self.cp_left_b, self.ci_cp_left_b)
            .whole("armor_ties", self.armor_ties)
            .whole("max_turns", self.max_turns)
            .real("inert_cp_a", self.inert_cp_a.as_f64())
            .real("inert_cp_b", self.inert_cp_b.as_f64())
            .maybe_estimate("converted", self.converted, self.ci_converted)
            .maybe_estimate("revived", self.revived, self.ci_revived);
        if let Some(b) = &self.explosives {
            r.maybe_estimate("blasted_a", b.blasted_a, b.ci_blasted_a)
                .maybe_estimate("blasted_own_a", b.blasted_own_a, b.ci_blasted_own_a)
                .maybe_estimate("blasted_b", b.blasted_b, b.ci_blasted_b)
                .maybe_estimate("blasted_own_b", b.blasted_own_b, b.ci_blasted_own_b);
        }
        if let Some(s) = &self.automatic {
            r.maybe_estimate("swept_a", s.swept_a, s.ci_swept_a)
                .maybe_estimate("swept_b", s.swept_b, s.ci_swept_b);
        }
        r.dist("survivors_a", shares(&self.survivors_a_hist))
            .dist("survivors_b", shares(&self.survivors_b_hist))
            .dist("turns", shares(&self.turns_hist))
            .table("by_turn", self.by_turn.iter().map(TurnRow::row).collect())
            .text("policy_a", policy_text(&self.policy_a))
            .text("policy_b", policy_text(&self.policy_b))
            .text("inert_a", self.inert_a.join("; "))
            .text("inert_b", self.inert_b.join("; "));
    }
}

impl TurnRow {
    fn row(&self) -> Row {
        let mut r = Row::default();
        r.whole("turn", self.turn)
            .estimate("standing_a", self.standing_a, self.ci_standing_a)
            .estimate("standing_b", self.standing_b, self.ci_standing_b)
            .maybe_estimate("converted", self.converted, self.ci_converted);
        r
    }
}

impl BlastAnswer {
    fn fill(&self, r: &mut Row) {
        self.ran.fill(r);
        r.whole("figures", self.figures)
            .real("distance", self.distance)
            .whole("out_of_range", self.out_of_range)
            .maybe("cp_weapon", self.cp_weapon.map(|c| c.as_f64()))
            .real("cp_ammo_per_trial", self.cp_ammo_per_trial.as_f64())
            .whole("armor_ties", self.armor_ties)
            .estimate("mean_kills", self.mean_kills, self.ci_mean_kills)
            .estimate(
                "shots_per_trial",
                self.shots_per_trial,
                self.ci_shots_per_trial,
            );
        let maybe = [
            (
                "kills_per_shot",
                self.kills_per_shot,
                self.ci_kills_per_shot,
            ),
            ("kills_per_cp", self.kills_per_cp, self.ci_kills_per_cp),
            ("cp_killed", self.cp_killed, self.ci_cp_killed),
            ("p_hit", self.p_hit, self.ci_hit),
            (
                "duds_per_trial",
                self.duds_per_trial,
                self.ci_duds_per_trial,
            ),
            (
                "knocked_back_per_trial",
                self.knocked_back_per_trial,
                self.ci_knocked_back_per_trial,
            ),
            (
                "on_fire_per_trial",
                self.on_fire_per_trial,
                self.ci_on_fire_per_trial,
            ),
            ("p_jam", self.p_jam, self.ci_jam),
            (
                "chain_detonations_per_trial",
                self.chain_detonations_per_trial,
                self.ci_chain_detonations_per_trial,
            ),
            (
                "wounded_per_trial",
                self.wounded_per_trial,
                self.ci_wounded_per_trial,
            ),
            (
                "p_wall_destroyed",
                self.p_wall_destroyed,
                self.ci_wall_destroyed,
            ),
        ];
        for (name, point, ci) in maybe {
            r.maybe_estimate(name, point, ci);
        }
        r.dist("kills", shares(&self.kills_hist))
            .table("by_ring", self.by_ring.iter().map(RingRow::row).collect());
    }
}

impl RingRow {
    fn row(&self) -> Row {
        let mut r = Row::default();
        r.whole("ring", self.ring)
            .span("inches", self.inches.map(|i| Figure::Whole(i as i64)))
            .estimate("mean_kills", self.mean_kills, self.ci_mean_kills);
        r
    }
}

/// Each level's P(at least), a column each, in [`LEVELS`] order.
const LEVEL_COLUMNS: [&str; LEVELS.len()] =
    ["p_basic", "p_competent", "p_mastery", "p_super_human"];

impl MarksAnswer {
    fn fill(&self, r: &mut Row) {
        r.whole("d6", self.d6)
            .whole("d10", self.d10)
            .whole("keep", self.keep)
            .real("mean", self.mean)
            .real("truncated_mass", self.truncated_mass);
        for (column, (level, _)) in LEVEL_COLUMNS.into_iter().zip(LEVELS) {
            r.maybe(column, self.p_at_least.get(level).copied());
        }
        if let Some(n) = self.vs_marks {
            r.whole("vs_marks", n);
        }
        r.maybe("p_wins", self.p_wins)
            .maybe("p_tie", self.p_tie)
            .maybe("p_loses", self.p_loses)
            .maybe("p_success_within_tries", self.p_success_within_tries);
        if let Some(n) = self.plateau {
            r.whole("plateau", n);
        }
        r.maybe("p_done", self.p_done)
            .maybe_estimate("p_mc", self.p_mc, self.ci_mc)
            .maybe("mc_p_value", self.mc_p_value);
        if let Some(n) = self.trials {
            r.whole("trials", n);
        }
        if let Some(d) = &self.done_at_hist {
            r.dist("done_at", d.iter().map(|&(k, p)| (f64::from(k), p)));
        }
        r.dist("pmf", self.pmf.iter().map(|&(k, p)| (k as f64, p)));
    }
}

/// `(value, share)` pairs of a histogram, as the distributions frame takes them.
fn shares(hist: &[(usize, f64)]) -> impl Iterator<Item = (f64, f64)> + '_ {
    hist.iter().map(|&(k, p)| (k as f64, p))
}

/// A side's policies as one text column, `key=value` in the keys' order: `aim=densest
/// amputate=legs_first ... throw=never`, each value as the answer's JSON writes it.
pub fn policy_text(p: &Policy) -> String {
    let Policy {
        target,
        position,
        response,
        sprint,
        cover,
        blind,
        spend,
        amputate,
        aim,
        spacing,
        auto,
        bail,
        formation,
        throw,
        divert,
        lob,
        conduct,
    } = p;
    let word = |v: &dyn erased::Word| v.word();
    [
        ("aim", word(aim)),
        ("amputate", word(amputate)),
        ("auto", word(auto)),
        ("bail", word(bail)),
        ("blind", word(blind)),
        ("cover", word(cover)),
        ("divert", word(divert)),
        ("formation", word(formation)),
        ("lob", word(lob)),
        ("position", word(position)),
        ("response", word(response)),
        ("spacing", word(spacing)),
        ("spend", word(spend)),
        ("sprint", word(sprint)),
        ("target", word(target)),
        ("throw", word(throw)),
    ]
    .map(|(k, v)| format!("{k}={v}"))
    .join(" ")
        // A table's conduct, named where it is not the default (the frames of battles off a
        // table read as they always did).
        + &match conduct {
            Conduct::Advance => String::new(),
            c => format!(" conduct={}", word(c)),
        }
}

mod erased {
    /// A policy value as its JSON writes it, a name without its quotes.
    pub trait Word {
        fn word(&self) -> String;
    }

    impl<T: serde::Serialize> Word for T {
        fn word(&self) -> String {
            // A policy value is a name, a number or a flag: it always serializes.
            let text = serde_json::to_string(self)
                .unwrap_or_else(|e| unreachable!("a policy value serializes: {e}"));
            match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
                Some(name) => name.to_string(),
                None => text,
            }
        }
    }
}
