//! What a unit fights with, from its stats and items: its weapons (sized from Weapon Size,
//! or named minifig items), its Melee Shield, the Explosives it delivers and the mounted
//! gun a crew works (Ch. 8.1, 8.4, 8.5).

use super::*;

/// A sized weapon of unit `u` as a squad battle arm (Ch. 8.1 to 8.3), or why it is not one.
pub(super) fn sized_arm(name: &str, stats: &Stats, u: &Unit) -> Result<Arm, String> {
    let damage = match (&stats.kind, &stats.damage) {
        (WeaponKind::MeleeWeapon, Damage::ActionDice(n)) => {
            // Ch. 8.1: "{Weapon Size}x{Action die}".
            Some(format!("{n}{}", u.skill))
        }
        (WeaponKind::Gun | WeaponKind::MachineGun | WeaponKind::FlameThrower, Damage::Dice(e)) => {
            Some(e.clone())
        }
        // Ch. 8.3: "{Weapon Size}x{Damage d8} - distance"; the sweep takes the distance off.
        (WeaponKind::BlastGun, Damage::MinusDistance(e)) => Some(e.clone()),
        _ => None,
    };
    match damage.zip(stats.use_rating) {
        Some((d, use_rating)) => Ok(Arm {
            mounted: stats.range != Reach::CloseCombat && combat::mounted(stats.size, u.spec.size),
            // Ch. 8.3: automatic weapons sweep a Firing Arc.
            auto: match stats.kind {
                WeaponKind::MachineGun => Some(Gun::MachineGun),
                WeaponKind::BlastGun => Some(Gun::BlastGun),
                WeaponKind::FlameThrower => Some(Gun::FlameThrower),
                _ => None,
            },
            ..arm(
                name,
                use_rating as i64,
                stats.range == Reach::CloseCombat,
                match stats.range {
                    Reach::Inches(r) => Some(r),
                    _ => None,
                },
                &d,
                Some(stats.power),
            )
        }),
        None => Err(format!(
            "a {} with these stats is not a squad duel weapon",
            stats.kind
        )),
    }
}

/// What a unit's weapons and items make of it in a squad battle, before its Explosive
/// delivery is chosen: its arms, shield, Spawner capacity and worn armor, and the parts a
/// delivery is made of. A part it cannot use goes to `out` with why.
pub(super) struct Loadout {
    pub(super) arms: Vec<Arm>,
    pub(super) half_speed: bool,
    pub(super) heavy_armor: bool,
    pub(super) shield: Option<Shield>,
    pub(super) shield_hands: u32,
    pub(super) spawn: u32,
    pub(super) ordnance: Ordnance,
    /// It hauls a gun on a carriage (Ch. 8.1).
    pub(super) carriage: bool,
}

/// The parts an Explosive delivery is made of (Ch. 8.4): the Explosives a Launcher or
/// Cannon fires, the Rockets, and the one Launcher and one Cannon a unit works ([`work_one`]).
pub(super) struct Ordnance {
    pub(super) payloads: Vec<Part>,
    pub(super) rockets: Vec<Part>,
    pub(super) launcher: Option<Part>,
    pub(super) cannon: Option<Part>,
}

