//! The Marks dice-pool system: exact tables against seeded Monte Carlo, the properties a
//! pool must have, the command's JSON, and a value-stability pin.

use diemon::analysis::gof::chi_squared;
use diemon::marks::exact;
use diemon::marks::pool::{Pool, Sheet};
use diemon::marks::roll::MarksRoll;
use diemon::rules::RuleOptions;
use diemon::scenario::Scenario;
use diemon::sim::engine::Stop;

use crate::cli::diemon;

fn opts(o: &[&str]) -> RuleOptions {
    let mut r = RuleOptions::default();
    for s in o {
        r.assign(s).unwrap();
    }
    r
}

fn sheet(attr: &[u32], super_attr: &[u32], skill: u32, super_skill: u32, difficulty: u32) -> Sheet {
    Sheet {
        attributes: attr.to_vec(),
        super_attributes: super_attr.to_vec(),
        skill,
        super_skill,
        difficulty,
        ..Sheet::default()
    }
}

#[test]
fn exact_tables_agree_with_seeded_monte_carlo() {
    // Chi-squared at alpha = 0.001 with fixed seeds: 200,000 rolls a case, every option.
    let cases: [(Sheet, &[&str]); 6] = [
        (sheet(&[4, 2], &[3], 0, 0, 0), &[]),
        (sheet(&[3, 3], &[], 3, 0, 0), &[]),
        (sheet(&[3, 3], &[], 3, 0, 0), &["marks_ones=kept"]),
        (sheet(&[2, 2], &[1], 2, 2, 1), &["marks_cancel=strongest"]),
        (sheet(&[4, 4], &[], 1, 0, 0), &["marks_reroll_ones=cancel"]),
        (
            sheet(&[3, 5], &[2], 2, 1, 3),
            &["marks_penalty=attribute_first"],
        ),
    ];
    for (i, (s, o)) in cases.iter().enumerate() {
        let o = opts(o);
        let pool = Pool::new(s, &o).unwrap();
        let table = exact::marks(&pool, &o, 1e-13);
        let run = crate::run_on(
            &MarksRoll { pool, opts: o },
            Stop::Trials(200_000),
            40 + i as u64,
            2,
        );
        let fit = chi_squared(&run.tally.marks, &table);
        assert!(
            fit.p_value > 0.001 && fit.impossible == 0,
            "case {i}: {fit:?}"
        );
    }
    // The test can fail: a table made with another option is rejected.
    let s = sheet(&[3, 3], &[], 3, 0, 0);
    let pool = Pool::new(&s, &RuleOptions::default()).unwrap();
    let wrong = exact::marks(&pool, &opts(&["marks_ones=kept"]), 1e-13);
    let run = crate::run_on(
        &MarksRoll {
            pool,
            opts: RuleOptions::default(),
        },
        Stop::Trials(200_000),
        7,
        2,
    );
    assert!(chi_squared(&run.tally.marks, &wrong).p_value < 1e-6);
}

#[test]
fn more_dice_never_hurt_and_difficulty_never_helps() {
    let o = RuleOptions::default();
    let at_least =
        |s: &Sheet, k: i64| exact::marks(&Pool::new(s, &o).unwrap(), &o, 1e-12).p_at_least(k);
    for a in 1..5 {
        for skill in 0..3 {
            for sup in 0..2 {
                let s = sheet(&[a, a], &[sup], skill, 0, 0);
                for k in [1, 3, 5] {
                    let p = at_least(&s, k);
                    // One more Attribute die (both Attributes up one).
                    assert!(at_least(&sheet(&[a + 1, a + 1], &[sup], skill, 0, 0), k) >= p - 1e-12);
                    // One more Skill die.
                    assert!(at_least(&sheet(&[a, a], &[sup], skill + 1, 0, 0), k) >= p - 1e-12);
                    // One more die of difficulty.
                    assert!(at_least(&sheet(&[a, a], &[sup], skill, 0, 1), k) <= p + 1e-12);
                }
            }
        }
    }
}

#[test]
fn a_roll_allocates_nothing() {
    let o = RuleOptions::default();
    let s = MarksRoll {
        pool: Pool::new(&sheet(&[4, 2], &[3], 3, 1, 0), &o).unwrap(),
        opts: o,
    };
    let mut rng = diemon::sim::stream(1, 0, 0);
    let before = crate::allocations();
    for _ in 0..5_000 {
        std::hint::black_box(s.trial(&mut rng, &mut diemon::dice::NoLog));
    }
    assert_eq!(crate::allocations() - before, 0);
}

#[test]
fn marks_value_stability() {
    // Pinned: a change here is Value-breaking (CHANGELOG). Draw order: the d6s, the d10s,
    // then each kept Roll-Again's re-rolls (d10s first).
    let o = RuleOptions::default();
    let s = MarksRoll {
        pool: Pool::new(&sheet(&[4, 2], &[3], 3, 0, 0), &o).unwrap(),
        opts: o,
    };
    let run = crate::run_on(&s, Stop::Trials(10_000), 1, 2);
    let (sum, sq) = run.tally.marks.moments();
    assert_eq!((sum, sq, run.tally.marks.count(0)), PINNED);
}

const PINNED: (i128, i128, u64) = (33519, 169615, 1604);

