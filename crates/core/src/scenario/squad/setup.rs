//! Setting a squad battle up, once before its trials: the kinds and slots each side fields
//! (with the 4pions their SN d4s may summon), each attack resolved into a plan, where each
//! figure stands, and each Explosive's delivery and blast. [`Squad::new`] assembles them.

use super::*;

/// Both sides' kinds, one slot a unit (side, kind), and each side's count.
pub(super) type Fielded = (Vec<Kind>, Vec<(u8, u16)>, [usize; 2]);

/// Each side's kinds, one slot a unit (side, kind), and each side's count; a side that
/// fields nothing, too many, or a crew with no gun to serve is refused.
pub(super) fn fielded(a: &SideSpec, b: &SideSpec) -> Result<Fielded, SquadError> {
    let mut kinds = Vec::new();
    let mut roster = Vec::new();
    let mut count = [0; 2];
    for (side, spec, name) in [(0u8, a, 'A'), (1, b, 'B')] {
        for (k, n) in &spec.units {
            let idx = kinds.len() as u16;
            kinds.push(k.clone());
            for _ in 0..*n {
                roster.push((side, idx));
            }
            count[side as usize] += *n as usize;
        }
        if count[side as usize] == 0 {
            return Err(SquadError::Empty(name));
        }
        if count[side as usize] > MAX_PER_SIDE as usize {
            return Err(SquadError::TooMany(name));
        }
        let gun = spec.units.iter().any(|(k, n)| *n > 0 && k.team >= 2);
        if let Some((k, _)) = spec.units.iter().find(|(k, n)| *n > 0 && k.idle_crew())
            && !gun
        {
            return Err(SquadError::Crew(name, k.key.clone()));
        }
    }
    Ok((kinds, roster, count))
}

/// What [`summoned`] adds after the fielded kinds and units.
pub(super) struct Summoned {
    /// How many kinds are fielded: the rest are summoners holding their item, and 4pions.
    pub fielded: usize,
    /// Each kind's own kind without its summoned item (itself if fielded).
    pub bare: Vec<u16>,
    /// Each 4pion slot's summoner slot and the bit of its SN d4.
    pub pions: Vec<(u8, u8)>,
}

/// Adds each fielded kind as it holds the item it summons (Ch. D.3), and after the fielded
/// units a slot for the 4pion of each SN d4 of a unit that summons under its side's
/// `spend` (Ch. D.1): empty until summoned, never counted among its side's units.
pub(super) fn summoned(
    kinds: &mut Vec<Kind>,
    roster: &mut Vec<(u8, u16)>,
    spend: [Spend; 2],
) -> Summoned {
    let fielded = kinds.len();
    let mut bare: Vec<u16> = (0..fielded as u16).collect();
    for k in 0..fielded {
        if let Some(s) = &kinds[k].summons {
            let armed = (*s.armed).clone();
            bare.push(k as u16);
            kinds.push(armed);
        }
    }
    let units = roster.len();
    let mut pions = Vec::new();
    let mut pion_kind: Vec<Option<u16>> = vec![None; fielded];
    for u in 0..units {
        let (side, k) = roster[u];
        let kind = &kinds[k as usize];
        let Some(p) = kind.fourpion.as_deref() else {
            continue;
        };
        if kind.spend.unwrap_or(spend[side as usize]) != Spend::Summon {
            continue;
        }
        let d4s: Vec<u8> = (0..kind.sn.len() as u8)
            .filter(|&b| kind.sn[b as usize] == Die::D4)
            .collect();
        let pk = match pion_kind[k as usize] {
            Some(pk) => pk,
            None => {
                let pion = p.clone();
                kinds.push(pion);
                let pk = (kinds.len() - 1) as u16;
                bare.push(pk);
                pion_kind[k as usize] = Some(pk);
                pk
            }
        };
        for b in d4s {
            roster.push((side, pk));
            pions.push((u as u8, b));
        }
    }
    Summoned {
        fielded,
        bare,
        pions,
    }
}

