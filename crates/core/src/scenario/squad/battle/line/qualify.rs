//! Which battles the line form plays ([`Line::of`]): every rule option, policy and field of
//! a unit and its weapon is read here, required, or never reached (and why), so a new one
//! does not compile until someone decides whether the line plays it.

use super::*;

impl Line {
    /// `s` in the line form, if its battle qualifies (see the module overview). Whatever the
    /// line reads of the options, the policies and the units is decided field by field
    /// ([`plays_options`], [`plays_policy`], [`fighter`]): a new field does not compile
    /// until someone says whether the line plays it.
    pub(in crate::scenario::squad) fn of(s: &Squad) -> Option<Line> {
        let qualifies = s.plain
            && s.flat
            && s.units == s.roster.len()
            && plays_options(&s.opts)
            && s.policy.iter().all(plays_policy);
        if !qualifies {
            return None;
        }
        let kinds = &s.kinds[..s.fielded];
        if !kinds.iter().all(fighter) {
            return None;
        }
        let mut attacks = Vec::with_capacity(kinds.len() * kinds.len());
        for a in 0..kinds.len() {
            for t in 0..kinds.len() {
                attacks.push(*s.quick(s.plan_index(a, 0, t))?);
            }
        }
        let mut kind = [[0; SIDE]; 2];
        for (side, units) in kind.iter_mut().enumerate() {
            for (unit, slot) in units.iter_mut().zip(s.own(side as u8)) {
                *unit = s.roster[slot].1;
            }
        }
        Some(Line {
            kind,
            count: s.count,
            moves: kinds.iter().map(|k| k.move_halves).collect(),
            threat: kinds.iter().map(|k| s.threat(k)).collect(),
            range: kinds
                .iter()
                .map(|k| 2 * k.reach().unwrap_or(0) as i32)
                .collect(),
            close: kinds.iter().map(Kind::any_close).collect(),
            shooters: !kinds.iter().all(Kind::any_close),
            cover: s.policy.map(|p| combat::cover(p.cover)),
            blind: s
                .policy
                .map(|p| if p.blind { combat::BLIND_FIRE } else { 0 }),
            answers: s.answers,
            size: kinds.iter().map(|k| k.size).collect(),
            cp: kinds.iter().map(|k| k.cp.in_quarters()).collect(),
            attacks,
            kinds: kinds.len(),
            hold: s.policy.map(|p| p.position == Position::Hold),
            response: s.policy.map(|p| p.response),
            target_size: s.opts.target_size,
            ready: s.opts.opening_response == OpeningResponse::Ready,
            combined: s.opts.combined_fire == CombinedFire::Turn,
        })
    }
}

/// Whether the line plays a battle under options `o`: each option is read here, required,
/// or never reached in a battle the line takes (and why).
fn plays_options(o: &RuleOptions) -> bool {
    let RuleOptions {
        // Read by the line.
        target_size: _,
        opening_response: _,
        combined_fire: _,
        // Required: a Response strikes first, and a tie leaves the target standing, so
        // nothing Disrupts a unit (nothing recovers or is hit automatically).
        response_order,
        armor_tie,
        // Carried by the attack plans both forms roll ([`PlainAttack`]); a rolled minifig
        // Armor is no plain plan.
        bonus_chain: _,
        d4_bonus: _,
        overskill: _,
        overskill_die: _,
        minifig_armor: _,
        // SuperNatural dice, Blessings and Curses: no unit here has SN dice ([`fighter`]).
        blessing_die: _,
        blessed_natural: _,
        sn_bonus_one: _,
        fumble: _,
        double_fumble: _,
        sn_subtract: _,
        // A tie cuts only under `armor_tie = dismemberment`.
        cutting: _,
        // No shield, Heavy Armor Deflection, KnockBack, Contagion or Stupid unit
        // ([`fighter`]).
        shield: _,
        parry: _,
        parry_fumble: _,
        heavy_armor: _,
        knockback: _,
        contagion_rise: _,
        stupidity: _,
        // Under `masters`, a Half Mind makes the battle not plain ([`Squad::plain`]).
        usefulness: _,
        // No Explosive or automatic weapon ([`fighter`]).
        thrown_use: _,
        blast_knockback: _,
        stacking: _,
        swap_tie: _,
        carried_explosives: _,
        arc_aim: _,
        arc_span: _,
        arc_point: _,
        auto_penalty: _,
        // One weapon an Action ([`fighter`]); nobody Sprints ([`plays_policy`]).
        action_damage: _,
        sprint_fumble: _,
        // The Marks system's, never a battle's.
        marks_ones: _,
        marks_cancel: _,
        marks_reroll_ones: _,
        marks_penalty: _,
        marks_tie: _,
    } = *o;
    response_order == ResponseOrder::Counter && armor_tie == ArmorTie::Survive
}

