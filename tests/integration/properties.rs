//! Properties of the exact maths over random expressions.

use diemon::dice::{Expr, Pmf};
use diemon::rules::RuleOptions;
use proptest::prelude::*;

fn term() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u32..4, prop::sample::select(vec![4u32, 6, 8, 10, 12]))
            .prop_map(|(n, d)| format!("{n}d{d}")),
        Just("1d10 exp".to_string()),
        Just("1d4 fire".to_string()),
        Just("sn d6".to_string()),
        Just("sn d10".to_string()),
        (0i64..6).prop_map(|c| c.to_string()),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    (
        prop::collection::vec((any::<bool>(), term()), 1..4),
        prop::option::of(prop::sample::select(vec![
            "d6 skill",
            "d10 skill bless d12",
            "d8 skill curse",
        ])),
    )
        .prop_map(|(terms, skill)| {
            let mut s = skill.map(str::to_string).unwrap_or_default();
            for (neg, t) in terms {
                if s.is_empty() {
                    s = t;
                } else {
                    s = format!("{s} {} {t}", if neg { "-" } else { "+" });
                }
            }
            s
        })
}

fn options() -> impl Strategy<Value = RuleOptions> {
    (
        prop::sample::select(vec!["unlimited", "0", "1", "3"]),
        prop::sample::select(vec!["none", "incompetent", "all"]),
        prop::sample::select(vec!["subtract", "ignore"]),
        prop::sample::select(vec!["owner_rolls", "lost"]),
    )
        .prop_map(|(c, d4, f, df)| {
            let mut o = RuleOptions::default();
            o.set("bonus_chain", c).unwrap();
            o.set("d4_bonus", d4).unwrap();
            o.set("fumble", f).unwrap();
            o.set("double_fumble", df).unwrap();
            o
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn probabilities_sum_to_one(text in expr(), opts in options()) {
        let e = Expr::parse(&text).unwrap();
        let x = e.exact(&opts, 1e-12);
        let t = x.total();
        prop_assert!(t.iter().all(|(_, p)| p >= 0.0));
        prop_assert!(x.truncated() <= 1e-12 + 1e-15, "{}: truncated {}", text, x.truncated());
        prop_assert!((t.mass() + x.truncated() - 1.0).abs() < 1e-9, "{}: mass {}", text, t.mass());
        prop_assert!(x.p_critical_failure() >= 0.0 && x.p_critical_failure() <= 1.0);
    }

    #[test]
    fn adding_a_positive_term_never_lowers_p_beats(
        text in expr(),
        extra in prop_oneof![
            (1u32..3, prop::sample::select(vec![6u32, 8, 10])).prop_map(|(n, d)| format!("{n}d{d}")),
            (1i64..4).prop_map(|c| c.to_string()),
        ],
        armor in 0i64..12,
        opts in options(),
    ) {
        let base = Expr::parse(&text).unwrap();
        let more = Expr::parse(&format!("{text} + {extra}")).unwrap();
        let a = Pmf::point(armor);
        let p0 = base.exact(&opts, 1e-12).p_beats(&a);
        let p1 = more.exact(&opts, 1e-12).p_beats(&a);
        // Exact up to float rounding and the stated truncation on both sides.
        prop_assert!(p1 >= p0 - 1e-9, "{} vs {}: {} < {}", text, extra, p1, p0);
    }

    /// Ch. D.4: a Blessing keeps the higher roll, a Curse the lower; so under every
    /// option, against every Use, a Blessing never lowers and a Curse never raises the
    /// chance of success (the Overskill Benny and Critical Failure included).
    #[test]
    fn a_blessing_never_lowers_and_a_curse_never_raises_p_success(
        skill in prop::sample::select(vec![4u32, 6, 8, 10, 12]),
        up in 0u32..3,
        n in 1u32..3,
        use_rating in -2i64..14,
        opts in options(),
    ) {
        let carrier = [4u32, 6, 8, 10, 12].into_iter().filter(|&d| d >= skill).nth(up as usize).unwrap_or(skill);
        let p = |text: String| Expr::parse(&text).unwrap().exact(&opts, 1e-12).p_meets(use_rating, &opts, 1e-12);
        let plain = p(format!("d{skill} skill"));
        let blessed = p(format!("d{skill} skill bless {n}d{carrier}"));
        let cursed = p(format!("d{skill} skill curse {n}d{carrier}"));
        prop_assert!(blessed >= plain - 1e-9, "d{skill} bless {n}d{carrier} vs Use {use_rating}: {blessed} < {plain}");
        prop_assert!(cursed <= plain + 1e-9, "d{skill} curse {n}d{carrier} vs Use {use_rating}: {cursed} > {plain}");
    }

    #[test]
    fn parsing_never_panics(text in "\\PC{0,30}") {
        let _ = Expr::parse(&text);
    }

    #[test]
    fn parsing_near_misses_never_panics(text in "[0-9dsnkilpuexfrbca +\\-]{0,24}") {
        if let Err(e) = Expr::parse(&text) {
            prop_assert!(e.column >= 1 && e.column <= text.chars().count() + 1);
            let _ = e.render("<expression>", &text);
        }
    }
}

mod cost {
    use diemon::catalog::armory::ARMORY;
    use diemon::catalog::cost::breakdown;
    use diemon::catalog::unit::{Mind, Mount, UnitSpec, WeaponRef};
    use diemon::catalog::{Catalog, Cp};
    use proptest::prelude::*;

    fn spec(size: u32, mind: Mind, skill: &str, weapons: Vec<WeaponRef>) -> UnitSpec {
        let mut s = Catalog::builtin().get("minifig").unwrap().spec.clone();
        s.size = size;
        s.mind = mind;
        s.skill = skill.into();
        s.hands = 6;
        s.weapons = weapons;
        s
    }

    fn cp(s: &UnitSpec) -> Cp {
        breakdown(&s.resolve("x").unwrap()).total()
    }

    fn item() -> impl Strategy<Value = WeaponRef> {
        prop_oneof![
            prop::sample::select(
                ARMORY
                    .iter()
                    .filter(|i| i.cost.is_some())
                    .map(|i| i.key)
                    .collect::<Vec<_>>()
            )
            .prop_map(|k| WeaponRef::Item(k.into())),
            (
                prop::sample::select(vec!["melee-weapon", "gun", "launcher", "rocket"]),
                1u32..7
            )
                .prop_map(|(k, size)| {
                    // Legal for a 1" minifig (Ch. 8.1): a melee weapon up to 2x its Size, a
                    // gun or Launcher past 1.5x on a carriage.
                    let (size, mount) = match k {
                        "melee-weapon" => (size.min(2), Mount::Hand),
                        "gun" | "launcher" if size >= 2 => (size, Mount::Carriage),
                        _ => (size, Mount::Hand),
                    };
                    WeaponRef::Sized {
                        kind: k.into(),
                        size,
                        name: None,
                        mount,
                        variant: Default::default(),
                    }
                }),
        ]
    }

    proptest! {
        /// Ch. 10.1: a Skill Boost costs the Creature's Size again, so it never lowers cost.
        #[test]
        fn a_skill_boost_never_lowers_cost(size in 1u32..6, step in 0usize..3, half in any::<bool>()) {
            let dice = ["d6", "d8", "d10", "d12"];
            let mind = if half { Mind::Submissive } else { Mind::Full };
            let lo = cp(&spec(size, mind, dice[step], vec![]));
            let hi = cp(&spec(size, mind, dice[step + 1], vec![]));
            prop_assert!(hi > lo, "{} -> {}: {lo} !< {hi}", dice[step], dice[step + 1]);
        }

        /// Cost is additive over equipment: the unit with a list costs the bare unit plus
        /// each item's own price.
        #[test]
        fn cost_is_additive_over_equipment(items in prop::collection::vec(item(), 0..5)) {
            let bare = cp(&spec(1, Mind::Full, "d6", vec![]));
            let all = cp(&spec(1, Mind::Full, "d6", items.clone()));
            let parts: Cp = items
                .iter()
                .map(|w| cp(&spec(1, Mind::Full, "d6", vec![w.clone()])))
                .fold(bare, |acc, one| acc + one + bare * -1);
            prop_assert_eq!(all, parts);
        }
    }
}
