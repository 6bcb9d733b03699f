//! Each rule option's values: a closed set of named choices with a default, each with the
//! chapter or reading it comes from (a table of data, one `choice!` an option).

use super::*;

choice! {
    /// Which d4s earn Bonus Dice. Ch. 10.3: "Unlike regular d4s, a SuperNatural d4 can earn
    /// Bonus Dice"; Ch. 4.2 lets an Incompetent d4 Skill die earn a Bonus d4 on a 4; Ch. 10.1
    /// says Incompetent creatures never get Bonus Dice on Skill rolls.
    D4Bonus default None {
        /// No regular d4 earns Bonus Dice (Ch. 10.1 and 10.3).
        None = "none",
        /// A d4 Skill die earns a Bonus d4 on a natural 4 (Ch. 4.2); other d4s earn none.
        Incompetent = "incompetent",
        /// Designer variant: every d4 explodes. Skill d4s earn a Bonus d4 (Ch. 4.2),
        /// other d4s a Bonus d6 like every other regular die.
        All = "all",
    }
}

choice! {
    /// What a Blessing or Curse rolls beside the Action die. Ch. D.4's Aspect table calls it
    /// "a potential re-roll to target's Action or Specialty Die"; the Action text says
    /// "Blessing and Curse dice are rolled along with the Action or Specialty die".
    BlessingDie default SnDie {
        /// Roll the SuperNatural die that carries the Blessing (same size or larger): the
        /// Action text's "Blessing and Curse dice are rolled along with the Action die".
        SnDie = "sn_die",
        /// Re-roll the Action die itself: a Blessed d6 rolls 2d6 and keeps the higher.
        ActionDie = "action_die",
    }
}

choice! {
    /// Which natural face of a Blessed or Cursed Skill roll decides Critical Failure and
    /// Overskill. Ch. D.4 calls a Blessing "a potential re-roll" and says the unit "keeps the
    /// highest roll as the result", but also that a Critical Failure "only occurs when a
    /// unit's own Action die rolls a natural 1".
    BlessedNatural default Kept {
        /// The kept die: a Blessing can rescue a 1, a Curse can cause one (re-roll reading).
        Kept = "kept",
        /// The unit's own die, whatever was kept.
        OwnDie = "own_die",
    }
}

choice! {
    /// Whether a SuperNatural Bonus Die (or Bonus Fumble Die) showing 1 fumbles too. Ch. D.3
    /// says "Whenever a SuperNatural Die rolls a 1 ... it turns into a Fumble Die" and that
    /// Bonus Dice "behave differently"; it does not single out Bonus Dice showing 1.
    SnBonusOne default Fumble {
        /// A Bonus Die is a SuperNatural Die: its 1 fumbles like any other.
        Fumble = "fumble",
        /// A Bonus Die's 1 simply counts 1 (for a Fumble Die, -1).
        Count = "count",
    }
}

choice! {
    /// How the opponent uses a Fumble Die (Ch. D.3: "for any Aspect, adding or subtracting
    /// in whatever way seems best designed to thwart the Effect").
    FumbleUse default Subtract {
        /// Roll it and subtract from the same Aspect (readings §1).
        Subtract = "subtract",
        /// The Fumble Die is simply lost to the Effect: it adds nothing.
        Ignore = "ignore",
    }
}

choice! {
    /// What happens to a Fumble Die that rolls a 1 and is "double-Fumbled right back to the
    /// original SuperNatural unit's control" (Ch. D.3). The text does not say it is rolled
    /// again; it says the owner controls it again.
    DoubleFumble default OwnerRolls {
        /// The owner rolls it again for the same Aspect, as a fresh SuperNatural Die.
        OwnerRolls = "owner_rolls",
        /// It returns to the owner but adds nothing to this Effect.
        Lost = "lost",
    }
}

choice! {
    /// What an SN die spent to subtract Damage does when no Damage die of the hit is its size.
    /// Ch. D.4: a matching die cancels its Damage die, "Otherwise, damage-subtracting
    /// SuperNatural Dice simply subtract points from the final damage total"; Ch. 10.3: "the
    /// SuperNatural Die type must match the Damage die it's subtracting".
    SnSubtract default Points {
        /// Ch. D.4: it is rolled, and its total comes off the Damage.
        Points = "points",
        /// Ch. 10.3: only a matching die subtracts (it cancels its Damage die unrolled).
        MatchOnly = "match_only",
    }
}

