//! What `diemon blast` answers ([`BlastAnswer`]): kills by ring, per shot and per CP, with
//! their CIs, and what burning did; made from a run's tally.

use super::*;

/// Kills in one 2" ring of the Explosions, a trial.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RingRow {
    /// The ring, from 0 at the centre.
    pub ring: usize,
    /// Its inner and outer radius in inches.
    pub inches: [usize; 2],
    /// Kills in it a turn.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub mean_kills: f64,
    /// The 95% CI of `mean_kills`.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_mean_kills: [f64; 2],
}

/// What burning does to a figure set on fire (Ch. 8.3), when the fire caught one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Burning {
    /// The chance one Burning Roll puts the fire out.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub p_out_per_burning_roll: f64,
    /// Turns a figure stays alight.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub mean_turns_alight: f64,
    /// `[limbs, share]`: limbs lost in the first three turns alight.
    pub limbs_lost_in_3_turns: Vec<(i64, f64)>,
}

/// What a turn of fire answers. Every Monte Carlo figure comes with its CI as `key` and
/// `ci_key` (`ci_hit` for `p_hit`); a figure that does not apply is null.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BlastAnswer {
    /// The weapon, as printed.
    pub weapon: String,
    /// The shooter's unit.
    pub shooter: String,
    /// The Action roll's die.
    pub action_die: String,
    /// The unit fired at.
    pub target: String,
    /// Figures in the formation.
    pub figures: usize,
    /// The formation as given.
    pub formation: String,
    /// Inches from the shooter to the formation's centre.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub distance: f64,
    /// Inches past the weapon's Range.
    pub out_of_range: i64,
    /// "turn" or "volley" (a Cannon's fire and reload).
    pub per: String,
    /// How the run went.
    #[serde(flatten)]
    pub ran: Ran,
    /// The delivering weapon's price.
    pub cp_weapon: Option<Cp>,
    /// The Explosives fired a turn, priced.
    pub cp_ammo_per_trial: Cp,
    /// `[kills, share]` pairs.
    pub kills_hist: Vec<(usize, f64)>,
    /// Kills by ring.
    pub by_ring: Vec<RingRow>,
    /// What burning did, if the fire caught a figure.
    pub burning: Option<Burning>,
    /// Damage exactly equal to Armor, over all trials.
    pub armor_ties: u64,
    /// Where each shot aims.
    pub aim: Aim,
    /// Where a Missed Explosive lands.
    pub scatter: Scatter,
    /// How an Explosive fails to go off.
    pub dud: Dud,
    /// The rule options it ran under.
    pub options: RuleOptions,
    /// Figures felled a turn.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub mean_kills: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_mean_kills: [f64; 2],
    /// Shots fired a turn.
    #[serde(deserialize_with = "crate::question::kept::real")]
    pub shots_per_trial: f64,
    /// Its 95% CI.
    #[serde(deserialize_with = "crate::question::kept::pair")]
    pub ci_shots_per_trial: [f64; 2],
    /// `mean_kills` per shot fired.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub kills_per_shot: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_kills_per_shot: Option<[f64; 2]>,
    /// `mean_kills` per CP of weapon and Explosives.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub kills_per_cp: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_kills_per_cp: Option<[f64; 2]>,
    /// CP of the figures felled a turn.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub cp_killed: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_cp_killed: Option<[f64; 2]>,
    /// The chance a shot hits its aim point.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub p_hit: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_hit: Option<[f64; 2]>,
    /// Duds a turn.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub duds_per_trial: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_duds_per_trial: Option<[f64; 2]>,
    /// Figures Knocked Back a turn.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub knocked_back_per_trial: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_knocked_back_per_trial: Option<[f64; 2]>,
    /// Figures set on fire a turn.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub on_fire_per_trial: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_on_fire_per_trial: Option<[f64; 2]>,
    /// The chance a MachineGun jams in a turn.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub p_jam: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_jam: Option<[f64; 2]>,
    /// Carried Explosives set off a turn.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub chain_detonations_per_trial: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_chain_detonations_per_trial: Option<[f64; 2]>,
    /// Larger figures that lost Size and stand, a turn.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub wounded_per_trial: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_wounded_per_trial: Option<[f64; 2]>,
    /// The chance the wall falls.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_real")]
    pub p_wall_destroyed: Option<f64>,
    /// Its 95% CI.
    #[serde(default, deserialize_with = "crate::question::kept::maybe_pair")]
    pub ci_wall_destroyed: Option<[f64; 2]>,
    /// What the weapon and the targets are, for the text.
    #[serde(skip)]
    pub summary: Summary,
}

