//! Monte Carlo vs exact, for every kind of expression.
//!
//! Each case rolls `N` times from a fixed seed and runs Pearson's chi-squared test against
//! the exact table. The significance level is ALPHA = 0.001: with the seeds fixed the outcome
//! never changes between runs, and under a correct implementation a given case fails with
//! probability 0.001 over the choice of seed. A second test shows the check has power: a
//! table computed under another rule is rejected.

use diemon::analysis::gof::chi_squared;
use diemon::dice::Expr;
use diemon::rules::RuleOptions;
use diemon::scenario::rolls::{Against, sample};
use diemon::sim::progress::Silent;

const ALPHA: f64 = 0.001;
const N: u64 = 200_000;
const SEED: u64 = 20261122;

fn fit(text: &str, roll_opts: &[&str], exact_opts: &[&str]) -> diemon::analysis::gof::Fit {
    let parse = |a: &[&str]| {
        let mut o = RuleOptions::default();
        for s in a {
            o.assign(s).unwrap();
        }
        o
    };
    let expr = Expr::parse(text).unwrap();
    let tally = sample(
        &expr,
        Against::default(),
        &parse(roll_opts),
        N,
        SEED,
        0,
        &Silent,
    );
    chi_squared(&tally.totals, expr.exact(&parse(exact_opts), 1e-12).total())
}

#[test]
fn every_kind_agrees_at_alpha() {
    for (text, opts) in [
        ("1d6", &[][..]),
        ("2d6 - 1", &[]),
        ("3d10 exp", &[]),
        ("1d4 fire + 1", &[]),
        ("1d8 blast", &[]),
        ("1d6 pierce + 1d12 phased", &[]),
        ("d10 skill", &[]),
        ("d6 skill bless d8 - 1", &[]),
        ("d8 skill curse", &[]),
        ("d4 skill", &["d4_bonus=incompetent"]),
        ("sn d4", &[]),
        ("sn d8 + 1d6", &[]),
        ("sn 2d6", &["double_fumble=lost"]),
        ("2d4", &["d4_bonus=all"]),
        ("10d6", &["bonus_chain=1"]),
    ] {
        let f = fit(text, opts, opts);
        assert_eq!(f.impossible, 0, "{text}: rolled an impossible total");
        assert!(
            f.p_value >= ALPHA,
            "{text} {opts:?}: chi2 {} on {} df, p = {}",
            f.statistic,
            f.dof,
            f.p_value
        );
    }
}

#[test]
fn a_wrong_table_is_rejected() {
    // Rolled with Bonus Dice, tested against the table without them.
    let f = fit("2d6", &[], &["bonus_chain=0"]);
    assert!(f.p_value < ALPHA || f.impossible > 0, "p = {}", f.p_value);
    // A subtler one: Fumbles subtracted vs ignored.
    let f = fit("sn d6", &[], &["fumble=ignore"]);
    assert!(f.p_value < ALPHA || f.impossible > 0, "p = {}", f.p_value);
}

#[test]
fn beats_and_meets_agree_with_exact() {
    use diemon::analysis::Estimate;
    let opts = RuleOptions::default();
    let dmg = Expr::parse("1d10 exp").unwrap();
    let armor = Expr::parse("1d6").unwrap();
    let t = sample(
        &dmg,
        Against {
            armor: Some(&armor),
            use_rating: None,
        },
        &opts,
        N,
        SEED,
        1,
        &Silent,
    );
    let exact = dmg
        .exact(&opts, 1e-12)
        .p_beats(armor.exact(&opts, 1e-12).total());
    // A 99.9% Wilson interval must cover the exact value (alpha 0.001, fixed seed).
    assert!(
        Estimate::proportion(t.beats, t.trials, 1.0 - ALPHA).covers(exact),
        "{exact}"
    );

    let skill = Expr::parse("d6 skill - 1").unwrap();
    for u in [2, 5, 7] {
        let t = sample(
            &skill,
            Against {
                armor: None,
                use_rating: Some(u),
            },
            &opts,
            N,
            SEED,
            2,
            &Silent,
        );
        let exact = skill.exact(&opts, 1e-12).p_meets(u, &opts, 1e-12);
        assert!(
            Estimate::proportion(t.meets, t.trials, 1.0 - ALPHA).covers(exact),
            "Use {u}: exact {exact}, MC {}",
            t.meets as f64 / t.trials as f64
        );
    }
}

