//! Competent conduct (issue 39): the choices the rules leave each side in a priced battle,
//! as named menus, so that no price rests on a choice no competent player would make.
//!
//! In every scenario each side picks a [`Conduct`] from its menu; the unit's win chance in a
//! cell is then a small zero-sum game between the two menus, and the price reads the
//! game's value ([`crate::analysis::game`]). A side's menu holds where its own Explosives
//! aim, and its answers to the enemy's weapons: against Explosives or automatic weapons,
//! how far apart its figures stand and whether they Bail from the blasts; against
//! shooters, whether they Bail from gunfire; for a unit with a spare hand weapon, whether
//! it throws it (Ch. 8.4); and, for a unit whose weapon both strikes and shoots (a Mook
//! Weapon, a Wand or Staff), how it Responds (Ch. 4.3: its Angry Inch may carry it into a
//! melee it cannot join, where a shot or no Response would serve it better); and, for a
//! unit whose Power Size Damage may leave short of a weapon, whether it Diverts All Power
//! (Ch. 8.1).
//! A choice that touches nothing in the battle is left off the menu, so a melee unit priced
//! against melee references runs one battle a cell, as before. `--conduct fixed` keeps
//! each side to the default policies (the menus' first conduct).

use diemon_core::scenario::squad::kind::Kind;
use diemon_core::scenario::squad::policy::{
    AreaAim, Bail, Conduct as Walk, Divert, Lob, Response, Spacing, Throw,
};

/// How the sides of a priced battle choose their conduct.
#[derive(
    Copy,
    Clone,
    Debug,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Each side picks from its menu as a competent player would: the value of the game.
    #[default]
    Competent,
    /// Both sides keep the default policies (1.5" apart, never Bail), as before issue 39.
    Fixed,
}

/// The mode in words, for a price's page and output.
pub fn describe(mode: Mode) -> &'static str {
    match mode {
        Mode::Competent => {
            "competent: each side picks where its Explosives aim and whether it lobs them \
             beyond 12\", whether it throws a spare hand weapon, how a unit that both strikes \
             and shoots Responds, whether it Diverts All Power, its spacing and \
             when it Bails from a menu of answers to the enemy's weapons (on a table, also \
             whether it flanks, walks from cover to cover or spreads out), and a cell's win \
             chance is \
             the value of the game between the menus (the conduct that priced each scenario \
             is named beside it)"
        }
        Mode::Fixed => "fixed: both sides keep the default policies (1.5\" apart, never Bail)",
    }
}

/// One choice a side makes, as a policy it fights under.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// How far apart its figures stand abreast (Ch. 8.4: what one Explosion catches).
    Spacing(Spacing),
    /// When its units Bail (Ch. 4.3).
    Bail(Bail),
    /// Where its Explosives aim (Ch. 8.4: a thrower picks the spot the blast centres on).
    Aim(AreaAim),
    /// Whether its units throw a spare hand weapon (Ch. 8.4 Thrown Minifig Weapons).
    Throw(Throw),
    /// How its units Respond (Ch. 4.3 Enemy Response).
    Response(Response),
    /// Whether its units Divert All Power to a weapon beyond their Power (Ch. 8.1).
    Divert(Divert),
    /// Whether its Explosives fire at targets beyond 12" (Ch. 8.4 Trajectories).
    Lob(Lob),
    /// How its units walk on a table (issue 43): at the enemy, from cover to cover, or
    /// spread out.
    Walk(Walk),
}

/// The Responses a unit that both strikes and shoots chooses among: the default first.
pub const RESPONSES: [Response; 3] = [Response::All, Response::Close, Response::None];

/// The aims an Explosive user chooses among: the default first. `most-cp` is left off: a
/// price's enemy is one kind of unit, so the most enemy CP in a blast is the most enemies.
pub const AIMS: [AreaAim; 2] = [AreaAim::Densest, AreaAim::Nearest];

/// The spacings a side standing against area weapons chooses among: the default first.
pub const SPACINGS: [Spacing; 3] = [Spacing(6), Spacing(2), Spacing(12)];

/// A side's conduct: its choices (none: the default policies).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Conduct {
    /// The policy choices that differ from the defaults.
    pub choices: Vec<Choice>,
}

