//! A catalog unit as a squad duel fights it: the weapons it can use, its Armor under the rule
//! options, its movement and the traits combat asks about.

use crate::catalog::armory::Item;
use crate::catalog::cost::{breakdown, movement};
use crate::catalog::cp::Cp;
use crate::catalog::unit::{Armament, Mind, Power, Propulsion, Structure, Unit};
use crate::catalog::weapon::{Damage, Reach, Stats, WeaponKind};
use crate::dice::damage::DamageType;
use crate::dice::expr::TermKind;
use crate::dice::{Die, Expr, SkillRoll};
use crate::rules::supernatural::MAX_SN_DICE;
use crate::rules::{MinifigArmor, RuleOptions, ShieldReading, combat};
use crate::scenario::blast::arc::Gun;
use crate::scenario::blast::{Delivery, Launch, Swap, Variant};
use crate::scenario::squad::policy::Spend;

mod loadout;

use loadout::*;

/// A weapon the duel can attack with.
#[derive(Clone, Debug, PartialEq)]
pub struct Arm {
    /// Its name as printed.
    pub name: String,
    /// Its Use rating.
    pub use_rating: i64,
    /// Usable in Close Combat.
    pub close: bool,
    /// Range in inches for ranged attacks; `None` for Close Combat only.
    pub range: Option<u32>,
    /// Its Damage roll.
    pub damage: Expr,
    /// Poison (a d4 type) does nothing to the Non-Living (Ch. 10.4).
    pub poison: bool,
    /// Monstrous Contagion: the Poison is rolled against the victim's Skill, and a victim
    /// whose Mind it destroys rises on the biter's side (Ch. 10.4).
    pub contagion: bool,
    /// Weapon Size counted against the Power limit; named items carry none (docs/model.md).
    pub power: Option<u32>,
    /// Hands it takes: an Amputated arm may leave too few (Ch. 10.2).
    pub hands: u32,
    /// Hands it takes from the unit's free hands in one Action: a held item's hands; a
    /// creature's sized weapons are its own limbs or mounts (0).
    pub grip: u32,
    /// A Wand or Staff: no Damage of its own, it carries SuperNatural Effects (Ch. D.3).
    pub channel: bool,
    /// Mean Damage, which orders the weapons: a unit attacks with its strongest first.
    pub mean: f64,
    /// An automatic weapon's kind (Ch. 8.3): it sweeps a Firing Arc (a MachineGun, an
    /// AutoGun, a BlastGun or ShotGun, a FlameThrower or FlameGun); `None` fires at one
    /// target.
    pub auto: Option<Gun>,
    /// It does Fire damage: a point of it sets a minifig on fire (Ch. 8.3).
    pub fire: bool,
    /// Inches of KnockBack on a hit to targets of Size 1" or less, without Disruption (the
    /// ShotGun's 1", Ch. 8.1).
    pub knockback: u32,
    /// A ranged weapon too big for its user's hands, so mounted: Gunnery rolls its d8 with
    /// it, and Gunners may support it (Ch. 8.1 Hand-Held Weapons, 8.5).
    pub mounted: bool,
    /// A minifig may throw it (Ch. 8.4 Thrown Minifig Weapons): a held Close Combat item, a
    /// Size 0" object, that the armory does not mark "cannot be thrown" (the Two-Handed
    /// Weapon, Ch. 8.1's Long weapons); never Cannon Fodder's (Ch. 10.4).
    pub throwable: bool,
}

impl Arm {
    /// Whether a hit of it can knock anyone back: a ShotGun's push, or a Weapon Size
    /// (Ch. 8.1). Asked before the data-dependent tests of a hit.
    #[inline]
    pub fn knocks_back(&self) -> bool {
        self.knockback > 0 || self.power.unwrap_or(0) > 0
    }
}

/// An item a unit summons with its SN dice (Ch. D.3 Summoned Items).
#[derive(Clone, Debug, PartialEq)]
pub struct Summons {
    /// The item's armory key.
    pub item: String,
    /// The SN Price its dice must roll.
    pub price: u32,
    /// The unit holding it.
    pub armed: Box<Kind>,
}