/// The [`Loadout`] of `u`.
pub(super) fn loadout(
    u: &Unit,
    opts: &RuleOptions,
    out: &mut impl FnMut(&str, Option<Cp>, String),
) -> Loadout {
    let mut arms = Vec::new();
    let carriage = u.weapons.iter().any(Armament::on_carriage);
    // A gun on a carriage is "a heavy item" its crew drags: Half Speed (Ch. 4.1).
    let mut half_speed = carriage;
    let mut heavy_armor = false;
    let mut shield: Option<Shield> = None;
    let mut shield_hands = 0;
    let mut spawn = 0;
    // Explosives and Rockets (name, CP, XSize), and the Launcher and Cannon (name, CP,
    // WSize) that would fire them.
    let mut payloads: Vec<Part> = Vec::new();
    let mut rockets: Vec<Part> = Vec::new();
    let mut launcher: Option<Part> = None;
    let mut cannon: Option<Part> = None;
    for w in &u.weapons {
        match w {
            Armament::Item(i) if matches!(i.key, "shield" | "heavy-shield") => {
                // A shield takes a hand whatever it does (issue 21).
                shield_hands += i.hands;
                match opts.shield {
                    ShieldReading::Parry => {
                        stronger(&mut shield, ITEM_SHIELD);
                    }
                    ShieldReading::Inert => out(
                        i.name,
                        i.cost,
                        "no Parry under shield=inert (the table gives no Parry stats)".into(),
                    ),
                }
            }
            // Worn armor acts through Armor, Deflection and Half Speed; Medikal Tools
            // through a Medik (checked below).
            Armament::Item(i) if i.armored || i.key == "medikal-tools" => {
                half_speed |= i.notes.contains(&"Half Speed");
                heavy_armor |= i.armored && i.notes.contains(&"Half Speed");
            }
            // The minifig table's Explosive: XSize 1 (Ch. 8.4).
            Armament::Item(i) if i.key == "explosive" => {
                payloads.push((i.name.to_string(), i.cost, 1, Swap::default()));
            }
            Armament::Sized {
                name,
                stats,
                variant,
                ..
            } if stats.kind == WeaponKind::Explosive => {
                payloads.push((name.to_string(), Some(stats.cost), stats.size, *variant));
            }
            Armament::Sized {
                name,
                stats,
                variant,
                ..
            } if stats.kind == WeaponKind::Rocket => {
                rockets.push((name.to_string(), Some(stats.cost), stats.size, *variant));
            }
            Armament::Sized { name, stats, .. }
                if matches!(stats.kind, WeaponKind::Launcher | WeaponKind::Cannon) =>
            {
                let slot = if stats.kind == WeaponKind::Launcher {
                    &mut launcher
                } else {
                    &mut cannon
                };
                work_one(slot, name, stats, out);
            }
            Armament::Item(i) => match item_arm(i) {
                Ok(a) => arms.push(a),
                Err(why) => out(i.name, i.cost, why),
            },
            Armament::Sized { stats, .. } if stats.kind == WeaponKind::Spawner => {
                // Ch. 10.4: "Spawn Capacity: WS"", automatic, no Skill roll or Action.
                spawn += stats.size;
            }
            Armament::Sized { name, stats, .. } if stats.kind == WeaponKind::MeleeShield => {
                let Some(u) = stats.use_rating else {
                    out(name, Some(stats.cost), "no Use in its stats".into());
                    continue;
                };
                let s = Shield {
                    use_rating: u as i64,
                    layers: stats.size,
                };
                stronger(&mut shield, s);
            }
            Armament::Sized { name, stats, .. } => match sized_arm(name, stats, u) {
                Ok(a) => arms.push(a),
                Err(why) => out(name, Some(stats.cost), why),
            },
        }
    }
    Loadout {
        arms,
        half_speed,
        heavy_armor,
        shield,
        shield_hands,
        spawn,
        ordnance: Ordnance {
            payloads,
            rockets,
            launcher,
            cannon,
        },
        carriage,
    }
}

/// Keeps the shield with more layers of Deflection: a unit Parries with its best one.
pub(super) fn stronger(shield: &mut Option<Shield>, s: Shield) {
    if shield.is_none_or(|b| s.layers > b.layers) {
        *shield = Some(s);
    }
}

/// Puts the Launcher or Cannon `name` in `slot`: a squad battle works one a unit, so one
/// already there is named inert.
pub(super) fn work_one(
    slot: &mut Option<Part>,
    name: &str,
    stats: &Stats,
    out: &mut impl FnMut(&str, Option<Cp>, String),
) {
    if let Some((other, cp, ..)) = slot.take() {
        out(
            &other,
            cp,
            format!("a squad battle works one {} a unit", stats.kind),
        );
    }
    *slot = Some((
        name.to_string(),
        Some(stats.cost),
        stats.size,
        Swap::default(),
    ));
}

/// The minifig Shield and Heavy Shield under `shield = parry`: a Melee Shield of Weapon
/// Size 1" (Ch. 8.1: Use WSize x 2, WSize layers of Deflection on a Parry).
pub const ITEM_SHIELD: Shield = Shield {
    use_rating: 2,
    layers: 1,
};

/// A weapon part by name, CP and size (XSize or WSize).
/// A weapon or Explosive: its name, CP, Size (XSize) and Explosive Variants.
type Part = (String, Option<Cp>, u32, Swap);

/// The Weapon Size of the largest mounted weapon a unit works (a Launcher or Cannon too big
/// for its hands, or a mounted ranged weapon), 0 if none: its firing team is at most this
/// many minifigs (Ch. 8.5).
pub(super) fn team_of(arms: &[Arm], explosives: Option<Explosives>, size: u32) -> u32 {
    let launched = match explosives.map(|x| x.delivery.launch) {
        Some(Launch::Launcher(w) | Launch::Cannon(w)) if combat::mounted(w, size) => w,
        _ => 0,
    };
    arms.iter()
        .filter(|a| a.mounted)
        .filter_map(|a| a.power)
        .fold(launched, u32::max)
}