impl Conduct {
    /// The experiment file's `[scenario]` keys that set it for side `side` ('a' or 'b').
    pub fn keys(&self, side: char) -> Vec<(String, String)> {
        self.choices
            .iter()
            .map(|c| match c {
                Choice::Spacing(s) => (format!("{side}_spacing"), s.to_string()),
                Choice::Bail(b) => (format!("{side}_bail"), bail_name(*b).to_string()),
                Choice::Aim(a) => (format!("{side}_aim"), aim_name(*a).to_string()),
                Choice::Throw(t) => (format!("{side}_throw"), throw_name(*t).to_string()),
                Choice::Response(r) => (format!("{side}_response"), response_name(*r).to_string()),
                Choice::Divert(d) => (format!("{side}_divert"), divert_name(*d).to_string()),
                Choice::Lob(l) => (format!("{side}_lob"), lob_name(*l).to_string()),
                Choice::Walk(w) => (format!("{side}_conduct"), walk_name(*w).to_string()),
            })
            .collect()
    }

    /// In words: `3" apart, Bails from blasts` (empty for the default policies).
    pub fn words(&self) -> String {
        self.choices
            .iter()
            .map(|c| match c {
                Choice::Spacing(s) => format!("{s}\" apart"),
                Choice::Bail(Bail::Never) => "never Bails".into(),
                Choice::Bail(Bail::Blast) => "Bails from blasts".into(),
                Choice::Bail(Bail::All) => "Bails from blasts and gunfire".into(),
                Choice::Aim(a) => format!("aims at the {} enemy", aim_name(*a)),
                Choice::Throw(Throw::Never) => "keeps its hand weapons".into(),
                Choice::Throw(_) => "throws a spare hand weapon".into(),
                Choice::Response(Response::All) => "Responds with the Angry Inch or a shot".into(),
                Choice::Response(Response::Inch) => "Responds with the Angry Inch".into(),
                Choice::Response(Response::Close) => "Responds only in contact".into(),
                Choice::Response(Response::None) => "never Responds".into(),
                Choice::Divert(Divert::Never) => "never Diverts All Power".into(),
                Choice::Divert(Divert::InReach) => "Diverts All Power to its largest weapon".into(),
                Choice::Lob(Lob::Near) => "fires Explosives within 12\"".into(),
                Choice::Lob(Lob::Far) => "lobs Explosives beyond 12\"".into(),
                Choice::Walk(Walk::Advance) => "advances by the shortest way".into(),
                Choice::Walk(Walk::Cover) => "advances from cover to cover".into(),
                Choice::Walk(Walk::Spread) => "spreads out against Explosives".into(),
                Choice::Walk(Walk::Flank) => "flanks (walks outside the enemy's cones)".into(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A folder name's part: `spacing-3_bail-blast` (`as-listed` for the defaults).
    pub fn slug(&self) -> String {
        if self.choices.is_empty() {
            return "as-listed".into();
        }
        self.choices
            .iter()
            .map(|c| match c {
                Choice::Spacing(s) => format!("spacing-{}", s.to_string().replace('.', "p")),
                Choice::Bail(b) => format!("bail-{}", bail_name(*b)),
                Choice::Aim(a) => format!("aim-{}", aim_name(*a)),
                Choice::Throw(t) => format!("throw-{}", throw_name(*t)),
                Choice::Response(r) => format!("response-{}", response_name(*r)),
                Choice::Divert(d) => format!("divert-{}", divert_name(*d)),
                Choice::Lob(l) => format!("lob-{}", lob_name(*l)),
                Choice::Walk(w) => format!("walk-{}", walk_name(*w)),
            })
            .collect::<Vec<_>>()
            .join("_")
    }
}

fn aim_name(a: AreaAim) -> &'static str {
    match a {
        AreaAim::Densest => "densest",
        AreaAim::Nearest => "nearest",
        AreaAim::MostCp => "most-cp",
    }
}

fn throw_name(t: Throw) -> &'static str {
    match t {
        Throw::Never => "never",
        Throw::Spare => "spare",
        Throw::Last => "last",
    }
}

fn response_name(r: Response) -> &'static str {
    match r {
        Response::None => "none",
        Response::Close => "close",
        Response::Inch => "inch",
        Response::All => "all",
    }
}

fn divert_name(d: Divert) -> &'static str {
    match d {
        Divert::Never => "never",
        Divert::InReach => "in-reach",
    }
}

fn lob_name(l: Lob) -> &'static str {
    match l {
        Lob::Near => "near",
        Lob::Far => "far",
    }
}

