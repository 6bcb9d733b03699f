//! Throughput of the melee duel against its physical limits (see docs/performance.md):
//! the raw RNG, a hand-written loop, and the engine on 1 and all threads.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use diemon::dice::Die;
use diemon::rules::RuleOptions;
use diemon::scenario::duel::{Duel, Fighter, First};
use diemon::sim::engine::{Engine, Stop};
use diemon::sim::progress::Silent;
use diemon::sim::{BATCH, stream};
use rand::distr::Distribution;

#[path = "baselines/dice.rs"]
mod dice;
#[path = "baselines/hand_loop.rs"]
mod hand_loop;

/// Duels per measured iteration: whole batches, so every path does the same work.
const DUELS: u64 = 4 * BATCH;

/// A minifig with a Hand Weapon, as `diemon duel` defaults to.
fn minifig(name: &str) -> Fighter {
    Fighter::parse(name, "d6/2/1d6/4").expect("a valid shorthand")
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("raw_rng");
    g.sample_size(20);
    g.throughput(Throughput::Elements(1_000_000));
    g.bench_function("d6_faces_1thread", |b| {
        let mut rng = stream(1, 0, 0);
        b.iter(|| {
            let mut s = 0u32;
            for _ in 0..1_000_000 {
                s = s.wrapping_add(Die::D6.sample(&mut rng));
            }
            black_box(s)
        })
    });
    g.finish();

    let duel = Duel::new(
        minifig("A"),
        minifig("B"),
        First::Random,
        1000,
        RuleOptions::default(),
    );
    let mut g = c.benchmark_group("minifig_duel");
    g.sample_size(10);
    g.throughput(Throughput::Elements(DUELS));
    g.bench_function("hand_loop_1thread", |b| {
        let mut rng = stream(1, 0, 0);
        b.iter(|| black_box(hand_loop::duels(&mut rng, DUELS)))
    });
    for (name, threads) in [("engine_1thread", 1), ("engine_all_threads", 0)] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let engine = Engine {
            seed: 1,
            cell: 0,
            stop: Stop::Trials(DUELS),
            shard: diemon::sim::engine::Shard::WHOLE,
        };
        g.bench_function(name, |b| {
            b.iter(|| {
                pool.install(|| black_box(engine.run(&duel, &Silent, &AtomicBool::new(false))))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
