//! Rule options: every point the texts leave open, as a named choice with a default.
//!
//! The five rule texts come from different editions and disagree or fall silent in places
//! (docs/readings.md). diemon never buries a guess in a constant: each such
//! point is a field of [`RuleOptions`], documented in [`OPTIONS`] with its source, settable
//! from the command line as `-o key=value`, and recorded in every output. Designers compare
//! variants by flipping them ("what if d4s could explode?" is `-o d4_bonus=all`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A value of a rule option, written and read as its wire name.
pub trait OptionValue: Copy + Default + fmt::Display + Sized {
    /// The values `diemon options` lists.
    const VALUES: &'static [&'static str];
    /// The default's wire name.
    const DEFAULT_NAME: &'static str;
    /// Parses a wire name.
    fn parse_value(s: &str) -> Option<Self>;
    /// What an error says was expected.
    fn expected() -> String {
        Self::VALUES.join(", ")
    }
}

/// Declares a closed set of named choices with a default, a wire name per variant, and
/// parsing that lists the valid names when it fails.
macro_rules! choice {
    (
        $(#[$meta:meta])*
        $name:ident default $default:ident {
            $( $(#[$vmeta:meta])* $var:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $var ),+
        }

        impl $name {
            /// The wire names, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The wire name of this choice.
            pub const fn name(self) -> &'static str {
                match self { $( $name::$var => $text ),+ }
            }

            /// Parses a wire name.
            pub fn parse(s: &str) -> Option<$name> {
                match s { $( $text => Some($name::$var), )+ _ => None }
            }
        }

        impl Default for $name {
            fn default() -> Self { $name::$default }
        }

        impl OptionValue for $name {
            const VALUES: &'static [&'static str] = $name::NAMES;
            const DEFAULT_NAME: &'static str = $name::$default.name();
            fn parse_value(s: &str) -> Option<Self> {
                $name::parse(s)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

mod choices;
pub use choices::*;

/// One option's documentation, for `diemon options`, `--help` and docs/rules-coverage.md.
#[derive(Debug)]
pub struct OptionDoc {
    /// The option's key (`d4_bonus`).
    pub key: &'static str,
    /// The values it takes.
    pub values: &'static [&'static str],
    /// Its default value.
    pub default: &'static str,
    /// Where the texts leave it open (chapter and section).
    pub source: &'static str,
    /// What it decides, in words.
    pub meaning: &'static str,
}

/// Declares the rule options once each (its field, its row in [`OPTIONS`], its setter and
/// its printed pair), so the four can never disagree.
macro_rules! rule_options {
    ( $( $key:ident : $ty:ty { source: $source:literal, meaning: $meaning:literal $(,)? } )+ ) => {
        /// Every open point of the texts, with the default diemon uses. Stored in every
        /// export.
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct RuleOptions {
            $( #[doc = $meaning] pub $key: $ty, )+
        }

        /// The options, in the order `diemon options` lists them.
        pub const OPTIONS: &[OptionDoc] = &[
            $( OptionDoc {
                key: stringify!($key),
                values: <$ty as OptionValue>::VALUES,
                default: <$ty as OptionValue>::DEFAULT_NAME,
                source: $source,
                meaning: $meaning,
            }, )+
        ];

        impl RuleOptions {
            /// Sets one option by name.
            pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
                match key {
                    $( stringify!($key) => {
                        self.$key = <$ty as OptionValue>::parse_value(value).ok_or_else(|| {
                            OptionError::BadValue {
                                key: key.into(),
                                value: value.into(),
                                expected: <$ty as OptionValue>::expected(),
                            }
                        })?;
                    } )+
                    _ => {
                        return Err(OptionError::UnknownKey {
                            key: key.into(),
                            known: OPTIONS.iter().map(|o| o.key).collect::<Vec<_>>().join(", "),
                        });
                    }
                }
                Ok(())
            }

            /// `(key, value)` for every option, in [`OPTIONS`] order: what exports record.
            pub fn pairs(&self) -> Vec<(&'static str, String)> {
                vec![ $( (stringify!($key), self.$key.to_string()), )+ ]
            }
        }
    };
}

rule_options! {
    bonus_chain: BonusChain {
        source: "readings §1; Ch. D.3",
        meaning: "how many Bonus Dice one die may chain (0 = no Bonus Dice)",
    }
    d4_bonus: D4Bonus {
        source: "Ch. 4.2 vs Ch. 10.1, 10.3",
        meaning: "which d4s earn Bonus Dice",
    }
    blessing_die: BlessingDie {
        source: "Ch. D.4 Action",
        meaning: "what a Blessing or Curse rolls beside the Action die",
    }
    blessed_natural: BlessedNatural {
        source: "Ch. D.4 Action Modifiers",
        meaning: "which die of a Blessed/Cursed roll decides Critical Failure and Overskill",
    }
    sn_bonus_one: SnBonusOne {
        source: "Ch. D.3 SuperNatural Bonus Dice",
        meaning: "whether a SuperNatural Bonus Die showing 1 fumbles",
    }
    fumble: FumbleUse {
        source: "Ch. D.3 Fumble Dice; readings §1",
        meaning: "how the opponent uses a Fumble Die",
    }
    double_fumble: DoubleFumble {
        source: "Ch. D.3 Fumble Dice",
        meaning: "what a double-Fumbled die does for its owner",
    }
    sn_subtract: SnSubtract {
        source: "Ch. D.4 Damage vs Ch. 10.3 Damage",
        meaning: "whether an SN die spent to subtract Damage that matches none of the hit's Damage dice subtracts its roll",
    }
    armor_tie: ArmorTie {
        source: "Ch. 10.2; readings §2",
        meaning: "what Damage exactly equal to Armor does",
    }
    cutting: Cutting {
        source: "Ch. 10.2 Dismemberment",
        meaning: "which weapons cut, so that their tie Amputates under armor_tie=dismemberment",
    }
    minifig_armor: MinifigArmor {
        source: "Ch. 10.2; readings §2",
        meaning: "a minifig's Armor: the fixed 4, or 1d6 rolled per hit",
    }
    overskill: OverskillPolicy {
        source: "Ch. 4.2 Overskill; readings §1",
        meaning: "how the Overskill Benny is spent (a policy)",
    }
    overskill_die: OverskillDie {
        source: "Ch. 4.2 Overskill",
        meaning: "which of the attack's Damage dice an Overskill Benny adds when they differ",
    }
    target_size: TargetSize {
        source: "Ch. 8.2 Parry, Ch. 8.3, Ch. 4.2; readings §2",
        meaning: "the Action modifier for a large or Size 0 target",
    }
    shield: ShieldReading {
        source: "Ch. 8.1 Melee Shields; minifig weapon table (readings §3)",
        meaning: "what the minifig Shield and Heavy Shield do in a fight",
    }
    thrown_use: ThrownUse {
        source: "Ch. 8.4 Thrown Minifig Weapons; minifig weapon table (readings §3)",
        meaning: "the Use of a thrown Explosive, which the texts do not give",
    }
    heavy_armor: HeavyArmorDeflection {
        source: "minifig weapon table (readings §3); Ch. 10.1 Horse example",
        meaning: "levels of Deflection Heavy Armor gives against every hit",
    }
    parry: Parry {
        source: "Ch. 8.2 Parrying; Ch. 4.3",
        meaning: "when a Melee Shield may Parry a Close Combat attack",
    }
    opening_response: OpeningResponse {
        source: "Ch. 4 (introduction); Ch. 4.3 Enemy Response",
        meaning: "whether a unit may Respond before its own first turn",
    }
    response_order: ResponseOrder {
        source: "Ch. 4.1 Movement; Ch. 4.3 Who Acts First",
        meaning: "who strikes first when a saved Action meets an enemy closing on it",
    }
    knockback: Knockback {
        source: "Ch. 8.1 KnockBack; Ch. 4.1",
        meaning: "what KnockBack from a weapon larger than its target does",
    }
    blast_knockback: BlastKnockback {
        source: "Ch. 8.4 KnockBack; Ch. 4.1 Disrupted",
        meaning: "what an Explosion's KnockBack does to a figure left standing",
    }
    action_damage: ActionDamage {
        source: "readings §2 Cumulative Damage; Ch. 10.4 Vermin",
        meaning: "whether one Action's weapons that hit one target add their Damage",
    }
    combined_fire: CombinedFire {
        source: "Ch. 10.4 Cannon Fodder, Swarms; Ch. 8.4 Explosion Example (readings §2)",
        meaning: "whether several units' hits on one target in a player turn add their Damage",
    }
    sprint_fumble: SprintFumble {
        source: "Ch. 4.1 Sprint",
        meaning: "what a Sprint roll's Critical Failure (a natural 1) adds",
    }
    parry_fumble: ParryFumble {
        source: "Ch. 8.2 Parrying",
        meaning: "whether a critically failed Parry knocks the shield away for the battle",
    }
    arc_aim: ArcAim {
        source: "Ch. 8.3 Firing Arcs",
        meaning: "where a swept Firing Arc lies about its target: centred, or the most enemies",
    }
    arc_span: ArcSpan {
        source: "Ch. 8.3 Firing Arcs",
        meaning: "which targets take an extra arc attack for each point of arc they span",
    }
    auto_penalty: AutoPenalty {
        source: "Ch. 8.3 MachineGuns",
        meaning: "each shot's Auto Penalty in a burst: shot k at -k, or all at -N",
    }
    arc_point: ArcPoint {
        source: "Ch. 8.3 Firing Arcs",
        meaning: "degrees in one point of Firing Arc (a finger gap)",
    }
    stacking: Stacking {
        source: "Ch. 8.4 Heavy Explosions; readings §2",
        meaning: "whether a figure's Damage from several Explosions in a turn adds up",
    }
    swap_tie: SwapTie {
        source: "Ch. 8.4 Explosive Variants",
        meaning: "which tied die of different types an Explosion loses first as its radius grows",
    }
    carried_explosives: CarriedExplosives {
        source: "Ch. 8.4 Premature Detonation",
        meaning: "whether Explosives a unit carries go off when an Explosion catches it",
    }
    stupidity: Stupidity {
        source: "Ch. 10.1 Half Minds (Incompetent)",
        meaning: "what an enemy does with one of a side's Stupid units each turn",
    }
    contagion_rise: ContagionRise {
        source: "Ch. 10.4 Monstrous Contagion",
        meaning: "whether a converted victim acts in the turn it rises",
    }
    usefulness: Usefulness {
        source: "Ch. 10.1 Half Minds (Usefulness)",
        meaning: "whether Submissive and Subjugated units need a full-Minded ally standing",
    }
    marks_ones: MarksOnes {
        source: "Marks: Types of Dice; readings §4",
        meaning: "Marks: whether every 1 rolled cancels a Mark before keeping, or only kept 1s",
    }
    marks_cancel: MarksCancel {
        source: "Marks: Types of Dice; readings §4",
        meaning: "Marks: which Mark a 1 cancels, a plain one or a Roll-Again",
    }
    marks_reroll_ones: MarksRerollOnes {
        source: "Marks: Keep Your Attribute Dice; readings §4",
        meaning: "Marks: whether a re-rolled 1 cancels a Mark",
    }
    marks_penalty: MarksPenalty {
        source: "Marks: Trying Again, difficulty",
        meaning: "Marks: which dice a difficulty penalty removes first",
    }
    marks_tie: MarksTie {
        source: "Marks: Types of Rolls (Contested)",
        meaning: "Marks: who wins a contested roll with equal Marks",
    }
}

/// A `key=value` that does not name an option or a value of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OptionError {
    /// Not `KEY=VALUE`.
    #[error("expected key=value, got {0:?}")]
    Shape(String),
    /// A key that names no option.
    #[error("unknown rule option {key:?}; the options are: {known}")]
    UnknownKey {
        /// The key given.
        key: String,
        /// The keys there are, listed.
        known: String,
    },
    /// A value the option does not take.
    #[error("option {key} cannot be {value:?}; expected one of: {expected}")]
    BadValue {
        /// The option's key.
        key: String,
        /// The value given.
        value: String,
        /// The values it takes.
        expected: String,
    },
}

impl RuleOptions {
    /// Applies one `key=value` assignment, as given to `-o/--option`.
    pub fn assign(&mut self, text: &str) -> Result<(), OptionError> {
        let (key, value) = text
            .split_once('=')
            .ok_or_else(|| OptionError::Shape(text.to_string()))?;
        self.set(key.trim(), value.trim())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_list_every_option_with_its_default() {
        let doc = include_str!("../../../../docs/readings.md");
        for o in OPTIONS {
            let row = format!("| `{}` | {} |", o.key, o.default);
            assert!(doc.contains(&row), "docs/readings.md section 5 lacks {row}");
        }
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        let o = RuleOptions::default();
        for ((key, value), doc) in o.pairs().iter().zip(OPTIONS) {
            assert_eq!(*key, doc.key);
            assert_eq!(value, doc.default, "{key}");
        }
        assert_eq!(o.pairs().len(), OPTIONS.len());
    }

    #[test]
    fn every_documented_value_is_accepted() {
        for doc in OPTIONS {
            for v in doc.values.iter().filter(|v| **v != "...") {
                let mut o = RuleOptions::default();
                o.set(doc.key, v).unwrap();
                let got = o.pairs().into_iter().find(|(k, _)| *k == doc.key).unwrap();
                assert_eq!(got.1, *v);
            }
        }
    }

    #[test]
    fn assign_parses_and_rejects_clearly() {
        let mut o = RuleOptions::default();
        o.assign("bonus_chain=2").unwrap();
        assert_eq!(o.bonus_chain, BonusChain::Max(2));
        o.assign(" d4_bonus = all ").unwrap();
        assert_eq!(o.d4_bonus, D4Bonus::All);
        let e = o.assign("d4_bonus=sometimes").unwrap_err();
        assert!(e.to_string().contains("none, incompetent, all"), "{e}");
        let e = o.assign("explode=yes").unwrap_err();
        assert!(e.to_string().contains("bonus_chain"), "{e}");
        assert!(matches!(o.assign("nonsense"), Err(OptionError::Shape(_))));
    }

    #[test]
    fn chain_limits() {
        assert!(BonusChain::Unlimited.allows(1000));
        assert!(!BonusChain::Max(0).allows(0));
        assert!(BonusChain::Max(2).allows(1));
        assert!(!BonusChain::Max(2).allows(2));
    }

    #[test]
    fn serde_round_trip() {
        let mut o = RuleOptions::default();
        o.assign("bonus_chain=3").unwrap();
        o.assign("fumble=ignore").unwrap();
        let json = serde_json::to_string(&o).unwrap();
        assert!(json.contains("\"bonus_chain\":3"), "{json}");
        let back: RuleOptions = serde_json::from_str(&json).unwrap();
        assert_eq!(back, o);
        let unl: RuleOptions = serde_json::from_str(r#"{"bonus_chain":"unlimited"}"#).unwrap();
        assert_eq!(unl.bonus_chain, BonusChain::Unlimited);
        assert!(serde_json::from_str::<RuleOptions>(r#"{"bogus":1}"#).is_err());
    }
}
