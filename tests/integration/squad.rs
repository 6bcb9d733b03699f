//! Squad duels through the engine: the one-on-one closed form through the squad machinery,
//! thread invariance, symmetry, more Armor never hurting, and a value-stability pin.

use diemon::analysis::Estimate;
use diemon::catalog::Catalog;
use diemon::dice::{Expr, Pmf};
use diemon::rules::RuleOptions;
use diemon::scenario::duel::First;
use diemon::scenario::squad::{Policy, SideSpec, Squad, SquadTally};
use diemon::sim::engine::Stop;

fn side(units: &[(&str, u32)], o: &RuleOptions) -> SideSpec {
    let units: Vec<(String, u32)> = units.iter().map(|(k, n)| (k.to_string(), *n)).collect();
    SideSpec::from_catalog(&Catalog::builtin(), &units, Policy::default(), o).unwrap()
}

fn squad(
    a: &[(&str, u32)],
    b: &[(&str, u32)],
    distance: u32,
    first: First,
    o: RuleOptions,
) -> Squad {
    Squad::new(side(a, &o), side(b, &o), distance, first, 100, o).unwrap()
}

fn run(s: &Squad, trials: u64, seed: u64, threads: usize) -> SquadTally {
    crate::run_on(s, Stop::Trials(trials), seed, threads).tally
}

#[test]
fn one_on_one_in_contact_keeps_the_closed_form() {
    // Two catalog units in base contact, A first, overskill=skill: A wins with
    // p_A / (1 - (1 - p_A)(1 - p_B)), as the stat-line duel. 99.9% Wilson interval
    // (alpha = 0.001), fixed seed.
    let mut o = RuleOptions::default();
    o.assign("overskill=skill").unwrap();
    let p_kill = |skill: &str, use_rating: i64, damage: &str, armor: &str| {
        let hit = Expr::parse(&format!("{skill} skill"))
            .unwrap()
            .exact(&o, 1e-12)
            .p_meets(use_rating, &o, 1e-12);
        let armor: Pmf = Expr::parse(armor).unwrap().exact(&o, 1e-12).total().clone();
        hit * Expr::parse(damage)
            .unwrap()
            .exact(&o, 1e-12)
            .p_beats(&armor)
    };
    // Minifig (d6, Hand Weapon Use 2, 1d6, Armor 4) against Hero (d10, Hand Weapon, 2d6).
    let pa = p_kill("d6", 2, "1d6", "2d6");
    let pb = p_kill("d10", 2, "1d6", "4");
    for (a, b, pa, pb) in [
        ("minifig-hand-weapon", "hero-hand-weapon", pa, pb),
        ("hero-hand-weapon", "minifig-hand-weapon", pb, pa),
    ] {
        let s = squad(&[(a, 1)], &[(b, 1)], 0, First::A, o);
        let t = run(&s, 300_000, 77, 2);
        let want = pa / (1.0 - (1.0 - pa) * (1.0 - pb));
        let e = Estimate::proportion(t.a_wins, t.trials, 0.999);
        assert!(e.covers(want), "{a} vs {b}: closed form {want}, MC {e:?}");
    }
}

#[test]
fn any_thread_count_gives_the_same_squad_tally() {
    let s = squad(
        &[("minifig-hand-weapon", 6)],
        &[("hero-hand-weapon", 2), ("minifig-rifle", 1)],
        12,
        First::Random,
        RuleOptions::default(),
    );
    let one = run(&s, 70_000, 3, 1);
    assert_eq!(one.trials, 70_000);
    assert_eq!(run(&s, 70_000, 3, 3), one);
}

#[test]
fn identical_sides_with_a_roll_off_win_half_the_time() {
    // Symmetry: P(A wins) = P(B wins) when the first side is a fair roll-off. Two-sided
    // test at alpha = 0.001 on P(A wins | decided), fixed seed.
    let s = squad(
        &[("minifig-hand-weapon", 6)],
        &[("minifig-hand-weapon", 6)],
        12,
        First::Random,
        RuleOptions::default(),
    );
    let t = run(&s, 100_000, 9, 2);
    let e = Estimate::proportion(t.a_wins, t.a_wins + t.b_wins, 0.999);
    assert!(e.covers(0.5), "{e:?}");
    // Who moves first does matter (at 12" the side that closes in last gets the Response
    // strikes, Ch. 4.1), so the test can tell a real edge apart from symmetry.
    let f = Estimate::proportion(t.first_wins, t.trials, 0.999);
    assert!(!f.covers(0.5), "{f:?}");
}