fn walk_name(w: Walk) -> &'static str {
    match w {
        Walk::Advance => "advance",
        Walk::Cover => "cover",
        Walk::Spread => "spread",
        Walk::Flank => "flank",
    }
}

fn bail_name(b: Bail) -> &'static str {
    match b {
        Bail::Never => "never",
        Bail::Blast => "blast",
        Bail::All => "all",
    }
}

/// Both sides' menus in one scenario: the unit's (rows of the game) and the reference's
/// (its columns). Each lists the default policies first, so ties go to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menus {
    /// The unit's conducts: the game's rows.
    pub unit: Vec<Conduct>,
    /// The reference's conducts: its columns.
    pub reference: Vec<Conduct>,
}

impl Menus {
    /// The menus of `unit` against `reference` under `mode`, on a table or not (`table`:
    /// how to walk is a choice only on one).
    pub fn of(unit: &Kind, reference: &Kind, mode: Mode, table: bool) -> Menus {
        match mode {
            Mode::Fixed => Menus {
                unit: vec![Conduct::default()],
                reference: vec![Conduct::default()],
            },
            Mode::Competent => Menus {
                unit: menu(unit, reference, table),
                reference: menu(reference, unit, table),
            },
        }
    }

    /// The battles a cell fights: one per pair of conducts.
    pub fn pairs(&self) -> usize {
        self.unit.len() * self.reference.len()
    }

    /// Pair `k` (row-major: the unit's conduct, then the reference's).
    pub fn pair(&self, k: usize) -> (&Conduct, &Conduct) {
        let n = self.reference.len();
        (&self.unit[k / n], &self.reference[k % n])
    }
}

/// A side's menu: where its own Explosives aim (`own`), whether it throws a spare hand
/// weapon, Diverts All Power or lobs Explosives beyond 12", by its answers to an `enemy`'s weapons. Spacing only matters to area effects
/// (the Explosives and automatic weapons' arcs measure across the line); Bailing from
/// blasts only to Explosives; from gunfire only to ranged weapons. Throwing a unit's last
/// weapon is left off (it leaves nothing to fight with in Close Combat).
fn menu(own: &Kind, enemy: &Kind, table: bool) -> Vec<Conduct> {
    let mut own_choices: Vec<Vec<Choice>> = vec![vec![]];
    if own.explosives.is_some() {
        own_choices = AIMS.iter().map(|&a| vec![Choice::Aim(a)]).collect();
    }
    if spare_to_throw(own) {
        own_choices = each_with(
            &own_choices,
            [Throw::Never, Throw::Spare].map(Choice::Throw),
        );
    }
    if strikes_and_shoots(own) {
        own_choices = each_with(&own_choices, RESPONSES.map(Choice::Response));
    }
    if own.may_divert() {
        own_choices = each_with(
            &own_choices,
            [Divert::Never, Divert::InReach].map(Choice::Divert),
        );
    }
    if own.explosives.is_some_and(|x| x.lobs()) {
        own_choices = each_with(&own_choices, [Lob::Near, Lob::Far].map(Choice::Lob));
    }
    let answers = answers(enemy, table);
    own_choices
        .iter()
        .flat_map(|own| {
            answers.iter().map(move |c| {
                let mut choices = own.clone();
                choices.extend(c.choices.iter().copied());
                Conduct { choices }
            })
        })
        .collect()
}

/// Every list of `choices` extended by each of `options` in turn (the default first).
fn each_with<const N: usize>(choices: &[Vec<Choice>], options: [Choice; N]) -> Vec<Vec<Choice>> {
    choices
        .iter()
        .flat_map(|c| {
            options.map(|o| {
                let mut c = c.clone();
                c.push(o);
                c
            })
        })
        .collect()
}

/// Whether one of `k`'s weapons both strikes in Close Combat and shoots: its Response may
/// step the Angry Inch into melee or shoot (Ch. 4.3), and which serves it is a choice.
fn strikes_and_shoots(k: &Kind) -> bool {
    k.arms.iter().any(|a| a.close && a.range.is_some())
}

/// Whether `k` carries a throwable weapon and another Close Combat weapon to keep.
fn spare_to_throw(k: &Kind) -> bool {
    k.arms.iter().any(|a| a.throwable) && k.arms.iter().filter(|a| a.close).count() >= 2
}