impl BlastAnswer {
    /// The answer of a run's tally.
    pub fn new(
        s: Summary,
        a: &BlastArgs,
        opts: &RuleOptions,
        ran: Ran,
        t: &BlastTally,
    ) -> BlastAnswer {
        let m = t.mean_kills();
        let cp = s
            .cp_weapon
            .map(|w| (w + s.cp_ammo).as_f64())
            .filter(|c| *c > 0.0);
        let scaled = |e: Estimate, k: f64| Estimate {
            point: e.point * k,
            standard_error: e.standard_error * k,
            ci: [e.ci[0] * k, e.ci[1] * k],
            level: e.level,
        };
        let point = |e: Option<Estimate>| e.map(|e| e.point);
        let ci = |e: Option<Estimate>| e.map(|e| e.ci);
        let shots = t.shots.mean(t.trials);
        let per_shot = t.kills_per_shot();
        let per_cp = cp.map(|c| scaled(m, 1.0 / c));
        let killed = Some(scaled(m, s.target_cp));
        let hit = (t.shots.sum > 0).then(|| Estimate::proportion(t.hits, t.shots.sum, CONFIDENCE));
        let duds = Some(t.duds.mean(t.trials));
        let knocked = Some(t.knocked_back.mean(t.trials));
        let fire = Some(t.on_fire.mean(t.trials));
        let jam = Some(Estimate::proportion(t.jams, t.trials, CONFIDENCE));
        let chain = Some(t.chain.mean(t.trials));
        let wounded = Some(t.wounded.mean(t.trials));
        let wall = s
            .wall
            .then(|| Estimate::proportion(t.walls, t.trials, CONFIDENCE));
        BlastAnswer {
            weapon: s.weapon.clone(),
            shooter: a.shooter.clone(),
            action_die: s.action_die.clone(),
            target: s.target.clone(),
            figures: s.figures,
            formation: s.formation.clone(),
            distance: s.distance,
            out_of_range: s.out_of_range,
            per: s.per.to_string(),
            ran,
            cp_weapon: s.cp_weapon,
            cp_ammo_per_trial: s.cp_ammo,
            kills_hist: t.kills_hist(),
            by_ring: (0..t.rings_used())
                .map(|r| {
                    let e = t.by_ring[r].mean(t.trials);
                    RingRow {
                        ring: r,
                        inches: [2 * r, 2 * r + 2],
                        mean_kills: e.point,
                        ci_mean_kills: e.ci,
                    }
                })
                .collect(),
            burning: (t.on_fire.sum > 0).then(|| Burning {
                p_out_per_burning_roll: diemon_core::rules::fire::P_OUT,
                mean_turns_alight: diemon_core::rules::fire::mean_turns_alight(),
                limbs_lost_in_3_turns: diemon_core::rules::fire::limbs_lost(3).iter().collect(),
            }),
            armor_ties: t.ties,
            aim: a.aim,
            scatter: a.scatter,
            dud: a.dud,
            options: *opts,
            mean_kills: m.point,
            ci_mean_kills: m.ci,
            shots_per_trial: shots.point,
            ci_shots_per_trial: shots.ci,
            kills_per_shot: point(per_shot),
            ci_kills_per_shot: ci(per_shot),
            kills_per_cp: point(per_cp),
            ci_kills_per_cp: ci(per_cp),
            cp_killed: point(killed),
            ci_cp_killed: ci(killed),
            p_hit: point(hit),
            ci_hit: ci(hit),
            duds_per_trial: point(duds),
            ci_duds_per_trial: ci(duds),
            knocked_back_per_trial: point(knocked),
            ci_knocked_back_per_trial: ci(knocked),
            on_fire_per_trial: point(fire),
            ci_on_fire_per_trial: ci(fire),
            p_jam: point(jam),
            ci_jam: ci(jam),
            chain_detonations_per_trial: point(chain),
            ci_chain_detonations_per_trial: ci(chain),
            wounded_per_trial: point(wounded),
            ci_wounded_per_trial: ci(wounded),
            p_wall_destroyed: point(wall),
            ci_wall_destroyed: ci(wall),
            summary: s,
        }
    }
}
