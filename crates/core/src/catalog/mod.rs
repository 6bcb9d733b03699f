//! The catalog: units, weapons and what they cost (Ch. 8, Ch. 10, Ch. D; readings §3).
//!
//! - [`weapon`]: weapons from Weapon Size / Explosive Size by the Ch. 8.1 formulas, and how
//!   a hand-held weapon handles for its wielder.
//! - [`armory`]: named items with fixed stats (minifig weapons, Bastard guns, creature
//!   weapons, equipment).
//! - [`unit`](mod@unit): stat blocks as data, validated against the rules.
//! - [`cost`]: the CP calculator, itemised (and Unit Inches where the texts give them).
//! - [`formula`]: the cost formula per step, which a file overrides to re-cost a catalog.
//! - [`cp`]: exact CP arithmetic.
//! - [`variant`]: Explosive Variants, the dice an Explosive carries in place of its d10s.
//!
//! The built-in units live in `data/units.toml`; a user catalog of the same shape adds or
//! replaces entries ([`Catalog::with_file`]). A bad entry is reported with its file, line and
//! column.

pub mod armory;
pub mod cost;
pub mod cp;
pub mod formula;
pub mod unit;
pub mod variant;
pub mod weapon;

use std::collections::BTreeMap;
use std::path::Path;

pub use cp::Cp;
pub use unit::{Unit, UnitSpec};

/// The built-in catalog's text.
pub const BUILTIN: &str = include_str!("data/units.toml");

/// Resolved units by key.
#[derive(Clone, Debug)]
pub struct Catalog {
    units: BTreeMap<String, Unit>,
}

/// A catalog that cannot be used, with where and why.
pub type CatalogError = crate::input::InputError;

pub use crate::input::line_column;

/// Parses catalog `text` (named `file` in errors) into resolved units.
pub fn parse(file: &str, text: &str) -> Result<BTreeMap<String, Unit>, Vec<CatalogError>> {
    let at = |offset: usize, message: String, hint: String| {
        let (line, column) = line_column(text, offset);
        CatalogError {
            file: file.into(),
            line,
            column,
            message,
            hint,
        }
    };
    let table: BTreeMap<toml::Spanned<String>, toml::Spanned<UnitSpec>> = toml::from_str(text)
        .map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            let message = e.message().trim().to_string();
            let hint = crate::input::unknown_field_hint(&message).unwrap_or_else(|| {
                "each unit is a [key] table of the fields in the built-in catalog (see `diemon unit show minifig --json`, or the built-in catalog in src/catalog/data/units.toml)".into()
            });
            vec![at(offset, message, hint)]
        })?;
    let mut units = BTreeMap::new();
    let mut errors = Vec::new();
    for (key, spec) in table {
        let start = key.span().start;
        match spec.get_ref().resolve(key.get_ref()) {
            Ok(u) => {
                units.insert(key.into_inner(), u);
            }
            Err(es) => errors.extend(es.into_iter().map(|e| {
                at(
                    start,
                    format!("unit {:?}: {}: {}", key.get_ref(), e.field, e.message),
                    e.hint,
                )
            })),
        }
    }
    if errors.is_empty() {
        Ok(units)
    } else {
        Err(errors)
    }
}

/// A unit name, or an armory item added to it, that the catalog does not have or that does
/// not fit the unit (hands, Armor): bad input, said with a hint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EquipError {
    /// No unit by that name; `near` holds the names a few edits away.
    #[error("{}", unknown_text(key, near))]
    UnknownUnit {
        /// The key as asked.
        key: String,
        /// The nearest keys the catalog holds, for a hint.
        near: Vec<String>,
    },
    /// No armory item by that name.
    #[error("no weapon or item called {item:?}\nhint: `diemon weapon list` shows the named items")]
    UnknownItem {
        /// The item as asked.
        item: String,
    },
    /// The unit with its items does not check out (its hands, its Armor, ...).
    #[error("{name}: {}", errors.iter().map(unit::UnitError::to_string).collect::<Vec<_>>().join("; "))]
    Unfit {
        /// The unit as equipped.
        name: String,
        /// What its card breaks.
        errors: Vec<unit::UnitError>,
    },
}