/// A Melee Shield it can Parry with (Ch. 8.1, 8.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shield {
    /// The Parry roll's Use: WSize x 2.
    pub use_rating: i64,
    /// Layers of Deflection on a successful Parry: WSize.
    pub layers: u32,
}

/// One kind of unit in a squad.
#[derive(Clone, Debug, PartialEq)]
pub struct Kind {
    /// Its catalog key.
    pub key: String,
    /// Its CP.
    pub cp: Cp,
    /// Its Size in inches.
    pub size: u32,
    /// Move in half-inches, Half Speed from heavy armor applied (Ch. 4.1).
    pub move_halves: i32,
    /// It walks at Half Speed (Heavy Armor and the like, Ch. 4.1).
    pub half_speed: bool,
    /// It wears Heavy Armor: standing up from Disruption takes its whole turn (Ch. 4.1).
    pub heavy_armor: bool,
    /// Its Skill roll.
    pub skill: SkillRoll,
    /// Its Armor roll.
    pub armor: Expr,
    /// Its Structure Level.
    pub structure: Structure,
    /// It wears armor: Vermin cannot engage it (Ch. 10.4).
    pub armored: bool,
    /// Vermin (Ch. 10.4): any hit kills it.
    pub vermin: bool,
    /// Cannon Fodder (Ch. 10.4): any hit kills it.
    pub cannon_fodder: bool,
    /// Non-Living (Ch. 10.4): Poison does nothing to it.
    pub non_living: bool,
    /// An Incompetent Half Mind: Stupidity (Ch. 10.1).
    pub stupid: bool,
    /// A minifig (Size 1", flesh, a Mind, not Vermin or summoned): what a Contagious Bite
    /// affects (Ch. 10.4 "only affects minifigs").
    pub minifig: bool,
    /// Its Power (Ch. 8.1 Power Limits).
    pub power: Power,
    /// Actions per turn: 1 + Multitasking (Ch. 10.1).
    pub actions: u32,
    /// Multidexterity levels: +2 weapons per Close Combat attack, +1 per ranged (Ch. 10.1).
    pub multidexterity: u32,
    /// Usable weapons, strongest first.
    pub arms: Vec<Arm>,
    /// The longest Range among them, and whether one strikes in Close Combat: read on every
    /// unit's turn, so kept rather than searched for.
    pub(in crate::scenario::squad) longest: Option<u32>,
    pub(in crate::scenario::squad) any_close: bool,
    /// The Melee Shield it Parries with, if any (the one with the most layers).
    pub shield: Option<Shield>,
    /// Hands left for weapons once its shields are held (Ch. 10.1 "provided it has enough
    /// hands").
    pub free_hands: u32,
    /// Levels of Deflection against every hit it takes: Heavy Armor (option `heavy_armor`).
    pub deflection: u32,
    /// A Construct's Connection Strength, which stands in for Armor: Damage at or above it
    /// knocks off a Modular Part for every multiple (Ch. 10.4).
    pub connection: Option<u32>,
    /// Undead: "Blessings are treated as Curses" (Ch. 10.4).
    pub undead: bool,
    /// Spawn Capacity in inches of the Spawners it carries (Ch. 10.4): each turn that many
    /// Size inches of its side's fallen Cannon Fodder rise again touching it.
    pub spawn: u32,
    /// A full Mind (a master for Half-Minded allies), and the Half Minds that need one
    /// (Ch. 10.1 Usefulness).
    pub full_mind: bool,
    /// A Submissive Half Mind.
    pub submissive: bool,
    /// A Subjugated Half Mind.
    pub subjugated: bool,
    /// A Master, who may take an Instant Benny from a Sacrificed Thrall; a Thrall
    /// (Ch. 10.4 Masters and Thralls).
    pub master: bool,
    /// A Thrall.
    pub thrall: bool,
    /// A Medik: Some(carries medikal Tools), for Ker-Triage! (Ch. 10.2); a Medik with neither
    /// Tools nor a Close Combat weapon to cut with cannot operate.
    pub medik: Option<bool>,
    /// Its own spend policy for its SN dice (`NAME@POLICY` in a roster), over its side's.
    pub spend: Option<Spend>,
    /// The item its `arm` policy summons (`mystik@arm:hand-weapon`, Ch. D.3 Summoned
    /// Items): its SN Price and the unit as it fights holding it.
    pub summons: Option<Summons>,
    /// The 4pion its SN d4s summon under the `summon` policy (Ch. D.1).
    pub fourpion: Option<Box<Kind>>,
    /// SuperNatural dice it owns (Ch. 10.3), largest first.
    pub sn: Vec<Die>,
    /// Its parts that do nothing in a squad battle, with their CP and why (issue 21: "a
    /// price is a price of the rules").
    pub inert: Vec<Inert>,
    /// The Explosives it delivers, each once: thrown by its arms or fired from its
    /// Launcher (Ch. 8.4).
    pub explosives: Option<Explosives>,
    /// The Gunnery Specialty: its d8 on Action rolls with mounted weapons, and Gunnery
    /// Support (Ch. 8.5).
    pub gunnery: bool,
    /// The Weapon Size of the largest mounted weapon it works (0: none), which caps its
    /// firing team (Ch. 8.5).
    pub team: u32,
    /// It carries a gun on a carriage (Ch. 8.1), worked or not: never crew for another.
    pub carriage: bool,
}