choice! {
    /// Damage exactly equal to Armor (readings §2).
    ArmorTie default Survive {
        /// Ch. 10.2: "Normally, when a minifig's Armor exactly matches the amount of Damage
        /// he receives, nothing happens".
        Survive = "survive",
        /// Ch. 10.2's optional rule: a cutting weapon amputates, others knock over (Disrupt).
        Dismemberment = "dismemberment",
        /// 2020 idea (readings §2): "something bad"; its table is not available, modelled as Disrupted.
        SomethingBad = "something_bad",
    }
}

choice! {
    /// Which weapons cut, for Dismemberment (Ch. 10.2: under `armor_tie = dismemberment` "if
    /// the minifig was hit by a cutting weapon, it immediately suffers one Amputation"; the
    /// texts never say which weapons cut).
    Cutting default None {
        /// None: every tie knocks the minifig over (Disrupted), as any other damage does.
        None = "none",
        /// Every Close Combat weapon striking in Close Combat (blades, axes, bites): its tie
        /// Amputates a limb in the defender's `amputate` order; shots and blasts knock over.
        CloseCombat = "close_combat",
    }
}

choice! {
    /// A minifig's Armor (readings §2): the texts' fixed 4 simplifies a rolled 1d6.
    MinifigArmor default Fixed4 {
        /// Armor 4, a fixed number (Ch. 10.2 minifig stat block).
        Fixed4 = "fixed4",
        /// Armor rolled fresh as 1d6 (with Bonus Dice) for every hit.
        Roll1d6 = "1d6",
    }
}

choice! {
    /// How an Overskill Benny is spent (Ch. 4.2): a player's decision, so a policy.
    OverskillPolicy default Auto {
        /// Add 1d6 to the Skill roll only when that turns a miss into a hit, otherwise add one
        /// more of the attack's Damage dice (readings §1).
        Auto = "auto",
        /// Always add 1d6 to the Skill roll.
        Skill = "skill",
        /// Always add one more Damage die; never help the Skill roll.
        Damage = "damage",
    }
}

choice! {
    /// Which Damage die an Overskill Benny adds when the attack's Damage has dice of more
    /// than one size: Ch. 4.2 "adds one more of the attack's existing Damage dice", and the
    /// player picks which.
    OverskillDie default Most {
        /// The die that adds the most Damage on average, its Bonus Dice included (a
        /// player's pick); dice of equal worth are the same roll.
        Most = "most",
        /// The first die written in the Damage (ignores the player's choice).
        First = "first",
    }
}

choice! {
    /// The Action modifier for the target's Size (readings §2). Ch. 8.2 gives "+1 for every
    /// 2\" in the Size" of a large target; for small ones the texts show -1 (a baby in the
    /// ShotGun Wedding, Ch. 8.3) and -2 (a rope, Ch. 4.2) without a scale.
    TargetSize default Rated {
        /// +1 per full 2" of the target's Effective Size; Size 0 (Vermin) -1, as the baby.
        Rated = "rated",
        /// No Size modifier at all.
        Off = "off",
    }
}

choice! {
    /// When a unit with a Melee Shield Parries a Close Combat attack. Ch. 8.2 gives what a
    /// successful Parry does ("adds layers of Deflection equal to the Shield's Weapon Size")
    /// and who cannot Parry (the Mindless, the Too Large), but the chapter on Close Combat
    /// that says when a Parry may be made is not among the texts.
    Parry default Free {
        /// Every Close Combat attack on a shield-bearer who is not Disrupted may be Parried.
        Free = "free",
        /// Only with an Action saved from its own turn, which the Parry spends (Ch. 4.3).
        Saved = "saved",
        /// Shields never Parry.
        Off = "off",
    }
}

choice! {
    /// Whether a unit may Respond before its own first turn. Ch. 4 lets units Respond "if
    /// they didn't take Actions on their previous turn", and Ch. 4.3 asks for "an unspent
    /// Action from his previous turn": before a unit's first turn there was none.
    OpeningResponse default Ready {
        /// It took no Action before the battle, so it stands ready to Respond from the start.
        Ready = "ready",
        /// It has no previous turn, so no saved Action until its own first turn has passed.
        None = "none",
    }
}