/// "no unit called ..." with a hint: the near keys, or where the list is.
fn unknown_text(key: &str, near: &[String]) -> String {
    format!(
        "no unit called {key:?}\nhint: {}",
        if near.is_empty() {
            "`diemon unit list` shows every unit".to_string()
        } else {
            format!("did you mean {}?", near.join(", "))
        }
    )
}

impl Catalog {
    /// The units of the rule texts: parsed once a process, because every cell of an
    /// experiment asks for them (parsing its TOML was 4% of a catalog's price).
    pub fn builtin() -> Catalog {
        static UNITS: std::sync::LazyLock<BTreeMap<String, Unit>> =
            std::sync::LazyLock::new(|| {
                parse("<built-in catalog>", BUILTIN)
                    .expect("the built-in catalog is valid (pinned by a test)")
            });
        Catalog {
            units: UNITS.clone(),
        }
    }

    /// The built-in units plus those of `path`, whose entries replace built-in ones with the
    /// same key.
    pub fn with_file(path: &Path) -> Result<Catalog, Vec<CatalogError>> {
        let name = path.display().to_string();
        let text = crate::input::read(path).map_err(|e| {
            vec![CatalogError {
                file: name.clone(),
                line: 0,
                column: 0,
                message: format!("cannot read the catalog: {e}"),
                hint: "check the path given to --catalog".into(),
            }]
        })?;
        Catalog::with_text(&name, &text)
    }

    /// The built-in units plus those of a catalog's `text` (named `file` in errors): what an
    /// experiment runs, from the text it read once and keeps in its manifest.
    pub fn with_text(file: &str, text: &str) -> Result<Catalog, Vec<CatalogError>> {
        let mut c = Catalog::builtin();
        c.units.extend(parse(file, text)?);
        Ok(c)
    }

    /// The unit of key `key`, if the catalog holds it.
    pub fn get(&self, key: &str) -> Option<&Unit> {
        self.units.get(key)
    }

    /// Every unit, in key order.
    pub fn units(&self) -> impl Iterator<Item = &Unit> {
        self.units.values()
    }

    /// A unit with extra armory items: `hero+hand-weapon`, `minifig+hand-weapon+body-armor`.
    /// Validated like a catalog entry (hands, Armor bonuses) and priced by the calculator.
    pub fn equipped(&self, name: &str) -> Result<Unit, EquipError> {
        let mut parts = name.split('+').map(str::trim);
        let base = parts.next().unwrap_or_default();
        let u = self.get(base).ok_or_else(|| EquipError::UnknownUnit {
            key: base.to_string(),
            near: self.near(base).into_iter().map(String::from).collect(),
        })?;
        let items: Vec<&str> = parts.collect();
        if items.is_empty() {
            return Ok(u.clone());
        }
        let mut spec = u.spec.clone();
        for i in &items {
            if armory::item_named(i).is_none() {
                return Err(EquipError::UnknownItem {
                    item: i.to_string(),
                });
            }
            spec.weapons.push(unit::WeaponRef::Item(i.to_string()));
        }
        spec.name = format!("{} + {}", spec.name, items.join(" + "));
        spec.resolve(name).map_err(|errors| EquipError::Unfit {
            name: name.to_string(),
            errors,
        })
    }

    /// "no unit called ..." with a hint: the near keys, or where the list is.
    pub fn unknown(&self, key: &str) -> String {
        let near: Vec<String> = self.near(key).into_iter().map(String::from).collect();
        unknown_text(key, &near)
    }