/// A unit's Explosives: how many it carries, each used once, and how they are delivered
/// (a thrown grenade, or a Launcher's Payload; `diemon blast`'s [`Delivery`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Explosives {
    /// Explosives carried.
    pub count: u8,
    /// How they are delivered.
    pub delivery: Delivery,
    /// Each is used once (thrown, launched, a Rocket); a Cannon's Ammo is never used up.
    pub used_up: bool,
    /// The Power its Launcher or Cannon takes (its Weapon Size), or a Rocket's XSize; 0 for
    /// a throw (Ch. 8.1, 8.4). Beyond the unit's own Power, crew lend theirs (teamwork).
    pub power: u32,
}

impl Explosives {
    /// Its delivery's Range reaches past one turn's flight (Ch. 8.4 Trajectories): a shot
    /// there takes turns to come down.
    pub fn lobs(&self) -> bool {
        self.delivery.range as f64 > crate::rules::explosion::FLIGHT_INCHES
    }
}

/// Most Explosives one unit carries (a Figure counts those it used in a byte).
pub const MAX_EXPLOSIVES: u8 = 64;

/// A part of a unit that costs CP (or would) and does nothing in a squad battle.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Inert {
    /// The part, as printed.
    pub part: String,
    /// What it costs.
    pub cp: Cp,
    /// Why it does nothing here.
    pub why: String,
}

impl std::fmt::Display for Inert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({} CP): {}", self.part, self.cp, self.why)
    }
}

/// Why a unit cannot fight in a duel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindError {
    /// The unit's catalog key.
    pub key: String,
    /// Why it cannot fight.
    pub message: String,
}

impl Kind {
    /// The unit under `opts`, priced at `cp`.
    pub fn from_unit(u: &Unit, cp: Cp, opts: &RuleOptions) -> Result<Kind, KindError> {
        Kind::build(u, cp, opts, true, 0)
    }

    /// The unit on a side whose crew may lend it `lent` inches of Power by teamwork (Ch. 8.1):
    /// a mounted Launcher or Cannon beyond its own Power is worked when they do.
    pub fn with_teamwork(
        u: &Unit,
        cp: Cp,
        opts: &RuleOptions,
        lent: u32,
    ) -> Result<Kind, KindError> {
        Kind::build(u, cp, opts, true, lent)
    }

    /// A Summoned Diemon (Ch. D.1): "an elemental Vermin with Size 0" and Armor:0", summoned,
    /// not bought (no CP), and with no weapon: its own die is its Action or its Move.
    pub fn diemon(u: &Unit, opts: &RuleOptions) -> Result<Kind, KindError> {
        let mut k = Kind::build(u, Cp::ZERO, opts, false, 0)?;
        k.vermin = true;
        Ok(k)
    }