choice! {
    /// Who acts first when a unit with a saved Action responds to an enemy closing on it.
    /// Ch. 4.1: "it's assumed that the opponent automatically attacks him ... If the minifig
    /// survives and decides to Counter the attack, they are both entered into Close Combat".
    /// Ch. 4.3's timing: "if a target is already within range of a minifig's Response Action
    /// when the target still has to move at least a full inch before taking its own Action,
    /// the minifig will automatically be able to act first during that inch"; otherwise
    /// "assume that both Actions occur simultaneously. If a simultaneous result isn't
    /// possible, then a minifig moving at regular speed takes his Action before a minifig
    /// moving at Half Speed ... both minifigs roll their Skill, and the higher roll goes
    /// first."
    ResponseOrder default Counter {
        /// Ch. 4.1: the responder strikes first; the mover Counters if it survives.
        Counter = "counter",
        /// Ch. 4.3: the responder first when the mover crossed a full inch of its range;
        /// otherwise both attacks land (simultaneous).
        Timing = "timing",
        /// Ch. 4.3 with its fallback: the responder first after a full inch; otherwise
        /// regular speed before Half Speed, then a Skill roll-off (a tie is simultaneous).
        RollOff = "roll_off",
    }
}

choice! {
    /// What the minifig Shield and Heavy Shield (1 CP each in the 2010 minifig table, noted
    /// "Parry", with no Use and no Deflection) do. Ch. 8.1 prices a Melee Shield at S CP and
    /// gives it "{Weapon Size}x2" Use and "{Weapon Size} layers of Deflection on Parry"; its
    /// Automaton example calls the same Melee Shield a Heavy Shield or a Light Shield by the
    /// bearer's Size alone.
    ShieldReading default Parry {
        /// Both are Melee Shields of Weapon Size 1" (their 1 CP is a 1" Melee Shield's price,
        /// the Heavy Shield's name only its handling): Use 2, one layer of Deflection on a
        /// successful Parry; each takes a hand.
        Parry = "parry",
        /// Neither does anything in a fight (reported as inert beside every figure).
        Inert = "inert",
    }
}

choice! {
    /// How many levels of Deflection Heavy Armor (and the Horse's Heavy Armor, "a Shielded
    /// bonus") gives against every hit: the 2010 table notes "Deflection" without a number.
    HeavyArmorDeflection default One {
        /// One level: the highest Damage die of each hit is removed (never a d12).
        One = "1",
        /// Two levels.
        Two = "2",
        /// None: Heavy Armor only slows its wearer.
        Zero = "0",
    }
}

choice! {
    /// The Use of a thrown Explosive (a grenade). "Thrown objects have the same Use rating
    /// ... as if they had been used in a Close Combat attack" (Ch. 8.4), and the texts give
    /// an Explosive no Close Combat Use.
    ThrownUse default Hand {
        /// 2, a Hand Weapon's Use: a grenade is a small one-handed object.
        Hand = "2",
        /// 3, a Heavy Weapon's Use.
        Heavy = "3",
    }
}

impl ThrownUse {
    /// The Use rating a throw takes.
    pub fn rating(self) -> i64 {
        match self {
            ThrownUse::Hand => 2,
            ThrownUse::Heavy => 3,
        }
    }
}

impl HeavyArmorDeflection {
    /// Deflection levels Heavy Armor gives.
    pub fn levels(self) -> u32 {
        match self {
            HeavyArmorDeflection::One => 1,
            HeavyArmorDeflection::Two => 2,
            HeavyArmorDeflection::Zero => 0,
        }
    }
}

choice! {
    /// What KnockBack from a weapon larger than its target does (Ch. 8.1: "one inch for every
    /// inch of difference between the Weapon Size and the target's Effective Size, with the
    /// usual potential for being Disrupted"; the text does not say when that potential comes
    /// true).
    Knockback default Push {
        /// The target is pushed back; it is not Disrupted.
        Push = "push",
        /// Pushed back and knocked over: Disrupted (Ch. 4.1 "Knocked over by a Shove").
        Disrupt = "disrupt",
        /// No KnockBack from weapons.
        Off = "off",
    }
}

choice! {
    /// What an Explosion's KnockBack does to a figure left standing (Ch. 8.4 KnockBack).
    /// Ch. 4.1: "Events that knock a minifig violently off his feet ... cause him to become
    /// Disrupted", listing "Knocked over by a Shove, Explosion, or Collision".
    BlastKnockback default Disrupt {
        /// Pushed back and knocked over: Disrupted until its following turn (Ch. 4.1).
        Disrupt = "disrupt",
        /// Pushed back, still on its feet.
        Push = "push",
        /// No KnockBack from Explosions.
        Off = "off",
    }
}