#[test]
fn explosion_rings_agree_with_their_exact_tables() {
    // Each ring's damage of XSize 2 and 3 Explosions (Ch. 8.4) against the exact order
    // statistics, chi-squared at ALPHA; and the check rejects ring 1 tested as ring 0.
    use diemon::rules::explosion::ExplosionPlan;
    use diemon::sim::stream;
    use diemon::sim::tally::Histogram;
    let o = RuleOptions::default();
    for (text, rings) in [("2d10 exp", 2), ("3d10 exp + 1", 3)] {
        let p = ExplosionPlan::new(&Expr::parse(text).unwrap(), &o).unwrap();
        let mut h: Vec<Histogram> = vec![Histogram::default(); rings];
        let mut rng = stream(SEED, 1, 0);
        for _ in 0..N {
            let b = p.roll(&mut rng, &mut diemon::dice::NoLog);
            for (r, hist) in h.iter_mut().enumerate() {
                hist.record(b.damage(r).unwrap());
            }
        }
        for (r, hist) in h.iter().enumerate() {
            let f = chi_squared(hist, &p.exact_ring(r as u32, &o, 1e-12).unwrap());
            assert_eq!(f.impossible, 0, "{text} ring {r}");
            assert!(f.p_value >= ALPHA, "{text} ring {r}: p = {}", f.p_value);
        }
        let wrong = chi_squared(&h[1], &p.exact_ring(0, &o, 1e-12).unwrap());
        assert!(wrong.p_value < ALPHA || wrong.impossible > 0, "{text}");
    }
}

#[test]
fn machine_gun_jams_agree_with_their_exact_values() {
    // Shots fired in a burst before a jam (Ch. 8.3), both Auto Penalty readings, against
    // the exact distribution; chi-squared at ALPHA, fixed seed. And the check has power:
    // per-shot rolls tested against the overall table are rejected.
    use diemon::dice::{Die, NoLog};
    use diemon::rules::auto::{burst, exact_burst};
    use diemon::sim::stream;
    use diemon::sim::tally::Histogram;
    let roll = |o: &RuleOptions, die: Die, shots: u32| {
        let mut h = Histogram::default();
        let mut rng = stream(SEED, 2, shots as u64);
        for _ in 0..N {
            h.record(burst(die, shots, o, &mut rng, &mut NoLog, |_, _| {}).fired as i64);
        }
        h
    };
    for reading in ["auto_penalty=per_shot", "auto_penalty=overall"] {
        let mut o = RuleOptions::default();
        o.assign(reading).unwrap();
        for (die, shots) in [(Die::D6, 4), (Die::D8, 6), (Die::D10, 3)] {
            let f = chi_squared(&roll(&o, die, shots), &exact_burst(die, shots, &o).0);
            assert_eq!(f.impossible, 0, "{reading} {die} x{shots}");
            assert!(
                f.p_value >= ALPHA,
                "{reading} {die} x{shots}: p = {}",
                f.p_value
            );
        }
    }
    let mut overall = RuleOptions::default();
    overall.assign("auto_penalty=overall").unwrap();
    let per_shot = RuleOptions::default();
    let f = chi_squared(
        &roll(&per_shot, Die::D6, 4),
        &exact_burst(Die::D6, 4, &overall).0,
    );
    assert!(f.p_value < ALPHA || f.impossible > 0);
}
