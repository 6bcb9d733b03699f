//! Explosive fire through the engine: a closed form, thread invariance and a pin.

use diemon::analysis::Estimate;
use diemon::catalog::{Catalog, Cp};
use diemon::dice::{Die, SkillRoll};
use diemon::rules::RuleOptions;
use diemon::scenario::blast::{
    Aim, BlastTally, Delivery, Dud, Formation, Launch, Scatter, Target, Volley, VolleySpec,
};
use diemon::sim::engine::Stop;

fn volley(launch: Launch, formation: &str, distance: f64, o: RuleOptions) -> Volley {
    let c = Catalog::builtin();
    let spec = VolleySpec {
        delivery: Delivery::new(launch, 1).unwrap(),
        skill: SkillRoll::new(Die::D6),
        support: 0,
        formation: Formation::parse(formation, 1.5).unwrap(),
        target: Target::from_unit(c.get("minifig").unwrap(), Cp::whole(4), &o),
        distance,
        aim: Aim::Centre,
        scatter: Scatter::Margin,
        dud: Dud::Declared,
        wall: None,
        carried: None,
    };
    Volley::new(spec, o).unwrap()
}

fn run(v: &Volley, trials: u64, seed: u64, threads: usize) -> BlastTally {
    crate::run_on(v, Stop::Trials(trials), seed, threads).tally
}

#[test]
fn a_grenade_at_a_lone_minifig_keeps_its_closed_form() {
    // Thrown (Use 2) at one minifig 2" away, in Range. A d6 fails only on a natural 1, a
    // dud; every other throw hits, so he is in ring 0. On 2-5, 1d10 Exp beats Armor 4 on 5
    // to 10 (a natural 1 is a dud): 6/10. A natural 6 earns an Overskill Benny, spent on
    // one more d10 (Ch. 4.2 "twice as Explosive"): 2d10 beats 4 unless the pair is among
    // (1,1) (a dud), (1,2), (2,1), (1,3), (3,1), (2,2): 94/100.
    // P(kill) = 4/6 x 6/10 + 1/6 x 94/100 = 0.556667. 99.9% Wilson interval
    // (alpha = 0.001), fixed seed.
    let v = volley(
        Launch::Thrown { use_rating: 2 },
        "line:1",
        2.0,
        RuleOptions::default(),
    );
    let t = run(&v, 200_000, 5, 2);
    let e = Estimate::proportion(t.kills, t.trials, 0.999);
    let want = 4.0 / 6.0 * 0.6 + 0.94 / 6.0;
    assert!(e.covers(want), "{e:?}");
    // And under a 1d6 Armor the rate drops, so the test can tell Armor apart.
    let mut o = RuleOptions::default();
    o.assign("minifig_armor=1d6").unwrap();
    let t6 = run(
        &volley(Launch::Thrown { use_rating: 2 }, "line:1", 2.0, o),
        200_000,
        5,
        2,
    );
    assert!(!Estimate::proportion(t6.kills, t6.trials, 0.999).covers(want));
}

#[test]
fn any_thread_count_gives_the_same_blast_tally() {
    let v = volley(
        Launch::Launcher(3),
        "grid:5x5",
        18.0,
        RuleOptions::default(),
    );
    let one = run(&v, 70_000, 3, 1);
    assert_eq!(run(&v, 70_000, 3, 3), one);
}

#[test]
fn blast_value_stability() {
    // Pinned: a change here is Value-breaking (CHANGELOG).
    let v = volley(
        Launch::Launcher(3),
        "grid:5x5",
        18.0,
        RuleOptions::default(),
    );
    let t = run(&v, 20_000, 42, 2);
    assert_eq!(
        (
            t.kills,
            t.hits,
            t.duds.sum,
            t.knocked_back.sum,
            t.by_ring[0].sum,
            t.by_ring[1].sum
        ),
        PINNED
    );
}

const PINNED: (u64, u64, u64, u64, u64, u64) = (179817, 10091, 13957, 122703, 126213, 53604);