#[test]
fn the_command_answers_with_levels_pmf_and_mean() {
    let (code, out, err) = diemon(&[
        "marks",
        "--attr",
        "4,2",
        "--super-attr",
        "3",
        "--skill",
        "3",
        "--difficulty",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let levels = v["p_levels"].as_object().unwrap();
    let mut names: Vec<&str> = levels.keys().map(String::as_str).collect();
    names.sort();
    assert_eq!(
        names,
        ["basic", "competent", "failure", "mastery", "super_human"]
    );
    let total: f64 = levels.values().map(|p| p.as_f64().unwrap()).sum();
    assert!(
        (total + v["truncated_mass"].as_f64().unwrap() - 1.0).abs() < 1e-9,
        "{total}"
    );
    // Skill first: the -2 takes two of the three Skill d6s.
    assert_eq!(
        (v["d6"].as_u64(), v["d10"].as_u64(), v["keep"].as_u64()),
        (Some(4), Some(3), Some(6))
    );
    assert!(v["mean"].as_f64().unwrap() > 0.0 && v["pmf"].as_array().unwrap().len() > 5);
    let (code, _, err) = diemon(&["marks", "--skill", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("no die can be kept"), "{err}");
    let (code, _, err) = diemon(&["marks", "--attr", "3,3", "--vs", "attr=4 fists=2"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown key \"fists\""), "{err}");
}

#[test]
fn tries_and_extended_rolls_agree_with_their_exact_tables() {
    // The outcome (the try or period it is done at, 0 = never) of 200,000 seeded trials
    // against the exact table: chi-squared at alpha = 0.001, fixed seeds.
    use diemon::marks::tries::OverTime;
    let o = RuleOptions::default();
    let s = sheet(&[3, 3], &[1], 2, 0, 0);
    let cases = [
        OverTime::trying_again(&s, 3, 4, &o).unwrap(),
        OverTime::trying_again(&sheet(&[2, 2], &[], 1, 0, 1), 1, 3, &o).unwrap(),
        OverTime::extended(Pool::new(&s, &o).unwrap(), 9, 2, 6, &o),
        OverTime::extended(Pool::of(2, 1, 0, 0), 5, 1, 5, &opts(&["marks_ones=kept"])),
    ];
    for (i, q) in cases.iter().enumerate() {
        let run = crate::run_on(q, Stop::Trials(200_000), 60 + i as u64, 2);
        let table = q.exact(1e-13);
        let fit = chi_squared(&run.tally.marks, &table);
        assert!(
            fit.p_value > 0.001 && fit.impossible == 0,
            "case {i}: {fit:?}"
        );
        // Every outcome the table allows shows up, and the chance of never is in between.
        assert!(table.prob(0) > 0.0 && table.prob(0) < 1.0, "case {i}");
    }
    // The test can fail: a table with one try fewer is rejected.
    let run = crate::run_on(&cases[0], Stop::Trials(200_000), 5, 2);
    let wrong = OverTime::trying_again(&s, 3, 3, &o).unwrap().exact(1e-13);
    assert!(chi_squared(&run.tally.marks, &wrong).p_value < 1e-6);
}

#[test]
fn trying_again_never_hurts_and_a_harder_level_never_helps() {
    use diemon::marks::tries::trying_again;
    let o = RuleOptions::default();
    for a in 1..5 {
        let s = sheet(&[a, a], &[1], 2, 0, 0);
        for need in [1, 3, 5] {
            let within = |n: u32, k: u32| {
                trying_again(&s, k, n, &o, 1e-12)
                    .unwrap()
                    .iter()
                    .sum::<f64>()
            };
            assert!(within(3, need) >= within(2, need) - 1e-12);
            assert!(within(3, need + 2) <= within(3, need) + 1e-12);
        }
    }
}

#[test]
fn the_command_checks_tries_and_extended_rolls_by_monte_carlo() {
    let v: serde_json::Value = serde_json::from_str(&crate::ok(&[
        "marks",
        "--attr",
        "3,3",
        "--skill",
        "1",
        "--tries",
        "3",
        "--level",
        "competent",
        "--mc",
        "50000",
        "--seed",
        "3",
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["mc"]["question"], "tries");
    let exact = v["p_success_within_tries"].as_f64().unwrap();
    assert!((v["mc"]["p_exact"].as_f64().unwrap() - exact).abs() < 1e-12);
    let ci = v["ci_mc"].as_array().unwrap();
    assert!(
        ci[0].as_f64().unwrap() <= exact && exact <= ci[1].as_f64().unwrap(),
        "{v}"
    );
    assert_eq!(v["mc"]["agrees"], true);
    // The outcome table: never, then tries 1 to 3.
    assert_eq!(v["done_at_hist"].as_array().unwrap().len(), 4);
    let v: serde_json::Value = serde_json::from_str(&crate::ok(&[
        "marks",
        "--attr",
        "3,3",
        "--plateau",
        "6",
        "--periods",
        "2..5",
        "--mc",
        "20000",
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["mc"]["question"], "extended");
    assert_eq!(v["p_done_at_period"][0], 0.0, "not done before the minimum");
    // Same seed, same digits, on any thread count.
    let a = crate::ok(&[
        "marks",
        "--attr",
        "3,3",
        "--mc",
        "100000",
        "--threads",
        "1",
        "--json",
    ]);
    let b = crate::ok(&[
        "marks",
        "--attr",
        "3,3",
        "--mc",
        "100000",
        "--threads",
        "2",
        "--json",
    ]);
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
        v.as_object_mut()
            .unwrap()
            .retain(|k, _| k != "trials_per_sec" && k != "threads");
        v
    };
    assert_eq!(strip(&a), strip(&b));
    for (args, says) in [
        (
            &[
                "marks",
                "--attr",
                "3,3",
                "--plateau",
                "0",
                "--periods",
                "1..2",
            ][..],
            "--plateau 0",
        ),
        (
            &[
                "marks",
                "--attr",
                "3,3",
                "--tries",
                "2",
                "--plateau",
                "4",
                "--periods",
                "1..3",
                "--mc",
                "10",
            ][..],
            "one question",
        ),
        (
            &["marks", "--attr", "3,3", "--periods", "1..2"][..],
            "--plateau",
        ),
    ] {
        let (code, _, err) = diemon(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