/// Whether the line plays a side under policy `p`: each choice read, required, or never
/// reached in a battle the line takes.
fn plays_policy(p: &Policy) -> bool {
    let Policy {
        // Read by the line; the formation and spacing through the starting places (a
        // side abreast is not flat: [`Squad::flat`]).
        position: _,
        response: _,
        formation: _,
        spacing: _,
        // Required: everyone focuses its attacks, and nobody Sprints.
        target,
        sprint,
        // Read by the line: a shot's modifiers (Ch. 8.3, 8.4).
        cover: _,
        blind: _,
        // SN dice, limbs, Explosives and automatic weapons: none here ([`fighter`]).
        spend: _,
        amputate: _,
        aim: _,
        lob: _,
        conduct: _,
        auto: _,
        // Bailing, throwing and Diverting make the battle not plain ([`Squad::plain`]).
        bail: _,
        throw: _,
        divert: _,
    } = *p;
    target == Targeting::Focus && sprint == Sprint::Never
}

/// A one-Action, one-weapon fighter or shooter with none of the traits a strike checks: each
/// field of the unit and of its weapon read, required, or never reached here.
fn fighter(k: &Kind) -> bool {
    let Kind {
        // Read by the line (the CP of what falls; Move, Half Speed applied; Size).
        cp: _,
        move_halves: _,
        size,
        // A name, and the parts a battle never uses (a label for the prices).
        key: _,
        inert: _,
        // Half Speed is in `move_halves`; it matters again only to a Sprint or a unit
        // recovering from Disruption, and Heavy Armor only standing up: none here.
        half_speed: _,
        heavy_armor: _,
        // Carried by the attack plans ([`PlainAttack`]).
        skill: _,
        armor: _,
        // Read by a Vermin's attack, by Poison and by Blessings only: none here.
        structure: _,
        armored: _,
        non_living: _,
        undead: _,
        // Read by fire, Contagion, Mediks and lost limbs only: none here.
        minifig: _,
        // One weapon of no Size (it does not knock back): it fits any Power, however
        // many weapons Multidexterity would add.
        power: _,
        multidexterity: _,
        arms,
        longest: _,
        any_close: _,
        // Required below.
        actions,
        shield,
        free_hands,
        deflection,
        connection,
        vermin,
        cannon_fodder,
        stupid,
        medik,
        spawn,
        sn,
        summons,
        fourpion,
        explosives,
        // Half Minds and Masters: under `usefulness = masters`, or with a Thrall beside
        // its Master, the battle is not plain ([`Squad::plain`]); else they fight as any
        // unit.
        full_mind: _,
        submissive: _,
        subjugated: _,
        master: _,
        thrall: _,
        // SN spends with no SN dice, and crews with no mounted weapon: never read.
        spend: _,
        gunnery: _,
        team: _,
        carriage: _,
    } = k;
    let [arm] = &arms[..] else {
        return false;
    };
    let Arm {
        // A label, and the order of several weapons.
        name: _,
        mean: _,
        // Carried by the attack plans ([`PlainAttack`]).
        use_rating: _,
        damage: _,
        // Hands matter once limbs are lost, and throwing makes the battle not plain.
        hands: _,
        throwable: _,
        // Its Size: any Size knocks back, required below to be none.
        power: _,
        close,
        range,
        poison,
        contagion,
        fire,
        mounted,
        channel,
        auto,
        knockback: _,
        grip,
    } = arm;
    // One Close Combat weapon, or one ranged weapon (a shooter, which has no Close Combat
    // and keeps its range).
    let one = if *close {
        range.is_none() && k.reach().is_none()
    } else {
        range.is_some() && k.reach() == *range
    };
    *actions == 1
        && *size >= 1
        && one
        && !arm.knocks_back()
        && !(*poison || *contagion || *fire || *mounted || *channel)
        && auto.is_none()
        && grip <= free_hands
        && shield.is_none()
        && *deflection == 0
        && connection.is_none()
        && !(*vermin || *cannon_fodder || *stupid)
        && medik.is_none()
        && *spawn == 0
        && sn.is_empty()
        && summons.is_none()
        && fourpion.is_none()
        && explosives.is_none()
}