    /// Keys close to `key`, for "did you mean" hints: the whole names a few edits away
    /// (`minifig-hand-wepon`: `minifig-hand-weapon`), else those it is part of or holds.
    pub fn near(&self, key: &str) -> Vec<&str> {
        let keys = || self.units.keys().map(String::as_str);
        let near = crate::input::nearest(key, keys());
        if !near.is_empty() {
            return near;
        }
        let k = key.to_ascii_lowercase();
        keys().filter(|u| u.contains(&k) || k.contains(u)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::cost::breakdown;
    use crate::catalog::unit::Armament;

    fn cp(key: &str) -> Cp {
        breakdown(Catalog::builtin().get(key).unwrap()).total()
    }

    #[test]
    fn builtin_catalog_resolves() {
        let c = Catalog::builtin();
        assert!(c.units().count() >= 20);
    }

    #[test]
    fn worked_examples_cost_exactly_what_the_texts_say() {
        // Ch. 10: Minifig 4, Horse 9, Professor Monkeyhead 9; Ch. 10.4: Cannon Fodder 2,
        // Vermin 2, Venomous and Flying Vermin 3, Dimmy 5.
        for (key, want) in [
            ("minifig", 4),
            ("horse", 9),
            ("warhorse", 13),
            ("professor-monkeyhead", 9),
            ("cannon-fodder", 2),
            ("vermin", 2),
            ("venomous-vermin", 3),
            ("flying-vermin", 3),
            ("dimmy", 5),
            ("hero", 11),
            ("minifig-hand-weapon", 6),
        ] {
            assert_eq!(cp(key), Cp::whole(want), "{key}");
        }
    }

    #[test]
    fn minifig_breakdown_is_the_texts() {
        // Ch. 10: body 0.5 + Move 5" 2.5 + Mind 1.
        let b = breakdown(Catalog::builtin().get("minifig").unwrap());
        let costs: Vec<Cp> = b.items.iter().map(|(_, c)| *c).collect();
        assert_eq!(costs, vec![Cp::halves(1), Cp::halves(5), Cp::whole(1)]);
        assert!(b.unpriced.is_empty());
    }

    #[test]
    fn errors_point_at_the_entry() {
        let text = "[ok]\nname = \"a\"\nsource = \"t\"\nsize = 1\nstructure = \"0\"\nmove = 5\n\n[bad]\nname = \"b\"\nsource = \"t\"\nsize = 1\nstructure = \"3\"\nmove = 5\nskill = \"d20\"\n";
        let e = parse("my.toml", text).unwrap_err();
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(
            e.iter()
                .all(|e| e.file == "my.toml" && e.line == 8 && e.column == 2)
        );
        assert!(e[0].message.contains("Structure Level 3 is above Size 1"));
        assert!(e[1].message.contains("d20 is beyond d12"));
        // A syntax or field error points at the offending text.
        let e = parse("my.toml", "[x]\nname = \"a\"\nsize = 1\ncolour = 3\n").unwrap_err();
        assert_eq!((e[0].line, e[0].column), (4, 1), "{e:?}");
        let e = parse("my.toml", "[x]\nname = 1\n").unwrap_err();
        assert_eq!(e[0].line, 2, "{e:?}");
    }

    #[test]
    fn issue_40_an_explosive_variant_swaps_the_damage_and_keeps_the_cost() {
        // Ch. 8.4 Explosive Variants: "The Explosive's XSize and other stats remain the same".
        let unit = |weapon: &str| {
            format!(
                "[x]\nname = \"x\"\nsource = \"t\"\nsize = 1\nstructure = \"0\"\nmove = 5\n\
                 weapons = [{weapon}]\n"
            )
        };
        let entry = |variant: &str| {
            unit(&format!(
                "{{ kind = \"explosive\", size = 2, variant = \"{variant}\" }}"
            ))
        };
        let fire = &parse("f", &entry("incendiary")).unwrap()["x"];
        let plain = &parse("f", &entry("explosive")).unwrap()["x"];
        let Armament::Sized { name, stats, .. } = &fire.weapons[0] else {
            panic!("{:?}", fire.weapons)
        };
        assert_eq!(
            (name.as_str(), stats.damage.to_string()),
            ("2\" incendiary explosive", "2d4 fire".into())
        );
        assert_eq!(breakdown(fire).total(), breakdown(plain).total());
        let phased = &parse("f", &entry("phased")).unwrap()["x"];
        let Armament::Sized { stats, .. } = &phased.weapons[0] else {
            panic!()
        };
        assert_eq!(stats.damage.to_string(), "1d12 phased");
        // The rules refuse what they do not allow, naming the entry.
        let e = parse(
            "f",
            &unit("{ kind = \"explosive\", size = 1, variant = \"phased\" }"),
        )
        .unwrap_err();
        assert!(e[0].message.contains("Phased d12 costs two dice"), "{e:?}");
        let e = parse(
            "f",
            &unit("{ kind = \"gun\", size = 1, variant = \"incendiary\" }"),
        )
        .unwrap_err();
        assert!(e[0].message.contains("no Explosive Variant"), "{e:?}");
        assert_eq!((e[0].line, e[0].column), (1, 2), "{e:?}");
        // Any combination: a Phased d12 for two of XSize 3's d10s, the third kept.
        let mixed = &parse(
            "f",
            &unit("{ kind = \"explosive\", size = 3, variant = { phased = 1 } }"),
        )
        .unwrap()["x"];
        let Armament::Sized { name, stats, .. } = &mixed.weapons[0] else {
            panic!()
        };
        assert_eq!(name, "3\" explosive (1 phased)");
        assert_eq!(stats.damage.to_string(), "1d10 exp + 1d12 phased");
        let e = parse(
            "f",
            &unit("{ kind = \"explosive\", size = 3, variant = { phased = 2 } }"),
        )
        .unwrap_err();
        assert!(e[0].message.contains("swaps take 4 of the d10s"), "{e:?}");
        // A misspelt variant is pointed at, with the names it may take.
        let e = parse("f", &entry("napalm")).unwrap_err();
        assert_eq!((e[0].line, e[0].column), (7, 54), "{e:?}");
        assert!(
            e[0].message.contains("expected one of `explosive`"),
            "{e:?}"
        );
    }

    #[test]
    fn two_handed_weapon_on_a_one_armed_unit() {
        let text = "[x]\nname = \"x\"\nsource = \"t\"\nsize = 1\nstructure = \"0\"\nmove = 5\nhands = 1\nweapons = [\"two-handed-weapon\"]\n";
        let e = parse("f", text).unwrap_err();
        assert!(e[0].message.contains("takes 2 hands"), "{e:?}");
    }

    #[test]
    fn sizes_beyond_any_table_are_refused() {
        let text =
            "[x]\nname = \"x\"\nsource = \"t\"\nsize = 1\nstructure = \"0\"\nmove = 4000000000\n";
        let e = parse("f", text).unwrap_err();
        assert!(e[0].message.contains("beyond any table"), "{e:?}");
    }

    #[test]
    fn assumed_names_only_stats() {
        let text = "[x]\nname = \"x\"\nsource = \"t\"\nsize = 1\nstructure = \"0\"\nmove = 5\nassumed = [\"move\", \"colour\"]\n";
        let e = parse("f", text).unwrap_err();
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].message.contains("\"colour\" is not a stat"), "{e:?}");
    }