    fn build(
        u: &Unit,
        cp: Cp,
        opts: &RuleOptions,
        armed: bool,
        lent: u32,
    ) -> Result<Kind, KindError> {
        let s = &u.spec;
        let mut inert: Vec<Inert> = Vec::new();
        let mut out = |part: &str, cp: Option<Cp>, why: String| {
            inert.push(Inert {
                part: part.to_string(),
                cp: cp.unwrap_or(Cp::ZERO),
                why,
            })
        };
        let Loadout {
            mut arms,
            half_speed,
            heavy_armor,
            shield,
            shield_hands,
            spawn,
            ordnance,
            carriage,
        } = loadout(u, opts, &mut out);
        // A battle tracks one jam a unit (Ch. 8.3): it works one MachineGun.
        let mut guns = 0;
        for a in arms.extract_if(.., |a| {
            guns += (a.auto == Some(Gun::MachineGun)) as u32;
            a.auto == Some(Gun::MachineGun) && guns > 1
        }) {
            let cp = listed_cost(u, &a.name);
            out(
                &a.name,
                cp,
                "a squad battle works one MachineGun a unit".into(),
            );
        }
        let explosives = explosives_of(u, ordnance, lent, opts, &mut out);
        let sn = sn_dice(u, &mut arms, &mut out)?;
        let tools = u
            .weapons
            .iter()
            .any(|w| matches!(w, Armament::Item(i) if i.key == "medikal-tools"));
        let medik = (s.specialties.iter().any(|x| x == "medik")
            && (tools || arms.iter().any(|a| a.close && !a.channel)))
        .then_some(tools);
        let gunnery = s.specialties.iter().any(|x| x == "gunnery");
        // A Medik with Tools heals without a weapon; an SN unit touches with Bare Hands; a
        // Gunner crews its side's gun.
        if armed
            && arms.is_empty()
            && explosives.is_none()
            && medik.is_none()
            && sn.is_empty()
            && !gunnery
        {
            return Err(unarmed(u, &inert));
        }
        finish_arms(&mut arms, u, &mut out);
        idle_traits(
            u,
            &arms,
            tools && medik.is_none(),
            medik.is_none() && sn.is_empty(),
            &mut out,
        );
        let team = team_of(&arms, explosives, s.size);
        Ok(Kind {
            team,
            carriage,
            key: u.key.clone(),
            cp,
            size: s.size,
            move_halves: (2 * s.move_inches as i32) / if half_speed { 2 } else { 1 },
            half_speed,
            heavy_armor,
            skill: SkillRoll::new(u.skill),
            armor: armor(u, opts),
            structure: s.structure,
            armored: u.armored(),
            vermin: u.has_trait("vermin"),
            cannon_fodder: u.has_trait("cannon-fodder"),
            non_living: u.has_trait("non-living") || u.has_trait("undead"),
            stupid: s.mind == Mind::Incompetent,
            minifig: is_minifig(u),
            power: s.power,
            free_hands: s.hands.saturating_sub(shield_hands),
            // Heavy Armor's levels of Deflection (option `heavy_armor`).
            deflection: opts.heavy_armor.levels() * heavy_armor as u32,
            actions: 1 + s.multitasking,
            multidexterity: s.multidexterity,
            longest: arms.iter().filter_map(|a| a.range).max(),
            any_close: arms.iter().any(|a| a.close),
            arms,
            shield,
            connection: s.connection_strength,
            full_mind: s.mind == Mind::Full,
            submissive: s.mind == Mind::Submissive,
            subjugated: s.mind == Mind::Subjugated,
            master: s.specialties.iter().any(|x| x == "master"),
            thrall: s.specialties.iter().any(|x| x == "thrall"),
            spawn,
            undead: u.has_trait("undead"),
            medik,
            spend: None,
            summons: None,
            fourpion: None,
            sn,
            inert,
            explosives,
            gunnery,
        })
    }