/// How a unit delivers its Explosives (Ch. 8.4), one way a unit, the first that works of:
/// a Cannon (WSize within its Power) with a round of Ammo of XSize up to its WSize ("Ammo is
/// never used up": one round serves, reloaded every other turn); a Launcher it can work,
/// firing the Explosives it carries; its Rockets (XSize within its Power); or its arms,
/// throwing XSize 1 Explosives (never Cannon Fodder, Ch. 10.4). One XSize a unit. What is
/// left unused is named as inert, with why. A mounted Launcher or Cannon beyond its Power
/// is worked with the `lent` inches of its side's crew (teamwork, Ch. 8.1).
pub(super) fn explosives_of(
    u: &Unit,
    ordnance: Ordnance,
    lent: u32,
    opts: &RuleOptions,
    out: &mut impl FnMut(&str, Option<Cp>, String),
) -> Option<Explosives> {
    let Ordnance {
        payloads,
        rockets,
        launcher,
        cannon,
    } = ordnance;
    let s = &u.spec;
    let power = s.power.inches(s.size);
    let works = |w: u32| w <= power || (combat::mounted(w, s.size) && w <= power + lent);
    let too_big = |w: u32| {
        format!(
            "{w}\" of Power to work and it has {power}\"{} (teamwork: crew Gunners of its side \
             in contact lend theirs to a mounted gun, Ch. 8.1)",
            if lent > 0 {
                format!(", its side's crew {lent}\" more")
            } else {
                String::new()
            }
        )
    };
    // Which weapon fires what: (the delivery, the parts it uses, whether they are used up).
    let mut chosen: Option<(Launch, Vec<Part>, bool)> = None;
    let mut unused: Vec<(Part, String)> = Vec::new();
    let mut ammo_at = None;
    if let Some(c) = cannon {
        let ammo = payloads.iter().position(|p| p.2 <= c.2);
        match ammo {
            _ if !works(c.2) => {
                unused.push((c.clone(), format!("a Cannon needs {}", too_big(c.2))))
            }
            None => unused.push((
                c.clone(),
                format!(
                    "no Explosive of XSize up to {} to load as Ammo (Ch. 8.4)",
                    c.2
                ),
            )),
            Some(k) => {
                ammo_at = Some(k);
                chosen = Some((Launch::Cannon(c.2), vec![payloads[k].clone()], false));
            }
        }
    }
    if let Some(l) = launcher {
        if chosen.is_some() {
            unused.push((
                l,
                "a squad battle fires one kind of Explosive weapon a unit".into(),
            ));
        } else if !works(l.2) {
            unused.push((l.clone(), format!("a Launcher needs {}", too_big(l.2))));
        } else if payloads.is_empty() {
            unused.push((l, "a Launcher with no Explosives to fire".into()));
        } else {
            chosen = Some((Launch::Launcher(l.2), payloads.clone(), true));
        }
    }
    if !rockets.is_empty() {
        if chosen.is_none() && rockets[0].2 <= power {
            chosen = Some((Launch::Rocket, rockets.clone(), true));
        } else {
            let why = if chosen.is_some() {
                "a squad battle fires one kind of Explosive weapon a unit".to_string()
            } else {
                format!("a Rocket fired directly needs {}", too_big(rockets[0].2))
            };
            unused.extend(rockets.iter().map(|r| (r.clone(), why.clone())));
        }
    }
    if chosen.is_none() && !payloads.is_empty() {
        if s.hands == 0 {
            unused.extend(
                payloads
                    .iter()
                    .map(|p| (p.clone(), "it has no hands to throw it with".into())),
            );
        } else if u.has_trait("cannon-fodder") {
            unused.extend(
                payloads
                    .iter()
                    .map(|p| (p.clone(), "Cannon Fodder cannot throw (Ch. 10.4)".into())),
            );
        } else {
            let thrown = Launch::Thrown {
                use_rating: opts.thrown_use.rating(),
            };
            chosen = Some((thrown, payloads.clone(), true));
        }
    } else if let Some(k) = ammo_at {
        // The round loaded is the Ammo; the rest are never needed.
        for (_, p) in payloads.iter().enumerate().filter(|(j, _)| *j != k) {
            unused.push((
                p.clone(),
                "Cannon Ammo is never used up: one round serves (Ch. 8.4)".into(),
            ));
        }
    } else if matches!(&chosen, Some((Launch::Rocket, _, _))) {
        unused.extend(payloads.iter().map(|p| {
            (
                p.clone(),
                "a squad battle fires one kind of Explosive weapon a unit".into(),
            )
        }));
    }
    for ((name, cp, ..), why) in unused {
        out(&name, cp, why);
    }
    let (launch, parts, used_up) = chosen?;
    loaded(launch, parts, used_up, out)
}

