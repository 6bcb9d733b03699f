//! `diemon duel`'s squad question: two squads of catalog units, each with its policies,
//! filled to a CP budget when one is given.

use super::Error;
use super::duel::{DuelArgs, first};
use crate::catalog::Catalog;
use crate::catalog::cp::Cp;
use crate::options::RuleOptions;
use crate::scenario::squad::roster::{self, MAX_PER_SIDE};
use crate::scenario::squad::{Policy, SideSpec, Squad};

/// Whether the arguments ask for squads rather than the shorthand duel.
pub fn wanted(a: &DuelArgs) -> bool {
    a.a_squad.is_some()
        || a.b_squad.is_some()
        || a.budget.is_some()
        || !a.a.contains('/')
        || !a.b.contains('/')
}

/// Checks every flag and builds the squad duel, without running it.
pub fn build(a: &DuelArgs, opts: &RuleOptions) -> Result<Squad, Error> {
    let shorthand_flags = a.a_skill.is_some()
        || a.a_use.is_some()
        || a.a_damage.is_some()
        || a.a_armor.is_some()
        || a.b_skill.is_some()
        || a.b_use.is_some()
        || a.b_damage.is_some()
        || a.b_armor.is_some();
    if shorthand_flags {
        return Err(Error::input(
            "--a-skill/--a-use/--a-damage/--a-armor (and B's) change a SKILL/USE/DAMAGE/ARMOR \
             side, not catalog units\nhint: write both sides as shorthand, e.g. d6/2/1d6/4, or \
             drop those flags",
        ));
    }
    if !(1..=10_000).contains(&a.max_turns) {
        return Err(Error::input(format!(
            "--max-turns {}: expected 1 to 10000 player turns",
            a.max_turns
        )));
    }
    if a.distance > 1000 {
        return Err(Error::input(format!(
            "--distance {}: expected 0 to 1000 inches",
            a.distance
        )));
    }
    a.flags().check()?;
    let catalog = super::catalog(a.catalog.as_ref(), a.run.out.part.catalog_text.as_deref())?;
    let sa = side('A', a.a_squad.as_deref().unwrap_or(&a.a), a, &catalog, opts)?;
    let sb = side('B', a.b_squad.as_deref().unwrap_or(&a.b), a, &catalog, opts)?;
    Squad::new(sa, sb, a.distance, first(a), a.max_turns, *opts)
        .map(|s| s.with_room(a.room))
        .map_err(|e| Error::input(e.to_string()))
}

fn side(
    name: char,
    text: &str,
    a: &DuelArgs,
    catalog: &Catalog,
    opts: &RuleOptions,
) -> Result<SideSpec, Error> {
    let bad = |m: String| Error::input(format!("side {name}: {m}"));
    if text.contains('/') {
        return Err(bad(format!(
            "{text:?} is a SKILL/USE/DAMAGE/ARMOR stat line, but the other side is catalog \
             units\nhint: give both sides as catalog units (`diemon unit list`) or both as stat \
             lines"
        )));
    }
    let mut units = roster::parse(text).map_err(|e| bad(e.message))?;
    if let Some(budget) = a.budget {
        if !(budget > 0.0 && (budget * 4.0).fract() == 0.0 && budget <= 1e6) {
            return Err(Error::input(format!(
                "--budget {budget}: expected a CP amount above 0, in quarter points (44, 22.5)"
            )));
        }
        let [(key, 1)] = &units[..] else {
            return Err(bad(format!(
                "--budget fills a side with one unit; {text:?} lists more\nhint: drop the \
                 counts, e.g. --budget 44 minifig-hand-weapon hero-hand-weapon"
            )));
        };
        let u = catalog.equipped(key).map_err(bad)?;
        let each = crate::catalog::cost::breakdown(&u).total();
        let n = roster::fill(each, Cp::quarters((budget * 4.0) as i64)).map_err(|m| {
            bad(format!(
                "{key}: {m}{}",
                if m.contains("at most") {
                    format!(" (lower --budget; {MAX_PER_SIDE} units a side at most)")
                } else {
                    String::new()
                }
            ))
        })?;
        units = vec![(key.clone(), n)];
    }
    let policy = if name == 'A' {
        Policy {
            target: a.a_target,
            position: a.a_position,
            response: a.a_response,
            sprint: a.a_sprint,
            cover: a.a_cover,
            blind: a.a_blind,
            spend: a.a_spend,
            amputate: a.a_amputate,
            aim: a.a_aim,
            spacing: a.a_spacing,
            auto: a.a_auto,
            bail: a.a_bail,
            formation: a.a_formation,
        }
    } else {
        Policy {
            target: a.b_target,
            position: a.b_position,
            response: a.b_response,
            sprint: a.b_sprint,
            cover: a.b_cover,
            blind: a.b_blind,
            spend: a.b_spend,
            amputate: a.b_amputate,
            aim: a.b_aim,
            spacing: a.b_spacing,
            auto: a.b_auto,
            bail: a.b_bail,
            formation: a.b_formation,
        }
    };
    SideSpec::from_catalog(catalog, &units, policy, opts).map_err(bad)
}