    /// Whether it carries Monstrous Contagion (a victim of its own kind is already converted).
    pub fn contagious(&self) -> bool {
        self.arms.iter().any(|a| a.contagion)
    }

    /// Whether Size Damage could leave a weapon beyond its Power, so that it might Divert
    /// All Power to it (Ch. 8.1); a Half Power creation "can't Divert All Power".
    pub fn may_divert(&self) -> bool {
        self.power != Power::Half
            && self
                .arms
                .iter()
                .any(|a| a.power.unwrap_or(0) > self.power.inches(1))
    }

    /// It can set a minifig on fire (Ch. 8.3): Fire weapons, SN d4s of Fire, Incendiary
    /// Explosives.
    pub fn sets_fire(&self) -> bool {
        self.sn.contains(&Die::D4)
            || self.arms.iter().any(|a| a.fire)
            || self
                .explosives
                .is_some_and(|x| x.delivery.payload().has(Variant::Incendiary))
    }

    /// A Gunner without a mounted weapon of its own: it crews its side's (Ch. 8.5).
    pub fn crew(&self) -> bool {
        self.gunnery && self.team == 0 && !self.carriage
    }

    /// A crew with nothing of its own to fight with: it needs a gun on its side.
    pub fn idle_crew(&self) -> bool {
        self.crew() && self.arms.is_empty() && self.explosives.is_none()
    }

    /// The longest Range among its ranged weapons.
    #[inline]
    pub fn reach(&self) -> Option<u32> {
        self.longest
    }

    /// Whether a weapon of its strikes in Close Combat.
    #[inline]
    pub fn any_close(&self) -> bool {
        self.any_close
    }
}

/// The Damage of every weapon a Cannon Fodder unit carries or operates (Ch. 10.4).
pub const MOOK_DAMAGE: &str = "1";

/// The Armor a hit is rolled against. A minifig's "4" is the texts' simplification of 1d6
/// (option `minifig_armor`); worn armor's bonus stays on top.
pub(crate) fn armor(u: &Unit, opts: &RuleOptions) -> Expr {
    let minifig = u.spec.armor.as_deref() == Some("4")
        && matches!(u.spec.structure, Structure::Zero | Structure::Half)
        && u.spec.size == 1;
    if minifig && opts.minifig_armor == MinifigArmor::Roll1d6 {
        let text = u.armor.text().replacen('4', "1d6", 1);
        return Expr::parse(&text).expect("1d6 plus an Armor bonus parses");
    }
    u.armor.clone()
}

/// Unit `u`'s SN dice, largest first, at most [`MAX_SN_DICE`]; without any, its Wand or
/// Staff leaves `arms`, named inert (Ch. D.3: they have "no Damage stat of their own").
fn sn_dice(
    u: &Unit,
    arms: &mut Vec<Arm>,
    out: &mut impl FnMut(&str, Option<Cp>, String),
) -> Result<Vec<Die>, KindError> {
    let mut sn = u.sn_dice.clone();
    sn.sort_unstable_by(|a, b| b.cmp(a));
    if sn.len() > MAX_SN_DICE {
        return Err(KindError {
            key: u.key.clone(),
            message: format!(
                "owns {} SuperNatural dice; a squad duel tracks at most {MAX_SN_DICE}",
                sn.len()
            ),
        });
    }
    if sn.is_empty() {
        for a in arms.extract_if(.., |a| a.channel) {
            out(
                &a.name,
                listed_cost(u, &a.name),
                "carries SuperNatural Effects, and this unit has no SN dice".into(),
            );
        }
    }
    Ok(sn)
}

/// Whether `u` is a minifig for the rules that name minifigs (Dismemberment, fire, throws):
/// a living, Minded creature of Size 1 and Structure Level 0 or ½.
fn is_minifig(u: &Unit) -> bool {
    let s = &u.spec;
    s.size == 1
        && matches!(s.structure, Structure::Zero | Structure::Half)
        && s.mind != Mind::None
        && !u.has_trait("vermin")
        && !u.has_trait("summoned")
        && !u.has_trait("non-living")
}