#[test]
fn more_armor_never_lowers_the_win_rate() {
    // The same squad with Body Armor (+2, Armor 6) against the same enemy: one-sided test
    // of p_armored >= p_plain at alpha = 0.001 (z = 3.09), fixed seeds; also per option
    // that changes how Armor works.
    for opt in [
        "minifig_armor=fixed4",
        "minifig_armor=1d6",
        "armor_tie=dismemberment",
    ] {
        let mut o = RuleOptions::default();
        o.assign(opt).unwrap();
        let enemy = [("minifig-hand-weapon", 4)];
        let plain = run(
            &squad(&[("minifig-hand-weapon", 4)], &enemy, 6, First::Random, o),
            60_000,
            21,
            2,
        );
        let armored = run(
            &squad(&[("minifig-body-armor", 4)], &enemy, 6, First::Random, o),
            60_000,
            22,
            2,
        );
        let p = |t: &SquadTally| t.a_wins as f64 / t.trials as f64;
        let se = (p(&plain) * (1.0 - p(&plain)) / 60_000.0
            + p(&armored) * (1.0 - p(&armored)) / 60_000.0)
            .sqrt();
        let z = (p(&armored) - p(&plain)) / se;
        assert!(
            z > -3.09,
            "{opt}: armored {} vs plain {}",
            p(&armored),
            p(&plain)
        );
        assert!(p(&armored) > p(&plain), "{opt}: Armor 6 should help");
    }
}

#[test]
fn trials_allocate_nothing() {
    // DESIGN: "a scenario's inner loop allocates nothing". Squads with every feature that
    // keeps state (Vermin pools, Parry, KnockBack, Responses, Sprint), the melee duel, and a
    // turn of Explosive fire at a random scatter.
    use diemon::dice::NoLog;
    use diemon::scenario::Scenario;
    let mut o = RuleOptions::default();
    o.assign("armor_tie=dismemberment").unwrap();
    let mut a = side(&[("automaton", 2), ("vermin", 6)], &o);
    a.policy.sprint = diemon::scenario::squad::Sprint::Close;
    let b = side(&[("minifig-rifle", 3), ("hero-hand-weapon", 2)], &o);
    let squad = Squad::new(a, b, 14, First::Random, 100, o).unwrap();
    let duel = diemon::scenario::duel::Duel::new(
        diemon::scenario::duel::Fighter::parse("a", "d6/2/1d6/4").unwrap(),
        diemon::scenario::duel::Fighter::parse("b", "d10/3/1d6+1/2d6").unwrap(),
        First::Random,
        1000,
        o,
    );
    let c = Catalog::builtin();
    let volley = diemon::scenario::blast::Volley::new(
        diemon::scenario::blast::VolleySpec {
            delivery: diemon::scenario::blast::Delivery::new(
                diemon::scenario::blast::Launch::Launcher(3),
                1,
            )
            .unwrap(),
            skill: diemon::dice::SkillRoll::new(diemon::dice::Die::D6),
            support: 0,
            formation: diemon::scenario::blast::Formation::parse("scatter:30:8", 1.0).unwrap(),
            target: diemon::scenario::blast::Target::from_unit(
                c.get("minifig").unwrap(),
                diemon::catalog::Cp::whole(4),
                &o,
            ),
            distance: 18.0,
            aim: diemon::scenario::blast::Aim::Densest,
            scatter: diemon::scenario::blast::Scatter::Margin,
            dud: diemon::scenario::blast::Dud::Never,
            wall: Some(diemon::scenario::blast::Wall {
                armor: diemon::dice::Expr::parse("3d10").unwrap(),
                at: (0.0, 2.0),
            }),
            carried: Some((diemon::scenario::blast::Stability::SemiStable, 1)),
        },
        o,
    )
    .unwrap();
    let mut rng = diemon::sim::stream(1, 0, 0);
    let before = crate::allocations();
    for _ in 0..2_000 {
        std::hint::black_box(squad.trial(&mut rng, &mut NoLog));
        std::hint::black_box(duel.trial(&mut rng, &mut NoLog));
        std::hint::black_box(volley.trial(&mut rng, &mut NoLog));
    }
    assert_eq!(crate::allocations() - before, 0);
}

