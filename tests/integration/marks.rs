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
