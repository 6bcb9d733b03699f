//! Pinned seeded rolls. If one of these changes, every seeded result of diemon changes:
//! record it under "Value-breaking" in CHANGELOG.md and update the pins on purpose.

use diemon::dice::{Expr, NoLog};
use diemon::rules::RuleOptions;
use diemon::sim::stream;

fn rolls(text: &str, n: usize) -> Vec<i64> {
    let e = Expr::parse(text).unwrap();
    let o = RuleOptions::default();
    let mut rng = stream(42, 0, 0);
    (0..n)
        .map(|_| e.roll(&o, &mut rng, &mut NoLog).total)
        .collect()
}

#[test]
fn pinned_rolls() {
    assert_eq!(rolls("2d10 exp", 12), PINNED_EXP);
    assert_eq!(rolls("d6 skill bless d8 + sn d6", 12), PINNED_MIXED);
}

const PINNED_EXP: [i64; 12] = [11, 12, 2, 9, 27, 10, 10, 13, 12, 10, 10, 15];
const PINNED_MIXED: [i64; 12] = [9, 10, 10, 11, 8, 10, 10, 11, 12, 5, 8, 11];