#[test]
fn squad_value_stability() {
    // Pinned: a change here is Value-breaking (CHANGELOG).
    let s = squad(
        &[("minifig-hand-weapon", 6)],
        &[("hero-hand-weapon", 3)],
        12,
        First::Random,
        RuleOptions::default(),
    );
    let t = run(&s, 20_000, 42, 2);
    assert_eq!(
        (t.a_wins, t.b_wins, t.draws, t.turns, t.survivors, t.ties),
        PINNED
    );
}

const PINNED: (u64, u64, u64, u64, [u64; 2], u64) = (11494, 8506, 0, 177289, [40240, 17799], 25313);

#[test]
fn issue_47_the_default_battle_wastes_no_response() {
    // Six minifigs with Hand Weapons a side, 12" apart, each side on one spot. The
    // independent hand loop (benches/baselines/squad_loop.rs) lets a Response strike only
    // while fewer than three engage the mover, and one that cannot keeps its Action: over
    // four batches the engine wins exactly its battles. The tally is pinned (a change is
    // Value-breaking).
    let t = run(&hand_loop_battle(), 4 * diemon::sim::BATCH, 47, 2);
    let hand: u64 = (0..4)
        .map(|b| {
            let mut rng = diemon::sim::seed::stream(47, 0, b);
            squad_loop::battles(squad_loop::SIX, &mut rng, diemon::sim::BATCH)
        })
        .sum();
    assert_eq!(t.a_wins, hand);
    assert_eq!((t.a_wins, t.turns), PINNED_6V6);
}

const PINNED_6V6: (u64, u64) = (130739, 1616253);

/// Minifigs with a Hand Weapon and each Move from 1" to 10", keyed `mN`.
fn movers() -> Catalog {
    let text: String = (1..=10)
        .map(|m| {
            format!(
                "[m{m}]\nname = \"Move {m}\"\nsource = \"a test\"\nsize = 1\nstructure = \"0\"\n\
                 armor = \"4\"\nmove = {m}\nskill = \"d6\"\nweapons = [\"hand-weapon\"]\n\n"
            )
        })
        .collect();
    Catalog::with_text("movers", &text).unwrap()
}

/// The paired difference P(hi wins) - P(lo wins) over `n` trials that draw from the same
/// streams (common random numbers: the battles differ only where the sides' Move makes
/// them), with its standard error.
fn paired(hi: &Squad, lo: &Squad, n: u64, seed: u64) -> (f64, f64) {
    use diemon::dice::NoLog;
    use diemon::scenario::Scenario;
    use diemon::scenario::duel::Side;
    let (mut sum, mut sq) = (0i64, 0i64);
    let mut left = n;
    let mut batch = 0;
    while left > 0 {
        let len = left.min(diemon::sim::BATCH);
        let (mut a, mut b) = (
            diemon::sim::stream(seed, 0, batch),
            diemon::sim::stream(seed, 0, batch),
        );
        for _ in 0..len {
            let wa = (hi.trial(&mut a, &mut NoLog).winner == Some(Side::A)) as i64;
            let wb = (lo.trial(&mut b, &mut NoLog).winner == Some(Side::A)) as i64;
            sum += wa - wb;
            sq += (wa - wb) * (wa - wb);
        }
        left -= len;
        batch += 1;
    }
    let mean = sum as f64 / n as f64;
    let var = sq as f64 / n as f64 - mean * mean;
    (mean, (var / n as f64).sqrt())
}

