//! Throughput of a 6-vs-6 squad duel of minifigs with Hand Weapons, 12" apart (issue 5's
//! "1e6 trials in seconds"; see docs/performance.md), beside the hand-written loop of the
//! same battle (`baselines/squad_loop.rs`, issue 27: it wins exactly the engine's battles on
//! the same stream), so one run gives the ratio.
//!
//! Issue 48's other battles, the engine alone until their loops are written: 4 riflemen
//! against 6 Hand-Weapon minifigs 6" apart, and a Launcher team against a swarm at 84 CP
//! (6 `minifig-launcher` against 14 `minifig-hand-weapon`, 12" apart), both at the
//! defaults (sides abreast, 1.5" apart), on one thread and on two.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use diemon::catalog::Catalog;
use diemon::rules::RuleOptions;
use diemon::scenario::duel::First;
use diemon::scenario::squad::{Policy, SideSpec, Squad};
use diemon::sim::BATCH;
use diemon::sim::engine::{Engine, Stop};
use diemon::sim::progress::Silent;
use diemon::sim::seed::stream;

#[path = "baselines/squad_loop.rs"]
mod squad_loop;

/// Eight batches an iteration, four a thread on two: with two, one hiccup of the second
/// core decided the 2-thread figure.
const DUELS: u64 = 8 * BATCH;

/// Six minifigs with Hand Weapons on one spot (`spacing` 0): the battle the hand-written
/// loop plays, positions along the line being the plane's there (issue 40, item 4).
fn six(o: &RuleOptions) -> SideSpec {
    let units = [("minifig-hand-weapon".to_string(), 6)];
    let spot = Policy {
        spacing: diemon::scenario::squad::Spacing(0),
        ..Policy::default()
    };
    SideSpec::from_catalog(&Catalog::builtin(), &units, spot, o).expect("built-in units")
}

/// `n` of built-in unit `key` under the default policies.
fn units(key: &str, n: u32, o: &RuleOptions) -> SideSpec {
    let units = [(key.to_string(), n)];
    SideSpec::from_catalog(&Catalog::builtin(), &units, Policy::default(), o)
        .expect("built-in units")
}

/// Group `name`, ten samples of `trials` battles.
fn group<'a>(c: &'a mut Criterion, name: &str, trials: u64) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.throughput(Throughput::Elements(trials));
    g
}

/// `s`'s engine on one thread and on two, `trials` battles an iteration.
fn engine(g: &mut BenchmarkGroup<WallTime>, s: &Squad, trials: u64) {
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        g.bench_function(format!("engine_{threads}thread"), |b| {
            b.iter(|| {
                let e = Engine {
                    seed: 1,
                    cell: 0,
                    stop: Stop::Trials(trials),
                    shard: diemon::sim::engine::Shard::WHOLE,
                };
                pool.install(|| e.run(s, &Silent, &AtomicBool::new(false)))
            })
        });
    }
}

/// `a` against `b` (each a built-in unit and a count) under the default policies,
/// `distance` inches apart.
fn battle(a: (&str, u32), b: (&str, u32), distance: u32) -> Squad {
    let o = RuleOptions::default();
    let (a, b) = (units(a.0, a.1, &o), units(b.0, b.1, &o));
    Squad::new(a, b, distance, First::Random, 100, o).expect("a valid squad")
}

/// Issue 48's shooters against melee, and its Launcher team against a swarm.
fn others(c: &mut Criterion) {
    let rifles = battle(("minifig-rifle", 4), ("minifig-hand-weapon", 6), 6);
    let mut g = group(c, "rifles_4v6", 4 * BATCH);
    engine(&mut g, &rifles, 4 * BATCH);
    g.finish();
    let launchers = battle(("minifig-launcher", 6), ("minifig-hand-weapon", 14), 12);
    let mut g = group(c, "launcher_team_6v14", 2 * BATCH);
    engine(&mut g, &launchers, 2 * BATCH);
    g.finish();
}

fn bench(c: &mut Criterion) {
    let o = RuleOptions::default();
    let s = Squad::new(six(&o), six(&o), 12, First::Random, 100, o).expect("a valid squad");
    let mut g = group(c, "squad_6v6", DUELS);
    engine(&mut g, &s, DUELS);
    g.bench_function("hand_loop_1thread", |b| {
        let mut rng = stream(1, 0, 0);
        b.iter(|| black_box(squad_loop::battles(&mut rng, DUELS)))
    });
    g.finish();
}

criterion_group!(benches, bench, others);
criterion_main!(benches);