choice! {
    /// Whether the hits of one Action's several weapons on one target add their Damage
    /// against one Armor roll. diemon reads (readings §2) that "several attacks on one
    /// target in one action add their damage", after Ch. 10.4's "Cumulative Damage of
    /// several Vermin attacking together"; no text says so of one unit's weapons.
    ActionDamage default Pooled {
        /// Added up, against one Armor roll after the last of them.
        Pooled = "pooled",
        /// Each hit against its own Armor roll, as separate attacks.
        Separate = "separate",
    }
}

choice! {
    /// Whether the hits several units land on one target in one player turn add their
    /// Damage against one Armor roll: Combined Fire. Ch. 10.4 has Cannon Fodder "rely on
    /// Combined Fire with real units or other Cannon Fodder in order for their single point
    /// to make any difference", and "the Cumulative Damage of several Vermin attacking
    /// together"; Ch. 8.4's Wall Demolition counts a later hit "as cumulative damage" against
    /// "the wall's earlier Armor Roll" (readings §2).
    CombinedFire default Turn {
        /// Every hit a target takes in one player turn adds to the earlier ones, against
        /// the Armor rolled for the first of them.
        Turn = "turn",
        /// Each unit's attack stands alone; only one Action's weapons, a burst and a
        /// Vermin swarm's bites add up.
        Off = "off",
    }
}

choice! {
    /// What a Sprint roll that is a Critical Failure (a natural 1) adds. Ch. 4.1 gives a
    /// Sprint "extra inches of Move ... equal to his Skill Roll", and names a special
    /// Critical Failure only for a Bonus chain that ends in a one (the runaway).
    SprintFumble default Adds {
        /// The 1 adds 1", as any roll adds its total.
        Adds = "adds",
        /// A Critical Failure adds nothing; the Action is spent all the same.
        Nothing = "nothing",
    }
}

choice! {
    /// What a critically failed Parry does to the shield. Ch. 8.2: hand-held weapons "can
    /// be knocked away on a critically failed Parry", "directly away from the attacker for
    /// a number of inches equal to the attacker's Action Roll"; no text says how it is got
    /// back in a fight.
    ParryFumble default KnockedAway {
        /// Knocked away: the bearer fights without it for the rest of the battle.
        KnockedAway = "knocked_away",
        /// "Can be" read as may: the Parry fails and the shield stays in hand.
        Kept = "kept",
    }
}

choice! {
    /// Where an automatic weapon's Firing Arc lies about its target in a squad battle. Ch.
    /// 8.3: "every target within the attacker's Firing Arc receives a single attack"; the
    /// texts leave where the arc is swept to the attacker.
    ArcAim default Centred {
        /// Centred on the target.
        Centred = "centred",
        /// Turned, still holding the target, to take in the most enemies in Range (of
        /// equal placements, the one nearest centred).
        Most = "most",
    }
}

choice! {
    /// Which targets take Ch. 8.3's extra arc attacks: "Larger targets suffer an extra
    /// attack for each point of the Firing Arc they span completely". A figure is taken to
    /// be as wide as its Effective Size; the texts do not say whether a minifig close to the
    /// muzzle, spanning a point, is one of the "larger targets".
    ArcSpan default Larger {
        /// Targets larger than a minifig (Effective Size over 1"), by their Size.
        Larger = "larger",
        /// Every target by its Size, minifigs included.
        Any = "any",
        /// None: every target in the arc takes one attack (figures are points).
        Off = "off",
    }
}

choice! {
    /// Stupidity (Ch. 10.1 Half Minds): "As long as a player controls more than one unit
    /// with Stupidity, then at the beginning of their turn ... one Enemy ... may choose any
    /// one of the Stupid units and control it as if it were his own for that turn." What the
    /// enemy does with it is his choice.
    Stupidity default Turncoat {
        /// The enemy plays the unit against its own side for that turn (it moves toward and
        /// attacks its allies): "as if it were his own".
        Turncoat = "turncoat",
        /// The enemy only holds the unit still: its owner loses its turn.
        Idle = "idle",
        /// Stupidity is ignored.
        Off = "off",
    }
}

