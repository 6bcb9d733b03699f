//! Success levels of a static roll and the outcome of a contested one (the Marks text,
//! "Types of Rolls").

use crate::dice::Pmf;
use crate::rules::{MarksTie, RuleOptions};

/// The success levels and the Marks each needs: "1 Mark: Basic ... 3 Marks: Competent ...
/// 5 Marks: Mastery ... 7 Marks: Super Human".
pub const LEVELS: [(&str, i64); 4] = [
    ("basic", 1),
    ("competent", 3),
    ("mastery", 5),
    ("super_human", 7),
];

/// P(exactly each level): `failure` (no Mark), then each level up to the next.
pub fn exactly(marks: &Pmf) -> Vec<(&'static str, f64)> {
    let mut v = vec![("failure", marks.p_at_most(0))];
    for (i, (name, need)) in LEVELS.iter().enumerate() {
        let next = LEVELS.get(i + 1).map(|l| l.1);
        let p = marks.p_at_least(*need) - next.map_or(0.0, |n| marks.p_at_least(n));
        // A difference of sums may round a hair below 0.
        v.push((name, p.max(0.0)));
    }
    v
}

/// A contested roll of `a` against `b`: (P(A wins), P(tie stands), P(B wins)), ties as
/// `marks_tie` says.
pub fn contest(a: &Pmf, b: &Pmf, opts: &RuleOptions) -> (f64, f64, f64) {
    let (win, tie) = (a.p_greater(b), a.p_equal(b));
    let lose = b.p_greater(a);
    match opts.marks_tie {
        MarksTie::Draw => (win, tie, lose),
        MarksTie::Defender => (win, 0.0, lose + tie),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_partition_the_marks() {
        let m = Pmf::from_pairs(&[(0, 0.2), (1, 0.2), (3, 0.3), (6, 0.2), (8, 0.1)], 0.0);
        let e = exactly(&m);
        let get = |n: &str| e.iter().find(|x| x.0 == n).unwrap().1;
        assert!((get("failure") - 0.2).abs() < 1e-12);
        assert!((get("basic") - 0.2).abs() < 1e-12);
        assert!((get("competent") - 0.3).abs() < 1e-12);
        assert!((get("mastery") - 0.2).abs() < 1e-12);
        assert!((get("super_human") - 0.1).abs() < 1e-12);
    }

    #[test]
    fn ties_go_as_the_option_says() {
        let a = Pmf::from_pairs(&[(1, 0.5), (2, 0.5)], 0.0);
        let b = Pmf::point(1);
        let mut o = RuleOptions::default();
        assert_eq!(contest(&a, &b, &o), (0.5, 0.5, 0.0));
        o.marks_tie = MarksTie::Defender;
        assert_eq!(contest(&a, &b, &o), (0.5, 0.0, 0.5));
    }
}