/// The Explosives a unit delivers by `launch` from `parts` (each used once if `used_up`):
/// the first part's XSize and Explosive Variant (Ch. 8.4), up to [`MAX_EXPLOSIVES`]; the
/// rest named inert with why.
pub(super) fn loaded(
    launch: Launch,
    parts: Vec<Part>,
    used_up: bool,
    out: &mut impl FnMut(&str, Option<Cp>, String),
) -> Option<Explosives> {
    let (xsize, swap) = (parts[0].2, parts[0].3);
    let delivery = match Delivery::with_variant(launch, xsize, swap) {
        Ok(d) => d,
        Err(why) => {
            for (name, cp, ..) in &parts {
                out(name, *cp, why.to_string());
            }
            return None;
        }
    };
    let mut count = 0u8;
    for (name, cp, x, v) in parts {
        if x != xsize || v != swap {
            out(
                &name,
                cp,
                format!(
                    "a squad battle fires one XSize and Explosive Variant a unit (XSize \
                     {xsize} {swap} first)"
                ),
            );
        } else if count == MAX_EXPLOSIVES {
            out(
                &name,
                cp,
                format!("a squad battle counts {MAX_EXPLOSIVES} Explosives a unit"),
            );
        } else {
            count += 1;
        }
    }
    Some(Explosives {
        count,
        delivery,
        used_up,
        power: match launch {
            Launch::Launcher(w) | Launch::Cannon(w) => w,
            Launch::Rocket => xsize,
            Launch::Thrown { .. } => 0,
        },
    })
}

/// "A minifig's arms are Size ½" Launchers" (Ch. 8.4): only a minifig throws in a squad
/// battle, and Cannon Fodder have "zero throwing ability" (Ch. 10.4); anyone else's
/// weapons are not `throwable`.
pub(super) fn keep_throws(arms: &mut [Arm], u: &Unit) {
    let s = &u.spec;
    let thrower = s.size == 1 && s.mind != Mind::None && !u.has_trait("vermin");
    if !thrower || u.has_trait("cannon-fodder") {
        for a in arms {
            a.throwable = false;
        }
    }
}

pub(super) fn item_arm(i: &Item) -> Result<Arm, String> {
    if matches!(i.key, "bazooka" | "railgun") {
        return Err(BASTARD_ARTILLERY.into());
    }
    if matches!(i.key, "wand" | "staff") {
        let range = match i.range {
            Reach::Inches(r) => Some(r),
            _ => None,
        };
        let use_rating = i
            .use_rating
            .expect("the armory gives Wands and Staves a Use");
        let a = arm(i.name, use_rating as i64, true, range, "0", None);
        return Ok(Arm {
            channel: true,
            hands: i.hands,
            grip: i.hands,
            ..a
        });
    }
    let (Some(use_rating), Some(damage)) = (i.use_rating, i.damage) else {
        return Err("not an attack (equipment, or a throw whose object decides)".into());
    };
    let contagion = i.key == "contagious-bite";
    let a = arm(
        i.name,
        use_rating as i64,
        // The Mook Weapon is "CC or 5\"".
        i.range == Reach::CloseCombat || i.notes.iter().any(|n| n.starts_with("CC or")),
        match i.range {
            Reach::Inches(r) => Some(r),
            _ => None,
        },
        damage,
        None,
    );
    Ok(Arm {
        contagion,
        hands: i.hands,
        grip: i.hands,
        throwable: i.range == Reach::CloseCombat
            && i.hands >= 1
            && !i.notes.contains(&"cannot be thrown"),
        // The Bastard automatic guns sweep arcs as their full-sized kinds (Ch. 8.1, 8.3).
        auto: match i.key {
            "autogun" => Some(Gun::MachineGun),
            "shotgun" => Some(Gun::BlastGun),
            "flamegun" => Some(Gun::FlameThrower),
            _ => None,
        },
        knockback: i.knockback,
        ..a
    })
}

pub(super) fn arm(
    name: &str,
    use_rating: i64,
    close: bool,
    range: Option<u32>,
    damage: &str,
    power: Option<u32>,
) -> Arm {
    let e = Expr::parse(damage).expect("catalog damage parses");
    let poison = e.terms().iter().any(|t| {
        matches!(
            t.kind,
            TermKind::Dice {
                kind: DamageType::Poison,
                ..
            }
        )
    });
    let mean = e.exact(&RuleOptions::default(), 1e-9).total().mean();
    let fire = e.terms().iter().any(|t| {
        matches!(
            t.kind,
            TermKind::Dice {
                kind: DamageType::Fire,
                ..
            }
        )
    });
    Arm {
        name: name.into(),
        use_rating,
        close,
        range,
        damage: e,
        poison,
        contagion: false,
        hands: 1,
        grip: 0,
        channel: false,
        power,
        mean,
        auto: None,
        fire,
        knockback: 0,
        mounted: false,
        throwable: false,
    }
}

/// Why the Bastard Cannon and Launcher items sit out a squad battle.
pub(super) const BASTARD_ARTILLERY: &str = "the Bastard Cannon and Launcher items are not modelled in \
     squad battles; a sized `cannon` or `launcher` weapon is (docs/model.md)";