/// Issue 21: at equal everything else, more Move never lowers the win chance, at any
/// distance. Paired runs of 3 `mN` against 3 Move-5 minifigs for each step up in Move and
/// each distance: a one-sided test of P(more Move) >= P(less Move) at a family alpha of
/// 1e-4 (Bonferroni over the 42 pairs: z = 4.57 each), fixed seeds. It has the power to
/// see a real drop: the 0.016 that Ch. 4.3's simultaneous Responses (`response_order =
/// timing`) give Move 1 over Move 2 at 3" is about 6.5 standard errors.
#[test]
fn more_move_never_lowers_the_win_chance() {
    use rayon::prelude::*;
    let o = RuleOptions::default();
    let c = movers();
    let mk = |m: u32, d: u32| {
        let a = SideSpec::from_catalog(&c, &[(format!("m{m}"), 3)], Policy::default(), &o).unwrap();
        Squad::new(
            a,
            side(&[("minifig-hand-weapon", 3)], &o),
            d,
            First::Random,
            100,
            o,
        )
        .unwrap()
    };
    let moves = [1, 2, 3, 4, 5, 6, 8, 10];
    let distances = [0, 2, 3, 6, 12, 24];
    let pairs: Vec<(u32, u32, u32)> = distances
        .iter()
        .flat_map(|&d| moves.windows(2).map(move |w| (d, w[0], w[1])))
        .collect();
    let worst = pairs
        .par_iter()
        .map(|&(d, lo, hi)| {
            let (diff, se) = paired(&mk(hi, d), &mk(lo, d), 50_000, 31 + d as u64);
            (diff / se.max(1e-9), diff, d, lo, hi)
        })
        .collect::<Vec<_>>();
    for (z, diff, d, lo, hi) in worst {
        assert!(
            z > -4.57,
            "Move {hi} wins {:.4} less often than Move {lo} at {d}\" (z = {z:.1})",
            -diff
        );
    }
    // The Done-when figures: Move 8 wins more than half at 6", 12" and 24"; Move 2 less.
    for d in [6, 12, 24] {
        for (m, above) in [(8, true), (2, false)] {
            let t = run(&mk(m, d), 20_000, 5, 2);
            let e = Estimate::proportion(t.a_wins, t.trials, 0.999);
            assert!(
                if above { e.ci[0] > 0.5 } else { e.ci[1] < 0.5 },
                "Move {m} at {d}\": {:.4} [{:.4}, {:.4}]",
                e.point,
                e.ci[0],
                e.ci[1]
            );
        }
    }
}

/// Half Speed never raises the win chance: the same minifig at Half Speed (its Move halved,
/// and slower in Ch. 4.3's roll-off) against Move-5 minifigs, paired, at each distance
/// (alpha 1e-6 over 8 distances: z = 5.3 each), under both Response orders it touches.
#[test]
fn half_speed_never_raises_the_win_chance() {
    for order in ["counter", "roll_off"] {
        let mut o = RuleOptions::default();
        o.assign(&format!("response_order={order}")).unwrap();
        let full = side(&[("minifig-hand-weapon", 3)], &o);
        let mut half = full.clone();
        for (k, _) in &mut half.units {
            k.half_speed = true;
            k.move_halves /= 2;
        }
        for d in [0, 2, 3, 5, 6, 9, 12, 24] {
            let mk = |a: &SideSpec| {
                Squad::new(
                    a.clone(),
                    side(&[("minifig-hand-weapon", 3)], &o),
                    d,
                    First::Random,
                    100,
                    o,
                )
                .unwrap()
            };
            let (diff, se) = paired(&mk(&full), &mk(&half), 20_000, 77 + d as u64);
            assert!(
                diff / se.max(1e-9) > -5.3,
                "{order}: Half Speed wins {:+.4} more at {d}\"",
                -diff
            );
        }
    }
}

/// Issue 21: a standard Mind swings two melee weapons, so five minifigs with two Hand
/// Weapons each beat six with one more than half the time (99.9% Wilson interval above 0.5,
/// fixed seed); and every weapon of Cannon Fodder does one point, so at equal CP Cannon
/// Fodder with Heavy Weapons beat Heavy-Weapon minifigs less than 2% of the time (the
/// interval's top below 0.02).
#[test]
fn two_weapons_win_and_cannon_fodder_weapons_do_one_point() {
    let o = RuleOptions::default();
    let t = run(
        &squad(
            &[("minifig+hand-weapon+hand-weapon", 5)],
            &[("minifig-hand-weapon", 6)],
            12,
            First::Random,
            o,
        ),
        20_000,
        3,
        2,
    );
    let e = Estimate::proportion(t.a_wins, t.trials, 0.999);
    assert!(e.ci[0] > 0.5, "two weapons: {} {:?}", e.point, e.ci);
    // 35 CP a side: 7 Cannon Fodder (2 + 3 CP) against 5 minifigs (4 + 3 CP).
    let t = run(
        &squad(
            &[("cannon-fodder+heavy-weapon", 7)],
            &[("minifig+heavy-weapon", 5)],
            12,
            First::Random,
            o,
        ),
        20_000,
        4,
        2,
    );
    let e = Estimate::proportion(t.a_wins, t.trials, 0.999);
    assert!(e.ci[1] < 0.02, "Cannon Fodder: {} {:?}", e.point, e.ci);
}