/// A side's answers to an `enemy`'s weapons, on a `table` or not.
fn answers(enemy: &Kind, table: bool) -> Vec<Conduct> {
    let area = enemy.explosives.is_some() || enemy.arms.iter().any(|a| a.auto.is_some());
    let gunfire = enemy.arms.iter().any(|a| a.range.is_some());
    let mut spacings: Vec<Option<Spacing>> = vec![None];
    if area {
        spacings = SPACINGS.iter().copied().map(Some).collect();
    }
    let mut bails = vec![Bail::Never];
    if enemy.explosives.is_some() {
        bails.push(Bail::Blast);
    }
    if gunfire {
        bails.push(Bail::All);
    }
    // On a table: flank against any enemy (every one may Respond, Ch. 4.3), from cover
    // to cover against shooters (cover only hides from sight), spread out against
    // Explosions.
    let mut walks = vec![Walk::Advance];
    if table {
        walks.push(Walk::Flank);
    }
    if table && gunfire {
        walks.push(Walk::Cover);
    }
    if table && enemy.explosives.is_some() {
        walks.push(Walk::Spread);
    }
    let mut out = Vec::new();
    for s in &spacings {
        for &b in &bails {
            for &w in &walks {
                let mut choices: Vec<Choice> = s.iter().map(|&s| Choice::Spacing(s)).collect();
                if bails.len() > 1 {
                    choices.push(Choice::Bail(b));
                }
                if walks.len() > 1 {
                    choices.push(Choice::Walk(w));
                }
                out.push(Conduct { choices });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use diemon_core::catalog::Catalog;
    use diemon_core::options::RuleOptions;

    fn kind(name: &str) -> Kind {
        let c = Catalog::builtin();
        let u = c.equipped(name).unwrap();
        let cp = diemon_core::catalog::cost::breakdown(&u).total();
        Kind::from_unit(&u, cp, &RuleOptions::default()).unwrap()
    }

    #[test]
    fn a_side_answers_the_enemys_weapons_and_nothing_else() {
        let (launcher, sword, rifle) = (
            kind("minifig-launcher"),
            kind("minifig-hand-weapon"),
            kind("minifig-rifle"),
        );
        // Melee against melee: nothing to choose, one battle a cell.
        let m = Menus::of(&sword, &kind("hero-hand-weapon"), Mode::Competent, false);
        assert_eq!((m.unit.len(), m.reference.len()), (1, 1));
        assert_eq!(m.unit[0], Conduct::default());
        // Against a Launcher: three spacings, and Bailing from blasts or not; the Launcher
        // aims at the densest or the nearest enemy.
        let m = Menus::of(&launcher, &sword, Mode::Competent, false);
        assert_eq!((m.unit.len(), m.reference.len()), (2, 6));
        assert_eq!(m.unit[1].words(), "aims at the nearest enemy");
        assert_eq!(m.unit[1].slug(), "aim-nearest");
        assert_eq!(
            m.unit[1].keys('a'),
            [("a_aim".to_string(), "nearest".to_string())]
        );
        assert_eq!(m.reference[0].words(), "1.5\" apart, never Bails");
        assert_eq!(m.reference[5].words(), "3\" apart, Bails from blasts");
        assert_eq!(m.reference[5].slug(), "spacing-3_bail-blast");
        assert_eq!(
            m.reference[5].keys('b'),
            [
                ("b_spacing".to_string(), "3".to_string()),
                ("b_bail".to_string(), "blast".to_string())
            ]
        );
        // Against riflemen: Bail from gunfire or not; spacing does not matter.
        let m = Menus::of(&sword, &rifle, Mode::Competent, false);
        assert_eq!(m.unit.len(), 2);
        assert_eq!(m.unit[1].words(), "Bails from blasts and gunfire");
        assert_eq!(m.pair(1), (&m.unit[1], &m.reference[0]));
        // A spare Hand Weapon: keep it or throw it (Ch. 8.4); one weapon is kept.
        let two = kind("minifig+hand-weapon+hand-weapon");
        let m = Menus::of(&two, &sword, Mode::Competent, false);
        assert_eq!((m.unit.len(), m.reference.len()), (2, 1));
        assert_eq!(m.unit[1].words(), "throws a spare hand weapon");
        assert_eq!(
            m.unit[1].keys('a'),
            [("a_throw".to_string(), "spare".to_string())]
        );
        assert_eq!(m.unit[0].slug(), "throw-never");
        // A Mook Weapon strikes and shoots: Cannon Fodder choose how they Respond.
        let m = Menus::of(&kind("cannon-fodder"), &sword, Mode::Competent, false);
        assert_eq!(m.unit.len(), 3);
        assert_eq!(m.unit[2].words(), "never Responds");
        assert_eq!(
            m.unit[1].keys('a'),
            [("a_response".to_string(), "close".to_string())]
        );
        assert_eq!(m.unit[0].slug(), "response-all");
        // A Scorpiosaurus Rex may lose the Power for its stinger: Divert or not (Ch. 8.1).
        let m = Menus::of(&kind("scorpiosaurus-rex"), &sword, Mode::Competent, false);
        assert_eq!(m.unit.len(), 2);
        assert_eq!(m.unit[1].slug(), "divert-in-reach");
        assert_eq!(
            m.unit[1].keys('a'),
            [("a_divert".to_string(), "in-reach".to_string())]
        );
        // A Launcher whose Range passes 12": fire within 12" or lob beyond (Ch. 8.4).
        let text = "[ogre]\nname = \"Ogre\"\nsource = \"test\"\nsize = 4\nstructure = \"0\"\nmove = 5\n\
                    weapons = [{ kind = \"launcher\", size = 4, name = \"Mortar\" }, \
                    { kind = \"explosive\", size = 1, name = \"Missile\" }]\n";
        let c = Catalog::with_text("test.toml", text).unwrap();
        let u = c.equipped("ogre").unwrap();
        let cp = diemon_core::catalog::cost::breakdown(&u).total();
        let ogre = Kind::from_unit(&u, cp, &RuleOptions::default()).unwrap();
        let m = Menus::of(&ogre, &sword, Mode::Competent, false);
        assert_eq!(m.unit.len(), 4, "two aims, each near or far");
        assert_eq!(m.unit[1].slug(), "aim-densest_lob-far");
        assert_eq!(
            m.unit[1].keys('a')[1],
            ("a_lob".to_string(), "far".to_string())
        );
        assert!(
            Menus::of(&launcher, &sword, Mode::Competent, false)
                .unit
                .len()
                == 2
        );
        // Fixed: the default policies alone.
        let m = Menus::of(&launcher, &rifle, Mode::Fixed, false);
        assert_eq!(m.pairs(), 1);
        assert_eq!(m.unit[0].slug(), "as-listed");
    }

    #[test]
    fn issue_43_on_a_table_a_side_may_flank_take_cover_from_shooters_and_spread_from_blasts() {
        let (launcher, sword, rifle) = (
            kind("minifig-launcher"),
            kind("minifig-hand-weapon"),
            kind("minifig-rifle"),
        );
        // Melee against melee: advance or flank, four battles a cell.
        let m = Menus::of(&sword, &kind("hero-hand-weapon"), Mode::Competent, true);
        assert_eq!(m.pairs(), 4);
        assert_eq!(
            m.unit[1].words(),
            "flanks (walks outside the enemy's cones)"
        );
        // Against riflemen: each Bail, advancing, flanking or from cover to cover.
        let m = Menus::of(&sword, &rifle, Mode::Competent, true);
        let words: Vec<String> = m.unit.iter().map(Conduct::words).collect();
        assert_eq!(
            words,
            [
                "never Bails, advances by the shortest way",
                "never Bails, flanks (walks outside the enemy's cones)",
                "never Bails, advances from cover to cover",
                "Bails from blasts and gunfire, advances by the shortest way",
                "Bails from blasts and gunfire, flanks (walks outside the enemy's cones)",
                "Bails from blasts and gunfire, advances from cover to cover",
            ]
        );
        assert_eq!(
            m.unit[2].keys('b'),
            [
                ("b_bail".to_string(), "never".to_string()),
                ("b_conduct".to_string(), "cover".to_string())
            ]
        );
        assert_eq!(m.unit[5].slug(), "bail-all_walk-cover");
        // Against a Launcher: spreading out joins each spacing and Bail.
        let m = Menus::of(&launcher, &sword, Mode::Competent, true);
        assert_eq!(m.reference.len(), 6 * 3);
        assert!(
            m.reference
                .iter()
                .any(|c| c.slug() == "spacing-3_bail-blast_walk-spread")
        );
        // Fixed stays fixed on a table.
        assert_eq!(Menus::of(&sword, &rifle, Mode::Fixed, true).pairs(), 1);
    }
}
