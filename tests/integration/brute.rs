//! Brute force: enumerate every sequence of die faces the rules ask for, with its
//! probability, by re-running `Expr::roll` on scripted faces (an odometer over the decision
//! tree). Sequences less likely than `CUT` are closed by forcing a face of 2, which ends every
//! chain in BrikWars (never a 1, never a top face), and their mass is counted as cut.
//! This shares no code with the exact convolution/fixed-point maths.

use std::collections::BTreeMap;

use diemon::dice::{Die, Expr, Faces, NoLog};
use diemon::rules::RuleOptions;

const CUT: f64 = 1e-17;

struct Replay<'a> {
    prefix: &'a [(u32, u32)],
    pos: usize,
    fresh: Vec<(u32, u32)>,
    p: f64,
    forced: bool,
}

impl Faces for Replay<'_> {
    fn face(&mut self, die: Die) -> u32 {
        let n = die.sides();
        if let Some(&(f, sides)) = self.prefix.get(self.pos) {
            assert_eq!(sides, n, "replay diverged");
            self.pos += 1;
            self.p /= n as f64;
            return f;
        }
        if self.forced || self.p / (n as f64) < CUT {
            self.forced = true;
            return 2;
        }
        self.fresh.push((1, n));
        self.p /= n as f64;
        1
    }
}

pub struct Enumerated {
    pub pmf: BTreeMap<i64, f64>,
    pub p_crit: f64,
    pub p_over: f64,
    pub cut: f64,
}

pub fn enumerate(expr: &Expr, opts: &RuleOptions) -> Enumerated {
    let mut out = Enumerated {
        pmf: BTreeMap::new(),
        p_crit: 0.0,
        p_over: 0.0,
        cut: 0.0,
    };
    let mut prefix: Vec<(u32, u32)> = Vec::new();
    loop {
        let mut r = Replay {
            prefix: &prefix,
            pos: 0,
            fresh: Vec::new(),
            p: 1.0,
            forced: false,
        };
        let o = expr.roll(opts, &mut r, &mut NoLog);
        let (p, forced, fresh) = (r.p, r.forced, r.fresh);
        if forced {
            out.cut += p;
        } else {
            *out.pmf.entry(o.total).or_insert(0.0) += p;
            out.p_crit += p * o.critical_failure as u8 as f64;
            out.p_over += p * o.overskill as u8 as f64;
        }
        prefix.extend(fresh);
        // Advance the odometer.
        loop {
            match prefix.last_mut() {
                None => return out,
                Some((f, n)) if *f < *n => {
                    *f += 1;
                    break;
                }
                Some(_) => {
                    prefix.pop();
                }
            }
        }
    }
}

fn check(text: &str, assignments: &[&str]) {
    let mut opts = RuleOptions::default();
    for a in assignments {
        opts.assign(a).unwrap();
    }
    let expr = Expr::parse(text).unwrap();
    let exact = expr.exact(&opts, 1e-12);
    let brute = enumerate(&expr, &opts);
    let tol = 1e-9;
    assert!(brute.cut < 1e-10, "{text}: brute force cut {}", brute.cut);
    assert!(exact.truncated() <= 1e-12, "{text}: {}", exact.truncated());
    let t = exact.total();
    let lo = t.min_value().min(*brute.pmf.keys().next().unwrap());
    let hi = t.max_value().max(*brute.pmf.keys().last().unwrap());
    for v in lo..=hi {
        let b = brute.pmf.get(&v).copied().unwrap_or(0.0);
        assert!(
            (t.prob(v) - b).abs() <= tol,
            "{text} {assignments:?}: P({v}) exact {} brute {b}",
            t.prob(v)
        );
    }
    assert!(
        (exact.p_critical_failure() - brute.p_crit).abs() <= tol,
        "{text}: P(crit) {} vs {}",
        exact.p_critical_failure(),
        brute.p_crit
    );
    assert!(
        (exact.p_overskill() - brute.p_over).abs() <= tol,
        "{text}: P(overskill)"
    );
}

#[test]
fn regular_dice_and_bonus_chains() {
    check("1d6", &[]);
    check("2d6 - 1", &[]);
    check("1d10 exp + 1d4 fire", &[]);
    check("1d8 blast + 1d12 phased", &[]);
    check("1d6 - 1d6", &[]);
    check("2d6", &["bonus_chain=1"]);
    check("1d4 + 1d4 fire", &["d4_bonus=all"]);
}

#[test]
fn fire_critical_failure() {
    check("2d4 fire + 1", &[]);
}

#[test]
fn skill_rolls() {
    check("d6 skill", &[]);
    check("d10 skill - 2", &[]);
    check("d6 skill bless d12", &[]);
    check("d8 skill curse 2d8 + 1", &[]);
    check("d6 skill bless d8", &["blessing_die=action_die"]);
    check("d6 skill bless", &["blessed_natural=own_die"]);
    check("d4 skill", &["d4_bonus=incompetent"]);
    check("d4 skill bless d6", &["d4_bonus=incompetent"]);
}

// One test per expression: the SuperNatural brute forces are the slow ones, and split they
// run in parallel and name the expression that fails.

#[test]
fn sn_d6() {
    check("sn d6", &[]);
}

#[test]
fn sn_d8_plus_2() {
    check("sn d8 + 2", &[]);
}

#[test]
fn sn_d8_bonus_one_counts() {
    check("sn d8", &["sn_bonus_one=count"]);
}

#[test]
fn sn_d6_fumble_ignored() {
    check("sn d6", &["fumble=ignore"]);
}

#[test]
fn sn_d6_double_fumble_lost() {
    check("sn d6", &["double_fumble=lost"]);
}

#[test]
fn sn_d6_chain_of_two() {
    check("sn d6", &["bonus_chain=2"]);
}

#[test]
fn d6_plus_sn_d10() {
    check("1d6 + sn d10", &[]);
}

#[test]
fn skill_d6_plus_sn_d8() {
    check("d6 skill + sn d8", &[]);
}