choice! {
    /// Half-Mind Usefulness (Ch. 10.1): "A Submissive Creature loses its Usefulness if its
    /// master is killed or wanders off"; a Subjugated one breaks free. A squad duel has no
    /// riders or chains, so whether a Half-Minded unit needs a full-Minded ally standing is
    /// a choice of model.
    Usefulness default Kept {
        /// Half-Minded units stay Useful all fight (a Horse fights as if ridden).
        Kept = "kept",
        /// A side's Submissive and Subjugated units are Useful only while a full-Minded
        /// unit of the side stands. A useless Submissive one is directed by each player on
        /// his own turn, Move or Action but not both (the enemy plays it against its own
        /// side); a Subjugated one breaks free to the enemy for good.
        Masters = "masters",
    }
}

choice! {
    /// When a victim of Monstrous Contagion may act. Ch. 10.4: "At the beginning of the
    /// Contagious Biter's next turn, the victim's body undergoes whatever horrifying
    /// transformation is appropriate to his type, and he rises up to join the Monstrous
    /// ranks": the text does not say whether he acts in the turn he rises.
    ContagionRise default Acts {
        /// He joins the biters' turn at its beginning and acts in it.
        Acts = "acts",
        /// He rises but acts from the biters' following turn.
        Waits = "waits",
    }
}

choice! {
    /// The Auto Penalty of each shot of a burst or point of Firing Arc. Ch. 8.3 calls it "a
    /// cumulative -1 for each intended shot" that "determines the overall Auto Penalty", and
    /// checks jams against "the Auto Penalty for that shot".
    AutoPenalty default PerShot {
        /// Shot k takes -k: the penalty accumulates shot by shot.
        PerShot = "per_shot",
        /// Every shot takes the whole burst's penalty.
        Overall = "overall",
    }
}

choice! {
    /// The angle of one point of Firing Arc: "each space between fingers" of a hand held
    /// flat (Ch. 8.3). The text gives no angle; a spread hand spans roughly 60-90 degrees
    /// over its four gaps.
    ArcPoint default Deg20 {
        /// 15 degrees a point: four make 60, a narrow hand.
        Deg15 = "15",
        /// 20 degrees a point: four points make a spread hand's 80 degrees.
        Deg20 = "20",
        /// 25 degrees a point: four make 100, a wide hand.
        Deg25 = "25",
    }
}

impl ArcPoint {
    /// Degrees in one arc point.
    pub fn degrees(self) -> f64 {
        match self {
            ArcPoint::Deg15 => 15.0,
            ArcPoint::Deg20 => 20.0,
            ArcPoint::Deg25 => 25.0,
        }
    }
}

choice! {
    /// Whether a figure's Damage from several Explosions in one turn adds up. Ch. 8.4:
    /// "Damage and KnockBack from more than one Explosion can stack, but the sizes of their
    /// radii do not"; readings §2 adds the damage of attacks in one action.
    Stacking default Cumulative {
        /// A figure's Damage this turn adds up against one Armor roll.
        Cumulative = "cumulative",
        /// Each Explosion is compared with Armor alone.
        Separate = "separate",
    }
}

choice! {
    /// Which of an Explosion's tied dice of different types the attacker removes first as
    /// the radius grows (Ch. 8.4 Explosive Variants: "In the case of a tie between different
    /// die types, the attacking player chooses which to remove first"). Dice of one type tie
    /// as they were rolled, under either.
    SwapTie default DamageKept {
        /// Keep Damage longest: a Concussion die (no Damage) goes first, then a d10 Exp (its
        /// inch of push), a Fire d4, a Pierce d6; a Phased d12 (past any Deflection) last.
        DamageKept = "damage_kept",
        /// Keep the push longest: as `damage_kept`, but Concussion dice go last.
        PushKept = "push_kept",
    }
}

choice! {
    /// How readily the Explosives a unit still carries go off when an Explosion catches it
    /// in a squad battle (Ch. 8.4 Premature Detonation). The texts name grenades and
    /// missiles among the semi-stable, higher-tech Explosives; gunpowder and dynamite are
    /// unstable. The catalog's grenades, Payloads and Rockets are the former.
    CarriedExplosives default SemiStable {
        /// More Damage than its XSize activates it; it goes off at the end of the player
        /// turn where its carrier stands or fell, and is unstable from then on.
        SemiStable = "semi_stable",
        /// A single point of Damage sets it off at once.
        Unstable = "unstable",
        /// Carried Explosives never go off (the battles before this rule).
        Inert = "inert",
    }
}