/// Every (attacker kind, weapon, target kind) attack resolved into a plan, at index
/// `(attacker * weapons + weapon) * kinds + target`, and `weapons`, the most any kind
/// carries.
pub(super) fn attack_plans(kinds: &[Kind], opts: &RuleOptions) -> (Vec<Option<AttackPlan>>, usize) {
    let weapons = kinds.iter().map(|k| k.arms.len()).max().unwrap_or(0);
    let nk = kinds.len();
    let mut plans = vec![None; nk * weapons * nk];
    for (ai, att) in kinds.iter().enumerate() {
        for (w, arm) in att.arms.iter().enumerate() {
            for (ti, tgt) in kinds.iter().enumerate() {
                let attacker = Attacker {
                    skill: gunnery_skill(att, arm.mounted),
                    use_rating: arm.use_rating,
                    damage: arm.damage.clone(),
                };
                plans[(ai * weapons + w) * nk + ti] = Some(attacker.against(&tgt.armor, opts));
            }
        }
    }
    (plans, weapons)
}

/// Each attack plan's plain d6 form, where it has one: what the plain form rolls.
pub(super) fn quick(plans: &[Option<AttackPlan>]) -> Vec<Option<PlainAttack>> {
    plans
        .iter()
        .map(|p| {
            p.as_ref()
                .and_then(PlainAttack::of)
                .filter(PlainAttack::all_d6)
        })
        .collect()
}

/// Each kind's Skill roll with one Blessing (Curse: `add`) of each SN die in `Die::ALL`
/// that may carry it.
pub(super) fn with_one(
    kinds: &[Kind],
    opts: &RuleOptions,
    add: fn(SkillRoll, u32, Option<Die>) -> Result<SkillRoll, SkillError>,
) -> Vec<[Option<SkillPlan>; 6]> {
    kinds
        .iter()
        .map(|k| Die::ALL.map(|d| add(k.skill, 1, Some(d)).ok().map(|r| r.plan(opts))))
        .collect()
}

/// Each slot's place across the line (inches) and its start along it (half-inches): each
/// side abreast by its `formation` and `spacing`, side B `distance` inches off; a 4pion
/// across from its summoner, on its side's line until summoned.
pub(super) fn places(
    sides: [&SideSpec; 2],
    count: [usize; 2],
    roster: &[(u8, u16)],
    pions: &[(u8, u8)],
    distance: u32,
) -> (Vec<f64>, Vec<i32>) {
    let mut lateral = vec![0.0; roster.len()];
    let mut start = vec![0; roster.len()];
    for (side, spec) in sides.into_iter().enumerate() {
        let n = count[side];
        let first = if side == 0 { 0 } else { count[0] };
        let (across, behind) = spec.policy.formation.places(n, spec.policy.spacing);
        lateral[first..first + n].copy_from_slice(&across);
        for (j, d) in behind.into_iter().enumerate() {
            start[first + j] = if side == 0 {
                -d
            } else {
                2 * distance as i32 + d
            };
        }
    }
    let units = count[0] + count[1];
    for (p, &(u, _)) in pions.iter().enumerate() {
        lateral[units + p] = lateral[u as usize];
        start[units + p] = if roster[units + p].0 == 0 {
            0
        } else {
            2 * distance as i32
        };
    }
    (lateral, start)
}

/// Whether a battle is flat ([`Squad::flat`]): every slot starts at one place across the
/// line, and no Explosion can move a figure off it.
pub(super) fn flat(lateral: &[f64], any_explosive: bool) -> bool {
    !any_explosive && lateral.windows(2).all(|w| w[0] == w[1])
}

/// Whether a side throws hand weapons (its `throw` policy) and carries one to throw.
pub(super) fn any_throw(sides: [&SideSpec; 2]) -> bool {
    sides.iter().any(|s| {
        s.policy.throw != Throw::Never
            && s.units
                .iter()
                .any(|(k, _)| k.arms.iter().any(|a| a.throwable))
    })
}