    #[test]
    fn equipped_units_add_items_and_their_price() {
        let c = Catalog::builtin();
        let h = c.equipped("hero+hand-weapon").unwrap();
        assert_eq!(h.key, "hero+hand-weapon");
        assert_eq!(
            breakdown(&h).total(),
            Cp::whole(13),
            "11 + a 2 CP Hand Weapon"
        );
        let m = c.equipped("minifig + hand-weapon + body-armor").unwrap();
        assert_eq!(m.armor.text(), "4 + 2");
        assert_eq!(breakdown(&m).total(), Cp::whole(7));
        let laser = c.equipped("hero+laser").unwrap_err();
        assert_eq!(
            laser,
            EquipError::UnknownItem {
                item: "laser".into()
            }
        );
        assert!(
            laser
                .to_string()
                .starts_with("no weapon or item called \"laser\"")
        );
        let nobody = c.equipped("herp+hand-weapon").unwrap_err();
        assert!(
            matches!(&nobody, EquipError::UnknownUnit { key, near } if key == "herp" && near.contains(&"hero".to_string())),
            "{nobody:?}"
        );
        assert!(nobody.to_string().contains("did you mean"), "{nobody}");
        // Validation still runs: a Horse has no hands for a Two-Handed Weapon.
        let e = c.equipped("horse+two-handed-weapon").unwrap_err();
        assert!(
            matches!(&e, EquipError::Unfit { errors, .. } if !errors.is_empty()),
            "{e:?}"
        );
        assert!(e.to_string().contains("takes 2 hands"), "{e}");
    }

    #[test]
    fn user_entries_replace_builtin_ones() {
        let dir = std::env::temp_dir().join(format!("diemon-cat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("c.toml");
        std::fs::write(
            &f,
            "[minifig]\nname = \"Big minifig\"\nsource = \"mine\"\nsize = 2\nstructure = \"0\"\nmove = 6\n",
        )
        .unwrap();
        let c = Catalog::with_file(&f).unwrap();
        assert_eq!(c.get("minifig").unwrap().spec.name, "Big minifig");
        assert!(c.get("horse").is_some());
        // body 1 + Move 3 + Mind 2.
        assert_eq!(breakdown(c.get("minifig").unwrap()).total(), Cp::whole(6));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