#[path = "../../benches/baselines/dice.rs"]
mod dice;
#[path = "../../benches/baselines/squad_loop.rs"]
mod squad_loop;

/// The battle the melee loop plays at `s`: Hand-Weapon minifigs on both sides, each side on
/// one spot (`spacing` 0: the loop keeps positions along the line only, which are the
/// plane's there; issue 40, item 4).
fn melee_battle(s: squad_loop::Setting) -> Squad {
    let o = RuleOptions::default();
    let spot = Policy {
        spacing: diemon::scenario::squad::Spacing(0),
        ..Policy::default()
    };
    let side = |n: usize| {
        let mf = [("minifig-hand-weapon".to_string(), n as u32)];
        SideSpec::from_catalog(&Catalog::builtin(), &mf, spot, &o).unwrap()
    };
    let first = first_of(s.a_first);
    Squad::new(side(s.a), side(s.b), s.distance as u32, first, 100, o).unwrap()
}

/// Who has the first turn, as a loop's setting says: side A, side B, or a roll-off.
fn first_of(a_first: Option<bool>) -> First {
    match a_first {
        None => First::Random,
        Some(true) => First::A,
        Some(false) => First::B,
    }
}

/// The issue-27 floor: six a side, 12" apart, a roll-off.
fn hand_loop_battle() -> Squad {
    melee_battle(squad_loop::SIX)
}

/// Whether win counts `p` and `q` of `n` battles each agree within a two-sided z-test at
/// alpha = 0.001 (a floor of one battle in `n` on the standard error, for certain outcomes).
fn agree(p: u64, q: u64, n: u64) -> Result<(), String> {
    let (p, q) = (p as f64 / n as f64, q as f64 / n as f64);
    let se = ((p * (1.0 - p) + q * (1.0 - q)) / n as f64).sqrt();
    let z = 3.2905;
    if (p - q).abs() <= z * se.max(1.0 / n as f64) {
        Ok(())
    } else {
        Err(format!("the engine {p:.4}, the loop {q:.4} (se {se:.5})"))
    }
}

#[test]
fn issue_48_the_melee_loop_agrees_with_the_engine() {
    // Issue 48: the melee loop, written from the readings (benches/baselines/squad_loop.rs),
    // against the engine at ten settings (heads, distance, either side first; 100,000
    // battles each, fixed seeds), each within a two-sided z-test at alpha = 0.001.
    use squad_loop::Setting;
    let setting = |a, b, distance, a_first| Setting {
        a,
        b,
        distance,
        a_first: Some(a_first),
    };
    let settings = [
        setting(1, 1, 3, true),
        setting(1, 2, 6, false),
        setting(2, 3, 1, true),
        setting(3, 3, 12, false),
        setting(6, 6, 12, true),
        setting(6, 6, 12, false),
        setting(4, 7, 20, true),
        setting(9, 5, 8, false),
        setting(5, 5, 7, true),
        setting(12, 10, 30, false),
    ];
    let n = 100_000;
    for (k, s) in settings.into_iter().enumerate() {
        let t = run(&melee_battle(s), n, 48, 2);
        let mut rng = diemon::sim::seed::stream(4_850 + k as u64, 0, 0);
        let hand = squad_loop::battles(s, &mut rng, n);
        if let Err(e) = agree(t.a_wins, hand, n) {
            panic!("{s:?}: {e}");
        }
    }
}