/// Why unit `u` cannot fight: it carries no weapon, or none the duel can use (`inert`).
fn unarmed(u: &Unit, inert: &[Inert]) -> KindError {
    KindError {
        key: u.key.clone(),
        message: if inert.is_empty() {
            "carries no weapon".into()
        } else {
            format!(
                "has no weapon the duel can use ({})",
                inert
                    .iter()
                    .map(|x| format!("{}: {}", x.part, x.why))
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        },
    }
}

/// The last word on unit `u`'s `arms`: who may throw them, Cannon Fodder's one point of
/// Damage, strongest first, and at most 64 (the trial marks those used in a 64-bit word).
fn finish_arms(arms: &mut Vec<Arm>, u: &Unit, out: &mut impl FnMut(&str, Option<Cp>, String)) {
    keep_throws(arms, u);
    if u.has_trait("cannon-fodder") {
        // Ch. 10.4: "This Mook Weapon (along with any other weapon carried or operated by a
        // Cannon Fodder unit) does only one point of Damage".
        for a in arms.iter_mut().filter(|a| !a.channel) {
            a.damage = Expr::parse(MOOK_DAMAGE).expect("a constant parses");
            a.mean = 1.0;
            a.poison = false;
        }
    }
    arms.sort_by(|a, b| b.mean.total_cmp(&a.mean));
    for a in arms.drain(64.min(arms.len())..) {
        out(
            &a.name,
            listed_cost(u, &a.name),
            "more than 64 weapons".into(),
        );
    }
}

/// The listed CP of unit `u`'s weapon `name`, for naming it inert.
fn listed_cost(u: &Unit, name: &str) -> Option<Cp> {
    u.weapons
        .iter()
        .find(|w| w.name() == name)
        .and_then(|w| w.cost())
}

/// Traits bought for a fight that unit `u` with `arms` cannot use, named inert with their
/// price (a line of its breakdown): Medikal Tools without a Medik (`idle_tools`),
/// Multitasking with one weapon and nothing else to do with a second Action
/// (`no_second_use`: no Medik, no SN dice), Multidexterity with no more weapons than a
/// standard Mind uses, and the CP flight costs over a ground Move.
fn idle_traits(
    u: &Unit,
    arms: &[Arm],
    idle_tools: bool,
    no_second_use: bool,
    out: &mut impl FnMut(&str, Option<Cp>, String),
) {
    let s = &u.spec;
    let priced = breakdown(u);
    // The price of a line of the breakdown (0 when the unit is priced as listed).
    let price = |name: &str| {
        priced
            .items
            .iter()
            .find(|(n, _)| n == name || n.starts_with(name))
            .map_or(Cp::ZERO, |(_, c)| *c)
    };
    if idle_tools {
        out(
            "Medikal Tools",
            listed_cost(u, "Medikal Tools"),
            "only a Medik operates with them".into(),
        );
    }
    if s.multitasking > 0 && arms.len() < 2 && no_second_use {
        out(
            &format!("Multitasking x{}", s.multitasking),
            Some(price("Multitasking")),
            "an extra Action needs a weapon not used this turn, and it has one".into(),
        );
    }
    let close = arms.iter().filter(|a| a.close).count();
    let ranged = arms.iter().filter(|a| a.range.is_some()).count();
    if s.multidexterity > 0 && close <= 2 && ranged <= 1 {
        out(
            &format!("Multidexterity x{}", s.multidexterity),
            Some(price("Multidexterity")),
            "it carries no more weapons than a standard Mind uses at once".into(),
        );
    }
    if s.propulsion == Propulsion::Flying {
        // A unit priced as listed has its flight inside the listing, not priced apart.
        let (cp, why) = match s.listed_cp {
            None => (
                price("Move ") - movement(s.move_inches, Propulsion::Ground, s.structure),
                "the battle line has no air: it walks (the CP over a ground Move)",
            ),
            Some(_) => (
                Cp::ZERO,
                "the battle line has no air: it walks (its listed price includes the flight, \
                 not priced apart)",
            ),
        };
        out("flight", Some(cp), why.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    fn kind(key: &str, opts: &RuleOptions) -> Result<Kind, KindError> {
        let c = Catalog::builtin();
        Kind::from_unit(c.get(key).unwrap(), Cp::ZERO, opts)
    }

    #[test]
    fn sized_melee_weapons_roll_action_dice() {
        // Ch. 8.1: the Automaton's 3" Giant Sword does 3 Action dice (his d6 Skill).
        let k = kind("automaton", &RuleOptions::default()).unwrap();
        assert_eq!(k.arms[0].name, "Giant Sword");
        assert_eq!(k.arms[0].damage.text(), "3d6");
        assert_eq!(k.arms[0].use_rating, 4);
        assert!(k.inert.is_empty(), "{:?}", k.inert);
        // The 3" Giant Shield: Use 6, 3 layers of Deflection on a Parry (Ch. 8.1).
        assert_eq!(
            k.shield,
            Some(Shield {
                use_rating: 6,
                layers: 3
            })
        );
        assert_eq!(k.armor.text(), "2d10");
    }

    #[test]
    fn every_weapon_of_cannon_fodder_does_one_point() {
        // Ch. 10.4: the Mook Weapon "along with any other weapon carried or operated by a
        // Cannon Fodder unit" does one point of Damage.
        let c = Catalog::builtin();
        let u = c.equipped("cannon-fodder+heavy-weapon").unwrap();
        let k = Kind::from_unit(&u, Cp::ZERO, &RuleOptions::default()).unwrap();
        assert!(k.arms.len() >= 2, "{:?}", k.arms);
        assert!(
            k.arms.iter().all(|a| a.damage.text() == "1"),
            "{:?}",
            k.arms
        );
        // A minifig's Heavy Weapon keeps its 1d6+2.
        let u = c.equipped("minifig+heavy-weapon").unwrap();
        let k = Kind::from_unit(&u, Cp::ZERO, &RuleOptions::default()).unwrap();
        assert_eq!(k.arms[0].damage.text(), "1d6+2");
    }

    #[test]
    fn issue_40_a_unit_fires_its_first_explosive_s_variant_and_names_the_rest() {
        // Ch. 8.4 Explosive Variants: each Explosive carries its own dice. A squad battle
        // fires one kind a unit: the first's, here two Incendiary grenades; the Concussion
        // one is named inert with why.
        let text = "[x]\nname = \"x\"\nsource = \"t\"\nsize = 1\nstructure = \"0\"\nmove = 5\n\
                    weapons = [\"hand-weapon\", \
                    { kind = \"explosive\", size = 1, variant = \"incendiary\" }, \
                    { kind = \"explosive\", size = 1, variant = \"incendiary\" }, \
                    { kind = \"explosive\", size = 1, variant = \"concussion\", name = \"Bang\" }]\n";
        let c = Catalog::with_text("f", text).unwrap();
        let k = Kind::from_unit(c.get("x").unwrap(), Cp::ZERO, &RuleOptions::default()).unwrap();
        let x = k.explosives.unwrap();
        assert_eq!(
            (x.count, x.delivery.swap),
            (2, Swap::All(Variant::Incendiary))
        );
        assert_eq!(x.delivery.damage(), "1d4 fire");
        assert!(k.sets_fire());
        assert_eq!(k.inert.len(), 1, "{:?}", k.inert);
        assert_eq!(k.inert[0].part, "Bang");
        assert!(
            k.inert[0].why.contains("XSize 1 incendiary first"),
            "{}",
            k.inert[0]
        );
    }

    #[test]
    fn what_acts_is_never_inert_and_what_costs_cp_for_nothing_is_named() {
        let c = Catalog::builtin();
        let o = RuleOptions::default();
        let inert = |key: &str, o: &RuleOptions| {
            let u = c.equipped(key).unwrap();
            Kind::from_unit(&u, Cp::ZERO, o).unwrap().inert
        };
        // Body Armor adds Armor, Medikal Tools serve a Medik, a Shield Parries: all act.
        assert_eq!(inert("minifig-body-armor", &o), vec![]);
        assert_eq!(inert("field-medik", &o), vec![]);
        assert_eq!(inert("minifig+hand-weapon+shield", &o), vec![]);
        // Tools without a Medik, and a Shield read as inert, cost CP for nothing.
        let x = inert("minifig+hand-weapon+medikal-tools", &o);
        assert_eq!((x[0].part.as_str(), x.len()), ("Medikal Tools", 1), "{x:?}");
        let mut no_parry = o;
        no_parry.shield = ShieldReading::Inert;
        let x = inert("minifig+hand-weapon+shield", &no_parry);
        assert_eq!(
            (x[0].part.as_str(), x[0].cp),
            ("Shield", Cp::whole(1)),
            "{x:?}"
        );
        // Professor Monkeyhead with one weapon: no second weapon for his extra Actions, none
        // beyond what a standard Mind wields (Ch. 10.1); each level priced at his Mind's 1 CP.
        let x = inert("professor-monkeyhead+hand-weapon", &o);
        let parts: Vec<(&str, Cp)> = x.iter().map(|i| (i.part.as_str(), i.cp)).collect();
        assert_eq!(
            parts,
            [
                ("Multitasking x2", Cp::whole(2)),
                ("Multidexterity x1", Cp::whole(1))
            ]
        );
        // Flying Vermin walk: their flight is inside their listed price, so it is named
        // inert at no CP of its own, never at the listing less a ground Move.
        let x = inert("flying-vermin", &o);
        assert_eq!(x.len(), 1, "{x:?}");
        assert_eq!((x[0].part.as_str(), x[0].cp), ("flight", Cp::ZERO));
        assert!(
            x[0].why.contains("listed price includes the flight"),
            "{x:?}"
        );
    }

    #[test]
    fn minifig_armor_option_and_worn_armor() {
        let o = RuleOptions::default();
        assert_eq!(kind("minifig-hand-weapon", &o).unwrap().armor.text(), "4");
        let mut r = o;
        r.minifig_armor = MinifigArmor::Roll1d6;
        assert_eq!(kind("minifig-hand-weapon", &r).unwrap().armor.text(), "1d6");
        let k = kind("minifig-body-armor", &r).unwrap();
        assert_eq!(k.armor.text(), "1d6 + 2");
        assert!(k.armored);
        // The Hero's 2d6 is not the minifig simplification.
        assert_eq!(kind("hero-hand-weapon", &r).unwrap().armor.text(), "2d6");
    }

    #[test]
    fn traits_and_weapons_the_duel_reads() {
        let o = RuleOptions::default();
        let cf = kind("cannon-fodder", &o).unwrap();
        assert!(cf.cannon_fodder);
        assert!(
            cf.arms[0].close && cf.arms[0].range == Some(5),
            "Mook Weapon: CC or 5\""
        );
        let v = kind("venomous-vermin", &o).unwrap();
        assert!(v.vermin && v.arms[0].poison);
        // The Dimmy's Contagious Bite (Ch. 10.4); Dimmies are Incompetent minifigs.
        let d = kind("dimmy", &o).unwrap();
        assert!(d.arms[0].contagion && d.arms[0].poison && d.contagious());
        assert!(d.stupid && d.minifig);
        let m = kind("minifig-hand-weapon", &o).unwrap();
        assert!(!m.stupid && m.minifig && !m.contagious());
        assert!(!kind("vermin", &o).unwrap().minifig);
        assert!(!kind("warhorse", &o).unwrap().minifig, "Size 2");
        assert_eq!(kind("hero", &o).unwrap_err().message, "carries no weapon");
        let w = kind("warhorse", &o).unwrap();
        assert_eq!(w.move_halves, 10, "Horse Heavy Armor: Half Speed (Ch. 4.1)");
        assert!(w.armored);
        let m = kind("professor-monkeyhead", &o).unwrap_err();
        assert_eq!(m.message, "carries no weapon");
    }
}