/// Whether a side Diverts All Power (its `divert` policy) and fields a kind with a weapon
/// beyond the Power it would have at 1" of Effective Size (Ch. 8.1; Half Power never
/// Diverts).
pub(super) fn any_divert(sides: [&SideSpec; 2]) -> bool {
    sides
        .iter()
        .any(|s| s.policy.divert != Divert::Never && s.units.iter().any(|(k, _)| k.may_divert()))
}

/// Whether a side fires its Explosives beyond 12" (its `lob` policy) and fields a kind whose
/// delivery reaches that far (Ch. 8.4 Trajectories).
pub(super) fn any_lob(sides: [&SideSpec; 2]) -> bool {
    sides.iter().any(|s| {
        s.policy.lob == Lob::Far
            && s.units
                .iter()
                .any(|(k, _)| k.explosives.is_some_and(|x| x.lobs()))
    })
}

/// Whether a side fields an SN unit that spends its dice by `spend` (its own or its
/// side's policy).
pub(super) fn any_spend(sides: [&SideSpec; 2], spend: Spend) -> bool {
    spends(sides) & (1 << spend as u32) != 0
}

/// The `spend` policies the sides' SN units follow, a bit each (`1 << spend as u32`).
pub(super) fn spends(sides: [&SideSpec; 2]) -> u32 {
    let mut bits = 0;
    for s in sides {
        for (k, _) in s.units.iter().filter(|(k, _)| !k.sn.is_empty()) {
            bits |= 1 << k.spend.unwrap_or(s.policy.spend) as u32;
        }
    }
    bits
}

/// Whether one side fields both a kind that is `one` and a kind that is `other` (a crew
/// and a gun, a Master and a Thrall).
pub(super) fn any_side(
    sides: [&SideSpec; 2],
    one: impl Fn(&Kind) -> bool,
    other: impl Fn(&Kind) -> bool,
) -> bool {
    sides
        .iter()
        .any(|s| s.units.iter().any(|(k, _)| one(k)) && s.units.iter().any(|(k, _)| other(k)))
}

/// Each kind's delivery roll and its two Explosions, if it carries Explosives.
pub(super) type Explosives = (Vec<Option<AttackPlan>>, Vec<Option<[ExplosionPlan; 2]>>);

/// Each kind's Action roll to deliver its Explosives (its Skill against the delivery's
/// Use), and their Explosion and, with an Overskill Benny, one more of its dice (Ch. 4.2
/// "twice as Explosive"), as `diemon blast` builds them.
pub(super) fn explosives(kinds: &[Kind], opts: &RuleOptions) -> Explosives {
    let launches = kinds
        .iter()
        .map(|k| {
            k.explosives.map(|x| {
                let mounted = match x.delivery.launch {
                    Launch::Launcher(w) | Launch::Cannon(w) => combat::mounted(w, k.size),
                    _ => false,
                };
                Attacker {
                    skill: gunnery_skill(k, mounted),
                    use_rating: x.delivery.use_rating,
                    damage: Expr::parse(&x.delivery.damage()).expect("a delivery's Damage parses"),
                }
                .against(&k.armor, opts)
            })
        })
        .collect();
    let explosions = kinds
        .iter()
        .map(|k| {
            k.explosives.map(|x| {
                let p = x.delivery.payload();
                [p, p.plus_one(opts.overskill_die)]
                    .map(|p| ExplosionPlan::of(p, opts).expect("Exp dice explode"))
            })
        })
        .collect();
    (launches, explosions)
}

impl Squad {
    /// Whether none of the rules behind the flags plays in this battle, so the trial runs
    /// its plain form ([`Squad::plain`]).
    pub(super) fn is_plain(&self) -> bool {
        self.hooks == battle::Hooks::default()
            && !(self.sides_move
                || self.any_explosive
                || self.any_arc
                || self.any_crew
                || self.gunnery_or_arc
                || self.any_dodge
                || self.any_bail
                || self.any_throw
                || self.any_divert
                || self.any_lob
                || self.any_sn
                || self.any_fire
                || self.any_limbs
                || self.any_thrall
                || self.any_medik
                || self.any_spawner
                || self.any_contagion
                || self.any_useless
                || self.any_stupid)
    }
}