#[test]
fn the_hand_written_loop_plays_the_default_battle() {
    // Issue 27's baseline is only a fair floor if it plays diemon's battle: on batch 0's
    // stream it must win exactly the battles the engine's first batch wins.
    let t = run(&hand_loop_battle(), diemon::sim::BATCH, 1, 1);
    let mut rng = diemon::sim::seed::stream(1, 0, 0);
    let a_wins = squad_loop::battles(squad_loop::SIX, &mut rng, diemon::sim::BATCH);
    assert!(t.a_wins > 0 && t.a_wins < t.trials);
    assert_eq!(a_wins, t.a_wins);
}

#[path = "../../benches/baselines/rifle_loop.rs"]
mod rifle_loop;

/// The battle the riflemen's loop plays: `s.rifles` riflemen against `s.melee` Hand-Weapon
/// minifigs, each side on one spot, `s.distance` inches apart, `s.room` inches of table
/// behind each, the side `s.a_first` says first, the melee side `s.cover` thirds hidden.
fn rifle_battle(s: rifle_loop::Setting) -> Squad {
    let o = RuleOptions::default();
    let spot = |cover| Policy {
        spacing: diemon::scenario::squad::Spacing(0),
        cover,
        ..Policy::default()
    };
    let side = |key: &str, n: usize, cover| {
        let units = [(key.to_string(), n as u32)];
        SideSpec::from_catalog(&Catalog::builtin(), &units, spot(cover), &o).unwrap()
    };
    let first = if s.a_first { First::A } else { First::B };
    Squad::new(
        side("minifig-rifle", s.rifles, 0),
        side("minifig-hand-weapon", s.melee, s.cover),
        s.distance as u32,
        first,
        100,
        o,
    )
    .unwrap()
    .with_room(s.room as u32)
}

#[test]
fn issue_48_the_riflemens_loop_agrees_with_the_engine() {
    // Issue 48: an independent loop of riflemen against Hand-Weapon minifigs, written from
    // the readings (benches/baselines/rifle_loop.rs), against the engine at sixteen settings
    // (heads, distance, room, the melee side's cover, either side first; 100,000 battles
    // each, fixed seeds). Their
    // win chances must agree within a two-sided z-test at alpha = 0.001 a setting. Its first
    // draft let a mover felled by the Responses still strike, and this test failed it at
    // four settings, by up to 0.14.
    use rifle_loop::Setting;
    let setting = |rifles, melee, distance, room, a_first, cover| Setting {
        rifles,
        melee,
        distance,
        room,
        a_first,
        cover,
    };
    let settings = [
        setting(1, 1, 6, 12, false, 0),
        setting(1, 2, 6, 12, false, 0),
        setting(2, 3, 6, 0, false, 0),
        setting(4, 6, 6, 12, true, 0),
        setting(4, 6, 6, 12, false, 0),
        setting(4, 6, 12, 0, true, 0),
        setting(4, 6, 12, 0, false, 0),
        setting(3, 3, 12, 24, false, 0),
        setting(2, 5, 20, 6, true, 0),
        setting(5, 4, 3, 12, false, 0),
        setting(4, 9, 24, 12, true, 0),
        setting(3, 8, 9, 3, false, 0),
        setting(4, 6, 6, 12, true, 1),
        setting(4, 6, 12, 0, false, 2),
        setting(6, 9, 12, 24, true, 3),
        setting(3, 4, 8, 6, false, 3),
    ];
    let n = 100_000;
    for (k, s) in settings.into_iter().enumerate() {
        let t = run(&rifle_battle(s), n, 48, 2);
        let mut rng = diemon::sim::seed::stream(4_800 + k as u64, 0, 0);
        let hand = rifle_loop::battles(s, &mut rng, n);
        if let Err(e) = agree(t.a_wins, hand, n) {
            panic!("{s:?}: {e}");
        }
    }
}

#[path = "../../benches/baselines/launcher_loop.rs"]
mod launcher_loop;