/// How long a chain of Bonus Dice may grow (readings §1: "Option `bonus_chain`").
/// Applies to every chain: regular Bonus d6s, SuperNatural bonus dice and Bonus Fumble dice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "ChainRepr", into = "ChainRepr")]
pub enum BonusChain {
    /// Every top face earns another die (the texts' rule).
    #[default]
    Unlimited,
    /// At most this many Bonus Dice follow one die; `0` turns Bonus Dice off.
    Max(u32),
}

impl BonusChain {
    /// Whether a chain that already holds `earned` Bonus Dice may earn one more.
    #[inline]
    pub fn allows(self, earned: u32) -> bool {
        match self {
            BonusChain::Unlimited => true,
            BonusChain::Max(n) => earned < n,
        }
    }

    fn parse(s: &str) -> Option<BonusChain> {
        if s == "unlimited" {
            return Some(BonusChain::Unlimited);
        }
        s.parse().ok().map(BonusChain::Max)
    }
}

impl OptionValue for BonusChain {
    const VALUES: &'static [&'static str] = &["unlimited", "0", "1", "2", "..."];
    const DEFAULT_NAME: &'static str = "unlimited";
    fn parse_value(s: &str) -> Option<Self> {
        BonusChain::parse(s)
    }
    fn expected() -> String {
        "unlimited, a whole number".into()
    }
}

impl fmt::Display for BonusChain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BonusChain::Unlimited => f.write_str("unlimited"),
            BonusChain::Max(n) => write!(f, "{n}"),
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum ChainRepr {
    Max(u32),
    Word(String),
}

impl TryFrom<ChainRepr> for BonusChain {
    type Error = String;
    fn try_from(r: ChainRepr) -> Result<Self, String> {
        match r {
            ChainRepr::Max(n) => Ok(BonusChain::Max(n)),
            ChainRepr::Word(w) => BonusChain::parse(&w)
                .ok_or_else(|| format!("expected \"unlimited\" or a whole number, got {w:?}")),
        }
    }
}

impl From<BonusChain> for ChainRepr {
    fn from(c: BonusChain) -> ChainRepr {
        match c {
            BonusChain::Unlimited => ChainRepr::Word("unlimited".into()),
            BonusChain::Max(n) => ChainRepr::Max(n),
        }
    }
}

choice! {
    /// Marks (the Marks text, "Types of Dice"): when a rolled 1 cancels a Mark. The
    /// text gives the cancelling with the dice, before it describes keeping the best.
    MarksOnes default Roll {
        /// Every 1 rolled cancels one Mark die of the whole roll, before the best are kept.
        Roll = "roll",
        /// Only 1s among the kept dice cancel kept Marks (the best are kept first, so a 1 is
        /// kept only when too few other dice were rolled).
        Kept = "kept",
    }
}

choice! {
    /// Marks: which Mark a 1 cancels ("one of your 5s or 6s").
    MarksCancel default Weakest {
        /// A plain Mark (a 5, or 5-8 on a d10) before a Roll-Again: the player's choice.
        Weakest = "weakest",
        /// A Roll-Again before a plain Mark: the opponent's choice.
        Strongest = "strongest",
    }
}

choice! {
    /// Marks: what a re-rolled die showing 1 does (the text only says re-rolls add Marks).
    MarksRerollOnes default Ignore {
        /// Nothing: a re-roll can only add Marks.
        Ignore = "ignore",
        /// It cancels one Mark of the tally (never below 0).
        Cancel = "cancel",
    }
}

choice! {
    /// Marks: which dice a difficulty penalty (-1 to -4 dice) removes. The text orders the
    /// dice lost when trying again: "starting with Human Attributes or Skill, then ... Super
    /// Skill and Super Attributes".
    MarksPenalty default SkillFirst {
        /// Human Skill d6s, then human Attribute d6s, then Super Skill d10s, then Super
        /// Attribute d10s (the keep limit falls only as Attribute dice go).
        SkillFirst = "skill_first",
        /// Human Attribute d6s before human Skill d6s, then Super Attribute d10s before Super
        /// Skill d10s.
        AttributeFirst = "attribute_first",
    }
}

choice! {
    /// Marks: a contested roll with equal Marks ("he who has more Marks wins").
    MarksTie default Draw {
        /// Nobody wins.
        Draw = "draw",
        /// The side acted upon (B) holds.
        Defender = "defender",
    }
}