/// The battle the Launcher team's loop plays at `s`: `minifig-launcher`s against
/// Hand-Weapon minifigs, each side abreast at its spacing, at the defaults.
fn launcher_battle(s: launcher_loop::Setting) -> Squad {
    let o = RuleOptions::default();
    let side = |key: &str, n: usize, spacing: f64| {
        let p = Policy {
            spacing: diemon::scenario::squad::Spacing((spacing * 4.0) as u32),
            ..Policy::default()
        };
        let units = [(key.to_string(), n as u32)];
        SideSpec::from_catalog(&Catalog::builtin(), &units, p, &o).unwrap()
    };
    let first = first_of(s.a_first);
    Squad::new(
        side("minifig-launcher", s.launchers, s.a_spacing),
        side("minifig-hand-weapon", s.swarm, s.b_spacing),
        s.distance as u32,
        first,
        s.turns,
        o,
    )
    .unwrap()
}

#[test]
fn issue_48_the_launcher_teams_loop_agrees_with_the_engine() {
    // Issue 48: an independent loop of a Launcher team against a swarm, written from the
    // readings (benches/baselines/launcher_loop.rs), against the engine at fourteen
    // settings (1 to 6 Launchers against 3 to 14, 1" to 20" apart, each side on one spot or
    // abreast 1" to 5" apart, either side first or a roll-off; 100,000 battles each, fixed
    // seeds): the Launchers' win chance and the swarm's mean survivors, each within a
    // two-sided z-test at alpha = 0.001. Its first drafts disagreed at five settings. The
    // loop was wrong four times: it walked to exact distances (the battle walks whole half
    // inches), stepped out of its blast with a target in hand, could not fire an activated
    // Explosive (firing it is how a player disposes of it), and let a Launcher knocked
    // over by a friend's blast act on in the same turn. The fifth was the engine's: a step
    // out of one's own blast drew no Response (1 Launcher against 6, 5" apart, the swarm
    // first: 0.0046 against the loop's 0.0032); it draws them now.
    use launcher_loop::Setting;
    let setting = |launchers, swarm, distance, a_spacing, b_spacing, a_first| Setting {
        launchers,
        swarm,
        distance,
        a_spacing,
        b_spacing,
        a_first: Some(a_first),
        turns: 100,
    };
    let settings = [
        setting(1, 6, 12.0, 1.5, 1.5, false),
        setting(1, 6, 12.0, 1.5, 1.5, true),
        setting(1, 10, 12.0, 1.5, 1.5, false),
        setting(2, 14, 12.0, 1.5, 1.5, true),
        setting(1, 8, 20.0, 3.0, 3.0, false),
        setting(2, 12, 6.0, 2.0, 2.0, true),
        setting(1, 5, 12.0, 0.0, 0.0, false),
        setting(6, 14, 12.0, 1.5, 1.5, false),
        setting(1, 3, 12.0, 1.5, 1.5, false),
        setting(1, 6, 5.0, 1.5, 1.5, false),
        setting(3, 9, 2.0, 1.0, 1.0, true),
        setting(2, 9, 1.0, 0.0, 0.0, true),
        setting(4, 10, 16.0, 0.0, 2.5, false),
        Setting {
            a_first: None,
            ..setting(6, 14, 12.0, 1.5, 1.5, true)
        },
    ];
    let n = 100_000;
    let mut failed = Vec::new();
    for (k, s) in settings.into_iter().enumerate() {
        let t = run(&launcher_battle(s), n, 48, 2);
        let mut rng = diemon::sim::seed::stream(4_870 + k as u64, 0, 0);
        let hand = launcher_loop::tally(s, &mut rng, n);
        if let Err(e) = agree(t.a_wins, hand.wins, n) {
            failed.push(format!("{s:?}: {e}"));
        }
        // The swarm's mean survivors too, a two-sided z-test at alpha = 0.001 on the
        // difference of two means with their sample variances.
        let mean_var = |sum: f64, sq: f64| {
            let m = sum / n as f64;
            (m, (sq / n as f64 - m * m).max(0.0))
        };
        let (p, vp) = mean_var(t.survivors[1] as f64, t.survivors_sq[1] as f64);
        let (q, vq) = mean_var(hand.swarm as f64, hand.swarm_sq as f64);
        let se = ((vp + vq) / n as f64).sqrt().max(1.0 / n as f64);
        if (p - q).abs() > 3.2905 * se {
            failed.push(format!(
                "{s:?}: the swarm keeps {p:.4} in the engine, {q:.4} in the loop (se {se:.5})"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
